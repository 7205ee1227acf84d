/**
 * The columns of every sheet the add-on fills, declared once: key, header (a string of the
 * catalogue, or a fixed text for extra fields), number format, and how a record becomes the
 * cell. Everything else (headers, formats, rows, the merge) reads these declarations.
 */
import type { ExpenseReport, Fund, Transaction } from "../api/types";
import { type Language, type StringKey, translate } from "../i18n";
import {
  amountFormat,
  type CellValue,
  centsCell,
  clipText,
  dateCell,
  dateFormat,
  FORMAT,
  hyperlinkFormula,
  literalText,
} from "./cells";
import { describeFile } from "./files";
import { whoText } from "./headers";

export interface Column<R> {
  /** Stable name of the column; the layout of a sheet is the list of its keys. */
  key: string;
  /** Header from the strings catalogue, or a fixed header (extra fields keep their own name). */
  header: StringKey | { text: string };
  format: string;
  /** The number format of this record's cell, when it depends on the record (currency, time). */
  formatOf?: (record: R) => string;
  cell: (record: R, language: Language) => CellValue;
  /** The catalogue's texts this column's cells may hold, relabelled when the language changes. */
  labels?: readonly StringKey[];
  /** Kept out of sight: the sheet hides the column (its cells are still read and written). */
  hidden?: boolean;
}

/**
 * A sheet's columns. Rows are matched by `keyColumns`: today's first column alone ("5001"), or
 * the company key and the first column once a sheet has company columns ("c0|5001").
 */
export interface TableSpec<R> {
  name: "funds" | "transactions" | "reports" | "files" | "audit";
  columns: readonly Column<R>[];
  /** The columns whose cells, joined by KEY_SEPARATOR, make a row's key. */
  keyColumns: readonly string[];
  /** A record's key: its `keyColumns` cells as text, joined by KEY_SEPARATOR. */
  keyOf: (record: R) => string;
}

/** Between the parts of a row's key: "c0|5001". Neither ids nor company keys hold it. */
export const KEY_SEPARATOR = "|";

/** Key of the column that shows a row's company by name (plain text). */
export const COMPANY_COLUMN = "company";
/** Key of the hidden column that holds a row's company key ("c0"): what the row belongs to. */
export const COMPANY_KEY_COLUMN = "companyKey";

/** The company a lane writes its rows for: its key for ever, its name as shown today. */
export interface CompanyLabel {
  key: string;
  name: string;
}

/**
 * `columns` with Company (the name, plain text) and Company key (hidden) right after the first
 * column, every row of them labelled with `entry`. The first column stays first, so lookups of
 * an Id in column A keep working.
 */
export function withCompany<R>(columns: readonly Column<R>[], entry: CompanyLabel): Column<R>[] {
  const [first, ...rest] = columns;
  if (!first) return [];
  return [
    first,
    text(COMPANY_COLUMN, "col.company", () => entry.name),
    { ...text(COMPANY_KEY_COLUMN, "col.companyKey", () => entry.key), hidden: true },
    ...rest,
  ];
}

/** Whether a sheet laid out with these column keys has the company columns. */
export function hasCompanyColumns(keys: readonly string[]): boolean {
  return keys.includes(COMPANY_KEY_COLUMN);
}

/** Key of the owned column where a refresh notes what it did to a row (e.g. "not returned"). */
export const REFRESH_NOTE_KEY = "refreshNote";

export function headerText(column: Column<unknown>, language: Language): string {
  return typeof column.header === "string" ? translate(language, column.header) : column.header.text;
}

