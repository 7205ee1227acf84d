import { describe, expect, it } from "vitest";
import { ruleMessage } from "../../src/api";
import type { Language } from "../../src/i18n";
import { translate } from "../../src/i18n";
import { headerKey } from "../../src/outbox/columns";
import { OUTBOX_OPERATIONS } from "../../src/outbox/operations";
import { operationLabel } from "../../src/outbox/operations/words";
import {
  problemsText,
  REQUEST_COLUMNS,
  type RowContext,
  readOutboxRow,
  requestFromRow,
  serviceInputOfRow,
} from "../../src/outbox/rows";
import { fieldLabel, requestProblemSaid, requestProblemsText } from "../../src/outbox/rows/words";
import { formatUtc, userRow } from "./fakes";

const context: RowContext = { format: formatUtc, now: new Date(Date.UTC(2026, 1, 2, 9, 30, 0)), adminId: 1 };
const build = (row: ReturnType<typeof userRow>) => requestFromRow(readOutboxRow(row, 2), context);

describe("requestFromRow: each operation from its cells", () => {
  it("deposit and withdraw, labels in English or Spanish", () => {
    expect(build(userRow("Deposit", 5, { amount: 1500.25 }))).toEqual({
      ok: true,
      request: { operation: "deposit", fundId: 5, amount: 150025 },
    });
    expect(build(userRow("retirar", "5", { amount: "20" }))).toEqual({
      ok: true,
      request: { operation: "withdraw", fundId: 5, amount: 2000 },
    });
  });

  it("createFund with its options", () => {
    expect(
      build(
        userRow("Crear fondo", "", {
          employeeId: 7,
          fundName: "Caja chica",
          currency: "clp",
          amount: 50000,
          fundCode: "00123",
          flexible: "Sí",
          autoBlock: false,
          expirationDate: new Date(Date.UTC(2026, 11, 31)),
        }),
      ),
    ).toEqual({
      ok: true,
      request: {
        operation: "createFund",
        employeeId: 7,
        name: "Caja chica",
        currency: "CLP",
        amount: 5000000,
        code: "00123",
        flexible: true,
        autoBlock: false,
        expirationDate: "2026-12-31",
      },
    });
  });

  it("updateFund leaves blank options out", () => {
    expect(build(userRow("Update fund", 9, { fundName: "Viajes" }))).toEqual({
      ok: true,
      request: { operation: "updateFund", fundId: 9, name: "Viajes" },
    });
  });

  it("setFundStatus by label or number", () => {
    expect(build(userRow("Set fund status", 9, { fundStatus: "Bloqueado" }))).toEqual({
      ok: true,
      request: { operation: "setFundStatus", fundId: 9, status: 3 },
    });
    expect(build(userRow("setFundStatus", 9, { fundStatus: 2 }))).toEqual({
      ok: true,
      request: { operation: "setFundStatus", fundId: 9, status: 2 },
    });
  });

  it("markIntegrated defaults its date to now; not integrated and custom status", () => {
    expect(build(userRow("Mark integrated", 31, { integrationCode: "V-1" }))).toEqual({
      ok: true,
      request: { operation: "markIntegrated", reportId: 31, code: "V-1", date: "2026-02-02 09:30:00" },
    });
    expect(build(userRow("Marcar no integrado", 31))).toEqual({
      ok: true,
      request: { operation: "markNotIntegrated", reportId: 31 },
    });
    expect(
      build(userRow("Set custom status", 31, { customStatus: "Paid", customMessage: "Paid on Friday" })),
    ).toEqual({
      ok: true,
      request: { operation: "setCustomStatus", reportId: 31, status: "Paid", message: "Paid on Friday" },
    });
  });
});

