/**
 * Every setting has a maximum length, and together they fit where the settings are kept: one
 * document property holds at most 9 KB, and a save past it would fail with Apps Script's
 * "Argument too large: value" instead of a message naming a field.
 */
import { describe, expect, it } from "vitest";
import {
  defaultSettingsText,
  SETTING_FIELDS,
  SETTING_NAMES,
  settingsFromText,
} from "../../src/settings/model";
import { settingsIssueText } from "../../src/settings/words";

const PROPERTY_VALUE_BYTES = 9 * 1024;

describe("settings' maximum lengths", () => {
  it("every setting at its maximum, in 3-byte characters, fits in one document property", () => {
    const worst: Record<string, string> = {};
    for (const name of SETTING_NAMES) worst[name] = "€".repeat(SETTING_FIELDS[name].maxLength);
    const bytes = Buffer.byteLength(JSON.stringify(worst), "utf8");
    expect(bytes).toBeLessThan(PROPERTY_VALUE_BYTES);
  });

  it("a text one character past its maximum is refused by length, before its rule quotes it", () => {
    for (const name of SETTING_NAMES) {
      const max = SETTING_FIELDS[name].maxLength;
      const r = settingsFromText({ ...defaultSettingsText(), [name]: "9".repeat(max + 1) });
      expect(r.ok, name).toBe(false);
      const issues = r.ok ? [] : r.issues;
      expect(
        issues.map((i) => [i.field, i.rule]),
        name,
      ).toEqual([[name, "maxLength"]]);
      expect(issues[0] && settingsIssueText(issues[0], "en")).toBe(
        `${name} must be at most ${max} characters long (got ${max + 1}).`,
      );
    }
  });
});
