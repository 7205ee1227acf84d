/**
 * One catalogue of user-facing strings in English and Spanish. Each area of the add-on keeps
 * its strings in a file of its own here and is registered once below; a key missing from one
 * language is a compile error.
 */
import { audit } from "./audit";
import { common } from "./common";
import { companies } from "./companies";
import { connection } from "./connection";
import { diagnostics } from "./diagnostics";
import { forms } from "./forms";
import { longrun } from "./longrun";
import { outbox } from "./outbox";
import { refresh } from "./refresh";
import { rules } from "./rules";
import { schedule } from "./schedule";
import { settings } from "./settings";
import { sheets } from "./sheets";
import { summary } from "./summary";

export type Language = "en" | "es";
export const LANGUAGES: readonly Language[] = ["en", "es"];

const catalogues = [
  common,
  forms,
  outbox,
  sheets,
  audit,
  refresh,
  rules,
  schedule,
  settings,
  companies,
  connection,
  longrun,
  diagnostics,
  summary,
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
 * In the server bundle a key the code names only whole is a short name that changes from build
 * to build (shortKeyNames in scripts/bundle-strings.ts): keep texts in properties, never keys.
 */
declare const BUNDLED_STRINGS: string | undefined;
/**
 * Set by scripts/build.ts in the server bundle only: the strings other than the menu's, packed
 * the same way, then gzipped and written as text (bytesToText in scripts/bundle-strings.ts).
 * They are unpacked on first use by the function given to `useStringsUnzipper` (Utilities on
 * Apps Script).
 */
declare const BUNDLED_STRINGS_GZIP: string | undefined;

let unzipper: ((gzipped: number[]) => string) | null = null;
let zipped: string | null =
  typeof BUNDLED_STRINGS_GZIP === "string" && BUNDLED_STRINGS_GZIP ? BUNDLED_STRINGS_GZIP : null;

/** Sets how the gzipped strings are unpacked (gunzip of signed bytes into the packed JSON). */
export function useStringsUnzipper(unzip: (gzipped: number[]) => string): void {
  unzipper = unzip;
}

/**
 * The bytes of bytesToText's text (scripts/bundle-strings.ts), signed as Apps Script's byte
 * arrays are (-128..127): after the count and "!", each two characters are 13 bits.
 */
export function textToBytes(text: string): number[] {
  const mark = text.indexOf("!");
  const bytes: number[] = [];
  const digit = (i: number) => {
    const code = text.charCodeAt(i);
    return code - (code > 92 ? 36 : 35);
  };
  let acc = 0;
  let bits = 0;
  for (let i = mark + 1; i < text.length; i += 2) {
    acc |= (digit(i) + digit(i + 1) * 91) << bits;
    for (bits += 13; bits >= 8; bits -= 8) {
      bytes.push(((acc & 255) << 24) >> 24);
      acc >>>= 8;
    }
  }
  return bytes.slice(0, Number(text.slice(0, mark)));
}

/** The table packStrings wrote (scripts/bundle-strings.ts): each key after what it shares with the one before. */
export function unpackStrings(json: string): StringTable {
  const [keys, en, es] = JSON.parse(json) as [string[], string[], string[]];
  const table: StringTable = { en: {}, es: {} };
  let key = "";
  keys.forEach((written, i) => {
    key = key.slice(0, written.charCodeAt(0) - 35) + written.slice(1);
    table.en[key] = en[i] as string;
    table.es[key] = es[i] as string;
  });
  return table;
}

const merged: StringTable =
  typeof BUNDLED_STRINGS === "string" ? unpackStrings(BUNDLED_STRINGS) : allStrings();

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
  return text.replace(/\{(\w+)(?::(n)|\|([^|{}]*)\|([^|{}]*))?\}/g, (whole, name: string, n, one, other) => {
    if (!(name in params)) return whole;
    const value = params[name];
    if (one !== undefined) return Number(value) === 1 ? one : other;
    return n && typeof value === "number" ? formatCount(value, language) : String(value);
  });
}

/** The text of `key`, unpacking the gzipped strings the first time one of them is asked for. */
function textOf(language: Language, key: string): string {
  const found = merged[language][key] ?? merged.en[key];
  if (found !== undefined || zipped === null || unzipper === null) return found ?? key;
  const more = unpackStrings(unzipper(textToBytes(zipped)));
  zipped = null;
  Object.assign(merged.en, more.en);
  Object.assign(merged.es, more.es);
  return merged[language][key] ?? merged.en[key] ?? key;
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
