/**
 * The Summary of a document with several companies: blocks per company and currency, a total
 * per currency across companies (exact to the cent), charts of one currency each, and rows
 * whose company is refused left out and counted, never added to a company. With one company
 * (no company columns), the Summary is the one of before, cell for cell.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CellValue } from "../../src/sheets/cells";
import type { SheetCompany } from "../../src/sheets/company";
import {
  companySplit,
  EMPTY_STATE,
  fundsPart,
  renderSummary,
  reportsPart,
  type SummaryGrid,
  type SummaryState,
} from "../../src/summary/layout";
import {
  type ColumnsByKey,
  fundsFrom,
  movementsFrom,
  reportsFrom,
  rowCompanies,
} from "../../src/summary/records";
import { summarySheets } from "./sheets-fixture";

const day = (d: Date) => d.toISOString().slice(0, 10);
const today = "2026-11-24";
const window = { since: "2026-10-25", until: "2026-11-24" };
const BETA = "cbeta0001";

const COMPANIES: SheetCompany[] = [
  { key: "c0", name: "Alpha", formerNames: ["Alfa"] },
  { key: BETA, name: "Beta", formerNames: [] },
  { key: "cgamma001", name: "Gamma", formerNames: [], removed: { at: 1, rows: "keep" } },
];
const LISTED = COMPANIES.filter((c) => !c.removed);

/** A data sheet's columns from its rows (row 2 first). */
function sheet(rows: Array<Record<string, CellValue>>): ColumnsByKey {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return Object.fromEntries(keys.map((k) => [k, rows.map((r) => r[k] ?? "")]));
}

const fundsSheet = sheet([
  { company: "Alpha", companyKey: "c0", id: 5001, currency: "CLP", status: "Open", balance: 1000.1 },
  // The same fund id in the other company: another fund.
  { company: "Beta", companyKey: BETA, id: 5001, currency: "CLP", status: "Open", balance: 2000.25 },
  { company: "Alpha", companyKey: "c0", id: 5002, currency: "USD", status: "Open", balance: 0.1 },
  { company: "Beta", companyKey: BETA, id: 5003, currency: "USD", status: "Open", balance: -0.3 },
  { company: "Beta", companyKey: BETA, id: 5004, currency: "USD", status: "Open", balance: 0.2 },
  // A former name of Alpha's, not yet rewritten by a refresh: still Alpha's.
  { company: "Alfa", companyKey: "c0", id: 5009, currency: "USD", status: "Open", balance: 0.7 },
  // Refused: an unknown key, a removed company, a name that is not its key's, no key.
  { company: "Zeta", companyKey: "czeta0001", id: 5005, currency: "CLP", status: "Open", balance: 999 },
  { company: "Gamma", companyKey: "cgamma001", id: 5006, currency: "CLP", status: "Open", balance: 50 },
  { company: "Beta", companyKey: "c0", id: 5007, currency: "CLP", status: "Open", balance: 70 },
  { company: "Alpha", companyKey: "", id: 5008, currency: "CLP", status: "Open", balance: 80 },
  // No longer returned by the service: not counted, and not a row left out for its company.
  {
    company: "Beta",
    companyKey: BETA,
    id: 5010,
    currency: "CLP",
    status: "Open",
    balance: 5,
    refreshNote: "Not returned",
  },
]);

const transactionsSheet = sheet([
  {
    company: "Alpha",
    companyKey: "c0",
    movement: 1,
    currency: "CLP",
    type: "Deposit",
    amount: 100.05,
    date: "2026-11-01",
  },
  {
    company: "Beta",
    companyKey: BETA,
    movement: 1,
    currency: "CLP",
    type: "Deposit",
    amount: 200.1,
    date: "2026-11-02",
  },
  {
    company: "Beta",
    companyKey: BETA,
    movement: 2,
    currency: "USD",
    type: "Withdrawal",
    amount: 0.15,
    date: "2026-11-03",
  },
  {
    company: "Zeta",
    companyKey: "czeta0001",
    movement: 3,
    currency: "CLP",
    type: "Deposit",
    amount: 999,
    date: "2026-11-04",
  },
]);

