import { describe, expect, it } from "vitest";
import {
  customStatuses,
  daysBetween,
  fundsAttention,
  fundsBlock,
  pendingByAge,
  reportsAttention,
  reportsBlock,
  reportsPerMonth,
  runAttention,
} from "../../src/summary/blocks";
import { fundsFrom, movementsFrom, reportsFrom } from "../../src/summary/records";
import { day, summarySheets } from "./sheets-fixture";

const fixture = summarySheets();
const funds = fundsFrom(fixture.funds, day);
const movements = movementsFrom(fixture.transactions, day);
const reports = reportsFrom(fixture.reports, day);
const { today, window } = fixture;

describe("records read back from the data sheets", () => {
  it("reads labels in either language, amounts as integer cents, and skips rows without an id", () => {
    expect(funds.map((f) => [f.id, f.row, f.status, f.balanceCents])).toEqual([
      [101, 2, "open", 150050],
      [102, 3, "open", -20025],
      [103, 4, "blocked", 30000],
      [104, 5, "open", 1010],
      [105, 6, "closed", 0],
      [106, 7, "open", 20],
    ]);
    expect(movements.map((m) => [m.kind, m.amountCents, m.date])).toEqual(
      [
        ["deposit", 100000],
        ["withdrawal", 25010],
        ["withdrawal", 15],
        ["deposit", 1234],
      ].map(([k, c], i) => [k, c, ["2026-11-01", "2026-10-24", "2026-11-24", "2026-11-20"][i]]),
    );
    expect(reports.map((r) => [r.status, r.integrated, r.approvedCents])).toEqual([
      ["open", false, 0],
      ["closed", false, 123456],
      ["closed", true, 5000],
      ["closed", false, 9999],
      ["closed", false, 1001],
      ["open", false, 0],
    ]);
  });

  it("leaves out rows the last refresh kept but marked as no longer returned by the service", () => {
    expect(funds.map((f) => f.id)).not.toContain(107);
    expect(reports.map((r) => r.id)).not.toContain(7);
    expect(fixture.funds.id).toContain(107);
    expect(fixture.reports.id).toContain(7);
  });

  it("formats a date cell in the spreadsheet's zone through the function it is given", () => {
    const [fund] = fundsFrom(
      { id: [9], expiration: [new Date(Date.UTC(2026, 0, 31, 23))] },
      () => "2026-02-01",
    );
    expect(fund?.expiration).toBe("2026-02-01");
  });
});

describe("the funds block", () => {
  it("counts per currency, with the rows behind each count, exact to the cent", () => {
    expect(fundsBlock(funds, movements, window, today)).toEqual([
      {
        currency: "CLP",
        open: [2, 3],
        balanceCents: 130025,
        depositsCents: 100000,
        withdrawalsCents: 15,
        negative: [3],
        blocked: [4],
        expiring: [2],
      },
      {
        currency: "USD",
        open: [5, 7],
        balanceCents: 1030,
        depositsCents: 1234,
        withdrawalsCents: 0,
        negative: [],
        blocked: [],
        expiring: [7],
      },
    ]);
  });
});

describe("the reports block", () => {
  it("counts sent, open and closed in the window, and what is closed and not integrated", () => {
    expect(reportsBlock(reports, window, today)).toEqual([
      {
        currency: "CLP",
        sent: [2, 4, 7],
        open: [2, 7],
        closed: [4],
        pending: [3],
        pendingCents: 123456,
        oldestDays: 35,
      },
      {
        currency: "USD",
        sent: [5],
        open: [],
        closed: [5],
        pending: [5, 6],
        pendingCents: 11000,
        oldestDays: 146,
      },
    ]);
  });

  it("lists custom statuses by how many reports carry them", () => {
    expect(customStatuses(reports).map((c) => [c.status, c.rows])).toEqual([
      ["Observed", [2, 5]],
      ['=HYPERLINK("http://evil")', [7]],
      ["Paid", [4]],
    ]);
  });

  it("puts approved amounts not integrated into age buckets per currency", () => {
    expect(pendingByAge(reports, today)).toEqual({
      currencies: ["CLP", "USD"],
      cents: [
        [0, 9999],
        [0, 0],
        [123456, 0],
        [0, 1001],
      ],
    });
  });

  it("counts reports sent per month of the window by status", () => {
    expect(reportsPerMonth(reports, window)).toEqual([
      { month: "2026-10", open: 0, closed: 0 },
      { month: "2026-11", open: 2, closed: 2 },
    ]);
  });
});

describe("the attention list", () => {
  it("names negative and expiring funds, and reports closed and not integrated for over 30 days", () => {
    expect(fundsAttention(funds, today).map((a) => [a.kind, a.id])).toEqual([
      ["negative", "102"],
      ["expiring", "101"],
      ["expiring", "106"],
    ]);
    expect(reportsAttention(reports, today).map((a) => [a.id, a.detail.days, a.detail.cents])).toEqual([
      ["5", 146, 1001],
      ["2", 35, 123456],
    ]);
  });

  it("names the last scheduled run only when it failed", () => {
    const run = (startedAt: number, outcome: string, source = "schedule") => ({
      startedAt,
      outcome,
      source,
      message: "boom",
    });
    const when = (ms: number) => `t${ms}`;
    expect(runAttention([run(1, "ok"), run(2, "failed"), run(3, "ok", "menu")], when)).toEqual([
      { kind: "run", id: "t2", detail: { message: "boom" } },
    ]);
    expect(runAttention([run(1, "failed"), run(2, "ok")], when)).toEqual([]);
  });
});

describe("days between two days", () => {
  it("counts whole days, the same for a day met again, and NaN for a text that is not a day", () => {
    expect(daysBetween("2026-02-27", "2026-03-01")).toBe(2);
    expect(daysBetween("2026-02-27", "2026-03-01")).toBe(2);
    expect(daysBetween("2026-03-01", "2026-02-27")).toBe(-2);
    expect(daysBetween("2025-12-31", "2026-12-31")).toBe(365);
    expect(daysBetween("2026-03-01", "2026-03-01")).toBe(0);
    expect(daysBetween("not a day", "2026-03-01")).toBeNaN();
    expect(daysBetween("not a day", "2026-03-01")).toBeNaN();
  });
});