describe("requestFromRow: every problem, with the contract's rules naming the Outbox column", () => {
  const problems = (
    row: ReturnType<typeof userRow>,
    { language = "en", ...options }: Partial<RowContext> & { language?: Language } = {},
  ) => {
    const built = requestFromRow(readOutboxRow(row, 2), { ...context, ...options });
    return built.ok ? [] : built.problems.map((p) => requestProblemSaid(language, p).message);
  };
  const say = ruleMessage;

  it("unknown or missing operation", () => {
    expect(problems(userRow("Transfer", 5))).toEqual(['Operation "Transfer" is not in the list.']);
    expect(problems(userRow("", 5, { amount: 3 }))).toEqual([
      "Operation is required: pick one from the list.",
    ]);
    expect(problems(userRow("", 5), { language: "es" })).toEqual([
      "Operación es obligatoria: elija una de la lista.",
    ]);
  });

  it("a row's problems read as one text of sentences, without a stray semicolon after each period", () => {
    const built = requestFromRow(readOutboxRow(userRow("Deposit", "abc", { amount: "1,5" }), 2), context);
    expect(built.ok).toBe(false);
    const said = built.ok ? [] : built.problems.map((p) => requestProblemSaid("en", p));
    const text = built.ok ? "" : requestProblemsText("en", built.problems);
    expect(text).toBe(problemsText(said));
    expect(text).toBe(said.map((p) => p.message).join(" "));
    expect(text).toMatch(/^Target Id must be a whole number \(got "abc"\)\. Amount contains a comma/);
    expect(text).not.toContain(".;");
  });

  it("missing fields of each operation", () => {
    expect(problems(userRow("Deposit", ""))).toEqual([
      say("required", "Target Id", {}),
      say("required", "Amount", {}),
    ]);
    expect(problems(userRow("Create fund", ""))).toEqual([
      say("required", "Employee Id", {}),
      say("required", "Fund name", {}),
      say("required", "Currency", {}),
      say("required", "Amount", {}),
    ]);
    expect(problems(userRow("Mark integrated", 3))).toEqual([say("required", "Voucher code", {})]);
    expect(problems(userRow("Set custom status", 3))).toEqual([say("required", "Custom status", {})]);
    expect(problems(userRow("Set fund status", 3, { fundStatus: "Gone" }))).toEqual([
      say("oneOf", "Fund status", { values: "1, 2, 3", got: "Gone" }),
    ]);
    expect(problems(userRow("Deposit", 3, { amount: 1 }), { adminId: null })).toEqual([
      say("required", "IdAdmin", {}),
    ]);
  });

  it("the contract's limits, in the user's language", () => {
    expect(problems(userRow("Withdraw", 5, { amount: "10,50" }))).toEqual([
      say("amountComma", "Amount", { got: "10,50" }),
    ]);
    expect(problems(userRow("Withdraw", 5, { amount: "10,50" }), { language: "es" })).toEqual([
      'Monto contiene una coma: escriba los montos con punto decimal y sin separador de miles, p. ej. 1234.50 (se recibió "10,50").',
    ]);
    expect(problems(userRow("Deposit", 5, { amount: 10.005 }))).toEqual([
      say("amountDecimals", "Amount", { got: "10.005" }),
    ]);
    expect(problems(userRow("Deposit", 5, { amount: -3 }))).toEqual([
      say("amountPositive", "Amount", { got: "-3" }),
    ]);
    expect(
      problems(userRow("Update fund", 5, { fundName: "x".repeat(201), fundCode: "c".repeat(51) })),
    ).toEqual([
      say("maxLength", "Fund name", { max: 200, length: 201 }),
      say("maxLength", "Fund code", { max: 50, length: 51 }),
    ]);
    expect(
      problems(
        userRow("Set custom status", 5, { customStatus: "s".repeat(21), customMessage: "m".repeat(256) }),
      ),
    ).toEqual([
      say("maxLength", "Custom status", { max: 20, length: 21 }),
      say("maxLength", "Custom message", { max: 255, length: 256 }),
    ]);
    expect(
      problems(
        userRow("Create fund", "", {
          employeeId: 7,
          fundName: "A",
          currency: "PESO",
          amount: 1,
          fundComment: "c".repeat(256),
        }),
      ),
    ).toEqual([
      say("currency", "Currency", { got: "PESO" }),
      say("maxLength", "Fund comment", { max: 255, length: 256 }),
    ]);
    expect(
      problems(userRow("Mark integrated", 5, { integrationCode: "V", integrationDate: "yesterday" })),
    ).toEqual([say("datetime", "Integration date", { got: "yesterday" })]);
    expect(problems(userRow("Deposit", "abc", { amount: 1 }))).toEqual([
      say("integer", "Target Id", { got: "abc" }),
    ]);
  });

  it("names each field by the Outbox column it was typed into, in the document's language", () => {
    expect(problems(userRow("Retiro", "", { amount: 1.234 }), { language: "es" })).toEqual([
      "Id destino es obligatorio.",
      'Monto debe tener como máximo dos decimales (se recibió "1.234").',
    ]);
    expect(problems(userRow("Crear fondo", "", { currency: "PESO" }), { language: "es" })).toEqual([
      "Id empleado es obligatorio.",
      "Nombre del fondo es obligatorio.",
      'Moneda debe ser un código de moneda de 3 letras, como CLP o USD (se recibió "PESO").',
      "Monto es obligatorio.",
    ]);
    expect(problems(userRow("Marca de integración", 5), { language: "es" })).toEqual([
      "Código de comprobante es obligatorio.",
    ]);
    expect(problems(userRow("Set custom status", 5, { customStatus: "s".repeat(21) }))).toEqual([
      "Custom status must be at most 20 characters long (got 21).",
    ]);
  });
});

describe("fieldLabel: the Outbox's name for each service field", () => {
  it("every field a row fills is named by a column its operation reads", () => {
    const row = (operation: (typeof OUTBOX_OPERATIONS)[number]) =>
      readOutboxRow(userRow(operationLabel("en", operation), 5), 2);
    for (const operation of OUTBOX_OPERATIONS) {
      const headers = REQUEST_COLUMNS[operation].map((column) => translate("es", headerKey(column)));
      for (const field of Object.keys(serviceInputOfRow(row(operation), context))) {
        expect(headers, `${operation}: ${field}`).toContain(fieldLabel("es", field));
      }
    }
  });

  it("a field no row holds (IdAdmin, from the settings) keeps its own name", () => {
    expect(fieldLabel("en", "IdAdmin")).toBe("IdAdmin");
    expect(fieldLabel("en", "WithdrawAmount")).toBe("Amount");
  });
});