const reportsSheet = sheet([
  {
    company: "Alpha",
    companyKey: "c0",
    id: 7,
    currency: "CLP",
    status: "Closed",
    sendDate: "2026-09-30",
    closeDate: "2026-10-01",
    integrated: "No",
    totalApproved: 1234.56,
  },
  {
    company: "Beta",
    companyKey: BETA,
    id: 7,
    currency: "CLP",
    status: "Closed",
    customStatus: "Revisado",
    sendDate: "2026-11-10",
    closeDate: "2026-11-20",
    integrated: "No",
    totalApproved: 0.44,
  },
  {
    company: "Beta",
    companyKey: BETA,
    id: 8,
    currency: "USD",
    status: "Open",
    customStatus: "Revisado",
    sendDate: "2026-11-15",
  },
  {
    company: "Alpha",
    companyKey: "c0",
    id: 9,
    currency: "USD",
    status: "Closed",
    customStatus: "Auditado",
    sendDate: "2026-10-30",
    closeDate: "2026-11-01",
    integrated: "Yes",
    totalApproved: 5,
  },
  {
    company: "Gamma",
    companyKey: "cgamma001",
    id: 10,
    currency: "CLP",
    status: "Closed",
    sendDate: "2026-11-01",
    closeDate: "2026-11-02",
    integrated: "No",
    totalApproved: 77,
  },
]);

function build() {
  const fundRows = rowCompanies(fundsSheet, COMPANIES);
  const moveRows = rowCompanies(transactionsSheet, COMPANIES);
  const reportRows = rowCompanies(reportsSheet, COMPANIES);
  const state: SummaryState = {
    ...EMPTY_STATE,
    funds: fundsPart(
      fundsFrom(fundsSheet, day, fundRows),
      movementsFrom(transactionsSheet, day, moveRows),
      window,
      today,
      "2026-11-24 09:00",
      7,
      companySplit(LISTED, [
        ["funds", fundRows],
        ["transactions", moveRows],
      ]),
    ),
    reports: reportsPart(
      reportsFrom(reportsSheet, day, reportRows),
      window,
      today,
      "2026-11-24 09:01",
      8,
      companySplit(LISTED, [["reports", reportRows]]),
    ),
    line: { at: "2026-11-24 09:01", action: "Refresh all", source: "menu", window, filters: "" },
  };
  return { state, fundRows, moveRows, reportRows };
}

const { state } = build();

describe("records of a sheet with company columns", () => {
  it("carry their company's key; equal ids of two companies stay two records", () => {
    const funds = fundsFrom(fundsSheet, day, rowCompanies(fundsSheet, COMPANIES));
    expect(funds.map((f) => [f.company, f.id, f.row])).toEqual([
      ["c0", 5001, 2],
      [BETA, 5001, 3],
      ["c0", 5002, 4],
      [BETA, 5003, 5],
      [BETA, 5004, 6],
      ["c0", 5009, 7],
    ]);
  });

  it("leave out every row whose company is refused, counted by why, never given to another company", () => {
    const { fundRows, moveRows, reportRows } = build();
    expect(fundRows?.leftOut).toEqual({ unknownKey: 1, removed: 1, nameMismatch: 1, noKey: 1 });
    expect(moveRows?.leftOut).toEqual({ unknownKey: 1 });
    expect(reportRows?.leftOut).toEqual({ removed: 1 });
  });

  it("a sheet without company columns has no row companies: every row counts, as before", () => {
    const fixture = summarySheets();
    expect(rowCompanies(fixture.funds, COMPANIES)).toBeNull();
    expect(companySplit(LISTED, [["funds", null]])).toBeUndefined();
  });
});

