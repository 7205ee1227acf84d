/**
 * The Summary of two companies written by the BUILT add-on in the emulation: the Funds sheet
 * carries the Company columns (as a refresh of several companies writes them), and a refresh
 * recomputes the funds block per company and currency, with the total per currency across
 * companies, charts of one currency each, and a row of no known company left out and said.
 */
import { describe, expect, it } from "vitest";
import { sheetsSnapshot } from "../../dev/emulator/snapshots";
import { chartsSnapshot } from "../../dev/emulator/spreadsheet/charts";
import { loadLayout, saveLayout } from "../../src/refresh/stored-text";
import { setUpPerFile, sheetOf } from "../refresh/emulation";

const FORM = { pageSize: "50", windowMode: "range", windowFrom: "2024-01-01", windowTo: "2024-06-30" };
const BETA = "cbeta0001";
const s = setUpPerFile(
  { funds: 12, reports: 20 },
  { form: FORM, company: { seed: 7, funds: 12, reports: 20 } },
);

function run(name: string) {
  const out = s.emulator.tryRun(name, [], { as: "menu" });
  if (!out.ok) throw new Error(`${name} failed: ${out.error}`);
}

/**
 * Two companies listed, this user's token still bound to the first (renamed by them), and the
 * Funds sheet with Company and Company key after its Id: odd rows Alpha's, even rows Beta's,
 * the second row's Id made equal to the first's (the same id in the other company), the last
 * row naming a company the document does not have. Returns the rows of the two funds that share
 * an id.
 */
function twoCompanies() {
  const props = s.emulator.documentPropertiesData.values;
  const store = {
    getProperty: (key: string) => props.get(key) ?? null,
    setProperty: (key: string, value: string) => props.set(key, value),
    deleteProperty: (key: string) => props.delete(key),
  };
  props.set(
    "settings.companies",
    JSON.stringify({
      v: 1,
      rev: 2,
      several: true,
      entries: [
        { key: "c0", name: "Alpha", apiUrl: s.sandbox.url, formerNames: [] },
        { key: BETA, name: "Beta", apiUrl: s.sandbox.url, formerNames: [] },
      ],
    }),
  );
  s.emulator
    .userPropertiesOf(s.user)
    .values.set("settings.company.c0", JSON.stringify({ name: "Alpha", at: 1 }));
  const sheet = s.emulator.spreadsheet.sheetByName("Funds");
  if (!sheet) throw new Error("no Funds sheet");
  sheet.insertColumns(2, 2);
  const last = sheet.lastRow();
  const cells: string[][] = [["Company", "Company key"]];
  for (let row = 2; row <= last; row++)
    cells.push(row === last ? ["Zeta", "czeta0001"] : row % 2 === 0 ? ["Alpha", "c0"] : ["Beta", BETA]);
  s.emulator.typeCells("Funds", `B1:C${last}`, cells);
  // Beta's first open fund gets the id of Alpha's first open fund.
  const values = sheetOf(s.emulator, "Funds")?.values ?? [];
  const open = (company: string) => values.findIndex((r) => r[1] === company && r[6] === "Open");
  const [alpha, beta] = [open("Alpha"), open("Beta")];
  if (alpha < 1 || beta < 1) throw new Error("no open fund in each company");
  s.emulator.typeCells("Funds", `A${beta + 1}`, [[values[alpha]?.[0]]]);
  const keys = loadLayout(store, "funds");
  if (!keys) throw new Error("no layout");
  saveLayout(store, "funds", [keys[0] as string, "company", "companyKey", ...keys.slice(1)]);
  return { alpha: alpha + 1, beta: beta + 1 };
}

describe("the Summary of two companies", () => {
  it("a group per company, the total per currency across companies to the cent, charts of one currency, a row left out", () => {
    run("refreshAll");
    const same = twoCompanies();
    // Refresh selected rows of the movements writes only the Fund transactions sheet, and
    // recomputes the funds block from the Funds sheet as it is.
    s.emulator.select("Fund transactions", "B2");
    run("refreshSelectedRows");

    const funds = sheetOf(s.emulator, "Funds");
    if (!funds) throw new Error("no Funds sheet");
    const h = (name: string) => funds.header.indexOf(name);
    // Expected from the Funds sheet: open funds and balance per company and currency.
    const expected: Record<string, Record<string, [number, number]>> = { Alpha: {}, Beta: {}, total: {} };
    for (const row of funds.values.slice(1)) {
      const company = String(row[h("Company")]);
      if (row[h("Status")] !== "Open" || company === "Zeta") continue;
      const currency = String(row[h("Currency")]);
      for (const group of [company, "total"]) {
        const line = (expected[group] as Record<string, [number, number]>)[currency] ?? [0, 0];
        (expected[group] as Record<string, [number, number]>)[currency] = line;
        line[0] += 1;
        line[1] += Math.round((row[h("Balance")] as number) * 100);
      }
    }
    // The same id in both companies: two funds, each counted in its own company.
    expect(funds.values[same.beta - 1]?.[0]).toBe(funds.values[same.alpha - 1]?.[0]);

    const values = sheetsSnapshot(s.emulator).find((x) => x.name === "Summary")?.values ?? [];
    const at = (text: string) => values.findIndex((r) => String(r[0]) === text);
    const group = (from: number): Record<string, [number, number]> => {
      const out: Record<string, [number, number]> = {};
      for (let r = from + 1; /^[A-Z]{3}$/.test(String(values[r]?.[0])); r++)
        out[String(values[r]?.[0])] = [
          values[r]?.[1] as number,
          Math.round((values[r]?.[2] as number) * 100),
        ];
      return out;
    };
    const alpha = at("Alpha");
    const beta = at("Beta");
    const total = at("All companies (total per currency)");
    expect(0 < alpha && alpha < beta && beta < total).toBe(true);
    const withOpen = (lines: Record<string, [number, number]>) =>
      Object.fromEntries(Object.entries(lines).filter(([, [open]]) => open > 0));
    expect(withOpen(group(alpha))).toEqual(expected.Alpha);
    expect(withOpen(group(beta))).toEqual(expected.Beta);
    expect(withOpen(group(total))).toEqual(expected.total);
    expect(values.map((r) => String(r[0]))).toContain(
      "Funds: 1 row left out of these figures (1 of no company of this spreadsheet). Correct their Company cells, or refresh.",
    );

    const sheet = sheetOf(s.emulator, "Summary");
    if (!sheet) throw new Error("no Summary sheet");
    const charts = chartsSnapshot(sheet.sheet).filter((c) => c.title.startsWith("Funds in "));
    const currencies = Object.keys(group(total)).sort();
    expect(charts.map((c) => c.title)).toEqual(
      currencies.map((c) => `Funds in ${c}: balance and movements in window`),
    );
    for (const chart of charts) {
      const [, top, bottom] = /^Summary!A(\d+):D(\d+)$/.exec(chart.ranges[0] ?? "") ?? [];
      const rows = values.slice(Number(top) - 1, Number(bottom));
      expect(rows[0]?.slice(0, 2)).toEqual(["Company", "Balance of open funds"]);
      // A row per company with funds in the chart's one currency.
      expect(rows.slice(1).every((r) => r[0] === "Alpha" || r[0] === "Beta")).toBe(true);
    }
  });
});
