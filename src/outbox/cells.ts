/**
 * Reading what users typed into cells (getValues output: numbers, strings, booleans, Dates in
 * the spreadsheet's time zone, "") into the values a request needs. Each reader returns either
 * a value or a problem naming the field and the rule; nothing is guessed.
 */
import type { CellValue } from "./columns";

export type Cents = number;

export type Read<T> = { ok: true; value: T } | { ok: false; message: string };

/** Formats a Date of a cell as the spreadsheet shows it (its own time zone), in a Java pattern. */
export type DateFormatter = (date: Date, pattern: "yyyy-MM-dd" | "yyyy-MM-dd HH:mm:ss") => string;

const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const problem = <T>(message: string): Read<T> => ({ ok: false, message });

export function isBlank(value: CellValue | null | undefined): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

export function cellText(value: CellValue | null | undefined): string {
  if (value === undefined || value === null) return "";
  if (value instanceof Date) return value.toISOString();
  return String(value).trim();
}

/**
 * An amount in integer cents: positive, at most two decimals, a dot as decimal separator.
 * Numbers from cells are checked against their two-decimal rounding, so 10.005 is refused
 * rather than silently rounded.
 */
export function readAmount(value: CellValue, field: string): Read<Cents> {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return problem(`${field}: must be a number`);
    const cents = Math.round(value * 100);
    // The nearest two-decimal number must be this very number, give or take the float noise of
    // a formula such as =0.1+0.2; anything else has more than two decimals.
    const exact = Number(formatCents(cents)) === value;
    if (!exact && Math.abs(value * 100 - cents) > 1e-7) return problem(`${field}: at most two decimals`);
    if (cents <= 0) return problem(`${field}: must be greater than zero`);
    if (!Number.isSafeInteger(cents)) return problem(`${field}: too large`);
    return ok(cents);
  }
  if (typeof value !== "string") return problem(`${field}: must be a number`);
  const text = value.trim();
  if (/^-?\d+,\d+$/.test(text)) {
    return problem(`${field}: use a dot as the decimal separator, not a comma (e.g. 1234.50)`);
  }
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) {
    if (/^-?\d+(\.\d+)?$/.test(text)) {
      return text.startsWith("-")
        ? problem(`${field}: must be greater than zero`)
        : problem(`${field}: at most two decimals`);
    }
    return problem(`${field}: must be a number with at most two decimals and a dot separator`);
  }
  const whole = match[1] ?? "0";
  const fraction = (match[2] ?? "").padEnd(2, "0");
  if (whole.length > 13) return problem(`${field}: too large`);
  const cents = Number(whole) * 100 + Number(fraction);
  if (cents <= 0) return problem(`${field}: must be greater than zero`);
  return ok(cents);
}

/** A positive integer id, from a number or numeric text. */
export function readId(value: CellValue, field: string): Read<number> {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^\d+$/.test(text)) return problem(`${field}: must be a positive whole number`);
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id <= 0) return problem(`${field}: must be a positive whole number`);
  return ok(id);
}

const YES = new Set(["yes", "si", "sí", "true", "1", "y", "s", "verdadero"]);
const NO = new Set(["no", "false", "0", "n", "falso"]);

/** A yes/no flag from a checkbox, TRUE/FALSE, Yes/No or Sí/No; blank means "not given". */
export function readFlag(value: CellValue, field: string): Read<boolean | undefined> {
  if (typeof value === "boolean") return ok(value);
  if (isBlank(value)) return ok(undefined);
  const text = cellText(value).toLowerCase();
  if (YES.has(text)) return ok(true);
  if (NO.has(text)) return ok(false);
  return problem(`${field}: must be Yes or No`);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/;

function realDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A calendar date as YYYY-MM-DD, from a date cell (its spreadsheet time zone) or text. */
export function readDate(value: CellValue, field: string, format: DateFormatter): Read<string> {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return problem(`${field}: must be a date YYYY-MM-DD`);
    return ok(format(value, "yyyy-MM-dd"));
  }
  const text = cellText(value);
  const m = DATE.exec(text);
  if (!m || !realDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
    return problem(`${field}: must be a date YYYY-MM-DD`);
  }
  return ok(text);
}

/** A date and time as YYYY-MM-DD HH:MM:SS, from a date cell or text (seconds optional). */
export function readDateTime(value: CellValue, field: string, format: DateFormatter): Read<string> {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime()))
      return problem(`${field}: must be a date and time YYYY-MM-DD HH:MM:SS`);
    return ok(format(value, "yyyy-MM-dd HH:mm:ss"));
  }
  const text = cellText(value);
  const m = DATETIME.exec(text);
  if (
    !m ||
    !realDate(Number(m[1]), Number(m[2]), Number(m[3])) ||
    Number(m[4]) > 23 ||
    Number(m[5]) > 59 ||
    Number(m[6] ?? "0") > 59
  ) {
    return problem(`${field}: must be a date and time YYYY-MM-DD HH:MM:SS`);
  }
  return ok(m[6] === undefined ? `${text}:00` : text);
}

/** Text of a cell; numbers become their plain digits (a code typed as 00123 in a number cell is lost by Sheets, not here). */
export function readText(value: CellValue): string {
  if (value instanceof Date) return "";
  return cellText(value);
}

/** Integer cents as a two-decimal string, without floating point. */
export function formatCents(cents: Cents): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, "0");
  return `${sign}${whole}.${fraction}`;
}

/** Integer cents as the two-decimal number the service expects. */
export function centsToNumber(cents: Cents): number {
  return Number(formatCents(cents));
}
