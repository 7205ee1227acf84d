/**
 * The records the Summary is computed from, read back from the rows of the data sheets the last
 * refresh wrote (so Refresh selected rows, a paused refresh and a scheduled one all count what
 * the sheets show). Only the columns the Summary needs, located by the sheet's stored layout.
 */

import { type StringKey, translate } from "../i18n";
import type { CellValue } from "../sheets/cells";
import { COMPANY_COLUMN, COMPANY_KEY_COLUMN } from "../sheets/columns";
import { type CompanyRefusal, companyOfRow, type SheetCompany } from "../sheets/company";

export interface SummaryFund {
  /** Key of the row's company, when its sheet has company columns (absent: the only company). */
  company?: string;
  id: number;
  /** Row on the Funds sheet (1-based): what a count links to. */
  row: number;
  currency: string;
  status: "open" | "closed" | "blocked" | "";
  balanceCents: number;
  /** YYYY-MM-DD or "". */
  expiration: string;
}

export interface SummaryMovement {
  /** Key of the row's company, when its sheet has company columns (absent: the only company). */
  company?: string;
  currency: string;
  kind: "deposit" | "withdrawal" | "";
  amountCents: number;
  date: string;
}

export interface SummaryReport {
  /** Key of the row's company, when its sheet has company columns (absent: the only company). */
  company?: string;
  id: number;
  row: number;
  currency: string;
  status: "open" | "closed" | "";
  customStatus: string;
  sendDate: string;
  closeDate: string;
  integrated: boolean;
  approvedCents: number;
}

/** The columns of a sheet by key, as read: one array of cells per column, data rows only. */
export type ColumnsByKey = Record<string, readonly CellValue[] | undefined>;

/** A day YYYY-MM-DD of a cell (a Date is formatted by `day`, in the spreadsheet's zone). */
export function dayOf(cell: CellValue | undefined, day: (d: Date) => string): string {
  if (cell instanceof Date) return day(cell);
  const m = /^\d{4}-\d{2}-\d{2}/.exec(String(cell ?? ""));
  return m ? m[0] : "";
}

/** Integer cents of an amount cell (a two-decimal number, or its text). */
export function centsOf(cell: CellValue | undefined): number {
  const n = typeof cell === "number" ? cell : Number(String(cell ?? "").replace(/,/g, ""));
  return Number.isFinite(n) ? Math.round(n * 100) : 0;
}

/**
 * Reads which of `labels` a cell shows, in English or Spanish ("" when none): the texts are
 * looked up once, not once per row.
 */
function labelReader<T extends string>(
  labels: Record<T, StringKey>,
): (cell: CellValue | undefined) => T | "" {
  const byText = new Map<string, T>();
  for (const [value, key] of Object.entries(labels) as [T, StringKey][])
    for (const language of ["en", "es"] as const) byText.set(translate(language, key), value);
  return (cell) => byText.get(String(cell ?? "").trim()) ?? "";
}

const text = (cell: CellValue | undefined) => String(cell ?? "").trim();

function rowsOf(columns: ColumnsByKey, key: string): number {
  return columns[key]?.length ?? 0;
}

/**
 * Whether row `i` is one the service still returns: a row the last refresh kept but marked
 * (no longer returned) no longer counts.
 */
const current = (columns: ColumnsByKey, i: number) => text(columns.refreshNote?.[i]) === "";

/** Why rows were left out of the figures, and how many for each reason. */
export type LeftOut = Partial<Record<CompanyRefusal["reason"], number>>;

/** The company of each row of a sheet with company columns, and the rows that have none. */
export interface RowCompanies {
  /** The key of row `i`'s company; null, counted in `leftOut`, when its cells name no live one. */
  of(i: number): string | null;
  readonly leftOut: LeftOut;
}

const COMPANY_CELLS = [COMPANY_COLUMN, COMPANY_KEY_COLUMN] as const;

/**
 * The companies of a sheet's rows, by the rules of `companyOfRow` (key and name must agree, a
 * removed company is no company): null when the sheet has no company columns, every row then
 * the only company's, as before there were several. A row whose company is refused is never
 * counted for another company: it is left out, and counted by why. Each pair of cells is
 * resolved once, however many rows share it.
 */
