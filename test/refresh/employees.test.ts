import { describe, expect, it } from "vitest";
import {
  EMPLOYEE_NAMES_KEY,
  learnEmployeeNames,
  loadEmployeeNames,
  MAX_NAME_CHARS,
  saveEmployeeNames,
} from "../../src/refresh/employees";
import { type EngineDeps, refreshSelection, runRefreshSteps, startCursor } from "../../src/refresh/engine";
import { FUND_COLUMNS, FUNDS_TABLE, fundColumns } from "../../src/sheets/columns";
import {
  FakeService,
  makeFund,
  makeReport,
  memorySheets,
  memoryStore,
  readerOf,
  smallRefreshOptions,
} from "./fakes";

const options = smallRefreshOptions();

function setup() {
  const funds = [makeFund(1), { ...makeFund(2), idAssignTo: 7 }, { ...makeFund(3), idAssignTo: 99 }];
  const reports = [
    makeReport(500, "2024-02-01"),
    { ...makeReport(501, "2024-03-01"), employeeId: 7, employeeName: "Íñigo Pérez" },
  ];
  const service = new FakeService(funds, reports);
  const { sheets, port } = memorySheets();
  const store = memoryStore();
  const deps: EngineDeps = {
    reader: readerOf(service),
    sheets: port,
    fingerprints: store,
    employeeNames: store,
    options,
  };
  return { service, sheets, store, deps };
}

/** The Funds sheet's "Assigned to" cell of each fund id. */
function namesOnSheet(values: unknown[][]): Record<string, unknown> {
  const header = values[0] as string[];
  const col = header.indexOf("Assigned to");
  expect(col).toBeGreaterThan(0);
  return Object.fromEntries(values.slice(1).map((r) => [String(r[0]), r[col]]));
}

describe("employees' names", () => {
  it("learns names from reports, newest first, and reports nothing new as null", () => {
    const known = new Map([[3, "Old"]]);
    const next = learnEmployeeNames(known, [
      { employeeId: 5, employeeName: " Eva " },
      { employeeId: 0, employeeName: "Nobody" },
      { employeeId: 6, employeeName: "" },
    ]);
    expect(next && [...next]).toEqual([
      [5, "Eva"],
      [3, "Old"],
    ]);
    expect(learnEmployeeNames(next ?? new Map(), [{ employeeId: 5, employeeName: "Eva" }])).toBeNull();
  });

  it("keeps thousands of names in values under 9 KB each, dropping the names seen longest ago, the funds' employees last", () => {
    const store = memoryStore();
    const names = new Map<number, string>();
    for (let id = 1; id <= 5000; id++) names.set(id, `Ñandú Bárbara ${id}`);
    // Employees 4,990 to 5,000 hold funds: kept though they were seen longest ago.
    const holders = new Set(Array.from({ length: 11 }, (_, i) => 4990 + i));
    saveEmployeeNames(store, names, holders);
    const values = [...store.data].filter(([key]) => key.startsWith(`${EMPLOYEE_NAMES_KEY}.`));
    expect(values.length).toBeGreaterThan(1);
    for (const [, value] of values) expect(Buffer.byteLength(value, "utf8")).toBeLessThanOrEqual(9 * 1024);
    expect(values.reduce((n, [, v]) => n + v.length, 0)).toBeLessThanOrEqual(MAX_NAME_CHARS);
    const loaded = loadEmployeeNames(store);
    expect(loaded.get(1)).toBe("Ñandú Bárbara 1");
    expect(loaded.get(5000)).toBe("Ñandú Bárbara 5000");
    expect(loaded.get(4990)).toBe("Ñandú Bárbara 4990");
    expect(loaded.has(4000)).toBe(false);
    expect(loaded.size).toBeGreaterThan(2000);
    // Saved again with fewer names: the values past the new end are gone.
    saveEmployeeNames(store, new Map([[1, "Ana"]]));
    expect([...loadEmployeeNames(store)]).toEqual([[1, "Ana"]]);
    expect([...store.data.keys()].filter((k) => k.startsWith(`${EMPLOYEE_NAMES_KEY}.`))).toEqual([
      `${EMPLOYEE_NAMES_KEY}.0`,
    ]);
    // The list as one value, as it was kept before, is still read; a damaged one is forgotten.
    store.data.clear();
    store.data.set(EMPLOYEE_NAMES_KEY, '[[7,"Íñigo Pérez"]]');
    expect(loadEmployeeNames(store).get(7)).toBe("Íñigo Pérez");
    store.data.set(EMPLOYEE_NAMES_KEY, "{damaged");
    expect(loadEmployeeNames(store).size).toBe(0);
  });

  it("names each fund's employee in a full refresh, an unseen id staying an id, and a funds-only refresh keeps them", () => {
    const { sheets, deps, store } = setup();
    expect(runRefreshSteps(deps, startCursor("all"), () => false).finished).toBe(true);
    expect(namesOnSheet(sheets.funds.values)).toEqual({ 1: "Ana", 2: "Íñigo Pérez", 3: "99" });
    // Written again only because the reports came after the funds.
    expect(sheets.funds.writes).toBe(2);

    const again = memorySheets();
    runRefreshSteps({ ...deps, sheets: again.port }, startCursor("funds"), () => false);
    expect(namesOnSheet(again.sheets.funds.values)).toEqual({ 1: "Ana", 2: "Íñigo Pérez", 3: "99" });
    expect(loadEmployeeNames(store).get(7)).toBe("Íñigo Pérez");

    const selected = memorySheets();
    refreshSelection({ ...deps, sheets: selected.port }, { target: "funds", ids: [2] });
    expect(namesOnSheet(selected.sheets.funds.values)).toEqual({ 2: "Íñigo Pérez" });
  });

  it("keeps a user's column beside an existing Funds sheet with its own rows when the name column arrives", () => {
    const { sheets, deps } = setup();
    // A sheet written before the name column existed, then sorted and annotated by a user.
    const old = memorySheets();
    old.port.apply("funds", {
      columnsFor: () => FUND_COLUMNS,
      records: [3, 1, 2].map((id) => ({ ...makeFund(id), idAssignTo: id === 2 ? 7 : id === 3 ? 99 : 1 })),
      keyOf: FUNDS_TABLE.keyOf,
      covers: "all",
    });
    const width = FUND_COLUMNS.length;
    const sheet = sheets.funds;
    sheet.values = old.sheets.funds.values.map((row, i) => [
      ...row,
      i === 0 ? "My note" : `note of ${row[0]}`,
    ]);
    sheet.formulas = sheet.values.map((row) => row.map(() => ""));
    sheet.formats = sheet.values.map((row) => row.map(() => "@"));
    sheet.keys = old.sheets.funds.keys;
    expect(sheet.values[0]?.[width]).toBe("My note");

    runRefreshSteps(deps, startCursor("all"), () => false);
    const header = sheet.values[0] as string[];
    expect(header.length).toBe(width + 2);
    expect(header[width + 1]).toBe("My note");
    expect(header.indexOf("Assigned to")).toBe(header.indexOf("Assigned to (id)") + 1);
    for (const row of sheet.values.slice(1)) expect(row[width + 1]).toBe(`note of ${row[0]}`);
    expect(sheet.values.slice(1).map((r) => r[0])).toEqual([3, 1, 2]);
    expect(namesOnSheet(sheet.values)).toEqual({ 1: "Ana", 2: "Íñigo Pérez", 3: "99" });
    expect(sheet.keys).toEqual(fundColumns(new Map()).map((c) => c.key));
  });
});
