/**
 * The Summary sheet written by the BUILT add-on in the emulation against the sandbox: after
 * Refresh all, a refresh of one sheet, Refresh selected rows and a scheduled refresh.
 */
import { describe, expect, it } from "vitest";
import { sheetsSnapshot } from "../../dev/emulator/snapshots";
import { chartsOn, chartsSnapshot } from "../../dev/emulator/spreadsheet/charts";
import { displayCell } from "../../dev/emulator/spreadsheet/format";
import { loadText, saveText } from "../../src/refresh/stored-text";
import { SUMMARY_STATE_KEY } from "../../src/summary/layout";
import { setUpPerFile, sheetOf } from "../refresh/emulation";

const FORM = { pageSize: "50", windowMode: "range", windowFrom: "2024-01-01", windowTo: "2024-06-30" };
const HOUR = 3_600_000;
const s = setUpPerFile(
  { funds: 12, reports: 40, triggerSeesSpreadsheet: true },
  { form: FORM, company: { seed: 7, funds: 12, reports: 40 } },
);

function run(name: string, as: "menu" | "trigger" | "script.run" = "menu") {
  const out = s.emulator.tryRun(name, [], { as });
  if (!out.ok) throw new Error(`${name} failed: ${out.error}`);
}

function summary() {
  const sheet = sheetOf(s.emulator, "Summary");
  if (!sheet) throw new Error("no Summary sheet");
  // Values as scripts read them: a formula's value computed.
  const values = sheetsSnapshot(s.emulator).find((x) => x.name === "Summary")?.values ?? [];
  const rowOf = (text: string) => values.findIndex((r) => String(r[0]).startsWith(text));
  return { ...sheet, values, rowOf, charts: chartsSnapshot(sheet.sheet) };
}

/** The funds block's lines: currency → [open, balance]. */
function fundLines(): Record<string, [unknown, unknown]> {
  const sum = summary();
  const out: Record<string, [unknown, unknown]> = {};
  for (let r = sum.rowOf("Funds (as of") + 2; sum.values[r]?.[0] !== ""; r++)
    out[String(sum.values[r]?.[0])] = [sum.values[r]?.[1], sum.values[r]?.[2]];
  return out;
}

