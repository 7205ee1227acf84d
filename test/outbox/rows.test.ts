import { describe, expect, it } from "vitest";
import { readOutboxRow, requestFromRow } from "../../src/outbox/rows";
import { formatUtc, userRow } from "./fakes";

const context = { format: formatUtc, now: new Date(Date.UTC(2026, 1, 2, 9, 30, 0)) };
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

describe("requestFromRow: every problem, named by field and rule", () => {
  const problems = (row: ReturnType<typeof userRow>) => {
    const built = build(row);
    return built.ok ? [] : built.problems.map((p) => p.message);
  };

  it("unknown or missing operation", () => {
    expect(problems(userRow("Transfer", 5))).toEqual([
      'Operation: "Transfer" is not an operation of the list',
    ]);
    expect(problems(userRow("", 5, { amount: 3 }))).toEqual(["Operation: required"]);
  });

  it("missing fields of each operation", () => {
    expect(problems(userRow("Deposit", ""))).toEqual(["Id: required", "DepositAmount: required"]);
    expect(problems(userRow("Create fund", ""))).toEqual([
      "IdEmployee: required",
      "FundName: required",
      "FundCurrency: required",
      "FundAmount: required",
    ]);
    expect(problems(userRow("Mark integrated", 3))).toEqual(["IntegrationCode: required"]);
    expect(problems(userRow("Set custom status", 3))).toEqual(["CustomStatus: required"]);
    expect(problems(userRow("Set fund status", 3, { fundStatus: "Gone" }))).toEqual([
      "FundStatus: must be Open, Blocked or Closed (1, 3 or 2)",
    ]);
  });

  it("the contract's limits", () => {
    expect(problems(userRow("Withdraw", 5, { amount: "10,50" }))).toEqual([
      "WithdrawAmount: use a dot as the decimal separator, not a comma (e.g. 1234.50)",
    ]);
    expect(
      problems(userRow("Update fund", 5, { fundName: "x".repeat(201), fundCode: "c".repeat(51) })),
    ).toEqual(["FundName: at most 200 characters (has 201)", "FundCode: at most 50 characters (has 51)"]);
    expect(
      problems(
        userRow("Set custom status", 5, { customStatus: "s".repeat(21), customMessage: "m".repeat(256) }),
      ),
    ).toEqual([
      "CustomStatus: at most 20 characters (has 21)",
      "CustomMessage: at most 255 characters (has 256)",
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
      "FundCurrency: must be a 3-letter ISO 4217 code",
      "FundComment: at most 255 characters (has 256)",
    ]);
    expect(
      problems(userRow("Mark integrated", 5, { integrationCode: "V", integrationDate: "yesterday" })),
    ).toEqual(["IntegrationDate: must be a date and time YYYY-MM-DD HH:MM:SS"]);
  });
});