describe("the blocks per company and currency", () => {
  it("funds: each company's lines, and totals per currency across companies exact to the cent", () => {
    const funds = state.funds;
    const brief = (lines: NonNullable<typeof funds>["lines"]) =>
      lines.map((l) => [
        l.currency,
        l.open[0],
        l.balanceCents,
        l.depositsCents,
        l.withdrawalsCents,
        l.negative[0],
      ]);
    expect(funds?.companies?.map((c) => [c.name, brief(c.lines)])).toEqual([
      [
        "Alpha",
        [
          ["CLP", 1, 100010, 10005, 0, 0],
          ["USD", 2, 80, 0, 0, 0],
        ],
      ],
      [
        "Beta",
        [
          ["CLP", 1, 200025, 20010, 0, 0],
          ["USD", 2, -10, 0, 15, 1],
        ],
      ],
    ]);
    // 0.1 + 0.7 - 0.3 + 0.2 in floating point is not 0.7; in cents it is 70.
    expect(brief(funds?.lines ?? [])).toEqual([
      ["CLP", 2, 300035, 30015, 0, 0],
      ["USD", 4, 70, 0, 15, 1],
    ]);
    // The total's links span the rows of both companies' funds.
    expect(funds?.lines[0]?.open).toEqual([2, 2, 3]);
  });

  it("reports: each company's lines, custom statuses and ages; totals per currency", () => {
    const reports = state.reports;
    const brief = (lines: NonNullable<typeof reports>["lines"]) =>
      lines.map((l) => [l.currency, l.pending[0], l.pendingCents, l.oldestDays]);
    expect(reports?.companies?.map((c) => [c.name, brief(c.lines)])).toEqual([
      [
        "Alpha",
        [
          ["CLP", 1, 123456, 54],
          ["USD", 0, 0, null],
        ],
      ],
      [
        "Beta",
        [
          ["CLP", 1, 44, 4],
          ["USD", 0, 0, null],
        ],
      ],
    ]);
    expect(brief(reports?.lines ?? [])).toEqual([
      ["CLP", 2, 123500, 54],
      ["USD", 0, 0, null],
    ]);
    expect(reports?.companies?.map((c) => c.custom.map((s) => [s.status, s.count[0]]))).toEqual([
      [["Auditado", 1]],
      [["Revisado", 2]],
    ]);
    expect(reports?.companies?.map((c) => c.ages)).toEqual([
      { currencies: ["CLP"], cents: [[0], [0], [123456], [0]] },
      { currencies: ["CLP"], cents: [[44], [0], [0], [0]] },
    ]);
  });
});

function rowsAfter(grid: SummaryGrid, text: string, count: number): CellValue[][] {
  const at = grid.values.findIndex((r) => r[0] === text);
  expect(at, text).toBeGreaterThanOrEqual(0);
  return grid.values.slice(at, at + count);
}

describe("a sheet still without company columns beside ones with them", () => {
  it("its rows are the first company's, as the merge labels them, never another's", () => {
    const fundRows = rowCompanies(fundsSheet, COMPANIES);
    const plain: ColumnsByKey = Object.fromEntries(
      Object.entries(transactionsSheet).filter(([key]) => key !== "company" && key !== "companyKey"),
    );
    const moveRows = rowCompanies(plain, COMPANIES);
    expect(moveRows).toBeNull();
    const part = fundsPart(
      fundsFrom(fundsSheet, day, fundRows),
      movementsFrom(plain, day, moveRows),
      window,
      today,
      "now",
      7,
      companySplit(LISTED, [
        ["funds", fundRows],
        ["transactions", moveRows],
      ]),
    );
    // Every movement (Zeta's too: that sheet cannot say) is the first company's.
    expect(
      part.companies?.map((c) => c.lines.map((l) => [l.currency, l.depositsCents, l.withdrawalsCents])),
    ).toEqual([
      [
        ["CLP", 10005 + 20010 + 99900, 0],
        ["USD", 0, 15],
      ],
      [
        ["CLP", 0, 0],
        ["USD", 0, 0],
      ],
    ]);
    expect(part.leftOut).toEqual([{ sheet: "funds", counts: fundRows?.leftOut }]);
  });
});