describe("the Summary sheet", () => {
  it("after Refresh all: funds per currency as the Funds sheet has them, links to their rows, three charts", () => {
    run("refreshAll");
    const funds = sheetOf(s.emulator, "Funds");
    if (!funds) throw new Error("no Funds sheet");
    const h = (name: string) => funds.header.indexOf(name);
    const expected: Record<string, [number, number]> = {};
    for (const row of funds.values.slice(1)) {
      if (row[h("Status")] !== "Open") continue;
      const currency = String(row[h("Currency")]);
      const line = expected[currency] ?? [0, 0];
      expected[currency] = line;
      line[0] += 1;
      line[1] += Math.round((row[h("Balance")] as number) * 100);
    }
    const lines = fundLines();
    // A currency with no open fund (only closed or blocked ones) shows 0 and 0.00.
    for (const [currency, line] of Object.entries(lines))
      expect(line).toEqual(currency in expected ? line : [0, 0]);
    expect(Object.keys(lines)).toEqual(expect.arrayContaining(Object.keys(expected)));
    for (const [currency, [open, cents]] of Object.entries(expected)) {
      expect(lines[currency]?.[0]).toBe(open);
      expect(Math.round((lines[currency]?.[1] as number) * 100)).toBe(cents);
    }
    const sum = summary();
    const [currency, [open]] = Object.entries(expected)[0] as [string, [number, number]];
    const link = sum.formulas[sum.rowOf(currency)]?.[1] ?? "";
    const [, gid, a, b, n] = /^=HYPERLINK\("#gid=(\d+)&range=A(\d+):A(\d+)",(\d+)\)$/.exec(link) ?? [];
    expect([Number(gid), Number(n)]).toEqual([funds.sheet.sheetId, open]);
    // The link spans the first to the last row behind the count: both are open funds of that currency.
    for (const r of [Number(a), Number(b)])
      expect([funds.values[r - 1]?.[h("Status")], funds.values[r - 1]?.[h("Currency")]]).toEqual([
        "Open",
        currency,
      ]);
    expect(String(sum.values[1]?.[0])).toMatch(
      /^Computed .* after Refresh all \(menu\)\. Report window 2024-01-01 to 2024-06-30\./,
    );
    const currencies = Object.keys(lines).sort();
    expect(currencies.length).toBeGreaterThan(1);
    const titles = sum.charts.map((c) => c.title);
    expect(titles.slice(0, currencies.length)).toEqual(
      currencies.map((c) => `Funds in ${c}: balance and movements in window`),
    );
    expect(titles[currencies.length]).toBe("Expense reports sent per month, by status");
    expect(
      titles.slice(currencies.length + 1).every((t) => / approved, not integrated, by age in days$/.test(t)),
    ).toBe(true);
    expect(
      sum.charts.every((c) => c.type === "COLUMN" && /^Summary!A\d+:[B-H]\d+$/.test(c.ranges[0] ?? "")),
    ).toBe(true);
    // The months chart draws the window's six months.
    const months = sum.charts.find((c) => c.title.startsWith("Expense reports sent"))?.ranges[0] ?? "";
    const [, top, bottom] = /A(\d+):C(\d+)/.exec(months) ?? [];
    expect(Number(bottom) - Number(top)).toBe(6);
  });

  it("keeps the user's own cells and moved charts; a refresh of one sheet recomputes only its blocks", () => {
    run("refreshAll");
    s.emulator.typeCells("Summary", "J3:K3", [["my note", "=2*21"]]);
    const before = summary();
    const reportsTitle = before.values[before.rowOf("Expense reports (as of")]?.[0];
    const fundsTitle = before.values[before.rowOf("Funds (as of")]?.[0];
    // The user drags the first chart elsewhere.
    const [first] = chartsOn(before.sheet);
    if (first) first.position = { row: 30, column: 12, offsetX: 5, offsetY: 0 };
    s.emulator.advanceTime(2 * HOUR);
    s.emulator.resetCounters();
    run("refreshFunds");
    expect(s.emulator.counters.sheets["Expense reports"]?.reads ?? 0).toBe(0);
    const after = summary();
    expect(after.values[2]?.[9]).toBe("my note");
    expect(after.formulas[2]?.[10]).toBe("=2*21");
    expect(after.values[after.rowOf("Expense reports (as of")]?.[0]).toBe(reportsTitle);
    expect(after.values[after.rowOf("Funds (as of")]?.[0]).not.toBe(fundsTitle);
    expect(String(after.values[1]?.[0])).toContain("after Refresh funds (menu)");
    expect(after.charts.map((c) => c.id)).toEqual(before.charts.map((c) => c.id));
    expect(after.charts.map((c) => c.position.row)).toEqual([
      30,
      ...before.charts.slice(1).map((c) => c.position.row),
    ]);
    expect(after.charts[0]?.position).toEqual({ row: 30, column: 12, offsetX: 5, offsetY: 0 });
  });

  it("follows Refresh selected rows and a scheduled refresh", async () => {
    run("refreshAll");
    const funds = sheetOf(s.emulator, "Funds");
    if (!funds) throw new Error("no Funds sheet");
    const h = (name: string) => funds.header.indexOf(name);
    const at = funds.values.findIndex((r, i) => i > 0 && r[h("Status")] === "Open");
    const row = funds.values[at] as unknown[];
    const currency = String(row[h("Currency")]);
    const was = fundLines()[currency]?.[1] as number;
    await s.api("depositMoneyToFund", { Id: row[0], IdAdmin: s.sandbox.adminId, DepositAmount: 1000.01 });
    s.emulator.select("Funds", `B${at + 1}`);
    run("refreshSelectedRows");
    expect(Math.round((fundLines()[currency]?.[1] as number) * 100)).toBe(Math.round(was * 100) + 100001);
    expect(String(summary().values[1]?.[0])).toContain("after Refresh selected rows (menu)");

    const saved = s.emulator.tryRun("saveSchedule", [{ kind: "hours", every: 4 }], { as: "script.run" });
    expect(saved.ok).toBe(true);
    s.emulator.advanceTime(4 * HOUR + 60_000);
    expect(s.emulator.fireTimeTriggers().map((f) => f.ok)).toEqual([true]);
    expect(String(summary().values[1]?.[0])).toContain("after Refresh all (scheduled)");
  });

  it("never writes into a sheet of the user's that bears its name, and follows its own sheet through a rename", () => {
    s.emulator.spreadsheet.addSheet("Summary");
    s.emulator.typeCells("Summary", "A1", [["my own summary"]]);
    run("refreshFunds");
    expect(sheetOf(s.emulator, "Summary")?.values).toEqual([["my own summary"]]);
    expect(sheetOf(s.emulator, "Summary (2)")?.values[0]?.[0]).toBe("Summary");
    const ours = s.emulator.spreadsheet.sheetByName("Summary (2)");
    if (ours) ours.name = "Treasury";
    run("refreshReports");
    expect(sheetOf(s.emulator, "Treasury")?.values[0]?.[0]).toBe("Summary");
    expect(s.emulator.spreadsheet.sheets.map((x) => x.name)).not.toContain("Summary (3)");
  });

  it("never writes into another sheet that the document's stored state names as the Summary", () => {
    run("refreshFunds");
    // Another editor points the Summary's stored sheet id at a sheet of someone's own.
    const payroll = s.emulator.spreadsheet.addSheet("Payroll");
    s.emulator.typeCells("Payroll", "A1:B2", [
      ["Employee", "Salary"],
      ["Ana", "1000"],
    ]);
    const before = sheetOf(s.emulator, "Payroll")?.values;
    const store = {
      getProperty: (k: string) => s.emulator.documentPropertiesData.values.get(k) ?? null,
      setProperty: (k: string, v: string) => s.emulator.documentPropertiesData.values.set(k, v),
      deleteProperty: (k: string) => s.emulator.documentPropertiesData.values.delete(k),
    };
    const state = JSON.parse(loadText(store, SUMMARY_STATE_KEY) ?? "{}");
    saveText(store, SUMMARY_STATE_KEY, JSON.stringify({ ...state, sheetId: payroll.sheetId }));
    run("refreshFunds");
    expect(sheetOf(s.emulator, "Payroll")?.values).toEqual(before);
    expect(sheetOf(s.emulator, "Summary")?.values[0]?.[0]).toBe("Summary");
  });

  it("waits for a refresh paused near the time limit to finish, then counts every sheet it refreshed", () => {
    s.emulator.documentPropertiesData.values.set("longrun.executionLimitMs", "1");
    const paused = s.emulator.tryRun("refreshFromSidebar", ["all"], { as: "script.run" });
    expect(paused.ok && (paused.result as { finished: boolean }).finished).toBe(false);
    expect(sheetOf(s.emulator, "Summary")).toBeNull();
    s.emulator.documentPropertiesData.values.delete("longrun.executionLimitMs");
    const done = s.emulator.tryRun("refreshFromSidebar", ["all"], { as: "script.run" });
    expect(done.ok && (done.result as { finished: boolean }).finished).toBe(true);
    const sum = summary();
    expect(String(sum.values[1]?.[0])).toContain("after Refresh all (sidebar)");
    for (const block of ["Funds (as of", "Expense reports (as of"]) {
      expect(sum.values[sum.rowOf(block)]?.[0]).not.toMatch(/—/);
      expect(sum.values[sum.rowOf(block) + 2]?.[0]).not.toBe("Nothing yet: refresh to fill this block.");
    }
  });

  it("speaks Spanish when the add-on does, reading the Spanish labels of the data sheets", () => {
    s.settings({ ...FORM, language: "es" });
    run("refreshAll");
    const funds = sheetOf(s.emulator, "Fondos");
    if (!funds) throw new Error("no Fondos sheet");
    const status = funds.header.indexOf("Estado");
    const open = funds.values.slice(1).filter((r) => r[status] === "Abierto").length;
    const values = sheetsSnapshot(s.emulator).find((x) => x.name === "Resumen")?.values ?? [];
    expect(values[0]?.[0]).toBe("Resumen");
    expect(String(values[1]?.[0])).toMatch(/^Calculado .* tras Actualizar todo \(menú\)/);
    const at = values.findIndex((r) => String(r[0]).startsWith("Fondos (al"));
    expect(values[at + 1]?.slice(0, 2)).toEqual(["Moneda", "Fondos abiertos"]);
    let counted = 0;
    for (let r = at + 2; values[r]?.[0] !== ""; r++) counted += Number(values[r]?.[1]);
    expect(open).toBeGreaterThan(0);
    expect(counted).toBe(open);
    expect(values.some((r) => r[0] === "Requiere atención")).toBe(true);
  });

  it("shows each amount with its currency's decimals, as the data sheets do: CLP whole, USD with cents", () => {
    run("refreshAll");
    const sum = summary();
    const funds = sheetOf(s.emulator, "Funds");
    const h = (name: string) => funds?.header.indexOf(name) ?? -1;
    const sheetFormat = (currency: string) =>
      funds?.formats[funds.values.findIndex((r) => r[h("Currency")] === currency)]?.[h("Balance")];
    const first = sum.rowOf("Funds (as of") + 2;
    const line = (currency: string) => first + sum.values.slice(first).findIndex((r) => r[0] === currency);
    const balance = (currency: string) => sum.values[line(currency)]?.[2] as number;
    expect(Number.isInteger(balance("CLP"))).toBe(true);
    expect(sum.formats[line("CLP")]?.slice(2, 5)).toEqual(Array(3).fill('"CLP "#,##0;[Red]-"CLP "#,##0'));
    expect(sheetFormat("CLP")).toBe("#,##0");
    expect(sum.formats[line("USD")]?.[2]).toBe('"USD "#,##0.00;[Red]-"USD "#,##0.00');
    expect(sheetFormat("USD")).toBe("#,##0.00");
    // As a reader sees them: code first, the currency's decimals, a negative amount in red.
    expect(displayCell(1234567, sum.formats[line("CLP")]?.[2])).toEqual({
      text: "CLP 1,234,567",
      align: "right",
    });
    expect(displayCell(-1234.5, sum.formats[line("USD")]?.[2])).toEqual({
      text: "-USD 1,234.50",
      align: "right",
      color: "#ff0000",
    });
    // The filters in a person's words: the defaults (send date, the service's order) are none.
    expect(String(sum.values[1]?.[0])).toContain("Filters: none.");
  });

  it("does not count a row the service no longer returns (greyed, with its reason)", () => {
    run("refreshAll");
    const before = fundLines();
    const funds = sheetOf(s.emulator, "Funds");
    const h = (name: string) => funds?.header.indexOf(name) ?? -1;
    const row = (funds?.values.length ?? 0) + 1;
    s.emulator.typeCells("Funds", `A${row}:E${row}`, [[999999, "Fondo antiguo", "", "CLP", "Open"]]);
    s.emulator.typeCells("Funds", `H${row}`, [[5000]]);
    run("refreshFunds");
    expect(sheetOf(s.emulator, "Funds")?.values[row - 1]?.[h("Refresh note")]).toMatch(/^Not returned/);
    expect(fundLines()).toEqual(before);
  });

  it("writes a custom status that looks like a formula as text, never as a formula", async () => {
    run("refreshReports");
    const reports = sheetOf(s.emulator, "Expense reports");
    const id = reports?.values[1]?.[0];
    const evil = '=IMAGE("http://x")';
    // An administrator defined it in every policy (the service takes only statuses defined there).
    for (const policy of [201, 202, 203, 204])
      await s.control(`policies/${policy}/statuses`, { CustomStatus: evil });
    await s.api(
      "setExpenseReportCustomStatus",
      { Id: id, IdAdmin: s.sandbox.adminId, CustomStatus: evil },
      "PUT",
    );
    run("refreshReports");
    const sum = summary();
    const at = sum.values.findIndex((r) => r[0] === evil);
    expect(at).toBeGreaterThan(0);
    expect(sum.formulas[at]?.[0]).toBe("");
    expect(sum.formats[at]?.[0]).toBe("@");
  });

  it("never draws two currencies in one chart: each chart's amounts are in the one currency its data names", () => {
    run("refreshAll");
    const sum = summary();
    const snapshot = sheetsSnapshot(s.emulator).find((x) => x.name === "Summary");
    expect(sum.charts.length).toBeGreaterThan(3);
    for (const chart of sum.charts) {
      const [, top, left, bottom] = /^Summary!A(\d+):([B-H])(\d+)$/.exec(chart.ranges[0] ?? "") ?? [];
      const columns = (left ?? "A").charCodeAt(0) - 64;
      const rows = sum.values.slice(Number(top), Number(bottom));
      const formats = (snapshot?.numberFormats ?? [])
        .slice(Number(top), Number(bottom))
        .map((r) => r.slice(1, columns));
      // The currencies named by the number formats of the amounts the chart draws.
      const named = new Set(formats.flat().flatMap((f) => /^"([A-Z]{3}) "/.exec(f)?.[1] ?? []));
      if (chart.title.startsWith("Expense reports sent")) {
        expect(named.size).toBe(0);
        expect(rows.flatMap((r) => r.slice(1, columns)).every((v) => Number.isInteger(v))).toBe(true);
      } else {
        expect([...named]).toEqual([String(sum.values[Number(top) - 1]?.[1])]);
        expect(chart.title).toContain(String(sum.values[Number(top) - 1]?.[1]));
      }
    }
    // The charts of one kind stand side by side, each at its own scale.
    const funds = sum.charts.filter((c) => c.title.startsWith("Funds in"));
    expect(new Set(funds.map((c) => c.position.row)).size).toBe(1);
    expect(funds.map((c) => c.position.offsetX)).toEqual(funds.map((_, i) => i * 332));
  });

  it("removes the charts of before, that mixed currencies, and the chart of a currency no longer shown", () => {
    run("refreshAll");
    const store = {
      getProperty: (k: string) => s.emulator.documentPropertiesData.values.get(k) ?? null,
      setProperty: (k: string, v: string) => s.emulator.documentPropertiesData.values.set(k, v),
      deleteProperty: (k: string) => s.emulator.documentPropertiesData.values.delete(k),
    };
    const state = JSON.parse(loadText(store, SUMMARY_STATE_KEY) ?? "{}");
    const charts = chartsOn(summary().sheet);
    const months = charts.find((c) => c.options.title === "Expense reports sent per month, by status");
    if (!months) throw new Error("no months chart");
    // A Summary of before: three charts kept by position (balance of every currency on one
    // scale, months, ages), and a chart of the user's own.
    const legacy = (id: number, title: string) => ({ ...months, id, options: { title } });
    charts.splice(0, charts.length, legacy(9001, "Balance of open funds per currency"), months);
    charts.push(legacy(9003, "Approved, not integrated, by age in days"), legacy(9999, "mine"));
    saveText(store, SUMMARY_STATE_KEY, JSON.stringify({ ...state, charts: [9001, months.id, 9003] }));
    run("refreshAll");
    const after = summary().charts;
    const ids = after.map((c) => c.id);
    expect(ids).not.toContain(9001);
    expect(ids).not.toContain(9003);
    expect(ids).toContain(9999);
    expect(
      after.filter((c) => c.title === "Expense reports sent per month, by status").map((c) => c.id),
    ).toEqual([months.id]);
    const titles = after.map((c) => c.title);
    expect(new Set(titles).size).toBe(titles.length);
    expect(titles.filter((t) => t.startsWith("Funds in")).length).toBeGreaterThan(1);

    // A currency no longer shown loses its chart.
    const shown = titles.filter((t) => t.startsWith("Funds in"));
    const parsed = JSON.parse(loadText(store, SUMMARY_STATE_KEY) ?? "{}");
    const gone = shown[0]?.slice("Funds in ".length, "Funds in ".length + 3) ?? "";
    parsed.funds.lines = parsed.funds.lines.filter((l: { currency: string }) => l.currency !== gone);
    saveText(store, SUMMARY_STATE_KEY, JSON.stringify(parsed));
    run("refreshReports");
    const later = summary().charts.map((c) => c.title);
    expect(later).not.toContain(shown[0]);
    expect(later.filter((t) => t.startsWith("Funds in"))).toHaveLength(shown.length - 1);
  });

  it("reads like a dashboard: title and blocks set apart, bold headers, widths that fit, ids linked to their rows", () => {
    for (const language of ["en", "es"] as const) {
      s.settings({ ...FORM, language });
      run("refreshAll");
      // The Summary keeps the name it was given in the first language (followed by its id).
      const title = language === "en" ? "Summary" : "Resumen";
      const snapshot = sheetsSnapshot(s.emulator).find((x) => x.values[0]?.[0] === title);
      if (!snapshot) throw new Error(`no ${title} sheet`);
      const at = (text: string) => snapshot.values.findIndex((r) => String(r[0]).startsWith(text));
      expect(snapshot.bold[0]?.[0]).toBe(true);
      expect(snapshot.bold[1]?.[0]).toBe(false);
      expect(snapshot.fontColors[1]?.[0]).toBe("#5f6368");
      const block = at(language === "en" ? "Funds (as of" : "Fondos (al");
      expect(snapshot.backgrounds[block]?.slice(0, 8)).toEqual(Array(8).fill("#d9e4f0"));
      expect(snapshot.bold[block + 1]?.slice(0, 8)).toEqual(Array(8).fill(true));
      expect(snapshot.bold[block + 2]?.[0]).toBe(false);
      expect(snapshot.columnWidths).toEqual({
        1: 190,
        2: 125,
        3: 125,
        4: 125,
        5: 125,
        6: 125,
        7: 125,
        8: 125,
      });
      const attention = at(language === "en" ? "Needs attention" : "Requiere atención") + 2;
      const link = snapshot.formulas[attention]?.[1] ?? "";
      const [, gid, row, id] = /^=HYPERLINK\("#gid=(\d+)&range=A(\d+):A\d+","(\d+)"\)$/.exec(link) ?? [];
      const sheetName = language === "en" ? ["Funds", "Expense reports"] : ["Fondos", "Rendiciones"];
      const target = sheetsSnapshot(s.emulator).find(
        (x) =>
          sheetName.includes(x.name) && s.emulator.spreadsheet.sheetByName(x.name)?.sheetId === Number(gid),
      );
      expect(target?.values[Number(row) - 1]?.[0]).toBe(Number(id));
    }
  });

  it("the data sheets look finished: a bold frozen header, the add-on's columns on a band of their own", () => {
    run("refreshFunds");
    s.emulator.typeCells("Funds", "Z1", [["My column"]]);
    run("refreshFunds");
    const funds = sheetsSnapshot(s.emulator).find((x) => x.name === "Funds");
    if (!funds) throw new Error("no Funds sheet");
    const width = funds.values[0]?.indexOf("My column") ?? -1;
    expect(width).toBeGreaterThan(3);
    const owned = (funds.values[0] ?? []).slice(0, width).filter((h) => h !== "").length;
    expect(funds.frozenRows).toBe(1);
    expect(funds.bold[0]?.slice(0, owned)).toEqual(Array(owned).fill(true));
    expect(funds.backgrounds[0]?.slice(0, owned)).toEqual(Array(owned).fill("#d9e4f0"));
    // The user's own header keeps its look.
    expect([funds.bold[0]?.[width], funds.backgrounds[0]?.[width]]).toEqual([false, ""]);
    expect(funds.bold[1]?.[0]).toBe(false);
  });
});
