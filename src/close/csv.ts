/**
 * The journal as a CSV for the accounting system: one line per journal line, or one line per
 * report with its debit and credit accounts. Date format, decimal and field separators and the
 * column order are the user's choice (kept in their user properties). Text from the service
 * never starts a cell with `=`, `+`, `-`, `@`, tab, carriage return or line feed: a CSV opened in
 * a spreadsheet program runs formulas (OWASP's CSV injection); such a cell gets a leading `'`.
 */
import type { JournalLine } from "./journal";

export type CsvLayout = "lines" | "reports";
export const DATE_FORMATS = ["YYYY-MM-DD", "DD/MM/YYYY", "MM/DD/YYYY", "DD-MM-YYYY", "YYYYMMDD"] as const;
export type CsvDateFormat = (typeof DATE_FORMATS)[number];
export const FIELD_SEPARATORS = [",", ";", "\t", "|"] as const;
export type FieldSeparator = (typeof FIELD_SEPARATORS)[number];
export const DECIMAL_SEPARATORS = [".", ","] as const;
export type DecimalSeparator = (typeof DECIMAL_SEPARATORS)[number];

/**
 * Every column, in the default order of each layout: the layout a column belongs to ("lines": one
 * line per journal line, "reports": one line per report), or "both".
 */
const COLUMNS = {
  voucher: "both",
  date: "both",
  account: "lines",
  debit: "lines",
  credit: "lines",
  debitAccount: "reports",
  creditAccount: "reports",
  amount: "reports",
  currency: "both",
  description: "both",
  reportId: "both",
  reportNumber: "both",
  employee: "both",
  employeeIdentification: "both",
  costCentre: "both",
} as const satisfies Record<string, CsvLayout | "both">;
export type CsvColumn = keyof typeof COLUMNS;

function layoutColumns(layout: CsvLayout): readonly CsvColumn[] {
  return (Object.keys(COLUMNS) as CsvColumn[]).filter((c) => COLUMNS[c] === "both" || COLUMNS[c] === layout);
}

/** The columns of each layout, in their default order. */
export const LINE_COLUMNS = layoutColumns("lines");
export const REPORT_COLUMNS = layoutColumns("reports");

export interface CsvOptions {
  layout: CsvLayout;
  dateFormat: CsvDateFormat;
  decimal: DecimalSeparator;
  separator: FieldSeparator;
  /** The columns, in order; a subset of the layout's. */
  columns: readonly CsvColumn[];
  /** Whether the first line names the columns. */
  header: boolean;
}

export const DEFAULT_CSV_OPTIONS: CsvOptions = {
  layout: "lines",
  dateFormat: "YYYY-MM-DD",
  decimal: ".",
  separator: ",",
  columns: LINE_COLUMNS,
  header: true,
};

/** The layout's columns. */
export function columnsOf(layout: CsvLayout): readonly CsvColumn[] {
  return layout === "lines" ? LINE_COLUMNS : REPORT_COLUMNS;
}

/** Options read back from what was kept (or sent by the sidebar): each unknown value its default. */
export function csvOptions(value: unknown): CsvOptions {
  const v = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const pick = <T>(choices: readonly T[], got: unknown, fallback: T): T =>
    choices.includes(got as T) ? (got as T) : fallback;
  const layout = pick<CsvLayout>(["lines", "reports"], v.layout, "lines");
  const allowed = columnsOf(layout);
  const asked = Array.isArray(v.columns) ? v.columns.filter((c): c is CsvColumn => allowed.includes(c)) : [];
  const columns = [...new Set(asked)];
  const decimal = pick(DECIMAL_SEPARATORS, v.decimal, ".");
  // A comma cannot be both the decimal and the field separator: the field one gives way.
  const separator = pick(FIELD_SEPARATORS, v.separator, decimal === "," ? ";" : ",");
  return {
    layout,
    dateFormat: pick(DATE_FORMATS, v.dateFormat, "YYYY-MM-DD"),
    decimal,
    separator: separator === "," && decimal === "," ? ";" : separator,
    columns: columns.length > 0 ? columns : allowed,
    header: v.header !== false,
  };
}

