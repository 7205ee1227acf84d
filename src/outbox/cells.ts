/**
 * Reading what users typed into Outbox cells (getValues output: numbers, strings, booleans,
 * Dates in the spreadsheet's time zone, ""). Amounts, ids, dates and lengths are the
 * contract's business (src/api); here only what is particular to a sheet: yes/no in either
 * language and dates formatted in the spreadsheet's own zone.
 */
import type { CellValue } from "./columns";

/** Integer cents. */
export type Cents = number;

export type Read<T> = { ok: true; value: T } | { ok: false; message: string };

/** A date and time as the contract writes it, in a Java pattern (Utilities.formatDate). */
export const DATE_TIME = "yyyy-MM-dd HH:mm:ss";

/** Formats a Date of a cell as the spreadsheet shows it (its own time zone), in a Java pattern. */
export type DateFormatter = (date: Date, pattern: "yyyy-MM-dd" | typeof DATE_TIME) => string;

export function isBlank(value: CellValue | null | undefined): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

export function cellText(value: CellValue | null | undefined): string {
  if (value === undefined || value === null) return "";
  if (value instanceof Date) return value.toISOString();
  return String(value).trim();
}

const YES = new Set(["yes", "si", "sí", "true", "1", "y", "s", "verdadero"]);
const NO = new Set(["no", "false", "0", "n", "falso"]);

/** A yes/no flag from a checkbox, TRUE/FALSE, Yes/No or Sí/No; blank means "not given". */
export function readFlag(value: CellValue, field: string): Read<boolean | undefined> {
  if (typeof value === "boolean") return { ok: true, value };
  if (isBlank(value)) return { ok: true, value: undefined };
  const text = cellText(value).toLowerCase();
  if (YES.has(text)) return { ok: true, value: true };
  if (NO.has(text)) return { ok: true, value: false };
  return { ok: false, message: `${field}: must be Yes or No` };
}
