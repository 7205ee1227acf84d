/**
 * Hundreds of employees, and report pages that come after the funds' pages (100 per page): a
 * refresh with no change still writes no fund row, because the stored list of names holds
 * every fund's employee, so no fund is written with an id first and its name again after the
 * reports (the BUILT add-on in the emulation, against the sandbox).
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeToken } from "../../dev/emulator/settings";
import { loadEmployeeNames } from "../../src/refresh/employees";
import { privateBuild, type Setup, setUp, sheetOf } from "./emulation";

let s: Setup;

beforeAll(async () => {
  s = await setUp({ distDir: privateBuild(), funds: 1_200, reports: 3_000 });
  await s.control("reset", { seed: 7, funds: 1_200, reports: 3_000, employees: 600 });
  storeToken(s.emulator, s.user, s.sandbox.token, s.sandbox.url);
  s.settings({ pageSize: "100", windowMode: "range", windowFrom: "2022-01-01", windowTo: "2024-06-30" });
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe("employees' names of hundreds of funds", () => {
  it("are written once: a refresh with no change writes no fund row", () => {
    const first = s.emulator.tryRun("refreshAll", [], { as: "menu" });
    if (!first.ok) throw new Error(`refreshAll failed: ${first.error}`);
    const funds = sheetOf(s.emulator, "Funds") as NonNullable<ReturnType<typeof sheetOf>>;
    const idCol = funds.header.indexOf("Assigned to (id)");
    const nameCol = funds.header.indexOf("Assigned to");
    const shownNames = new Set(
      funds.values
        .slice(1)
        .filter((r) => String(r[nameCol]) !== String(r[idCol]))
        .map((r) => r[idCol]),
    );
    s.emulator.resetCounters();
    const second = s.emulator.tryRun("refreshAll", [], { as: "menu" });
    if (!second.ok) throw new Error(`refreshAll failed: ${second.error}`);
    // The one cell written is the header's note saying when the sheet was refreshed.
    expect(s.emulator.counters.sheets.Funds).toMatchObject({ writes: 1, cellsWritten: 1 });
    const after = sheetOf(s.emulator, "Funds") as NonNullable<ReturnType<typeof sheetOf>>;
    expect(after.values).toEqual(funds.values);
    const data = s.emulator.documentPropertiesData.values;
    const stored = loadEmployeeNames({
      getProperty: (key: string) => data.get(key) ?? null,
      setProperty: () => undefined,
      deleteProperty: () => undefined,
    });
    // The case at hand: more employees than one property value (9 KB) can name.
    expect(shownNames.size).toBeGreaterThan(400);
    for (const id of shownNames) expect(stored.has(Number(id))).toBe(true);
  });
});
