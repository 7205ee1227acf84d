/**
 * One catalogue of user-facing strings in English and Spanish. Each area of the add-on keeps
 * its strings in a file of its own here and is registered once below; a key missing from one
 * language is a compile error.
 */
import { audit } from "./audit";
import { common } from "./common";
import { connection } from "./connection";
import { diagnostics } from "./diagnostics";
import { forms } from "./forms";
import { longrun } from "./longrun";
import { outbox } from "./outbox";
import { refresh } from "./refresh";
import { schedule } from "./schedule";
import { settings } from "./settings";
import { sheets } from "./sheets";

export type Language = "en" | "es";
export const LANGUAGES: readonly Language[] = ["en", "es"];

const catalogues = [
  common,
  forms,
  outbox,
  sheets,
  audit,
  refresh,
  schedule,
  settings,
  connection,
  longrun,
  diagnostics,
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
 * Set by scripts/build.ts: the strings a bundle's code names, as JSON text of
 * [keys, English texts, Spanish texts], so that each bundle carries only its own strings and
 * each key once. Run from source (tests, tsx), it is undefined and every catalogue is used.
 * A sidebar translates only keys its own code names: the server sends it text, never a key.
 */
declare const BUNDLED_STRINGS: string | undefined;

function unpackStrings(json: string): StringTable {
  const [keys, en, es] = JSON.parse(json) as [string[], string[], string[]];
  const table: StringTable = { en: {}, es: {} };
  keys.forEach((key, i) => {
    table.en[key] = en[i] as string;
    table.es[key] = es[i] as string;
  });
  return table;
}

const merged: StringTable =
  typeof BUNDLED_STRINGS === "string" ? unpackStrings(BUNDLED_STRINGS) : allStrings();

/** The text of `key` in `language`, with `{name}` placeholders filled from `params`. */
export function translate(
  language: Language,
  key: StringKey,
  params: Record<string, string | number> = {},
): string {
  const text = merged[language][key] ?? merged.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The add-on's language for a locale such as `es_CL` or `en-US`; Spanish for any `es…`. */
export function languageForLocale(locale: string | null | undefined): Language {
  return /^es\b|^es[_-]/i.test(locale ?? "") ? "es" : "en";
}
