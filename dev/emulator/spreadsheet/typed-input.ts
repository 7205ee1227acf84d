/**
 * What a cell holds after a string is written to it, as if a user had typed it (Sheets parses
 * strings given to `setValue(s)` exactly like typed input):
 * - a leading apostrophe stores the rest as literal text;
 * - a leading "=" makes a formula; so does a leading "+" or "-" that is not a plain number
 *   (Sheets turns "-A1" or "+1+2" into formulas: the formula-injection risk of outside text);
 * - "TRUE"/"FALSE" (any case) become booleans;
 * - number-looking text becomes a number ("00123" → 123, "1,234.5" → 1234.5, "12%" → 0.12,
 *   "$5" → 5), and date-looking text a date in the spreadsheet's time zone ("2024-03-01",
 *   "2024-03-01 10:30:00", "3/1/2024" in en_US or "1/3/2024" in other locales);
 * - all of this is skipped when the cell's number format is "@" (plain text).
 */
import { rememberedByText } from "../../../src/api/remembered";
import { instantInZone } from "../time-zone";

export type CellScalar = string | number | boolean | Date;

export interface TypedCell {
  value: CellScalar;
  /** The formula, when the text became one (kept as written, with the leading "="). */
  formula?: string;
  /** The number format Sheets applies automatically (dates, percentages), if any. */
  autoFormat?: string;
}

export interface InputContext {
  numberFormat: string;
  locale: string;
  timeZone: string;
}

const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const GROUPED_NUMBER = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;
const CURRENCY = /^([+-]?)[$€£]\s?(.+)$/;
const PERCENT = /^(.+)%$/;
const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const SLASH_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** The number the text spells, or undefined. */
export function parseNumberText(text: string): number | undefined {
  const t = text.trim();
  if (PLAIN_NUMBER.test(t)) return Number(t);
  if (GROUPED_NUMBER.test(t)) return Number(t.replace(/,/g, ""));
  return undefined;
}

function validDate(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

type DateRead = { ms: number; autoFormat: string } | null;

/**
 * Date texts already read, per time zone and locale (what reading one depends on): the instant
 * (or null, not a date) and the format. A refresh writes the same few hundred days thousands of
 * times.
 */
const datesRead = new Map<string, (text: string) => DateRead>();

function parseDateText(text: string, ctx: InputContext): TypedCell | undefined {
  const where = `${ctx.timeZone}\u0000${ctx.locale}`;
  let read = datesRead.get(where);
  if (!read) {
    const { timeZone, locale } = ctx;
    read = rememberedByText((t: string) => readDateText(t, timeZone, locale), 50_000);
    datesRead.set(where, read);
  }
  const date = read(text);
  // A Date of its own for every cell: a cell's value is never shared.
  return date ? { value: new Date(date.ms), autoFormat: date.autoFormat } : undefined;
}

function readDateText(text: string, timeZone: string, locale: string): DateRead {
  let m = ISO_DATE.exec(text);
  let y: number;
  let mo: number;
  let d: number;
  let iso = true;
  if (m) {
    y = Number(m[1]);
    mo = Number(m[2]);
    d = Number(m[3]);
  } else {
    m = SLASH_DATE.exec(text);
    if (!m) return null;
    iso = false;
    const monthFirst = /^en[_-]US$/i.test(locale) || locale === "en";
    y = Number(m[3]);
    mo = Number(monthFirst ? m[1] : m[2]);
    d = Number(monthFirst ? m[2] : m[1]);
  }
  const h = Number(m[4] ?? 0);
  const mi = Number(m[5] ?? 0);
  const s = Number(m[6] ?? 0);
  if (!validDate(y, mo, d, h, mi, s)) return null;
  const hasTime = m[4] !== undefined;
  const datePart = iso ? "yyyy-mm-dd" : /^en[_-]US$/i.test(locale) ? "M/d/yyyy" : "d/M/yyyy";
  return {
    ms: instantInZone(timeZone, y, mo, d, h, mi, s),
    autoFormat: hasTime ? `${datePart} H:mm:ss` : datePart,
  };
}

/** The cell content for `text` written by a script or typed by a user. */
export function parseTypedInput(text: string, ctx: InputContext): TypedCell {
  if (ctx.numberFormat === "@") return { value: text };
  if (text === "") return { value: "" };
  if (text.startsWith("'")) return { value: text.slice(1) };
  if (text.startsWith("=") && text.length > 1) return { value: "", formula: text };
  const trimmed = text.trim();
  const upper = trimmed.toUpperCase();
  if (upper === "TRUE" || upper === "FALSE") return { value: upper === "TRUE" };
  const plain = parseNumberText(trimmed);
  if (plain !== undefined) return { value: plain };
  const currency = CURRENCY.exec(trimmed);
  if (currency) {
    const n = parseNumberText(currency[2] as string);
    if (n !== undefined) return { value: currency[1] === "-" ? -n : n };
  }
  const percent = PERCENT.exec(trimmed);
  if (percent) {
    const n = parseNumberText(percent[1] as string);
    if (n !== undefined) return { value: n / 100, autoFormat: "0.00%" };
  }
  const date = parseDateText(trimmed, ctx);
  if (date) return date;
  if ((text.startsWith("+") || text.startsWith("-")) && text.length > 1) {
    return { value: "", formula: `=${text}` };
  }
  return { value: text };
}
