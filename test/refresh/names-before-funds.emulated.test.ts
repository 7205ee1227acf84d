/**
 * More employees than the stored list of names holds: a refresh with no change still writes
 * no fund row, because the report pages that came with the funds' pages name the employees
 * before the funds are written (the BUILT add-on in the emulation, against the sandbox).
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeToken } from "../../dev/emulator/settings";
import { EMPLOYEE_NAMES_KEY } from "../../src/refresh/employees";
import { privateBuild, type Setup, setUp, sheetOf } from "./emulation";

let s: Setup;

beforeAll(async () => {
  s = await setUp({ distDir: privateBuild(), funds: 1_200, reports: 3_000 });
  await s.control("reset", { seed: 7, funds: 1_200, reports: 3_000, employees: 600 });
  storeToken(s.emulator, s.user, s.sandbox.token, s.sandbox.url);
  s.settings({ pageSize: "1000", windowMode: "range", windowFrom: "2022-01-01", windowTo: "2024-06-30" });
}, 120_000);

afterAll(async () => {
  await s?.close();
});

describe("employees' names past the stored list's room", () => {
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
    const stored = JSON.parse(s.emulator.documentPropertiesData.values.get(EMPLOYEE_NAMES_KEY) ?? "[]");
    // The case at hand: the sheet names more employees than the stored list keeps.
    expect(shownNames.size).toBeGreaterThan(stored.length);

    s.emulator.resetCounters();
    const second = s.emulator.tryRun("refreshAll", [], { as: "menu" });
    if (!second.ok) throw new Error(`refreshAll failed: ${second.error}`);
    // The one cell written is the header's note saying when the sheet was refreshed.
    expect(s.emulator.counters.sheets.Funds).toMatchObject({ writes: 1, cellsWritten: 1 });
    const after = sheetOf(s.emulator, "Funds") as NonNullable<ReturnType<typeof sheetOf>>;
    expect(after.values).toEqual(funds.values);
  });
});
