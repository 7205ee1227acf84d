/**
 * Undoing a voucher: the reports integrated with its code are found (§4.8 IntegrationCode, every
 * page), confirmed by the person, and set not integrated (IntegrationStatus 0) with the marking's
 * guarantees (mark.ts, mode "undo"): each report read first, its batch recorded before the calls
 * leave, done only once a read shows it no longer integrated with that code, a lost call settled
 * by reading, a report integrated meanwhile under another code named and left as it is.
 */
import { dateText } from "../api/fields";
import type { ExpenseReport } from "../api/types";
import { type MarkClient, type MarkDeps, type MarkResult, runMarks } from "./mark";
import type { CloseMark } from "./types";

/** The largest page the service takes (the refresh's probe finds the same on the sandbox). */
const PAGE_SIZE = 1000;

/** A report of the voucher, as the confirmation lists it. */
export interface VoucherReport {
  reportId: number;
  reportNumber: string;
  cents: number;
  currency: string;
}

/** Where the reports are looked for: CloseDate from `since` to `until` (YYYY-MM-DD, one year at most). */
export interface UndoWindow {
  since: string;
  until: string;
}

export interface UndoDeps extends MarkDeps {
  /** The voucher's window; absent: the year up to the clock's day. */
  window?: UndoWindow;
  /** Reports per page of the search (1000 by default). */
  pageSize?: number;
  /** Shown the reports found: true to set them not integrated; false sends nothing. */
  confirm(found: readonly VoucherReport[]): boolean;
}

export interface UndoResult extends MarkResult {
  found: VoucherReport[];
  confirmed: boolean;
}

/** The year up to `now`'s day: the widest window §4.8 takes. */
export function lastYear(now: number): UndoWindow {
  const today = new Date(now);
  const since = new Date(today.getFullYear() - 1, today.getMonth(), today.getDate() + 1);
  return { since: dateText(since), until: dateText(today) };
}

/** The reports integrated with `code` (§4.8 IntegrationCode), every page: the rest in one round. */
export function findVoucherReports(
  client: MarkClient,
  code: string,
  window: UndoWindow,
  pageSize = PAGE_SIZE,
): ExpenseReport[] {
  const query = (Page: number) => ({
    Since: window.since,
    Until: window.until,
    IntegrationCode: code,
    IntegrationStatus: 1,
    ResultsPerPage: pageSize,
    Page,
  });
  const [first] = client.readMany("getExpenseReports", [query(1)]);
  if (!first?.ok) throw first?.error ?? new Error("getExpenseReports: no answer");
  const pages = first.value.records.pages;
  const rest = client.readMany(
    "getExpenseReports",
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) => query(i + 2)),
  );
  const reports = [...first.value.expenseReports];
  for (const page of rest) {
    if (!page.ok) throw page.error;
    reports.push(...page.value.expenseReports);
  }
  // A report that moved between pages while they were read comes once.
  const byId = new Map(reports.map((r) => [r.id, r]));
  return [...byId.values()].filter((r) => r.integrationExternalCode === code);
}

/** Finds the voucher's reports, asks for the confirmation, and sets them not integrated. */
export function undoVoucher(company: string, code: string, deps: UndoDeps): UndoResult {
  const window = deps.window ?? lastYear(deps.clock.now());
  const reports = findVoucherReports(deps.clientOf(company), code, window, deps.pageSize);
  const found = reports.map((r) => ({
    reportId: r.id,
    reportNumber: r.reportNumber,
    cents: r.reportTotalApprovedCents,
    currency: r.currency,
  }));
  if (found.length === 0 || !deps.confirm(found)) {
    return { found, confirmed: false, outcomes: [], remaining: [], mustContinue: false };
  }
  const marks: CloseMark[] = found.map((r) => ({
    company,
    reportId: r.reportId,
    reportNumber: r.reportNumber,
    voucher: code,
    cents: r.cents,
    currency: r.currency,
    integrationDate: "",
  }));
  return { found, confirmed: true, ...runMarks(marks, "undo", deps) };
}
