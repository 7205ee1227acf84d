/**
 * The close's two sheets as plain rows: the Accounts sheet (the mapping the controller fills)
 * and the Journal sheet (the vouchers' lines). Their columns are declared here, once; src/gas/
 * writes and reads the cells. Text from the service goes to plain-text columns (never a
 * formula); the Report Id is a link to the report's row when the Expense reports sheet has it.
 */

import {
  type CompanyDirectory,
  type CompanyKey,
  companyByName,
  companyOfEmptyCell,
  liveCompanies,
} from "../company/model";
import type { StringKey } from "../i18n";
import { type CellValue, FORMAT, hyperlinkFormula } from "../sheets/cells";
import { ACCOUNT_KINDS, type AccountKind, type AccountRow } from "./accounts";
import type { SheetLine } from "./approval";
import type { JournalLine } from "./journal";

export interface SheetColumn {
  key: string;
  header: StringKey;
  format: string;
}

export const ACCOUNTS_COLUMNS: readonly SheetColumn[] = [
  { key: "company", header: "close.col.company", format: FORMAT.text },
  { key: "kind", header: "close.col.kind", format: FORMAT.text },
  { key: "key", header: "close.col.key", format: FORMAT.text },
  { key: "name", header: "close.col.name", format: FORMAT.text },
  { key: "account", header: "close.col.account", format: FORMAT.text },
];

export const JOURNAL_COLUMNS: readonly SheetColumn[] = [
  { key: "voucher", header: "close.col.voucher", format: FORMAT.text },
  { key: "date", header: "close.col.date", format: FORMAT.text },
  { key: "company", header: "close.col.company", format: FORMAT.text },
  { key: "currency", header: "close.col.currency", format: FORMAT.text },
  { key: "account", header: "close.col.account", format: FORMAT.text },
  { key: "debit", header: "close.col.debit", format: "0.00" },
  { key: "credit", header: "close.col.credit", format: "0.00" },
  { key: "costCentre", header: "close.col.costCentre", format: FORMAT.text },
  { key: "reportId", header: "close.col.reportId", format: FORMAT.general },
  { key: "reportNumber", header: "close.col.reportNumber", format: FORMAT.text },
  { key: "employee", header: "close.col.employee", format: FORMAT.text },
  { key: "identification", header: "close.col.identification", format: FORMAT.text },
  { key: "description", header: "close.col.description", format: FORMAT.text },
  { key: "companyKey", header: "close.col.companyKey", format: FORMAT.text },
  { key: "state", header: "close.col.state", format: FORMAT.text },
];

/** The columns the approval's digest reads: every one but State (which the marking writes). */
export const DIGESTED_COLUMNS = JOURNAL_COLUMNS.length - 1;

/** The kind's label in either language, as the Accounts sheet shows it. */
export const KIND_LABELS: Record<AccountKind, StringKey> = {
  policy: "close.kind.policy",
  fund: "close.kind.fund",
  employee: "close.kind.employee",
  costCentre: "close.kind.costCentre",
};

/** A Journal line's cells; `link` gives the report's row link (or null: the Id alone). */
export function journalRow(line: JournalLine, link: (line: JournalLine) => string | null): CellValue[] {
  const url = link(line);
  return [
    line.voucher,
    line.date,
    line.companyName,
    line.currency,
    line.account,
    line.debitCents > 0 ? line.debitCents / 100 : "",
    line.creditCents > 0 ? line.creditCents / 100 : "",
    line.costCentre,
    url ? hyperlinkFormula(url, String(line.reportId)) : line.reportId,
    line.reportNumber,
    line.employeeName,
    line.employeeIdentification,
    line.description,
    line.company,
    "",
  ];
}

/** A cell as the digest reads it: numbers in integer cents where money, everything as text. */
function cellText(value: unknown, column: SheetColumn): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number" && (column.key === "debit" || column.key === "credit")) {
    return String(Math.round(value * 100));
  }
  return String(value ?? "");
}

/** The Journal sheet's rows below its header (from row 2) as the approval reads them. */
export function sheetLines(values: readonly (readonly unknown[])[]): SheetLine[] {
  const lines: SheetLine[] = [];
  values.forEach((cells, i) => {
    const texts = JOURNAL_COLUMNS.slice(0, DIGESTED_COLUMNS).map((c, k) => cellText(cells[k], c));
    if (texts.every((t) => t === "")) return;
    lines.push({ row: i + 2, voucher: texts[0] as string, cells: texts });
  });
  return lines;
}

/** Cents of a Debit or Credit cell as read back ("" is 0). */
function centsOf(text: string): number {
  const n = Number(text);
  return text === "" || !Number.isFinite(n) ? 0 : n;
}

/** The journal's lines as the sheet holds them (the CSV and the marking read these). */
export function linesOfSheet(lines: readonly SheetLine[]): JournalLine[] {
  return lines.map(({ cells }) => {
    const at = (key: string) => cells[JOURNAL_COLUMNS.findIndex((c) => c.key === key)] ?? "";
    return {
      voucher: at("voucher"),
      date: at("date"),
      companyName: at("company"),
      currency: at("currency"),
      account: at("account"),
      debitCents: centsOf(at("debit")),
      creditCents: centsOf(at("credit")),
      costCentre: at("costCentre"),
      reportId: Number(at("reportId")),
      reportNumber: at("reportNumber"),
      employeeName: at("employee"),
      employeeIdentification: at("identification"),
      description: at("description"),
      company: at("companyKey"),
    };
  });
}

/** The Accounts sheet's rows (from row 2): `companyOf` resolves the Company cell, or null. */
export function accountRows(
  values: readonly (readonly unknown[])[],
  companyOf: (cell: string) => CompanyKey | null,
  kindOf: (label: string) => AccountKind | null,
): AccountRow[] {
  const rows: AccountRow[] = [];
  values.forEach((cells, i) => {
    const [company, kind, key, , account] = cells.map((c) => String(c ?? "").trim());
    const resolved = companyOf(company ?? "");
    const k = kindOf(kind ?? "");
    if (resolved === null || k === null) return;
    rows.push({ company: resolved, kind: k, key: key ?? "", account: account ?? "", row: i + 2 });
  });
  return rows;
}

/**
 * The company an Accounts row's Company cell names, as every sheet reads a Company cell
 * (src/company/model.ts): empty, the one live company of a document that never had several
 * (once it has had several, none); else a live company's current name, then a former one
 * (compared as names are: trimmed, case and look-alike letters); else a live company's key
 * written as it is. A removed company's name, or a name no company had, names none: the row
 * is given to no company, never to a guessed one.
 */
export function accountsCompanyOf(directory: CompanyDirectory): (cell: string) => CompanyKey | null {
  return (cell) => {
    const value = cell.trim();
    if (value === "") return companyOfEmptyCell(directory)?.key ?? null;
    const named = companyByName(value, directory.entries);
    if (named.found === "current" || named.found === "former") return named.company.key;
    if (named.found === "removed") return null;
    return liveCompanies(directory.entries).find((c) => c.key === value)?.key ?? null;
  };
}

/** A kind from its label in either language, or its key. */
export function kindFromLabel(label: string, labels: (key: StringKey) => string[]): AccountKind | null {
  const wanted = label.trim().toLowerCase();
  for (const kind of ACCOUNT_KINDS) {
    if (kind.toLowerCase() === wanted) return kind;
    if (labels(KIND_LABELS[kind]).some((l) => l.toLowerCase() === wanted)) return kind;
  }
  return null;
}