/** A cell of text from outside that a spreadsheet program would run: given a leading `'`. */
export function guardedText(text: string): string {
  return /^[=+\-@\t\r\n]/.test(text) ? `'${text}` : text;
}

/** A field quoted when it holds the separator, a quote or a line break. */
function field(text: string, separator: string): string {
  return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Cents as a decimal number with the chosen separator, no grouping: 123456 → "1234.56". */
export function amountText(cents: number, decimal: DecimalSeparator): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}${decimal}${String(abs % 100).padStart(2, "0")}`;
}

/** "YYYY-MM-DD" in the chosen format. */
export function dateText(date: string, format: CsvDateFormat): string {
  const [y, m, d] = date.split("-") as [string, string, string];
  switch (format) {
    case "DD/MM/YYYY":
      return `${d}/${m}/${y}`;
    case "MM/DD/YYYY":
      return `${m}/${d}/${y}`;
    case "DD-MM-YYYY":
      return `${d}-${m}-${y}`;
    case "YYYYMMDD":
      return `${y}${m}${d}`;
    default:
      return date;
  }
}

type Row = Partial<Record<CsvColumn, string>>;

function lineRow(line: JournalLine, o: CsvOptions): Row {
  return {
    voucher: guardedText(line.voucher),
    date: dateText(line.date, o.dateFormat),
    account: guardedText(line.account),
    debit: line.debitCents > 0 ? amountText(line.debitCents, o.decimal) : "",
    credit: line.creditCents > 0 ? amountText(line.creditCents, o.decimal) : "",
    currency: guardedText(line.currency),
    description: guardedText(line.description),
    reportId: String(line.reportId),
    reportNumber: guardedText(line.reportNumber),
    employee: guardedText(line.employeeName),
    employeeIdentification: guardedText(line.employeeIdentification),
    costCentre: guardedText(line.costCentre),
  };
}

/** A report's two lines as one row: its debit account, its credit account, the amount. */
function reportRows(lines: readonly JournalLine[], o: CsvOptions): Row[] {
  const rows: Row[] = [];
  const byReport = new Map<string, { debit?: JournalLine; credit?: JournalLine }>();
  for (const line of lines) {
    const key = `${line.company}|${line.voucher}|${line.reportId}`;
    const pair = byReport.get(key) ?? {};
    if (line.debitCents > 0) pair.debit = line;
    else pair.credit = line;
    byReport.set(key, pair);
  }
  for (const { debit, credit } of byReport.values()) {
    const line = (debit ?? credit) as JournalLine;
    rows.push({
      ...lineRow(line, o),
      debitAccount: guardedText(debit?.account ?? ""),
      creditAccount: guardedText(credit?.account ?? ""),
      amount: amountText(debit?.debitCents ?? credit?.creditCents ?? 0, o.decimal),
      employeeIdentification: guardedText(credit?.employeeIdentification ?? ""),
      description: guardedText(credit?.description ?? line.description),
    });
  }
  return rows;
}

/** The CSV text (lines ended by CRLF, RFC 4180); `headers` names each column. */
export function journalCsv(
  lines: readonly JournalLine[],
  options: CsvOptions,
  headers: (column: CsvColumn) => string,
): string {
  const rows =
    options.layout === "lines" ? lines.map((l) => lineRow(l, options)) : reportRows(lines, options);
  const out: string[] = [];
  const join = (cells: readonly string[]) =>
    cells.map((c) => field(c, options.separator)).join(options.separator);
  if (options.header) out.push(join(options.columns.map((c) => guardedText(headers(c)))));
  for (const row of rows) out.push(join(options.columns.map((c) => row[c] ?? "")));
  return out.map((l) => `${l}\r\n`).join("");
}