const text = <R>(
  key: string,
  header: StringKey,
  get: (r: R, language: Language) => string | null | undefined,
): Column<R> => ({
  key,
  header,
  format: FORMAT.text,
  cell: (r, language) => clipText(get(r, language) ?? ""),
});
const integer = <R>(key: string, header: StringKey, get: (r: R) => number | null | undefined): Column<R> => ({
  key,
  header,
  format: FORMAT.integer,
  cell: (r) => {
    const n = get(r);
    return n === null || n === undefined || !Number.isFinite(n) ? "" : n;
  },
});
const amount = <R>(
  key: string,
  header: StringKey,
  get: (r: R) => number | null | undefined,
  currency: (r: R) => string,
): Column<R> => ({
  key,
  header,
  format: FORMAT.amount,
  formatOf: (r) => amountFormat(currency(r), get(r)),
  cell: (r) => centsCell(get(r)),
});
const date = <R>(
  key: string,
  header: StringKey,
  get: (r: R) => string | null | undefined,
  withTime = false,
): Column<R> => ({
  key,
  header,
  format: withTime ? FORMAT.datetime : FORMAT.date,
  formatOf: (r) => dateFormat(get(r), withTime),
  cell: (r) => dateCell(get(r)),
});
/** A label the add-on writes itself (status, type, yes/no), one of `labels`: never outside text. */
const label = <R>(
  key: string,
  header: StringKey,
  get: (r: R, language: Language) => string,
  labels: readonly StringKey[] = YES_NO,
): Column<R> => ({
  key,
  header,
  format: FORMAT.text,
  cell: (r, language) => get(r, language),
  labels,
});
const note = <R>(): Column<R> => ({
  key: REFRESH_NOTE_KEY,
  header: "col.refreshNote",
  format: FORMAT.text,
  cell: () => "",
  labels: ["note.missing"],
});
const YES_NO: readonly StringKey[] = ["flag.yes", "flag.no"];

function statusLabel(prefix: "status.fund" | "status.report", value: number, language: Language): string {
  const key = `${prefix}.${value}`;
  return (STATUS_LABELS as readonly string[]).includes(key)
    ? translate(language, key as StringKey)
    : String(value);
}
const STATUS_LABELS: readonly StringKey[] = [
  "status.fund.1",
  "status.fund.2",
  "status.fund.3",
  "status.report.0",
  "status.report.1",
];

function yesNo(flag: boolean | null | undefined, language: Language): string {
  if (flag === null || flag === undefined) return "";
  return translate(language, flag ? "flag.yes" : "flag.no");
}

/**
 * The Funds sheet's columns, the assignee's name taken from `names` (the employees seen in
 * expense reports); an employee never seen in a report shows as the id.
 */
export function fundColumns(names: ReadonlyMap<number, string>): readonly Column<Fund>[] {
  return [
    ...FUND_COLUMNS.slice(0, 9),
    text(
      "assignedToName",
      "col.assignedToName",
      (f) => names.get(f.idAssignTo) ?? String(f.idAssignTo ?? ""),
    ),
    ...FUND_COLUMNS.slice(9),
  ];
}

/** Without the assignee's name, which only a refresh knows (see fundColumns). */
export const FUND_COLUMNS: readonly Column<Fund>[] = [
  integer("id", "col.id", (f) => f.id),
  text("title", "col.title", (f) => f.title),
  text("code", "col.code", (f) => f.code),
  text("currency", "col.currency", (f) => f.currency),
  label("status", "col.status", (f, l) => statusLabel("status.fund", f.status, l), STATUS_LABELS.slice(0, 3)),
  amount(
    "deposits",
    "col.deposits",
    (f) => f.depositsCents,
    (f) => f.currency,
  ),
  amount(
    "withdrawals",
    "col.withdrawals",
    (f) => f.withdrawalsCents,
    (f) => f.currency,
  ),
  amount(
    "balance",
    "col.balance",
    (f) => f.balanceCents,
    (f) => f.currency,
  ),
  integer("assignedTo", "col.assignedTo", (f) => f.idAssignTo),
  integer("creator", "col.creator", (f) => f.idCreator),
  date("createdAt", "col.createdAt", (f) => f.createdAt, true),
  date("expiration", "col.expiration", (f) => f.expirationDate),
  label("flexible", "col.flexible", (f, l) => yesNo(f.flexibleFund, l)),
  label("manualDeposit", "col.manualDeposit", (f, l) => yesNo(f.manualDeposit, l)),
  label("autoBlock", "col.autoBlock", (f, l) => yesNo(f.automaticBlock, l)),
  note(),
];

