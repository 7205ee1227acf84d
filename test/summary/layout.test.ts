import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  EMPTY_STATE,
  fundsPart,
  parseState,
  renderSummary,
  reportsPart,
  SUMMARY_WIDTH,
  type SummaryState,
} from "../../src/summary/layout";
import { type ColumnsByKey, fundsFrom, movementsFrom, reportsFrom } from "../../src/summary/records";

const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/summary/sheets.json", import.meta.url), "utf8"),
) as {
  today: string;
  window: { since: string; until: string };
  funds: ColumnsByKey;
  transactions: ColumnsByKey;
  reports: ColumnsByKey;
};
const day = (d: Date) => d.toISOString().slice(0, 10);
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
          expect(v).toMatch(/^=HYPERLINK\("#gid=\d+&range=A\d+:A\d+",\d+\)$/);
      }
  });

  it("lists what needs attention with ids and reasons", () => {
    const first = find(grid, "What") + 1;
    expect(grid.values.slice(first, first + 5).map((r) => r.slice(0, 3))).toEqual([
      ["Fund", "102", "Negative balance: -200.25 CLP"],
      ["Fund", "101", "Expires on 2026-12-10"],
      ["Fund", "106", "Expires on 2026-12-24"],
      ["Expense report", "5", "Closed 146 days ago, not integrated (10.01 USD approved)"],
      ["Expense report", "2", "Closed 35 days ago, not integrated (1,234.56 CLP approved)"],
    ]);
  });

  it("gives each amount its currency's decimals: none for CLP unless the value has cents, two for USD", () => {
    const formats = grid.formats[find(grid, "CLP")] as string[];
    // Balance 1,300.25 and withdrawals 0.15 have cents; deposits of 1,000 do not.
    expect(formats.slice(2, 5)).toEqual(["#,##0.00", "#,##0", "#,##0.00"]);
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
      expect(whole.formats[at("CLP")]?.[2]).toBe("#,##0");
      expect(whole.formats[at("USD")]?.[2]).toBe("#,##0.00");
      const reasons = whole.values.map((r) => String(r[2]));
      expect(reasons).toContain(
        language === "en" ? "Negative balance: -20,000 CLP" : "Saldo negativo: -20.000 CLP",
      );
      expect(reasons).toContain(
        language === "en" ? "Negative balance: -20,000.00 USD" : "Saldo negativo: -20.000,00 USD",
      );
    }
  });

  it("gives three charts over their own data tables: balance, reports per month (stacked), pending by age", () => {
    expect(grid.charts.map((c) => [c.title, c.stacked, c.range.numRows, c.range.numColumns])).toEqual([
      ["Balance of open funds per currency", false, 3, 2],
      ["Expense reports sent per month, by status", true, 3, 3],
      ["Approved, not integrated, by age in days", false, 5, 3],
    ]);
    const ages = grid.charts[2]?.range;
    const table = grid.values.slice((ages?.row ?? 0) - 1, (ages?.row ?? 0) - 1 + 5).map((r) => r.slice(0, 3));
    expect(table).toEqual([
      ["Age (days)", "CLP", "USD"],
      ["0–7", 0, 99.99],
      ["8–30", 0, 0],
      ["31–90", 1234.56, 0],
      ["90+", 0, 10.01],
    ]);
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
    expect(crowded.values[first]?.slice(0, 2)).toEqual(["Fund", "1039"]);
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