describe("the Summary's cells with several companies", () => {
  const grid = renderSummary(state, "en");

  it("a group per company, then the total per currency, each amount in its currency", () => {
    const funds = rowsAfter(grid, "Funds (as of 2026-11-24 09:00)", 11).map((r) => r.slice(0, 5));
    expect(funds.slice(2)).toEqual([
      ["Alpha", "", "", "", ""],
      ["CLP", '=HYPERLINK("#gid=7&range=A2:A2",1)', 1000.1, 100.05, 0],
      ["USD", '=HYPERLINK("#gid=7&range=A4:A7",2)', 0.8, 0, 0],
      ["Beta", "", "", "", ""],
      ["CLP", '=HYPERLINK("#gid=7&range=A3:A3",1)', 2000.25, 200.1, 0],
      ["USD", '=HYPERLINK("#gid=7&range=A5:A6",2)', -0.1, 0, 0.15],
      ["All companies (total per currency)", "", "", "", ""],
      ["CLP", '=HYPERLINK("#gid=7&range=A2:A3",2)', 3000.35, 300.15, 0],
      ["USD", '=HYPERLINK("#gid=7&range=A4:A7",4)', 0.7, 0, 0.15],
    ]);
    const first = grid.values.findIndex((r) => r[0] === "Alpha");
    expect(grid.styles[first]).toBe("group");
    expect(grid.formats[first + 1]?.[2]).toContain('"CLP "');
    expect(grid.formats[first + 2]?.[2]).toContain('"USD "');
  });

  it("says how many rows were left out of the figures, and why", () => {
    const texts = grid.values.map((r) => String(r[0]));
    expect(texts).toContain(
      "Funds: 4 rows left out of these figures (1 without a company key, 1 of no company of this spreadsheet, 1 whose Company does not match its key, 1 of a removed company). Correct their Company cells, or refresh.",
    );
    expect(texts).toContain(
      "Fund transactions: 1 row left out of these figures (1 of no company of this spreadsheet). Correct their Company cells, or refresh.",
    );
    expect(texts).toContain(
      "Expense reports: 1 row left out of these figures (1 of a removed company). Correct their Company cells, or refresh.",
    );
    expect(renderSummary(state, "es").values.map((r) => String(r[0]))).toContain(
      "Movimientos de fondos: 1 fila quedó fuera de estas cifras (1 de ninguna empresa de esta hoja de cálculo). Corrija sus celdas Empresa, o actualice.",
    );
  });

  it("the reports block and custom statuses per company", () => {
    const reports = rowsAfter(grid, "Expense reports (as of 2026-11-24 09:01)", 12).map((r) => [r[0], r[5]]);
    expect(reports.slice(2, 11)).toEqual([
      ["Alpha", ""],
      ["CLP", 1234.56],
      ["USD", 0],
      ["Beta", ""],
      ["CLP", 0.44],
      ["USD", 0],
      ["All companies (total per currency)", ""],
      ["CLP", 1235],
      ["USD", 0],
    ]);
    expect(rowsAfter(grid, "Custom status", 5).map((r) => r.slice(0, 2))).toEqual([
      ["Custom status", "Reports"],
      ["Alpha", ""],
      ["Auditado", '=HYPERLINK("#gid=8&range=A5:A5",1)'],
      ["Beta", ""],
      ["Revisado", '=HYPERLINK("#gid=8&range=A3:A4",2)'],
    ]);
  });

  it("names the company of each item that needs attention: an id alone is two funds", () => {
    expect(rowsAfter(grid, "What", 3).map((r) => r.slice(0, 4))).toEqual([
      ["What", "Company", "Id", "Reason"],
      ["Fund", "Beta", '=HYPERLINK("#gid=7&range=A5:A5","5003")', "Negative balance: USD -0.30"],
      [
        "Expense report",
        "Alpha",
        '=HYPERLINK("#gid=8&range=A2:A2","7")',
        "Closed 54 days ago, not integrated (CLP 1,234.56 approved)",
      ],
    ]);
  });

  it("draws one chart per currency, a row per company, never two currencies in one chart", () => {
    expect(grid.charts.map((c) => [c.key, c.stacked, c.legend ?? false])).toEqual([
      ["funds:CLP", false, true],
      ["funds:USD", false, true],
      ["months", true, false],
      ["ages:CLP", true, true],
    ]);
    const data = (key: string) => {
      const r = grid.charts.find((c) => c.key === key)?.range;
      if (!r) throw new Error(key);
      const cells = <T>(rows: T[][]) =>
        rows
          .slice(r.row - 1, r.row - 1 + r.numRows)
          .map((x) => x.slice(r.column - 1, r.column - 1 + r.numColumns));
      return { values: cells(grid.values), formats: cells(grid.formats) };
    };
    expect(data("funds:CLP").values).toEqual([
      ["Company", "Balance of open funds", "Deposits in window", "Withdrawals in window"],
      ["Alpha", 1000.1, 100.05, 0],
      ["Beta", 2000.25, 200.1, 0],
    ]);
    expect(data("funds:USD").values.slice(1)).toEqual([
      ["Alpha", 0.8, 0, 0],
      ["Beta", -0.1, 0, 0.15],
    ]);
    expect(data("ages:CLP").values).toEqual([
      ["Company", "0–7", "8–30", "31–90", "90+"],
      ["Alpha", 0, 0, 1234.56, 0],
      ["Beta", 0.44, 0, 0, 0],
    ]);
    for (const chart of grid.charts.filter((c) => c.key.includes(":"))) {
      const currency = chart.key.split(":")[1] as string;
      const amounts = data(chart.key)
        .formats.slice(1)
        .flatMap((r) => r.slice(1));
      expect(amounts.every((f) => f.startsWith(`"${currency} "`))).toBe(true);
    }
  });
});