export function rowCompanies(columns: ColumnsByKey, companies: readonly SheetCompany[]): RowCompanies | null {
  const keys = columns[COMPANY_KEY_COLUMN];
  if (!keys) return null;
  const names = columns[COMPANY_COLUMN];
  // By key cell, then by name cell: thousands of rows share a few pairs, each resolved once.
  const known = new Map<CellValue, Map<CellValue, string | { reason: CompanyRefusal["reason"] }>>();
  const leftOut: LeftOut = {};
  return {
    leftOut,
    of(i) {
      const key = keys[i] ?? "";
      const name = names?.[i] ?? "";
      let byName = known.get(key);
      if (!byName) {
        byName = new Map();
        known.set(key, byName);
      }
      let found = byName.get(name);
      if (found === undefined) {
        const resolved = companyOfRow([name, key], COMPANY_CELLS, companies, i + 2);
        found = resolved.ok ? resolved.company.key : { reason: resolved.refusal.reason };
        byName.set(name, found);
      }
      if (typeof found === "string") return found;
      leftOut[found.reason] = (leftOut[found.reason] ?? 0) + 1;
      return null;
    },
  };
}

export function fundsFrom(
  columns: ColumnsByKey,
  day: (d: Date) => string,
  companies: RowCompanies | null = null,
): SummaryFund[] {
  const out: SummaryFund[] = [];
  const status = labelReader({ open: "status.fund.1", closed: "status.fund.2", blocked: "status.fund.3" });
  for (let i = 0; i < rowsOf(columns, "id"); i++) {
    const id = Number(columns.id?.[i]);
    if (!Number.isInteger(id) || id <= 0 || !current(columns, i)) continue;
    const company = companies ? companies.of(i) : undefined;
    if (company === null) continue;
    const fund: SummaryFund = {
      id,
      row: i + 2,
      currency: text(columns.currency?.[i]),
      status: status(columns.status?.[i]),
      balanceCents: centsOf(columns.balance?.[i]),
      expiration: dayOf(columns.expiration?.[i], day),
    };
    if (company !== undefined) fund.company = company;
    out.push(fund);
  }
  return out;
}

export function movementsFrom(
  columns: ColumnsByKey,
  day: (d: Date) => string,
  companies: RowCompanies | null = null,
): SummaryMovement[] {
  const out: SummaryMovement[] = [];
  const kind = labelReader({ deposit: "transaction.1", withdrawal: "transaction.2" });
  for (let i = 0; i < rowsOf(columns, "movement"); i++) {
    if (text(columns.movement?.[i]) === "" || !current(columns, i)) continue;
    const company = companies ? companies.of(i) : undefined;
    if (company === null) continue;
    const movement: SummaryMovement = {
      currency: text(columns.currency?.[i]),
      kind: kind(columns.type?.[i]),
      amountCents: centsOf(columns.amount?.[i]),
      date: dayOf(columns.date?.[i], day),
    };
    if (company !== undefined) movement.company = company;
    out.push(movement);
  }
  return out;
}

export function reportsFrom(
  columns: ColumnsByKey,
  day: (d: Date) => string,
  companies: RowCompanies | null = null,
): SummaryReport[] {
  const out: SummaryReport[] = [];
  const status = labelReader({ open: "status.report.0", closed: "status.report.1" });
  const integrated = labelReader({ yes: "flag.yes" });
  for (let i = 0; i < rowsOf(columns, "id"); i++) {
    const id = Number(columns.id?.[i]);
    if (!Number.isInteger(id) || id <= 0 || !current(columns, i)) continue;
    const company = companies ? companies.of(i) : undefined;
    if (company === null) continue;
    const report: SummaryReport = {
      id,
      row: i + 2,
      currency: text(columns.currency?.[i]),
      status: status(columns.status?.[i]),
      customStatus: text(columns.customStatus?.[i]),
      sendDate: dayOf(columns.sendDate?.[i], day),
      closeDate: dayOf(columns.closeDate?.[i], day),
      integrated: integrated(columns.integrated?.[i]) === "yes",
      approvedCents: centsOf(columns.totalApproved?.[i]),
    };
    if (company !== undefined) report.company = company;
    out.push(report);
  }
  return out;
}

/** The columns each sheet's records need, by the keys of src/sheets/columns.ts. */
export const NEEDED_COLUMNS = {
  // refreshNote: a row the service no longer returns (greyed, with its reason) is not counted.
  funds: ["id", "currency", "status", "balance", "expiration", "refreshNote"],
  transactions: ["movement", "currency", "type", "amount", "date", "refreshNote"],
  reports: [
    "refreshNote",
    "id",
    "currency",
    "status",
    "customStatus",
    "sendDate",
    "closeDate",
    "integrated",
    "totalApproved",
  ],
} as const;
