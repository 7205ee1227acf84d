/**
 * Property tests: whatever a sidebar (or anyone calling the server functions) sends, the
 * settings checks answer with problems naming a field, never throw, never save a broken
 * setting and never put the token in a message.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { savedTestToken } from "../../src/app/company-clients";
import { connectionTestResult } from "../../src/app/connection-words";
import {
  createSettingsStore,
  SETTING_NAMES,
  settingsFromText,
  settingsTextFrom,
  testConnection,
} from "../../src/settings";
import { settingsIssueText } from "../../src/settings/words";
import { memoryStore } from "./stores";

const TOKEN = "secret-token-000111222";
const anyValue = fc.anything({ withDate: true, withNullPrototype: true });
const settingText = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "",
    "0",
    "1",
    "100",
    "1001",
    "range",
    "lastDays",
    "2024-02-30",
    "2024-01-01",
    "clp",
    "https://x.test/v1",
  ),
);

describe("settings never throw and name their fields", () => {
  it("settingsFromText on any text of any setting", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...SETTING_NAMES), settingText), (changes) => {
        const r = settingsFromText(settingsTextFrom(changes));
        if (!r.ok) {
          for (const issue of r.issues) {
            expect(SETTING_NAMES as string[]).toContain(issue.field);
            expect(settingsIssueText(issue, "en").startsWith(issue.field)).toBe(true);
          }
        } else {
          expect(settingsFromText(r.text).ok).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("testConnection with anything answers a result and never calls out with a broken URL", () => {
    fc.assert(
      fc.property(anyValue, (input) => {
        const document = memoryStore();
        const user = memoryStore({
          "settings.token": TOKEN,
          "settings.tokenOrigin": "https://api.rindegastos.com",
        });
        const store = createSettingsStore({ document: document.store, user: user.store });
        const urls: string[] = [];
        const r = connectionTestResult(
          testConnection(
            {
              store,
              savedToken: (target) => savedTestToken(store, target),
              createClient: (baseUrl) => {
                urls.push(baseUrl);
                throw new Error("not calling out in this test");
              },
            },
            input,
          ),
          "en",
        );
        expect(typeof r.message).toBe("string");
        expect(r.message).not.toContain(TOKEN);
        for (const url of urls) expect(url).toMatch(/^https?:\/\//);
      }),
      { numRuns: 300 },
    );
  });
});
