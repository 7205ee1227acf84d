/**
 * Filters, ordering and pagination of getFunds and getExpenseReports. Both walk an index that
 * the ledger keeps sorted by the requested key, so a request over 50,000 reports is one linear
 * pass with no sort.
 */
import type { FundOrder, Ledger, ReportOrder } from "./ledger";
import type { Fund, FundStatus, Report } from "./model";

/** Used when ResultsPerPage is absent (what clients of the real service send anyway). */
export const DEFAULT_RESULTS_PER_PAGE = 100;
/** Larger pages are refused with a 400 naming ResultsPerPage. */
export const MAX_RESULTS_PER_PAGE = 1000;

export interface Paging {
  order: "ASC" | "DESC";
  resultsPerPage: number;
  page: number;
}

export interface FundQuery extends Paging {
  status?: FundStatus;
  orderBy: FundOrder;
  /** Inclusive `YYYY-MM-DD` bounds on the creation date. */
  from?: string;
  to?: string;
}

export interface ReportQuery extends Paging {
  since: string;
  /** Absent means today (the range rule is checked by the request parser). */
  until: string;
  dateField: "closeDate" | "sendDate";
  currency?: string;
  status?: 0 | 1;
  policyId?: number;
  integrated?: boolean;
  integrationCode?: string;
  integrationDate?: string;
  userId?: number;
  orderBy: ReportOrder;
}

export interface PageOf<T> {
  items: T[];
  total: number;
  page: number;
  pages: number;
}

export function listFunds(ledger: Ledger, query: FundQuery): PageOf<Fund> {
  const index = ledger.fundsOrderedBy(query.orderBy);
  return paginate(index, query, { start: 0, end: index.length }, (fund) => {
    if (query.status !== undefined && fund.status !== query.status) return false;
    const day = fund.createdAt.slice(0, 10);
    if (query.from !== undefined && day < query.from) return false;
    if (query.to !== undefined && day > query.to) return false;
    return true;
  });
}

export function listReports(ledger: Ledger, query: ReportQuery): PageOf<Report> {
  const field = query.dateField;
  const index = ledger.reportsOrderedBy(query.orderBy);
  // When the order is by the filtered date, the window is one slice of the index.
  const bounds =
    query.orderBy === field
      ? { start: firstAtLeast(index, field, query.since), end: firstAbove(index, field, query.until) }
      : { start: 0, end: index.length };
  return paginate(index, query, bounds, (report) => {
    const day = report[field];
    // An empty date (open report's CloseDate, unsent draft's SendDate) is outside every range.
    if (day === "" || day < query.since || day > query.until) return false;
    if (query.status !== undefined && report.status !== query.status) return false;
    if (query.currency !== undefined && report.currency !== query.currency) return false;
    if (query.policyId !== undefined && report.policyId !== query.policyId) return false;
    if (query.userId !== undefined && report.employeeId !== query.userId) return false;
    if (query.integrated !== undefined && report.integrated !== query.integrated) return false;
    if (query.integrationCode !== undefined) {
      if (!report.integrated || report.integrationExternalCode !== query.integrationCode) return false;
    }
    if (query.integrationDate !== undefined) {
      if (!report.integrated || report.integrationDate.slice(0, 10) !== query.integrationDate) return false;
    }
    return true;
  });
}

/** One pass over [start, end) of an ascending index: counts every match, keeps only the requested page. */
function paginate<T>(
  ascending: readonly T[],
  paging: Paging,
  bounds: { start: number; end: number },
  matches: (item: T) => boolean,
): PageOf<T> {
  const first = (paging.page - 1) * paging.resultsPerPage;
  const last = first + paging.resultsPerPage;
  const items: T[] = [];
  let total = 0;
  const visit = (item: T) => {
    if (!matches(item)) return;
    if (total >= first && total < last) items.push(item);
    total++;
  };
  if (paging.order === "ASC") for (let i = bounds.start; i < bounds.end; i++) visit(ascending[i] as T);
  else for (let i = bounds.end - 1; i >= bounds.start; i--) visit(ascending[i] as T);
  return { items, total, page: paging.page, pages: Math.ceil(total / paging.resultsPerPage) };
}

/** First position whose date is >= day, in an index ascending by that date. */
function firstAtLeast(index: readonly Report[], field: "closeDate" | "sendDate", day: string): number {
  let lo = 0;
  let hi = index.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((index[mid] as Report)[field] < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First position whose date is > day, in an index ascending by that date. */
function firstAbove(index: readonly Report[], field: "closeDate" | "sendDate", day: string): number {
  let lo = 0;
  let hi = index.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((index[mid] as Report)[field] <= day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
