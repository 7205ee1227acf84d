/**
 * Settling an interrupted deposit or withdrawal by reading the fund again: the count of its
 * movements decides, unless the fund's answer cannot carry that count (its list of movements
 * null, absent or cut short while its totals moved by the amount).
 */
import { describe, expect, it } from "vitest";
import type { WriteRequest } from "../../src/outbox/requests";
import { type FundState, markFund, type Snapshot } from "../../src/outbox/snapshot";
import { settleInterruptedWrite, type WriteContext } from "../../src/outbox/write";

const deposit: WriteRequest = { operation: "deposit", fundId: 7, amount: 5_000 };

function fund(deposits: number, movements: number[]): FundState {
  return {
    id: 7,
    title: "Caja chica",
    code: "",
    currency: "CLP",
    employeeId: 1,
    status: 1,
    flexible: false,
    deposits,
    charges: 0,
    balance: deposits,
    createdAt: "2024-01-01 10:00:00",
    transactions: movements.map((amount) => ({ type: 1 as const, amount, date: "2024-01-01" })),
  };
}

function settle(before: FundState, after: FundState) {
  const snapshot: Snapshot = {
    key: "k",
    at: "2024-06-01T00:00:00Z",
    request: deposit,
    fund: markFund(before, deposit),
  };
  const context = {
    service: { getFund: () => after },
    audit: {},
    now: () => new Date("2024-06-01T00:05:00Z"),
  } as unknown as WriteContext;
  return settleInterruptedWrite(context, snapshot);
}

describe("settling an interrupted deposit", () => {
  it("one more movement of the amount: applied; none, totals unmoved: not applied", () => {
    expect(settle(fund(10_000, [10_000]), fund(15_000, [10_000, 5_000])).verdict).toBe("applied");
    expect(settle(fund(10_000, [10_000]), fund(10_000, [10_000])).verdict).toBe("notApplied");
  });

  it("the deposits grew by the amount while the movements came back empty (null in the answer): only a person can tell", () => {
    expect(settle(fund(10_000, []), fund(15_000, [])).verdict).toBe("cannotTell");
  });

  it("the deposits grew by the amount while the list kept its last movements only: only a person can tell", () => {
    const before = fund(20_000, [5_000, 5_000, 10_000]);
    const after = fund(25_000, [5_000, 10_000, 5_000]);
    expect(settle(before, after).verdict).toBe("cannotTell");
  });
});

describe("settling only by a read of the fund the write was sent to", () => {
  // Another account's fund under the same Id: what a token saved under the wrong company reads.
  const other = (base: FundState, change: Partial<FundState>): FundState => ({ ...base, ...change });

  it("the mark keeps what identifies the fund: CreatedAt, IdCreator, IdAssignTo, Currency", () => {
    const mark = markFund({ ...fund(10_000, [10_000]), creatorId: 31 }, deposit);
    expect(mark).toMatchObject({
      createdAt: "2024-01-01 10:00:00",
      creatorId: 31,
      assignedTo: 1,
      currency: "CLP",
    });
  });

  it("a fund of another CreatedAt, creator, assignee or currency settles nothing, even one showing the deposit", () => {
    const before = { ...fund(10_000, [10_000]), creatorId: 31 };
    const cases: Partial<FundState>[] = [
      { createdAt: "2025-03-04 09:00:00" },
      { creatorId: 99 },
      { employeeId: 2101 },
      { currency: "MXN" },
    ];
    for (const change of cases) {
      // Not applied in the account written to, yet this fund holds a matching deposit.
      const verdict = settle(before, other({ ...fund(15_000, [10_000, 5_000]), creatorId: 31 }, change));
      expect(verdict, JSON.stringify(change)).toMatchObject({ verdict: "cannotTell", otherFund: true });
      // Nor is it taken as not applied (which would send the deposit again).
      const unmoved = settle(before, other({ ...fund(10_000, [10_000]), creatorId: 31 }, change));
      expect(unmoved.verdict, JSON.stringify(change)).toBe("cannotTell");
      if (unmoved.verdict === "cannotTell")
        expect(unmoved.message).toMatch(/not the fund the write was sent to/);
    }
  });

  it("a record from before the identity was kept still settles by Id and currency", () => {
    const before = fund(10_000, [10_000]);
    const { createdAt: _c, creatorId: _i, assignedTo: _a, ...old } = markFund(before, deposit);
    const snapshot: Snapshot = { key: "k", at: "2024-06-01T00:00:00Z", request: deposit, fund: old };
    const context = {
      service: { getFund: () => fund(15_000, [10_000, 5_000]) },
      audit: {},
      now: () => new Date("2024-06-01T00:05:00Z"),
    } as unknown as WriteContext;
    expect(settleInterruptedWrite(context, snapshot).verdict).toBe("applied");
  });
});
