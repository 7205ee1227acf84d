/**
 * The Operation cell's labels: nouns in both languages, and the verbs earlier versions put in
 * the dropdown still read as the same operation, so existing Outbox sheets keep working.
 */
import { describe, expect, it } from "vitest";
import { LANGUAGES, type StringKey, translate } from "../../src/i18n";
import { OUTBOX_OPERATIONS, parseOperation } from "../../src/outbox/operations";
import { fundStatusLabel, operationLabel } from "../../src/outbox/operations/words";
import { OPERATION_LABELS_EN, OPERATION_LABELS_ES } from "../support/operation-labels";

describe("operation labels", () => {
  it("names each operation by a noun, in English and in Spanish", () => {
    expect(OUTBOX_OPERATIONS.map((op) => operationLabel("en", op))).toEqual(OPERATION_LABELS_EN);
    expect(OUTBOX_OPERATIONS.map((op) => operationLabel("es", op))).toEqual(OPERATION_LABELS_ES);
  });

  it("reads the labels of both languages, whatever their case, accents and spacing", () => {
    for (const op of OUTBOX_OPERATIONS) {
      for (const language of LANGUAGES) expect(parseOperation(operationLabel(language, op))).toBe(op);
    }
    expect(parseOperation("  deposito ")).toBe("deposit");
    expect(parseOperation("RETIRO")).toBe("withdraw");
    expect(parseOperation("fund  CREATION")).toBe("createFund");
    expect(parseOperation("withdraw")).toBe("withdraw");
  });

  it("still reads the verbs earlier versions offered, in both languages, as the same operation", () => {
    const former: Record<string, string> = {
      "Create fund": "createFund",
      "Update fund": "updateFund",
      Withdraw: "withdraw",
      "Set fund status": "setFundStatus",
      "Mark integrated": "markIntegrated",
      "Mark not integrated": "markNotIntegrated",
      "Set custom status": "setCustomStatus",
      "Crear fondo": "createFund",
      "Actualizar fondo": "updateFund",
      Depositar: "deposit",
      Retirar: "withdraw",
      "Cambiar estado del fondo": "setFundStatus",
      "Marcar integrado": "markIntegrated",
      "Marcar no integrado": "markNotIntegrated",
      "Estado personalizado": "setCustomStatus",
    };
    for (const [label, op] of Object.entries(former)) expect(parseOperation(label), label).toBe(op);
    expect(parseOperation("Transfer")).toBeNull();
  });

  it("never reads one text as two operations (labels, former labels and names of both languages)", () => {
    const owner = new Map<string, string>();
    const normal = (text: string) =>
      text
        .trim()
        .toLowerCase()
        .normalize("NFD")
        .replace(/[\u0300-\u036f]/g, "");
    for (const op of OUTBOX_OPERATIONS) {
      for (const language of LANGUAGES) {
        const texts = [
          operationLabel(language, op),
          translate(language, `outbox.formerOp.${op}` as StringKey),
          op,
        ];
        for (const text of texts) {
          const seen = owner.get(normal(text));
          expect(seen === undefined || seen === op, `${text}: ${seen} and ${op}`).toBe(true);
          owner.set(normal(text), op);
        }
      }
    }
  });
});

describe("fund status labels", () => {
  it("name the contract's statuses in each language, and another status by its number", () => {
    expect([1, 2, 3, 4, 0].map((s) => fundStatusLabel("en", s))).toEqual([
      "Open",
      "Closed",
      "Blocked",
      "4",
      "0",
    ]);
    expect([1, 4].map((s) => fundStatusLabel("es", s))).toEqual(["Abierto", "4"]);
  });
});
