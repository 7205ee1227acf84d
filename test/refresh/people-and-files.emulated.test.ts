/**
 * Employees' names (Funds sheet, Fund sidebar) and reports' files (Report files sheet), through
 * the BUILT add-on in the Apps Script emulation against the sandbox service.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeToken } from "../../dev/emulator/settings";
import { loadText } from "../../src/refresh/stored-text";
import { privateBuild, type Setup, setUp, sheetOf } from "./emulation";

let s: Setup;

const FORM = { pageSize: "50", windowMode: "range", windowFrom: "2022-01-01", windowTo: "2024-06-30" };

beforeAll(async () => {
  s = await setUp({ distDir: privateBuild(), funds: 12, reports: 40 });
  storeToken(s.emulator, s.user, s.sandbox.token, s.sandbox.url);
  s.settings(FORM);
}, 120_000);

afterAll(async () => {
  await s?.close();
});

function run(name: string, args: unknown[] = [], as: "menu" | "script.run" = "menu") {
  const out = s.emulator.tryRun(name, args, { as });
  if (!out.ok) throw new Error(`${name} failed: ${out.error}`);
  return out;
}

const sheet = (name: string) => sheetOf(s.emulator, name) as NonNullable<ReturnType<typeof sheetOf>>;

function letter(n: number): string {
  let out = "";
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) out = String.fromCharCode(65 + ((x - 1) % 26)) + out;
  return out;
}

describe("employees' names", () => {
  it("shows each fund's employee by name from the reports read, keeps them for a funds-only refresh of an older sheet with a user's column, and in the Fund sidebar", () => {
    run("refreshAll");
    const reports = sheet("Expense reports");
    const named = new Map<number, string>();
    for (const r of reports.values.slice(1))
      named.set(
        Number(r[reports.header.indexOf("Employee id")]),
        String(r[reports.header.indexOf("Employee")]),
      );

    let funds = sheet("Funds");
    const idCol = funds.header.indexOf("Assigned to (id)");
    const nameCol = funds.header.indexOf("Assigned to");
    expect(nameCol).toBe(idCol + 1);
    const expected = (row: unknown[]) => named.get(Number(row[idCol])) ?? String(row[idCol]);
    const shown = funds.values.slice(1).map((r) => r[nameCol]);
    expect(shown).toEqual(funds.values.slice(1).map(expected));
    expect(shown.some((n) => typeof n === "string" && /[A-Za-z]/.test(n))).toBe(true);

    // The sheet as the add-on wrote it before the name column, with a user's column after it.
    const width = funds.header.length;
    const old = funds.values.map((r, i) => [
      ...r.filter((_v, c) => c !== nameCol),
      i === 0 ? "My note" : `note for ${r[0]}`,
    ]);
    s.emulator.typeCells("Funds", `A1:${letter(width)}${old.length}`, old);
    const stored = s.emulator.documentPropertiesData.values;
    const layout = JSON.parse(
      loadText({ getProperty: (k: string) => stored.get(k) ?? null } as never, "sheets.layout.funds") ?? "[]",
    );
    // Kept in one value, as that version did.
    s.emulator.documentPropertiesData.values.set(
      "sheets.layout.funds",
      JSON.stringify(layout.filter((k: string) => k !== "assignedToName")),
    );

    run("refreshFunds");
    funds = sheet("Funds");
    expect(funds.header.slice(idCol, idCol + 2)).toEqual(["Assigned to (id)", "Assigned to"]);
    expect(funds.header[width]).toBe("My note");
    for (const row of funds.values.slice(1)) {
      expect(row[width]).toBe(`note for ${row[0]}`);
      expect(row[nameCol]).toBe(expected(row));
    }

    const fundRow = funds.values.slice(1).find((r) => named.has(Number(r[idCol]))) as unknown[];
    const view = run("getFundSidebarView", [{ fundId: String(fundRow[0]) }], "script.run").result as {
      fund: { employeeId: number };
      employees: { id: number; name: string }[];
    };
    expect(view.fund.employeeId).toBe(Number(fundRow[idCol]));
    expect(view.employees).toContainEqual({
      id: Number(fundRow[idCol]),
      name: named.get(Number(fundRow[idCol])),
    });
  });

  it("names employees in the Fund sidebar only from the user's own refreshes, not from a list or a cell another editor wrote", () => {
    run("refreshAll");
    const reports = sheet("Expense reports");
    const idAt = reports.header.indexOf("Employee id");
    const nameAt = reports.header.indexOf("Employee");
    const victim = Number(reports.values[1]?.[idAt]);
    const realName = String(reports.values[1]?.[nameAt]);
    const fundId = String(sheet("Funds").values[1]?.[0]);
    const employees = () =>
      (
        run("getFundSidebarView", [{ fundId }], "script.run").result as {
          employees: { id: number; name: string }[];
        }
      ).employees;
    expect(employees()).toContainEqual({ id: victim, name: realName });
    // An id no report names, typed into the Funds sheet: listed bare, after the named ones.
    const funds = sheet("Funds");
    const assigned = funds.header.indexOf("Assigned to (id)");
    s.emulator.typeCells("Funds", `${letter(assigned + 1)}${funds.values.length}`, [[987654]]);
    const mixed = employees();
    expect(mixed[0]?.name).not.toBe("");
    expect(mixed[mixed.length - 1]).toEqual({ id: 987654, name: "" });

    // Another editor renames that employee in the document's list and in the Reports sheet.
    const data = s.emulator.documentPropertiesData.values;
    data.set("refresh.employeeNames", "1");
    data.set("refresh.employeeNames.0", JSON.stringify([[victim, "Mallory"]]));
    s.emulator.typeCells("Expense reports", `${letter(nameAt + 1)}2`, [["Mallory"]]);
    const listed = employees();
    expect(listed.filter((e) => e.name === "Mallory")).toEqual([]);
    expect(listed).toContainEqual({ id: victim, name: "" });

    // The user's next refresh reads the names from the service again.
    run("refreshReports");
    expect(employees()).toContainEqual({ id: victim, name: realName });
  });

  it("lists every file of every report on the Report files sheet, each a link", async () => {
    run("refreshReports");
    const reports = sheet("Expense reports");
    const expected: string[][] = [];
    for (const row of reports.values.slice(1)) {
      const report = await s.api(`getExpenseReport?Id=${row[0]}`);
      (report.Files as { Name: string; Url: string }[]).forEach((f, i) => {
        expected.push([`${row[0]}-${i + 1}`, `=HYPERLINK("${f.Url}","${f.Name}")`]);
      });
    }
    const counts = new Map<string, number>();
    for (const [key] of expected)
      counts.set(key.split("-")[0] as string, (counts.get(key.split("-")[0] as string) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeGreaterThan(1);

    const files = sheet("Report files");
    expect(files.header.slice(0, 4)).toEqual(["File", "Report id", "Name", "Link"]);
    const link = files.header.indexOf("Link");
    const shown = files.values.slice(1).map((r, i) => [String(r[0]), files.formulas[i + 1]?.[link]]);
    expect(shown.sort()).toEqual(expected.sort());
    for (const [url] of shown.map((r) => /^=HYPERLINK\("([^"]*)"/.exec(String(r[1]))?.slice(1) ?? []))
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_sandbox\/files\//);
  });

  it("names the employees in Spanish headers too", () => {
    s.settings({ ...FORM, language: "es" });
    run("refreshFunds");
    const funds = sheet("Fondos");
    const at = funds.header.indexOf("Asignado a (id)");
    expect(funds.header[at + 1]).toBe("Asignado a");
    expect(funds.values.slice(1).some((r) => /[A-Za-z]/.test(String(r[at + 1])))).toBe(true);
  });
});
