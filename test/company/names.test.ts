/**
 * Names that look alike are one name (src/company/names.ts): NFKC, invisible characters
 * removed, case folded, and the confusable skeleton of Unicode TS #39, whose data for Latin,
 * Greek and Cyrillic (src/company/confusables.ts) is checked here against the full
 * confusables data as the `unhomoglyph` package ships it.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { CONFUSABLE_LINES } from "../../src/company/confusables";
import { hasDirectionControl, nameDigest, nameKey, sameName, skeleton } from "../../src/company/names";

const require = createRequire(import.meta.url);
const FULL = require("unhomoglyph/data.json") as Record<string, string>;

/** The scripts the table covers: ASCII, Latin, IPA, Greek, Cyrillic, Latin and Greek extended. */
function covered(char: string): boolean {
  const p = char.codePointAt(0) ?? 0;
  return (
    (p >= 0x21 && p <= 0x7e) ||
    (p >= 0xa0 && p <= 0x2af) ||
    (p >= 0x370 && p <= 0x52f) ||
    (p >= 0x1e00 && p <= 0x1fff)
  );
}

/** A prototype the table keeps: ASCII letters and signs, with combining marks. */
function plain(prototype: string): boolean {
  return Array.from(prototype).every((c) => {
    const p = c.codePointAt(0) ?? 0;
    return (p >= 0x20 && p <= 0x7e) || (p >= 0x300 && p <= 0x36f);
  });
}

describe("the confusables table", () => {
  it("is exactly TS #39's data for the covered scripts (characters already in NFD)", () => {
    const expected = Object.entries(FULL)
      .filter(([k, v]) => Array.from(k).length === 1 && covered(k) && plain(v) && k.normalize("NFD") === k)
      .map(([k, v]) => `${k}${v}`)
      .sort();
    expect([...CONFUSABLE_LINES].sort()).toEqual(expected);
    expect(CONFUSABLE_LINES.length).toBeGreaterThan(200);
  });

  it("maps Greek and Cyrillic look-alikes to Latin", () => {
    expect(skeleton("\u0391lpha")).toBe(skeleton("Alpha"));
    expect(skeleton("\u0412\u0435t\u0430")).toBe(skeleton("Beta"));
  });
});

describe("one name", () => {
  const alpha = [
    "Alpha",
    "ALPHA",
    "alpha",
    "\u0391lpha", // Greek capital alpha
    "\u0410lpha", // Cyrillic capital a
    "Al\u200bpha", // zero-width space
    "Alpha\u00ad", // soft hyphen
    "\uff21\uff4c\uff50\uff48\uff41", // fullwidth
    "AIpha", // capital I for l
    "A1pha", // one for l
  ];
  it.each(alpha)("%j is the name Alpha", (name) => {
    expect(nameKey(name)).toBe(nameKey("Alpha"));
    expect(sameName(name, "Alpha")).toBe(true);
    expect(nameDigest(name)).toBe(nameDigest("Alpha"));
  });

  it("other names stay other names, accents included", () => {
    expect(sameName("Alpha", "Beta")).toBe(false);
    expect(sameName("Alpha", "Alpha 2")).toBe(false);
    expect(sameName("Café", "Cafe")).toBe(false);
    expect(sameName("Café", "Cafe\u0301")).toBe(true);
    expect(nameDigest("Alpha")).toMatch(/^[0-9a-f]{8}$/);
    expect(nameDigest("Alpha")).not.toBe(nameDigest("Beta"));
  });

  it("direction controls are told apart from the invisible characters that are only removed", () => {
    for (const c of ["\u202e", "\u202d", "\u200f", "\u200e", "\u2066", "\u2069", "\u061c"])
      expect(hasDirectionControl(`Al${c}pha`)).toBe(true);
    expect(hasDirectionControl("Al\u200bpha")).toBe(false);
    expect(hasDirectionControl("Alpha")).toBe(false);
  });
});
