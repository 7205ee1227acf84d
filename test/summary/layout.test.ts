import { describe, expect, it } from "vitest";
import {
  EMPTY_STATE,
  fundsPart,
  moneyFormat,
  parseState,
  renderSummary,
  reportsPart,
  SUMMARY_WIDTH,
  type SummaryState,
} from "../../src/summary/layout";
import { fundsFrom, movementsFrom, reportsFrom } from "../../src/summary/records";
import { day, summarySheets } from "./sheets-fixture";

const fixture = summarySheets();
const { today, window } = fixture;
const state: SummaryState = {
  ...EMPTY_STATE,
  funds: fundsPart(
    fundsFrom(fixture.funds, day),
    movementsFrom(fixture.transactions, day),
    window,
    today,
    "2026-11-24 09:00",
    7,
  ),
  reports: reportsPart(reportsFrom(fixture.reports, day), window, today, "2026-11-24 09:01", 8),
  line: { at: "2026-11-24 09:01", action: "Refresh all", source: "menu", window, filters: "Currency=CLP" },
};

function find(grid: ReturnType<typeof renderSummary>, text: string): number {
  return grid.values.findIndex((r) => r[0] === text);
}

describe("the Summary's cells", () => {
  const grid = renderSummary(state, "en");

  it("is a block of columns A–H, with the line that says when, from which refresh and with which filters", () => {
    expect(grid.values.every((r) => r.length === SUMMARY_WIDTH)).toBe(true);
    expect(grid.formats.every((r) => r.length === SUMMARY_WIDTH)).toBe(true);
    expect(grid.values[1]?.[0]).toContain("Computed 2026-11-24 09:01 after Refresh all (menu)");
    expect(grid.values[1]?.[0]).toContain("Report window 2026-10-25 to 2026-11-24. Filters: Currency=CLP.");
  });

  it("links each count to the rows behind it on its sheet, and writes amounts as two-decimal numbers", () => {
    const clp = grid.values[find(grid, "CLP")] as unknown[];
    expect(clp).toEqual([
      "CLP",
      '=HYPERLINK("#gid=7&range=A2:A3",2)',
      1300.25,
      1000,
      0.15,
      '=HYPERLINK("#gid=7&range=A3:A3",1)',
      '=HYPERLINK("#gid=7&range=A4:A4",1)',
      '=HYPERLINK("#gid=7&range=A2:A2",1)',
    ]);
    const usdReports = grid.values.filter((r) => r[0] === "USD")[1] as unknown[];
    expect(usdReports.slice(0, 7)).toEqual([
      "USD",
      '=HYPERLINK("#gid=8&range=A5:A5",1)',
      0,
      '=HYPERLINK("#gid=8&range=A5:A5",1)',
      '=HYPERLINK("#gid=8&range=A5:A6",2)',
      110,
      146,
    ]);
  });

  it("keeps text from the service literal: a custom status that looks like a formula lands in a plain-text cell", () => {
    const at = find(grid, '=HYPERLINK("http://evil")');
    expect(at).toBeGreaterThan(0);
    expect(grid.formats[at]?.[0]).toBe("@");
    for (let r = 0; r < grid.values.length; r++)
      for (let c = 0; c < SUMMARY_WIDTH; c++) {
        const v = grid.values[r]?.[c];
        if (typeof v === "string" && v.startsWith("=") && grid.formats[r]?.[c] !== "@")
          expect(v).toMatch(/^=HYPERLINK\("#gid=\d+&range=A\d+:A\d+",(\d+|"\d+")\)$/);
      }
  });

  it("lists what needs attention with ids linked to their rows, and reasons with the amount's code first", () => {
    const first = find(grid, "What") + 1;
    expect(grid.values.slice(first, first + 5).map((r) => r.slice(0, 3))).toEqual([
      ["Fund", '=HYPERLINK("#gid=7&range=A3:A3","102")', "Negative balance: CLP -200.25"],
      ["Fund", '=HYPERLINK("#gid=7&range=A2:A2","101")', "Expires on 2026-12-10"],
      ["Fund", '=HYPERLINK("#gid=7&range=A7:A7","106")', "Expires on 2026-12-24"],
      [
        "Expense report",
        '=HYPERLINK("#gid=8&range=A6:A6","5")',
        "Closed 146 days ago, not integrated (USD 10.01 approved)",
      ],
      [
        "Expense report",
        '=HYPERLINK("#gid=8&range=A3:A3","2")',
        "Closed 35 days ago, not integrated (CLP 1,234.56 approved)",
      ],
    ]);
    // A link's cell is not plain text (else Sheets would keep the formula as text).
    expect(grid.formats[first]?.[1]).toBe("General");
  });

  it("never links an id that is not all digits: an id from a cell could carry a formula", () => {
    const odd = renderSummary(
      {
        ...state,
        funds: fundsPart(
          [{ id: 0, row: 2, currency: "CLP", status: "open", balanceCents: -5, expiration: "" }],
          [],
          window,
          today,
          "now",
          7,
        ),
        run: [{ kind: "run", id: '2026-11-24 09:00")', detail: { message: "x" } }],
      },
      "en",
    );
    const first = find(odd, "What") + 1;
    expect(odd.values[first]?.[1]).toBe('=HYPERLINK("#gid=7&range=A2:A2","0")');
    const run = odd.values.findIndex((r) => r[0] === "Scheduled refresh");
    expect([odd.values[run]?.[1], odd.formats[run]?.[1]]).toEqual(['2026-11-24 09:00")', "@"]);
  });

  it("gives each amount its currency's decimals: none for CLP unless the value has cents, two for USD", () => {
    const formats = grid.formats[find(grid, "CLP")] as string[];
    // Balance 1,300.25 and withdrawals 0.15 have cents; deposits of 1,000 do not.
    expect(formats.slice(2, 5)).toEqual([
      '"CLP "#,##0.00;[Red]-"CLP "#,##0.00',
      '"CLP "#,##0;[Red]-"CLP "#,##0',
      '"CLP "#,##0.00;[Red]-"CLP "#,##0.00',
    ]);
    const funds = [
      { id: 1, row: 2, currency: "CLP", status: "open" as const, balanceCents: -2_000_000, expiration: "" },
      { id: 2, row: 3, currency: "USD", status: "open" as const, balanceCents: -2_000_000, expiration: "" },
    ];
    for (const language of ["en", "es"] as const) {
      const whole = renderSummary(
        { ...state, funds: fundsPart(funds, [], window, today, "now", 7) },
        language,
      );
      const at = (currency: string) => whole.values.findIndex((r) => r[0] === currency);
      expect(whole.formats[at("CLP")]?.[2]).toBe('"CLP "#,##0;[Red]-"CLP "#,##0');
      expect(whole.formats[at("USD")]?.[2]).toBe('"USD "#,##0.00;[Red]-"USD "#,##0.00');
      const reasons = whole.values.map((r) => String(r[2]));
      expect(reasons).toContain(
        language === "en" ? "Negative balance: CLP -20,000" : "Saldo negativo: CLP -20.000",
      );
      expect(reasons).toContain(
        language === "en" ? "Negative balance: USD -20,000.00" : "Saldo negativo: USD -20.000,00",
      );
    }
  });

  it("gives one chart of amounts per currency (never two currencies on one scale), and one chart of counts", () => {
    expect(
      grid.charts.map((c) => [
        c.key,
        c.title,
        c.stacked,
        c.range.numRows,
        c.range.numColumns,
        c.anchorRow,
        c.offsetX,
      ]),
    ).toEqual([
      ["funds:CLP", "Funds in CLP: balance and movements in window", false, 4, 2, 1, 0],
      ["funds:USD", "Funds in USD: balance and movements in window", false, 4, 2, 1, 332],
      ["months", "Expense reports sent per month, by status", true, 3, 3, 15, 0],
      ["ages:CLP", "CLP approved, not integrated, by age in days", false, 5, 2, 29, 0],
      ["ages:USD", "USD approved, not integrated, by age in days", false, 5, 2, 29, 332],
    ]);
    const cells = (key: string) => {
      const r = grid.charts.find((c) => c.key === key)?.range;
      const at = (r?.row ?? 0) - 1;
      return {
        values: grid.values.slice(at, at + (r?.numRows ?? 0)).map((x) => x.slice(0, 2)),
        formats: grid.formats.slice(at + 1, at + (r?.numRows ?? 0)).map((x) => x[1]),
      };
    };
    expect(cells("ages:USD").values).toEqual([
      ["Age (days)", "USD"],
      ["0–7", 99.99],
      ["8–30", 0],
      ["31–90", 0],
      ["90+", 10.01],
    ]);
    expect(cells("funds:CLP").values).toEqual([
      ["Funds", "CLP"],
      ["Balance of open funds", 1300.25],
      ["Deposits in window", 1000],
      ["Withdrawals in window", 0.15],
    ]);
    // Every amount a chart draws is in the one currency its header names.
    for (const chart of grid.charts.filter((c) => c.key !== "months")) {
      const currency = chart.key.split(":")[1] as string;
      expect(cells(chart.key).values[0]?.[1]).toBe(currency);
      for (const format of cells(chart.key).formats)
        expect(format).toMatch(new RegExp(`^"${currency} "#,##0`));
    }
  });

  it("draws at most six charts of each kind of amount: the tables above still show every currency", () => {
    const funds = Array.from({ length: 9 }, (_, i) => ({
      id: i + 1,
      row: i + 2,
      currency: `C${String.fromCharCode(65 + i)}X`,
      status: "open" as const,
      balanceCents: 100,
      expiration: "",
    }));
    const wide = renderSummary({ ...state, funds: fundsPart(funds, [], window, today, "now", 7) }, "en");
    expect(wide.charts.filter((c) => c.key.startsWith("funds:"))).toHaveLength(6);
    expect(wide.values.filter((r) => /^C[A-I]X$/.test(String(r[0])))).toHaveLength(9);
  });

  it("marks the title, the line of when, each block's title and each header row for the adapter to style", () => {
    expect(grid.styles).toHaveLength(grid.values.length);
    expect(grid.styles.slice(0, 2)).toEqual(["title", "line"]);
    for (const title of ["Funds (as of", "Expense reports (as of", "Needs attention", "Chart data"]) {
      const at = grid.values.findIndex((r) => String(r[0]).startsWith(title));
      expect(grid.styles[at]).toBe("block");
      if (title !== "Chart data") expect(grid.styles[at + 1]).toBe("header");
    }
  });

  it("keeps a currency code that is not three capital letters out of the number format", () => {
    expect(moneyFormat('X"; @', 100)).toBe("#,##0.00;[Red]-#,##0.00");
    expect(moneyFormat("PEN", -100)).toBe('"PEN "#,##0.00;[Red]-"PEN "#,##0.00');
  });

  it("shows the first 15 items needing attention and says how many more there are", () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      id: 1000 + i,
      row: i + 2,
      currency: "CLP",
      status: "open" as const,
      balanceCents: -100 - i,
      expiration: "",
    }));
    const crowded = renderSummary({ ...state, funds: fundsPart(many, [], window, today, "now", 7) }, "en");
    const first = find(crowded, "What") + 1;
    expect(crowded.values[first]?.slice(0, 2)).toEqual(["Fund", '=HYPERLINK("#gid=7&range=A41:A41","1039")']);
    expect(crowded.values[first + 15]?.[0]).toBe("…and 27 more");
  });

  it("speaks Spanish", () => {
    const es = renderSummary(state, "es");
    expect(es.values[0]?.[0]).toBe("Resumen");
    expect(es.values.some((r) => r[0] === "Requiere atención")).toBe(true);
  });

  it("survives its stored form, and reads an unreadable one as empty", () => {
    expect(parseState(JSON.stringify(state))).toEqual(state);
    expect(parseState("{oops")).toEqual(EMPTY_STATE);
  });
});
