/**
 * Sheet names that collide, as an editor would set them, in the BUILT add-on run by the
 * emulation against the sandbox: the settings sidebar refuses a sheet name that is another
 * add-on sheet's (chosen or default, English or Spanish), and a refresh whose stored names
 * collide (stored before the rule) stops with the reason instead of writing funds into the
 * Audit sheet.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { SETTINGS_KEY } from "../../src/settings";
import type { SaveSettingsResult } from "../../src/settings/view";
import { setUpPerFile, sheetOf } from "../refresh/emulation";

const s = setUpPerFile({ funds: 3, reports: 2 });

beforeEach(() => {
  s.settings({ pageSize: "5" });
});

function save(form: Record<string, string>): SaveSettingsResult {
  return s.emulator.run("saveSettings", [form], { as: "script.run", user: s.user }) as SaveSettingsResult;
}

describe("the settings sidebar refuses colliding sheet names", () => {
  it.each([
    ["sheetFunds", "Audit", "Audit sheet"],
    ["sheetFunds", "  AUDIT ", "Audit sheet"],
    ["sheetReports", "Auditoría", "Audit sheet"],
    ["sheetOutbox", "Fondos", "Funds sheet"],
    ["sheetTransactions", "Audit archive", "Audit archive sheet"],
  ])("%s = %j names the field and the sheet it belongs to", (field, name, other) => {
    const before = s.emulator.documentPropertiesData.values.get(SETTINGS_KEY);
    const out = save({ [field]: name });
    expect(out.ok).toBe(false);
    const problems = out.ok ? [] : out.problems;
    expect(problems.map((p) => p.field)).toEqual([field]);
    expect(problems[0]?.message).toContain(`"${name.trim()}"`);
    expect(problems[0]?.message).toContain(other);
    expect(problems[0]?.message).toContain("each sheet needs its own name");
    expect(s.emulator.documentPropertiesData.values.get(SETTINGS_KEY)).toBe(before);
  });

  it("refuses two chosen names that differ only in case, naming the later field", () => {
    const out = save({ sheetFunds: "Caja", sheetReports: "caja" });
    expect(out.ok ? [] : out.problems.map((p) => p.field)).toEqual(["sheetReports"]);
  });
});

describe("a refresh with colliding names stored before the rule", () => {
  it("stops with the reason and leaves the Audit sheet as it was", () => {
    expect(s.emulator.tryRun("refreshFunds", [], { as: "menu", user: s.user })).toMatchObject({ ok: true });
    const audit = sheetOf(s.emulator, "Audit");
    expect(audit?.values.length).toBeGreaterThan(1);

    s.settings({ pageSize: "5", sheetFunds: "Audit" });
    s.emulator.ui.dialogs.length = 0;
    s.emulator.answers.push("OK");
    expect(s.emulator.tryRun("refreshFunds", [], { as: "menu", user: s.user })).toMatchObject({ ok: true });
    expect(sheetOf(s.emulator, "Audit")).toEqual(audit);
    const alert = s.emulator.ui.dialogs.map((d) => d.prompt).join("\n");
    expect(alert).toContain('Funds sheet: "Audit"');
    expect(alert).toContain("each sheet needs its own name");
  });
});
