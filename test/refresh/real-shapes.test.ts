/**
 * Refreshes of the BUILT add-on against the sandbox in its "real shapes" mode (ids, report
 * numbers and Records as strings, amounts as numeric strings, flags as "1"/"0"/"" or booleans,
 * ExtraFields as JSON text, empty dates as null): the sheets must hold exactly what a refresh
 * against the spec's exact shapes of the same company gives.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeToken } from "../../dev/emulator/settings";
import { privateBuild, RANGE_FORM, type Setup, setUp, sheetOf } from "./emulation";

let s: Setup;
const COMPANY = { seed: 7, funds: 12, reports: 40 };
const FORM = { ...RANGE_FORM, reportTypeDateFilter: "2" };
const SHEETS = ["Funds", "Fund transactions", "Expense reports"] as const;
type Grids = Record<(typeof SHEETS)[number], NonNullable<ReturnType<typeof sheetOf>>>;

let exact: Grids;
let real: Grids;
/** What the real-shapes sandbox sent for the funds and reports, for checking that it did vary. */
let served: { funds: Record<string, unknown>[]; reports: Record<string, unknown>[] };

async function refreshAll(shapes: "exact" | "real"): Promise<Grids> {
  await s.control("reset", { ...COMPANY, shapes });
  s.emulator.resetState();
  storeToken(s.emulator, s.user, s.sandbox.token, s.sandbox.url);
  s.settings(FORM);
  const out = s.emulator.tryRun("refreshAll", [], { as: "menu" });
  if (!out.ok) throw new Error(`refreshAll against ${shapes} shapes failed: ${out.error}`);
  return Object.fromEntries(
    SHEETS.map((name) => {
      const sheet = sheetOf(s.emulator, name);
      if (!sheet) throw new Error(`no sheet ${name} after refreshing against ${shapes} shapes`);
      return [name, sheet];
    }),
  ) as Grids;
}

beforeAll(async () => {
  s = await setUp({ distDir: privateBuild(), ...COMPANY });
  exact = await refreshAll("exact");
  real = await refreshAll("real");
  const funds = await s.api("getFunds?ResultsPerPage=100");
  const reports = await s.api(
    "getExpenseReports?TypeDateFilter=2&Since=2023-07-01&Until=2024-06-30&ResultsPerPage=100",
  );
  served = { funds: funds.Funds, reports: reports.ExpenseReports };
}, 120_000);

afterAll(async () => {
  await s?.close();
});

const col = (grid: Grids[keyof Grids], label: string) => {
  const at = grid.header.indexOf(label);
  if (at < 0) throw new Error(`no column ${label}; columns: ${grid.header.join(", ")}`);
  return at;
};
const column = (grid: Grids[keyof Grids], label: string) =>
  grid.values.slice(1).map((r) => r[col(grid, label)]);

