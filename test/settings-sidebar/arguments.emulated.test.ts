/**
 * What the settings sidebar sends, as an editor with the sidebar open could
 * send it through google.script.run, run by the BUILT add-on in the emulation: an argument's
 * inherited members are not settings, and a setting far too long comes back as a problem
 * naming the field and its maximum, not as Apps Script's "Argument too large: value".
 */
import { describe, expect, it } from "vitest";
import type { Emulator } from "../../dev/emulator/index";
import { SETTINGS_KEY } from "../../src/settings";
import { SETTING_FIELDS, SETTING_NAMES } from "../../src/settings/model";
import type { SaveSettingsResult } from "../../src/settings/view";
import { settingLabel } from "../../src/settings/words";
import { emulatorPerTest } from "../support/emulation";

const ANA = "ana@empresa.cl";
const ATTACKER_URL = "https://attacker.example/v1";
const OWN_URL = "https://api.rindegastos.com/v1";

let em: Emulator;
emulatorPerTest([ANA], { triggerSeesSpreadsheet: true }, (made) => {
  em = made;
  em.documentPropertiesData.values.set(SETTINGS_KEY, JSON.stringify({ baseUrl: OWN_URL, adminId: "7" }));
});

function stored(): Record<string, string> {
  return JSON.parse(em.documentPropertiesData.values.get(SETTINGS_KEY) ?? "{}");
}

describe("server functions read only an argument's own members", () => {
  it('saveSettings: {"__proto__": {"baseUrl": …}} from a sidebar changes no setting', () => {
    const sent = JSON.parse(
      `{"__proto__": {"baseUrl": "${ATTACKER_URL}", "adminId": "99"}, "pageSize": "50"}`,
    );
    const out = em.run("saveSettings", [sent], { as: "script.run", user: ANA }) as SaveSettingsResult;
    expect(out.ok).toBe(true);
    expect(stored()).toMatchObject({ baseUrl: OWN_URL, adminId: "7", pageSize: "50" });
  });

  it("saveSettings: members an argument only inherits are not read, whoever hands it over", () => {
    // Not what google.script.run delivers; what any caller that passes objects as they are
    // would: the server's own reading is what keeps the prototype out.
    const sent = Object.create({ baseUrl: ATTACKER_URL }) as Record<string, unknown>;
    sent.pageSize = "60";
    const out = em.run("saveSettings", [sent], { as: "trigger", user: ANA }) as SaveSettingsResult;
    expect(out.ok).toBe(true);
    expect(stored()).toMatchObject({ baseUrl: OWN_URL, pageSize: "60" });
  });

  it("saveSchedulePreferences: an inherited choice is not a choice", () => {
    const sent = Object.create({ mailOnFailure: true });
    em.run("saveSchedulePreferences", [sent], { as: "trigger", user: ANA });
    expect(em.userPropertiesOf(ANA).values.get("schedule.mailOnFailure")).toBeUndefined();
  });
});

describe("a setting far too long", () => {
  it.each(SETTING_NAMES)("%s of 20,000 characters fails naming the field and its maximum", (name) => {
    const out = em.run("saveSettings", [{ [name]: `https://${"a".repeat(19_992)}` }], {
      as: "script.run",
      user: ANA,
    }) as SaveSettingsResult;
    expect(out.ok).toBe(false);
    const problems = out.ok ? [] : out.problems;
    const max = SETTING_FIELDS[name].maxLength;
    expect(problems).toEqual([
      {
        field: name,
        message: `${settingLabel(name, "en")} must be at most ${max} characters long (got 20000).`,
      },
    ]);
    expect(stored()).toEqual({ baseUrl: OWN_URL, adminId: "7" });
  });
});
