/**
 * A money write answered with HTTP 200 is done only when the answer shows exactly the movement
 * sent (one more movement of that type and amount than the mark taken before sending, the
 * totals grown by the amount), or the new fund with the employee, name, code, currency and
 * amount sent. Any other answer is Unknown, settled by reading the fund (or the newest funds)
 * once the window has passed, never sent again: the ledger keeps one movement.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { createOutbox, flexibleFund, type SandboxFund, writeBackPerFile } from "./harness";

const wb = writeBackPerFile({ reset: true });
let fund: SandboxFund;

beforeEach(async () => {
  fund = await flexibleFund(wb);
  createOutbox(wb);
});

const movements = async (type: 1 | 2, cents: number) =>
  (await wb.fund(fund.id)).transactions.filter((t) => t.type === type && t.amountCents === cents).length;
const run = () => expect(wb.menu("runOutbox", ["YES", "OK"])).toMatchObject({ ok: true });
const endpointOutcomes = (endpoint: string) => {
  const audit = wb.sheetValues("Audit");
  const header = audit[0] as string[];
  const at = (name: string) => header.indexOf(name);
  return audit.filter((r) => r[at("Endpoint")] === endpoint).map((r) => [r[at("Method")], r[at("Outcome")]]);
};

describe("a money answer that does not show the movement sent", () => {
  for (const [operation, endpoint, type] of [
    ["Deposit", "depositMoneyToFund", 1],
    ["Withdrawal", "withdrawMoneyFromFund", 2],
  ] as const) {
    it(`${operation}: a wrong movement in the answer is Unknown, then settled by reading; one movement`, async () => {
      wb.typeOutbox([{ operation, targetId: fund.id, amount: "12.34" }]);
      await wb.faults([{ endpoint, fault: "wrong-movement", times: 1 }]);
      run();
      expect(await movements(type, 1_234)).toBe(1);
      const [row] = wb.outbox();
      expect(row?.state).toBe("Unknown");
      expect(String(row?.result)).toContain("does not show");
      wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
      run();
      expect(wb.outbox()[0]?.state).toBe("Done");
      expect(String(wb.outbox()[0]?.result)).toContain("appeared on fund");
      expect(await movements(type, 1_234)).toBe(1);
      expect(endpointOutcomes(endpoint)).toEqual([
        ["POST", "unknown"],
        ["-", "ok"],
      ]);
    });
  }

  it("Create fund: an answer with another amount is Unknown, then the fund is found; one fund", async () => {
    const employee = (await wb.state()).users.find((u) => u.Roles.includes("employee"));
    wb.typeOutbox([
      {
        operation: "Create fund",
        employeeId: employee?.Id,
        fundName: "Caja Arica",
        currency: "CLP",
        amount: "5000",
      },
    ]);
    await wb.faults([{ endpoint: "createFund", fault: "wrong-movement", times: 1 }]);
    run();
    const created = async () => (await wb.state()).funds.filter((f) => f.title === "Caja Arica");
    expect((await created()).map((f) => f.balanceCents)).toEqual([500_000]);
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    run();
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect((await created()).length).toBe(1);
  });
});

describe("the Fund sidebar believes a money answer no more than the Outbox", () => {
  it("a deposit answered with a wrong movement is unknown, never re-sent, and settled when the fund is opened", async () => {
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "wrong-movement", times: 1 }]);
    const form = (id: string) => ({ requestId: id, fields: { Id: fund.id, DepositAmount: "43.21" } });
    const first = wb.sidebar("depositToFund", form("wrong-answer-0001")) as { kind: string; message: string };
    expect(first.kind).toBe("unknown");
    expect(await movements(1, 4_321)).toBe(1);
    const second = wb.sidebar("depositToFund", form("wrong-answer-0002")) as { kind: string };
    expect(second.kind).toBe("refused");
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    const view = wb.sidebar("getFundSidebarView", { fundId: fund.id }) as { notice: string };
    expect(view.notice).toBe(
      `The earlier request (Deposit of ${fund.currency} 43.21 to fund ${fund.id}) that got no answer had been applied.`,
    );
    expect(await movements(1, 4_321)).toBe(1);
  });
});