describe("one company: the Summary of before", () => {
  const golden = JSON.parse(
    readFileSync(new URL("../fixtures/summary/one-company-grid.json", import.meta.url), "utf8"),
  ) as { state: SummaryState; en: SummaryGrid; es: SummaryGrid };
  const fixture = summarySheets();

  it("without company columns, the same state and the same cells and charts as before there were several", () => {
    // The document lists two companies, but its sheets have no company columns yet.
    const rows = (columns: ColumnsByKey) => rowCompanies(columns, COMPANIES);
    const funds = rows(fixture.funds);
    const moves = rows(fixture.transactions);
    const reports = rows(fixture.reports);
    const one: SummaryState = {
      ...EMPTY_STATE,
      funds: fundsPart(
        fundsFrom(fixture.funds, day, funds),
        movementsFrom(fixture.transactions, day, moves),
        fixture.window,
        fixture.today,
        "2026-11-24 09:00",
        7,
        companySplit(LISTED, [
          ["funds", funds],
          ["transactions", moves],
        ]),
      ),
      reports: reportsPart(
        reportsFrom(fixture.reports, day, reports),
        fixture.window,
        fixture.today,
        "2026-11-24 09:01",
        8,
        companySplit(LISTED, [["reports", reports]]),
      ),
      line: {
        at: "2026-11-24 09:01",
        action: "Refresh all",
        source: "menu",
        window: fixture.window,
        filters: "Currency=CLP",
      },
    };
    expect(JSON.parse(JSON.stringify(one))).toEqual(golden.state);
    expect(JSON.parse(JSON.stringify(renderSummary(one, "en")))).toEqual(golden.en);
    expect(JSON.parse(JSON.stringify(renderSummary(one, "es")))).toEqual(golden.es);
  });
});
