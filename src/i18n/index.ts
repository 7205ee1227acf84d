/**
 * One catalogue of user-facing strings in English and Spanish. Each area of the add-on keeps
 * its strings in a file of its own here and is registered once below; a key missing from one
 * language is a compile error.
 */
import { audit } from "./audit";
import { close } from "./close";
import { closeContinuation } from "./close-continuation";
import { common } from "./common";
import { companies } from "./companies";
import { companiesOutbox } from "./companies-outbox";
import { companiesSchedule } from "./companies-schedule";
import { companiesSettings } from "./companies-settings";
import { companiesSidebars } from "./companies-sidebars";
import { connection } from "./connection";
import { diagnostics } from "./diagnostics";
import { forms } from "./forms";
import { longrun } from "./longrun";
import { outbox } from "./outbox";
import { refresh } from "./refresh";
import { refreshLanes } from "./refresh-lanes";
import { rules } from "./rules";
import { schedule } from "./schedule";
import { settings } from "./settings";
import { sheets } from "./sheets";
import { summary } from "./summary";
import { summaryCompanies } from "./summary-companies";

export type Language = "en" | "es";
export const LANGUAGES: readonly Language[] = ["en", "es"];

const catalogues = [
  common,
  forms,
  outbox,
  sheets,
  audit,
  refresh,
  refreshLanes,
  rules,
  schedule,
  settings,
  companies,
  companiesOutbox,
  companiesSettings,
  companiesSidebars,
  companiesSchedule,
  connection,
  longrun,
  diagnostics,
  summary,
  summaryCompanies,
  close,
  closeContinuation,
] as const;

type Catalogue = (typeof catalogues)[number];
// Distributed over the catalogues: `keyof` of a union would keep only the keys they share.
type KeysOf<C> = C extends { en: infer E } ? keyof E : never;
export type StringKey = KeysOf<Catalogue>;

// Each catalogue must offer the same keys in Spanish as in English.
type SameKeys<T extends { en: object; es: object }> = T extends unknown
  ? keyof T["en"] extends keyof T["es"]
    ? keyof T["es"] extends keyof T["en"]
      ? true
      : false
    : false
  : false;
const _sameKeys: SameKeys<(typeof catalogues)[number]> = true;
void _sameKeys;

/** Texts by language, then by key. */
export type StringTable = Record<Language, Record<string, string>>;

/** Every catalogue merged into one table. */
export function allStrings(): StringTable {
  const table: StringTable = { en: {}, es: {} };
  for (const catalogue of catalogues) {
    Object.assign(table.en, catalogue.en);
    Object.assign(table.es, catalogue.es);
  }
  return table;
}

/**
 * Set by scripts/build.ts: the strings a bundle's code names, one JSON text per language (a
 * StringTable's `en` and `es`), so that each bundle carries only its own strings. Run from source
 * (tests, tsx), they are undefined and every catalogue is used. A sidebar translates only keys its
 * own code names: the server sends it text, never a key.
 */
declare const BUNDLED_STRINGS_EN: string | undefined;
declare const BUNDLED_STRINGS_ES: string | undefined;

/**
 * Each language's table, read on its first translation: an execution that shows no text reads
 * none, and one that speaks Spanish never reads the English table (every key is in both).
 * Apps Script evaluates the whole bundle for every execution, each sidebar call included, so
 * the other language's strings are never parsed.
 */
const tables: Partial<StringTable> = {};

function stringsOf(language: Language): Record<string, string> {
  const known = tables[language];
  if (known) return known;
  const made =
    typeof BUNDLED_STRINGS_EN === "string" && typeof BUNDLED_STRINGS_ES === "string"
      ? (JSON.parse(language === "es" ? BUNDLED_STRINGS_ES : BUNDLED_STRINGS_EN) as Record<string, string>)
      : allStrings()[language];
  tables[language] = made;
  return made;
}

/**
 * The text of `key` in `language`, with placeholders filled from `params`: `{name}` as given,
 * `{name:n}` a count with the language's thousands separator ("100,000", "100.000"), and
 * `{name|one|other}` the word that agrees with the count ("1 call", "2 calls").
 */
export function translate(
  language: Language,
  key: StringKey,
  params: Record<string, string | number> = {},
): string {
  const text = textOf(language, key);
  // Most texts (a status, yes or no, a header: one per cell of a label column) have no place
  // to fill: given as they are, without the pattern's pass.
  if (!text.includes("{")) return text;
  return text.replace(/\{(\w+)(?::(n)|\|([^|{}]*)\|([^|{}]*))?\}/g, (whole, name: string, n, one, other) => {
    if (!(name in params)) return whole;
    const value = params[name];
    if (one !== undefined) return Number(value) === 1 ? one : other;
    return n && typeof value === "number" ? formatCount(value, language) : String(value);
  });
}

/** The text of `key` in `language`, else in English, else the key itself. */
function textOf(language: Language, key: string): string {
  return stringsOf(language)[key] ?? (language === "en" ? undefined : stringsOf("en")[key]) ?? key;
}

/** A whole number with thousands separators: "1,234,567" in English, "1.234.567" in Spanish. */
export function formatCount(value: number, language: Language): string {
  if (!Number.isInteger(value)) return String(value);
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+(?!\d))/g, language === "es" ? "." : ",");
  return value < 0 ? `-${digits}` : digits;
}

/** The add-on's language for a locale such as `es_CL` or `en-US`; Spanish for any `es…`. */
export function languageForLocale(locale: string | null | undefined): Language {
  return /^es\b|^es[_-]/i.test(locale ?? "") ? "es" : "en";
}
