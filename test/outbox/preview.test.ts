import { describe, expect, it } from "vitest";
import { ruleMessage } from "../../src/api";
import { type FundFacts, previewOutbox } from "../../src/outbox/preview";
import { invalidRows, previewText } from "../../src/outbox/preview/words";
import type { WriteRecord } from "../../src/outbox/records";
import { type OutboxRow, readOutboxRow } from "../../src/outbox/rows";
import { confirmationKey } from "../../src/outbox/run";
import { formatUtc, userRow } from "./fakes";

const context = { format: formatUtc, now: new Date(Date.UTC(2026, 1, 2, 9, 0, 0)), adminId: 1 };
const facts: Record<number, FundFacts> = {
  1: { currency: "CLP", balance: 10000, flexible: false, status: 1 },
  2: { currency: "USD", balance: 500, flexible: true, status: 1 },
  3: { currency: "CLP", balance: 0, flexible: false, status: 2 },
};
const lookup = (id: number) => facts[id] ?? null;
const rows = (...values: ReturnType<typeof userRow>[]) => values.map((v, i) => readOutboxRow(v, i + 2));

describe("previewOutbox", () => {
  it("totals per operation and currency in integer cents", () => {
    const preview = previewOutbox(
      rows(
        userRow("Deposit", 1, { amount: 0.1 }),
        userRow("Deposit", 1, { amount: 0.2 }),
        userRow("Deposit", 2, { amount: 3 }),
        userRow("Withdraw", 2, { amount: 1.5 }),
        userRow("Create fund", "", { employeeId: 4, fundName: "Caja", currency: "CLP", amount: 100 }),
        userRow("Mark integrated", 77, { integrationCode: "V1" }),
      ),
      lookup,
      context,
    );
    expect(preview.totals).toEqual([
      { operation: "deposit", currency: "CLP", amount: 30, count: 2 },
      { operation: "deposit", currency: "USD", amount: 300, count: 1 },
      { operation: "withdraw", currency: "USD", amount: 150, count: 1 },
      { operation: "createFund", currency: "CLP", amount: 10000, count: 1 },
      { operation: "markIntegrated", currency: null, amount: 0, count: 1 },
    ]);
    expect(preview.toSend.map((r) => r.rowNumber)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(preview.warnings).toEqual([{ kind: "duplicate", rowNumber: 3, otherRow: 2 }]);
  });

  it("warns of a withdrawal above the balance of a fund that is not flexible, counting earlier rows", () => {
    const preview = previewOutbox(
      rows(
        userRow("Withdraw", 1, { amount: 60 }),
        userRow("Deposit", 1, { amount: 10 }),
        userRow("Withdraw", 1, { amount: 60 }),
        userRow("Withdraw", 2, { amount: 999 }),
      ),
      lookup,
      context,
    );
    expect(preview.warnings.filter((w) => w.kind === "overBalance")).toEqual([
      { kind: "overBalance", rowNumber: 4, fundId: 1, amount: 6000, balance: 5000, currency: "CLP" },
    ]);
  });

  it("warns of closed and unknown funds, and lists invalid rows with their messages", () => {
    const preview = previewOutbox(
      rows(
        userRow("Deposit", 3, { amount: 1 }),
        userRow("Deposit", 99, { amount: 1 }),
        userRow("Deposit", 1, { amount: "1,5" }),
      ),
      lookup,
      context,
    );
    expect(preview.warnings).toEqual([
      { kind: "closedFund", rowNumber: 2, fundId: 3, status: 2 },
      { kind: "unknownFund", rowNumber: 3, fundId: 99 },
    ]);
    expect(preview.invalid).toEqual([
      { rowNumber: 4, problems: [{ field: "DepositAmount", rule: "amountComma", params: { got: "1,5" } }] },
    ]);
    expect(invalidRows("en", preview)).toEqual([
      {
        rowNumber: 4,
        problems: [
          {
            field: "DepositAmount",
            message: ruleMessage("amountComma", "Amount", { got: "1,5" }),
          },
        ],
      },
    ]);
    const text = previewText("en", preview);
    expect(text).toContain("Row 2: fund 3 is closed.");
    expect(text).toContain("• Row 4: Amount contains a comma");
  });

  it("says that a fund was not found where its currency would be, in English and Spanish, never a bare ?", () => {
    const now = context.now.getTime();
    const records: WriteRecord[] = [
      {
        key: "k",
        state: "unknown",
        source: "outbox",
        operation: "withdraw",
        request: { operation: "withdraw", fundId: 98, amount: 500 },
        fundId: 98,
        cells: { operation: "withdraw", targetId: "98", amount: "5" },
        sentAt: now - 10 * 60_000,
      },
    ];
    const preview = previewOutbox(
      rows(
        userRow("Deposit", 99, { amount: 50 }),
        userRow("Withdraw", 98, { amount: 5, state: "Unknown", operationKey: "k" }),
      ),
      lookup,
      context,
      records,
    );
    const en = previewText("en", preview);
    expect(en).toContain("• Row 2: Deposit of 50.00 to fund 99 (fund not found)\n");
    expect(en).toContain("• Row 3, interrupted: Withdrawal of 5.00 from fund 98 (fund not found). Checked");
    expect(en).toContain("• Deposit (fund not found): 50.00 (1 row)");
    expect(en).toContain("• Withdrawal (fund not found): 5.00 (1 row)");
    expect(en).toContain("• Row 2: fund 99 was not found.");
    const es = previewText("es", preview);
    expect(es).toContain("• Fila 2: Depósito de 50,00 al fondo 99 (fondo no encontrado)\n");
    expect(es).toContain("• Depósito (fondo no encontrado): 50,00 (1 fila)");
    expect(es).toContain("• Fila 2: no se encontró el fondo 99.");
    expect(`${en}${es}`).not.toContain("?");
  });

  it("lists an invalid row as its warnings do, by the sheet's row number, naming the column", () => {
    const preview = previewOutbox(
      rows(userRow("Deposit", 3, { amount: 1 }), userRow("Depósito", 1, { amount: "-2" })),
      lookup,
      context,
    );
    const text = previewText("es", preview);
    expect(text).toContain("• Fila 2: el fondo 3 está cerrado.");
    expect(text).toContain('• Fila 3: Monto debe ser mayor que cero (se recibió "-2").');
  });

  it("warns of a blocked fund, as the Fund sidebar does, but not when the row changes its status", () => {
    const blocked = (id: number) =>
      id === 4 ? ({ currency: "CLP", balance: 100, flexible: true, status: 3 } as const) : lookup(id);
    const preview = previewOutbox(
      rows(userRow("Deposit", 4, { amount: 1 }), userRow("Status change", 4, { fundStatus: "Open" })),
      blocked,
      context,
    );
    expect(preview.warnings).toEqual([{ kind: "blockedFund", rowNumber: 2, fundId: 4, status: 3 }]);
    expect(previewText("en", preview)).toContain("Row 2: fund 4 is blocked.");
    expect(previewText("es", preview)).toContain("Fila 2: el fondo 4 está bloqueado.");
  });

  it("warns of a fund in a status the contract does not list (0, 4) as not open, naming the status", () => {
    const other = (id: number) =>
      id === 4 || id === 5
        ? { currency: "CLP", balance: 100, flexible: true, status: id === 4 ? 4 : 0 }
        : lookup(id);
    const preview = previewOutbox(
      rows(userRow("Deposit", 4, { amount: 1 }), userRow("Withdrawal", 5, { amount: 1 })),
      other,
      context,
    );
    expect(preview.warnings.map((w) => w.kind)).toEqual(["notOpenFund", "notOpenFund"]);
    expect(Object.values(preview.statuses)).toEqual([4, 0]);
    expect(previewText("en", preview)).toContain("Row 2: fund 4 has status 4, which is not open.");
    expect(previewText("en", preview)).toContain("Row 3: fund 5 has status 0, which is not open.");
    expect(previewText("es", preview)).toContain("Fila 2: el fondo 4 tiene el estado 4, que no es abierto.");
  });

  it("skips Done rows and unedited Refused rows; an edited Refused row is pending again (records decide, not cells)", () => {
    const now = context.now.getTime();
    const cells = (amount: string) => ({ operation: "deposit", targetId: "1", amount });
    const records: WriteRecord[] = [
      {
        key: "k",
        state: "refused",
        source: "outbox",
        operation: "deposit",
        cells: cells("5"),
        finishedAt: now,
      },
      {
        key: "k2",
        state: "refused",
        source: "outbox",
        operation: "deposit",
        cells: cells("5"),
        finishedAt: now,
      },
      {
        key: "k3",
        state: "unknown",
        source: "outbox",
        operation: "deposit",
        request: { operation: "deposit", fundId: 1, amount: 500 },
        fundId: 1,
        cells: cells("5"),
        sentAt: now - 10 * 60_000,
      },
    ];
    const preview = previewOutbox(
      rows(
        userRow("Deposit", 1, { amount: 5, state: "Done" }),
        userRow("Deposit", 1, { amount: 5, state: "Refused", operationKey: "k" }),
        userRow("Deposit", 1, { amount: 6, state: "Refused", operationKey: "k2" }),
        userRow("Deposit", 1, { amount: 5, state: "Unknown", operationKey: "k3" }),
      ),
      lookup,
      context,
      records,
    );
    expect(preview.toSend.map((r) => r.rowNumber)).toEqual([4]);
    expect(preview.toSettle).toEqual([
      { rowNumber: 5, request: records[2]?.request, waitingUntil: null, changes: null },
    ]);
    const text = previewText("es", preview);
    expect(text).toContain("1 fila de una ejecución interrumpida");
    // The confirmation names every amount that may move, the interrupted row included.
    expect(text).toContain("• Fila 4: Depósito de CLP 6 al fondo 1");
    expect(text).toContain("• Fila 5, interrumpida: Depósito de CLP 5 al fondo 1.");
  });

  it("an interrupted deposit is confirmed with its fund's status: named when not open, checked again before a resend", () => {
    const now = context.now.getTime();
    const interrupted = (key: string, fundId: number): WriteRecord => ({
      key,
      state: "unknown",
      source: "outbox",
      operation: "deposit",
      request: { operation: "deposit", fundId, amount: 500 },
      fundId,
      cells: { operation: "deposit", targetId: String(fundId), amount: "5" },
      sentAt: now - 10 * 60_000,
    });
    const outbox = rows(
      userRow("Deposit", 3, { amount: 5, state: "Unknown", operationKey: "k3" }),
      userRow("Deposit", 1, { amount: 5, state: "Unknown", operationKey: "k1" }),
    );
    const preview = previewOutbox(outbox, lookup, context, [interrupted("k3", 3), interrupted("k1", 1)]);
    expect(preview.toSettle.map((s) => s.rowNumber)).toEqual([2, 3]);
    // The run sends a resend only to a fund whose status is the one confirmed (or open).
    expect(preview.statuses).toEqual({
      [confirmationKey(outbox[0] as OutboxRow)]: 2,
      [confirmationKey(outbox[1] as OutboxRow)]: 1,
    });
    expect(preview.warnings).toEqual([{ kind: "closedFund", rowNumber: 2, fundId: 3, status: 2 }]);
    expect(previewText("en", preview)).toContain("Row 2: fund 3 is closed");
  });

  it("lists at most a few warnings and invalid rows by name, and counts the rest", () => {
    const many = Array.from({ length: 20 }, () => userRow("Deposit", 1, { amount: "1,5" }));
    const text = previewText("en", previewOutbox(rows(...many), lookup, context));
    expect(text.split("\n").filter((l) => l.startsWith("• "))).toHaveLength(15);
    expect(text).toContain("…and 5 more.");
  });

  it("says when there is nothing to send", () => {
    expect(previewText("en", previewOutbox([], lookup, context))).toBe("No pending rows in the Outbox.");
  });
});

describe("a row too long to be recorded", () => {
  it("is listed by the preview as not to be sent, naming the cell and the limit, and never confirmed", () => {
    const preview = previewOutbox(
      rows(
        userRow("Create fund", "", {
          employeeId: 9,
          fundName: "x".repeat(10_000),
          currency: "CLP",
          amount: 1,
        }),
        userRow("Deposit", 1, { amount: 5 }),
      ),
      lookup,
      context,
    );
    expect(preview.toSend.map((r) => r.rowNumber)).toEqual([3]);
    expect(preview.confirmed).toHaveLength(1);
    expect(previewText("en", preview)).toContain(
      "Row 2: Fund name holds 10,000 characters, more than the add-on's record of a row can keep (9 KB in all)",
    );
  });
});
