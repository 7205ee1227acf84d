/**
 * Settling an interrupted deposit or withdrawal by reading the fund again: the count of its
 * movements decides, unless the fund's answer cannot carry that count (its list of movements
 * null, absent or cut short while its totals moved by the amount).
 */
import { describe, expect, it } from "vitest";
import type { WriteRequest } from "../../src/outbox/requests";
import { type FundState, markFund, type ReportState, type Snapshot } from "../../src/outbox/snapshot";
import { formWords } from "../../src/outbox/words";
import { settleInterruptedWrite, takeSnapshot, type WriteContext } from "../../src/outbox/write";

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
    words: formWords("en"),
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

describe("settling a status change, update or report mark only by a read of its own fund or report", () => {
  const block: WriteRequest = { operation: "setFundStatus", fundId: 7, status: 3 };
  const mark: WriteRequest = { operation: "markIntegrated", reportId: 9, code: "V-1", date: "" };
  const report = (change: Partial<ReportState> = {}): ReportState => ({
    integrated: false,
    code: "",
    customStatus: "",
    id: 9,
    reportNumber: "1001",
    employeeId: 1101,
    currency: "CLP",
    ...change,
  });
  const contextOf = (read: { fund?: FundState; report?: ReportState }) =>
    ({
      service: {
        getFund: () => read.fund,
        getReport: () => read.report,
      },
      audit: {},
      now: () => new Date("2024-06-01T00:05:00Z"),
      words: formWords("en"),
    }) as unknown as WriteContext;

  it("the snapshot keeps the fund's or report's identity; the same one read later lets it be sent again", () => {
    const fundSnapshot = takeSnapshot(contextOf({ fund: { ...fund(0, []), creatorId: 31 } }), block, "k");
    expect(fundSnapshot.target).toEqual({
      fund: { id: 7, currency: "CLP", createdAt: "2024-01-01 10:00:00", creatorId: 31, assignedTo: 1 },
    });
    const reportSnapshot = takeSnapshot(contextOf({ report: report() }), mark, "k");
    expect(reportSnapshot.target).toEqual({
      report: { id: 9, reportNumber: "1001", employeeId: 1101, currency: "CLP" },
    });
    expect(settleInterruptedWrite(contextOf({ fund: fund(0, []) }), fundSnapshot).verdict).toBe("resend");
    expect(settleInterruptedWrite(contextOf({ report: report() }), reportSnapshot).verdict).toBe("resend");
  });

  it("another fund or report of the Id settles nothing: neither applied nor sent again", () => {
    const fundSnapshot = takeSnapshot(contextOf({ fund: fund(0, []) }), block, "k");
    const otherFund = { ...fund(0, []), employeeId: 2101, status: 3 };
    expect(settleInterruptedWrite(contextOf({ fund: otherFund }), fundSnapshot)).toMatchObject({
      verdict: "cannotTell",
      otherFund: true,
      message: expect.stringMatching(
        /^fund 7 read now is not the fund the write was sent to \(IdAssignTo 1 → 2101\)/,
      ),
    });
    const reportSnapshot = takeSnapshot(contextOf({ report: report() }), mark, "k");
    const otherReport = report({ employeeId: 2101, integrated: true, code: "V-1" });
    const verdict = settleInterruptedWrite(
      { ...contextOf({ report: otherReport }), words: formWords("es") },
      reportSnapshot,
    );
    expect(verdict).toMatchObject({ verdict: "cannotTell", otherFund: true });
    if (verdict.verdict === "cannotTell")
      expect(verdict.message).toMatch(/^la rendición 9 leída ahora no es la rendición a la que se envió/);
  });

  it("a record from before the identity was kept is neither read nor sent again: only a person can tell", () => {
    let reads = 0;
    const context = {
      ...contextOf({}),
      service: {
        getFund: () => {
          reads += 1;
          return fund(0, []);
        },
        getReport: () => {
          reads += 1;
          return report();
        },
      },
    } as unknown as WriteContext;
    const update: WriteRequest = { operation: "updateFund", fundId: 7, name: "Caja" };
    for (const request of [block, update]) {
      const snapshot: Snapshot = { key: "k", at: "2024-06-01T00:00:00Z", request };
      expect(settleInterruptedWrite(context, snapshot)).toEqual({
        verdict: "cannotTell",
        message: expect.stringMatching(
          /^this write was recorded before the add-on kept which fund it was sent to, so no read can tell that fund 7 is still that fund/,
        ),
      });
    }
    const reportVerdict = settleInterruptedWrite({ ...context, words: formWords("es") } as WriteContext, {
      key: "k",
      at: "2024-06-01T00:00:00Z",
      request: mark,
    });
    expect(reportVerdict).toMatchObject({
      verdict: "cannotTell",
      message: expect.stringMatching(
        /^esta escritura se registró antes .* la rendición 9 sigue siendo esa rendición/,
      ),
    });
    expect(reads).toBe(0);
  });

  it("a read without the Currency (or report number, employee) the record has is another record's, not a pass", () => {
    const fundSnapshot = takeSnapshot(contextOf({ fund: fund(0, []) }), block, "k");
    const blank = settleInterruptedWrite(contextOf({ fund: { ...fund(0, []), currency: "" } }), fundSnapshot);
    expect(blank).toMatchObject({
      verdict: "cannotTell",
      otherFund: true,
      message: expect.stringContaining("(Currency CLP → —)"),
    });
    const reportSnapshot = takeSnapshot(contextOf({ report: report() }), mark, "k");
    for (const missing of [
      { currency: "" },
      { currency: undefined },
      { reportNumber: undefined },
      { employeeId: undefined },
    ]) {
      const verdict = settleInterruptedWrite(contextOf({ report: report(missing) }), reportSnapshot);
      expect(verdict, JSON.stringify(missing)).toMatchObject({ verdict: "cannotTell", otherFund: true });
    }
  });
});