describe("refresh against the real service's shapes", () => {
  it("was served real shapes: string ids, numeric-string amounts, varied flags, JSON-text extra fields, null dates", () => {
    expect(served.funds.every((f) => typeof f.Id === "string")).toBe(true);
    expect(served.funds.some((f) => typeof f.Balance === "string")).toBe(true);
    expect(served.funds.some((f) => f.AutomaticBlock === "" || f.ManualDeposit === "")).toBe(true);
    expect(served.reports.some((r) => typeof r.ExtraFields === "string")).toBe(true);
    expect(served.reports.some((r) => r.CloseDate === null)).toBe(true);
    expect(served.reports.some((r) => r.CloseDate === "0000-00-00")).toBe(true);
    expect(served.reports.some((r) => r.Integrated === 1 || r.Integrated === "true")).toBe(true);
    expect(served.reports.every((r) => typeof r.ReportNumber === "string")).toBe(true);
  });

  for (const name of SHEETS) {
    it(`${name}: the same rows, values, formats and formulas as from the exact shapes`, () => {
      expect(real[name].values.length).toBeGreaterThan(1);
      expect(real[name].header).toEqual(exact[name].header);
      // File links name the same sandbox, so whole grids compare, dates by their instant.
      expect(real[name].values).toEqual(exact[name].values);
      expect(real[name].formats).toEqual(exact[name].formats);
      expect(real[name].formulas).toEqual(exact[name].formulas);
    });
  }

  it("Funds: ids as numbers, amounts to the cent, flags as labels, dates as dates", () => {
    const funds = real.Funds;
    for (const id of column(funds, "Id")) expect(typeof id).toBe("number");
    const byId = new Map(served.funds.map((f) => [Number(f.Id), f]));
    funds.values.slice(1).forEach((row) => {
      const fund = byId.get(row[col(funds, "Id")] as number);
      expect(fund, `fund ${row[0]} served`).toBeDefined();
      expect(row[col(funds, "Balance")]).toBe(Number(fund?.Balance));
      expect(Math.round((row[col(funds, "Balance")] as number) * 100) / 100).toBe(row[col(funds, "Balance")]);
    });
    const flagColumns = funds.header.filter((h) => /flexible|block|manual/i.test(String(h)));
    expect(flagColumns.length).toBeGreaterThanOrEqual(2);
    for (const label of flagColumns) {
      const shown = new Set(column(funds, String(label)));
      for (const value of shown)
        expect(typeof value === "boolean" || ["Yes", "No"].includes(String(value))).toBe(true);
    }
    const created = column(funds, "Created");
    expect(created.every((d) => d instanceof Date)).toBe(true);
  });

  it("Expense reports: ids and numbers as numbers, totals to the cent, extra fields as columns, dates as dates", () => {
    const reports = real["Expense reports"];
    for (const id of column(reports, "Id")) expect(typeof id).toBe("number");
    const byId = new Map(served.reports.map((r) => [Number(r.Id), r]));
    let withText = 0;
    for (const row of reports.values.slice(1)) {
      const report = byId.get(row[col(reports, "Id")] as number);
      if (!report) continue;
      expect(row[col(reports, "Total")]).toBe(Number(report.ReportTotal));
      if (typeof report.ExtraFields === "string") {
        withText += 1;
        for (const field of JSON.parse(report.ExtraFields) as { Name: string; Value: string }[]) {
          expect(row[col(reports, field.Name)]).toBe(field.Value);
        }
      }
      const sent = row[col(reports, "Sent")];
      expect(sent === "" || sent instanceof Date).toBe(true);
      const closed = row[col(reports, "Closed")];
      // An empty date as null, "" or zeros ("0000-00-00") is an empty cell.
      if (report.CloseDate === null || /^(0000-00-00)?$/.test(String(report.CloseDate)))
        expect(closed).toBe("");
      else expect(closed).toBeInstanceOf(Date);
    }
    expect(withText).toBeGreaterThan(0);
  });
  for (const name of ["Funds", "Expense reports"] as const) {
    it(`${name}: refreshing every row by selection, one record at a time, changes nothing`, () => {
      const rows = real[name].values.length;
      s.emulator.select(name, `A2:A${rows}`);
      s.emulator.resetCounters();
      const out = s.emulator.tryRun("refreshSelectedRows", [], { as: "menu" });
      if (!out.ok) throw new Error(`refreshSelectedRows on ${name} failed: ${out.error}`);
      expect(s.emulator.counters.urlFetchTotal).toBeGreaterThan(0);
      const after = sheetOf(s.emulator, name) as NonNullable<ReturnType<typeof sheetOf>>;
      // Equal to the exact shapes' sheet, even where the list's Integrated of "" left a cell
      // empty: a row refreshed alone keeps the list's value, read as "No" (see the note above).
      expect(after.values).toEqual(exact[name].values);
      expect(after.formulas).toEqual(exact[name].formulas);
    });
  }
  for (const [fault, endpoint] of [
    ["error-in-200-v2", "getExpenseReports"],
    ["error-in-200", "getFunds"],
  ] as const) {
    it(`an ${fault} answer to ${endpoint} fails the refresh: the service answered with an error, the sheet kept, try later`, async () => {
      const sheet = endpoint === "getFunds" ? "Funds" : "Expense reports";
      const before = sheetOf(s.emulator, sheet)?.values;
      await s.control("faults", { rules: [{ endpoint, fault, times: 5 }] });
      try {
        s.emulator.answers.push("OK");
        const out = s.emulator.tryRun(endpoint === "getFunds" ? "refreshFunds" : "refreshReports", [], {
          as: "menu",
        });
        expect(out.ok).toBe(true);
        expect(sheetOf(s.emulator, sheet)?.values).toEqual(before);
        const alert = s.emulator.ui.dialogs.at(-1);
        // A read has no values to check: it says the service answered with an error, what was
        // kept, and to try again later.
        expect(alert?.prompt).toMatch(
          /^The service answered with an error\. The sheets keep their previous data\. Try again later\.\n\n/,
        );
        expect(alert?.prompt).not.toContain("Check the values");
        expect(alert?.prompt).toContain(`\n\nDetails: ${endpoint}: `);
        expect(alert?.prompt).toContain(`${endpoint} refused by an injected ${fault} fault`);
        const audit = sheetOf(s.emulator, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
        const last = audit.values.at(-1) ?? [];
        expect(last[audit.header.indexOf("Endpoint")]).toBe(endpoint);
        // A failed read is audited as failed (reads are never "refused" writes), never as ok.
        expect(["error", "refused"]).toContain(last[audit.header.indexOf("Outcome")]);
      } finally {
        await s.control("faults", undefined, "DELETE");
      }
    });
  }

  it("a proxy's HTML error page to getFunds fails the refresh naming the page's title, without its markup", async () => {
    const before = sheetOf(s.emulator, "Funds")?.values;
    await s.control("faults", { rules: [{ endpoint: "getFunds", fault: "html-page", status: 502 }] });
    try {
      s.emulator.answers.push("OK");
      expect(s.emulator.tryRun("refreshFunds", [], { as: "menu" }).ok).toBe(true);
      expect(sheetOf(s.emulator, "Funds")?.values).toEqual(before);
      const alert = s.emulator.ui.dialogs.at(-1)?.prompt ?? "";
      expect(alert).toMatch(
        /^The service is not answering right now\. The sheets keep their previous data\./,
      );
      expect(alert).toContain(
        "Details: getFunds: the service answered HTTP 502: 502 Bad Gateway: 502 Bad Gateway nginx",
      );
      expect(alert).not.toMatch(/<|font-family/);
    } finally {
      await s.control("faults", undefined, "DELETE");
    }
  });
});