export const FUNDS_TABLE: TableSpec<Fund> = {
  name: "funds",
  columns: FUND_COLUMNS,
  keyColumns: ["id"],
  keyOf: (f) => String(f.id),
};

/**
 * A movement as a row: transactions carry no id of their own, and the service only appends to
 * a fund's list, so "<fund id>-<position>" names a movement for as long as the fund exists.
 */
export interface FundMovement {
  fund: Pick<Fund, "id" | "title" | "currency">;
  position: number;
  transaction: Transaction;
}

export const TRANSACTION_COLUMNS: readonly Column<FundMovement>[] = [
  text("movement", "col.movement", (m) => movementKey(m.fund.id, m.position)),
  integer("fundId", "col.fundId", (m) => m.fund.id),
  text("fundTitle", "col.fundTitle", (m) => m.fund.title),
  text("currency", "col.currency", (m) => m.fund.currency),
  label(
    "type",
    "col.type",
    (m, l) =>
      m.transaction.type === 1 || m.transaction.type === 2
        ? translate(l, m.transaction.type === 1 ? "transaction.1" : "transaction.2")
        : m.transaction.typeName,
    ["transaction.1", "transaction.2"],
  ),
  amount(
    "amount",
    "col.amount",
    (m) => m.transaction.amountCents,
    (m) => m.fund.currency,
  ),
  date("date", "col.date", (m) => m.transaction.date),
  note(),
];

export function movementKey(fundId: number, position: number): string {
  return `${fundId}-${position}`;
}

/** The fund id of a movement key, or null when the text is not one. */
export function fundIdOfMovementKey(key: string): number | null {
  const m = /^(\d+)-\d+$/.exec(key);
  return m ? Number(m[1]) : null;
}

export const TRANSACTIONS_TABLE: TableSpec<FundMovement> = {
  name: "transactions",
  columns: TRANSACTION_COLUMNS,
  keyColumns: ["movement"],
  keyOf: (m) => movementKey(m.fund.id, m.position),
};

/** Every movement of a fund, in the order the service lists them, numbered from 1. */
export function movementsOf(fund: Fund): FundMovement[] {
  return (fund.transactions ?? []).map((transaction, i) => ({
    fund: { id: fund.id, title: fund.title, currency: fund.currency },
    position: i + 1,
    transaction,
  }));
}

/**
 * The files of a report as one cell: a HYPERLINK to the first file (labelled with its name and
 * how many more there are), or its name as literal text when it has no usable URL. The column
 * is General so the formula works; outside text therefore carries an apostrophe.
 */
export function filesCell(files: readonly unknown[], language: Language): CellValue {
  if (files.length === 0) return "";
  const first = describeFile(files[0]);
  const name = first.name || first.url || "";
  const shown =
    files.length > 1 ? translate(language, "files.more", { name, count: files.length - 1 }) : name;
  return fileLink({ url: first.url, name: shown });
}

export const REPORT_COLUMNS: readonly Column<ExpenseReport>[] = [
  integer("id", "col.id", (r) => r.id),
  text("reportNumber", "col.reportNumber", (r) => r.reportNumber),
  text("title", "col.title", (r) => r.title),
  label("status", "col.status", (r, l) => statusLabel("status.report", r.status, l), STATUS_LABELS.slice(3)),
  text("customStatus", "col.customStatus", (r) => r.customStatus),
  date("sendDate", "col.sendDate", (r) => r.sendDate),
  date("closeDate", "col.closeDate", (r) => r.closeDate),
  integer("employeeId", "col.employeeId", (r) => r.employeeId),
  text("employeeName", "col.employeeName", (r) => r.employeeName),
  text("employeeIdentification", "col.employeeIdentification", (r) => r.employeeIdentification),
  integer("approverId", "col.approverId", (r) => r.approverId),
  text("approverName", "col.approverName", (r) => r.approverName),
  integer("policyId", "col.policyId", (r) => r.policyId),
  text("policyName", "col.policyName", (r) => r.policyName),
  integer("fundId", "col.fundId", (r) => (r.fundId ? r.fundId : null)),
  text("fundName", "col.fundName", (r) => r.fundName),
  text("currency", "col.currency", (r) => r.currency),
  amount(
    "total",
    "col.total",
    (r) => r.reportTotalCents,
    (r) => r.currency,
  ),
  amount(
    "totalApproved",
    "col.totalApproved",
    (r) => r.reportTotalApprovedCents,
    (r) => r.currency,
  ),
  text("note", "col.note", (r) => r.note),
  label("integrated", "col.integrated", (r, l) => yesNo(r.integrated, l)),
  date("integrationDate", "col.integrationDate", (r) => r.integrationDate, true),
  text("integrationCode", "col.integrationCode", (r) => r.integrationExternalCode),
  text("integrationInternalCode", "col.integrationInternalCode", (r) => r.integrationInternalCode),
  integer("expenses", "col.expenses", (r) => r.nbrExpenses),
  integer("approvedExpenses", "col.approvedExpenses", (r) => r.nbrApprovedExpenses),
  integer("rejectedExpenses", "col.rejectedExpenses", (r) => r.nbrRejectedExpenses),
  {
    key: "files",
    header: "col.files",
    format: FORMAT.general,
    cell: (r, l) => filesCell(r.files, l),
    labels: ["files.more"],
  },
  note(),
];

