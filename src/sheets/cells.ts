/**
 * Cell values as the add-on writes them, and the rules that keep text from the service literal.
 *
 * Sheets parses every string written with setValues as if a user typed it: `=…` becomes a
 * formula, `00123` the number 123, `2024-01-05` a date. A cell formatted as plain text ("@")
 * keeps strings as they are; where a column cannot be plain text, a leading apostrophe makes
 * Sheets store the rest literally (and drops the apostrophe from the value).
 */
import { wholeUnits } from "../api/money";
import { rememberedByText } from "../api/remembered";

export type CellValue = string | number | boolean | Date;

/** Number formats of the add-on's columns. */
export const FORMAT = {
  text: "@",
  amount: "#,##0.00",
  integer: "0",
  date: "yyyy-mm-dd",
  datetime: "yyyy-mm-dd hh:mm",
  /** Columns whose cells may hold formulas (links) or labels the add-on writes itself. */
  general: "General",
} as const;

/**
 * A string safe to write into a cell that is not formatted as plain text: always prefixed with
 * an apostrophe, so no leading `=`, `+`, `-`, `@`, tab or line break, no number-, date- or
 * boolean-looking text, and no apostrophe of its own is ever interpreted.
 */
export function literalText(text: string): string {
  return text === "" ? "" : `'${clipText(text)}`;
}

/** Whether Sheets would read `text`, typed into a General cell, as something other than itself. */
export function wouldBeInterpreted(text: string): boolean {
  if (text === "") return false;
  if (/^[=+\-@'\t\r\n]/.test(text)) return true;
  const trimmed = text.trim();
  if (/^[-+]?(\d[\d,]*)?\.?\d+([eE][-+]?\d+)?%?$/.test(trimmed)) return true;
  if (/^\d{1,4}[-/.]\d{1,2}([-/.]\d{1,4})?(\s.*)?$/.test(trimmed)) return true;
  if (/^\d{1,2}:\d{2}/.test(trimmed)) return true;
  if (/^(true|false)$/i.test(trimmed)) return true;
  if (/^\$/.test(trimmed)) return true;
  return false;
}

/**
 * A cell value read back from a sheet, made safe to write again into a cell of number format
 * `format`: strings in plain-text cells as they are, other strings with an apostrophe when
 * Sheets would reinterpret them; numbers, booleans and dates unchanged.
 */
export function rewritableValue(value: CellValue, format: string): CellValue {
  if (typeof value !== "string") return value;
  if (format === FORMAT.text) return value;
  return wouldBeInterpreted(value) ? literalText(value) : value;
}

/** Sheets refuses a cell of more than 50,000 characters: longer text is cut, and says so. */
export const MAX_CELL_TEXT = 50_000;

export function clipText(text: string): string {
  if (text.length <= MAX_CELL_TEXT) return text;
  const mark = "… [cut]";
  return text.slice(0, MAX_CELL_TEXT - mark.length - 1) + mark;
}

const SERVICE_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-][01]\d:[0-5]\d)?)?$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

type DateParts = Readonly<{ day: string; time: string | null; zone?: string }>;

/** The parts of a date text, read once per execution: each date cell needs them twice (its value, its format). */
const serviceDateParts = rememberedByText(readDateParts);

/**
 * The fields of a service date or datetime as fixed-width texts, or null when it is not a real
 * one (2024-02-31, 25:00). Checked by arithmetic alone: a refresh reads tens of thousands of
 * dates, and a local-time Date would cost a time-zone lookup for each of its getters.
 */
function readDateParts(text: string): DateParts | null {
  const m = SERVICE_DATE.exec(text.trim());
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number);
  if (day > days) return null;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  if (m[4] === undefined) return { day: date, time: null };
  const seconds = m[6] ?? "00";
  if (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(seconds) > 59) return null;
  return { day: date, time: `${m[4]}:${m[5]}:${seconds}`, zone: m[7] };
}

/** A date `YYYY-MM-DD` or datetime `YYYY-MM-DD HH:MM:SS` as a Date, or null if it is not one. */
export function parseServiceDate(text: string | null | undefined): Date | null {
  if (!text) return null;
  const parts = serviceDateParts(text);
  if (!parts) return null;
  const [y, mo, d] = parts.day.split("-").map(Number) as [number, number, number];
  const [h, mi, s] = (parts.time ?? "00:00:00").split(":").map(Number) as [number, number, number];
  return new Date(y, mo - 1, d, h, mi, s);
}

/**
 * A date cell for a service date. A valid date is written as its ISO text into a date-formatted
 * cell, so that Sheets reads it as that day in the *spreadsheet's* time zone (a Date object
 * would be an instant in the script's zone, and show the day before wherever the spreadsheet's
 * zone is behind). Only text that parsed as a real date gets there, so nothing else can be
 * interpreted. A time with an offset (the service sends none: docs/real-apps-script.md) is that instant, a
 * Date, which Sheets shows in the spreadsheet's zone. Anything else is kept as literal text;
 * nothing is empty.
 */
export function dateCell(text: string | null | undefined): CellValue {
  if (!text) return "";
  const parts = serviceDateParts(text);
  if (!parts) return literalText(text);
  if (parts.zone) return new Date(`${parts.day}T${parts.time}${parts.zone}`);
  return parts.time === null ? parts.day : `${parts.day} ${parts.time}`;
}

/** The number format of an amount: none of a currency's decimals when it has none (CLP) and the value no cents. */
export function amountFormat(currency: string, cents: number | null | undefined): string {
  return wholeUnits(currency, cents) ? "#,##0" : FORMAT.amount;
}

/** The day of a service date or datetime as shown where the sheet shows a date ("2024-03-05"), else the text. */
export function dayOf(text: string): string {
  return serviceDateParts(text)?.day ?? text;
}

/** The number format of a service date: a date alone shows no time. */
export function dateFormat(text: string | null | undefined, withTime: boolean): string {
  return withTime && serviceDateParts(text ?? "")?.time ? FORMAT.datetime : FORMAT.date;
}

/** Integer cents as the two-decimal number a cell shows. */
export function centsCell(cents: number | null | undefined): CellValue {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return "";
  return cents / 100;
}

/** An https/http URL fit to go inside a HYPERLINK formula, or null. */
export function safeUrl(url: string): string | null {
  const trimmed = url.trim();
  if (!/^https?:\/\/[^\s"<>]+$/i.test(trimmed)) return null;
  return trimmed;
}

/**
 * A HYPERLINK formula whose URL and label are string literals (quotes doubled), never code; its
 * label cut to a thousand characters. Longer than a cell holds (a URL of 50,000 characters), it
 * is no link: the label as literal text.
 */
export function hyperlinkFormula(url: string, label: string): string {
  // Most URLs and names hold no quote and no line break: they are taken as they are.
  const quote = (s: string) =>
    /["\r\n\t]/.test(s) ? `"${s.replace(/"/g, '""').replace(/[\r\n\t]+/g, " ")}"` : `"${s}"`;
  const formula = `=HYPERLINK(${quote(url)},${quote(label.length > 1e3 ? `${label.slice(0, 993)}… [cut]` : label)})`;
  return formula.length > MAX_CELL_TEXT ? literalText(label) : formula;
}
