import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { allowed, CEILING, coreMentions, mentions } from "../scripts/language-ceiling";

describe("language in the core", () => {
  it("counts the whole word only", () => {
    expect(mentions("language, languages, currentLanguage, MessageLanguage, (language)")).toBe(2);
  });

  it("allows each surface's words module and the layout modules, nothing else", () => {
    expect(allowed("src/settings/words.ts")).toBe(true);
    expect(allowed("src/sheets/columns.ts")).toBe(true);
    expect(allowed("src/settings/model.ts")).toBe(false);
    expect(allowed("src/settings/store.ts")).toBe(false);
  });

  it("stays at or under the ceiling, and the settings model and store take no language", () => {
    const counts = coreMentions(resolve(import.meta.dirname, ".."));
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(CEILING);
    // The store names the word once, in a comment; the model only for the language setting.
    expect(counts.get("src/settings/store.ts") ?? 0).toBeLessThanOrEqual(1);
  });
});