/**
 * A report's files, one row each on their own sheet, every one reachable: a cell holds one
 * HYPERLINK formula, and several links in one cell would need rich text, which the merge's
 * values cannot carry or compare. Rows also let a file be found, filtered and sorted by report.
 * A file is "<report id>-<position>", as the service lists them.
 */
export interface ReportFile {
  reportId: number;
  position: number;
  file: unknown;
}

export function filesOf(report: Pick<ExpenseReport, "id" | "files">): ReportFile[] {
  return (report.files ?? []).map((file, i) => ({ reportId: report.id, position: i + 1, file }));
}

export const FILE_COLUMNS: readonly Column<ReportFile>[] = [
  text("file", "col.file", (f) => `${f.reportId}-${f.position}`),
  integer("reportId", "col.reportId", (f) => f.reportId),
  text("name", "col.fileName", (f) => describeFile(f.file).name),
  { key: "link", header: "col.link", format: FORMAT.general, cell: (f) => fileLink(describeFile(f.file)) },
  note(),
];

export const FILES_TABLE: TableSpec<ReportFile> = {
  name: "files",
  columns: FILE_COLUMNS,
  keyColumns: ["file"],
  keyOf: (f) => `${f.reportId}-${f.position}`,
};

/** A link to a file only for an http(s) URL, its label literal; else the name as literal text. */
function fileLink(file: { url: string | null; name: string }): CellValue {
  return file.url ? hyperlinkFormula(file.url, file.name || file.url) : literalText(file.name);
}

/** Prefix of the keys of extra-field columns, so they never collide with fixed ones. */
export const EXTRA_FIELD_KEY_PREFIX = "extra:";

/** One column per extra field name: its value as literal text. */
export function extraFieldColumn(name: string): Column<ExpenseReport> {
  return {
    key: EXTRA_FIELD_KEY_PREFIX + name,
    header: { text: clipText(name) },
    format: FORMAT.text,
    cell: (r) => clipText(r.extraFields.find((f) => f.name === name)?.value ?? ""),
  };
}

/**
 * The report table for a set of records: the fixed columns, then one column per extra field
 * name, keeping the names of the previous layout first (in their order) so that columns never
 * move, then names seen for the first time in the order they appear.
 */
export function reportsTable(
  records: readonly ExpenseReport[],
  previousKeys: readonly string[] = [],
): TableSpec<ExpenseReport> {
  const names: string[] = [];
  const seen = new Set<string>();
  const add = (name: string) => {
    if (!seen.has(name)) {
      seen.add(name);
      names.push(name);
    }
  };
  for (const key of previousKeys)
    if (key.startsWith(EXTRA_FIELD_KEY_PREFIX)) add(key.slice(EXTRA_FIELD_KEY_PREFIX.length));
  for (const r of records) for (const f of r.extraFields) if (f.name !== "") add(f.name);
  return {
    name: "reports",
    columns: [...REPORT_COLUMNS, ...names.map(extraFieldColumn)],
    keyColumns: ["id"],
    keyOf: (r) => String(r.id),
  };
}

export interface AuditRowSource {
  timestamp: Date;
  user: string;
  source: string;
  action: string;
  /**
   * The company the call went to, `Name (key)` ("Alpha (c7k2p0qx)": the name then, the key for
   * ever); "" when it was not said, or for a one-company document's unnamed company.
   */
  company?: string;
  /** What a write acts on, in words: "Fund 12 · Petty cash", "Report 7"; "" for reads. */
  target?: string;
  /** A movement's amount in integer cents, and its currency ("" when unknown). */
  amountCents?: number | null;
  currency?: string;
  method: string;
  endpoint: string;
  parameters: string;
  httpStatus: number | null;
  outcome: string;
  message: string;
  durationMs: number | null;
  recordId: string;
  /** The entry number the audit sheet gives the row when it appends it (src/audit/sequence.ts). */
  sequence?: number | null;
}

/** Key of the audit's entry-number column. */
export const AUDIT_SEQUENCE_KEY = "sequence";

export const AUDIT_COLUMNS: readonly Column<AuditRowSource>[] = [
  { key: "timestamp", header: "col.timestamp", format: FORMAT.datetime, cell: (a) => a.timestamp },
  // Who, from where and how it ended in the document's language; in English as the code names them.
  text("user", "col.user", (a, language) => whoText(a.user, language)),
  text("source", "col.source", (a, language) => translate(language, `run.source.${a.source}` as StringKey)),
  text("action", "col.action", (a) => a.action),
  // Added after the others: older sheets get these columns inserted here (src/gas/audit-sheet.ts).
  text("company", "col.company", (a) => a.company),
  text("target", "col.target", (a) => a.target),
  amount(
    "amount",
    "col.amount",
    (a) => a.amountCents,
    (a) => a.currency ?? "",
  ),
  text("currency", "col.currency", (a) => a.currency),
  text("method", "col.method", (a) => a.method),
  text("endpoint", "col.endpoint", (a) => a.endpoint),
  text("parameters", "col.parameters", (a) => a.parameters),
  integer("httpStatus", "col.httpStatus", (a) => a.httpStatus),
  text("outcome", "col.outcome", (a, language) =>
    translate(language, `audit.outcome.${a.outcome}` as StringKey),
  ),
  text("message", "col.message", (a) => a.message),
  integer("duration", "col.duration", (a) => a.durationMs),
  text("recordId", "col.recordId", (a) => a.recordId),
  // Last, so that audit sheets written before entries were numbered keep their columns.
  integer(AUDIT_SEQUENCE_KEY, "col.sequence", (a) => a.sequence),
];

const auditKeysWithout = (...keys: string[]) =>
  AUDIT_COLUMNS.map((c) => c.key).filter((k) => !keys.includes(k));

/**
 * The audit layouts written by earlier versions, oldest first: a sheet with one of them (or a
 * beginning of one) gets the missing columns inserted in place, its rows kept. A layout's place
 * in this list is also its number in the sheet's layout note (src/gas/audit-sheet.ts), so
 * layouts are only ever added at the end.
 */
export const OLDER_AUDIT_LAYOUTS: readonly (readonly string[])[] = [
  // Before a write's target, amount and currency had columns of their own.
  auditKeysWithout("company", "target", "amount", "currency"),
  // Before the company.
  auditKeysWithout("company"),
];

export const AUDIT_TABLE: TableSpec<AuditRowSource> = {
  name: "audit",
  columns: AUDIT_COLUMNS,
  keyColumns: ["timestamp"],
  keyOf: (a) => `${a.timestamp.getTime()}`,
};

/** The cells of one record, in the table's column order. */
export function rowOf<R>(table: TableSpec<R>, record: R, language: Language): CellValue[] {
  return table.columns.map((c) => c.cell(record, language));
}

export function headersOf<R>(table: TableSpec<R>, language: Language): string[] {
  return table.columns.map((c) => headerText(c as Column<unknown>, language));
}
