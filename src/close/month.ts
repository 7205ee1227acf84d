/**
 * The close's month: "YYYY-MM", its first and last day, and the queries of getExpenseReports
 * (§4.8) that read its reports. A month is always within the service's one-year window, so each
 * list is one query, read page by page.
 */

/** "YYYY-MM" of a real month, else null. */
export function parseMonth(text: unknown): string | null {
  if (typeof text !== "string" || !/^\d{4}-(0[1-9]|1[0-2])$/.test(text)) return null;
  return text;
}

/** The last day of a month, 28 to 31. */
function daysIn(month: string): number {
  const [year, mm] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, mm, 0)).getUTCDate();
}

/** The first and last day of `month`, "YYYY-MM-DD". */
export function monthWindow(month: string): { since: string; until: string } {
  return { since: `${month}-01`, until: `${month}-${String(daysIn(month)).padStart(2, "0")}` };
}

/** Whether a "YYYY-MM-DD" date (or a date and time) falls in `month`. */
export function inMonth(date: string | null, month: string): boolean {
  return typeof date === "string" && date.slice(0, 7) === month;
}

/** The month before `today` ("YYYY-MM-DD"): the one usually closed. */
export function previousMonth(today: string): string {
  const [year, mm] = today.split("-").map(Number) as [number, number];
  return mm === 1 ? `${year - 1}-12` : `${year}-${String(mm - 1).padStart(2, "0")}`;
}

/** Reports per page of the close's reads (what clients of the service use). */
export const CLOSE_PAGE_SIZE = 100;

/** The reports to book: closed (Status 1), not integrated, with a CloseDate in the month. */
export function closedReportsQuery(month: string, currency: string | null): Record<string, unknown> {
  const { since, until } = monthWindow(month);
  return {
    Since: since,
    Until: until,
    TypeDateFilter: 1,
    Status: 1,
    IntegrationStatus: 0,
    ...(currency ? { Currency: currency } : {}),
    OrderBy: 3,
    Order: "ASC",
    ResultsPerPage: CLOSE_PAGE_SIZE,
  };
}

/** The month's closed reports already integrated (under any code), for the attention list. */
export function integratedReportsQuery(month: string, currency: string | null): Record<string, unknown> {
  return { ...closedReportsQuery(month, currency), IntegrationStatus: 1 };
}

/**
 * The month's reports still open: an open report has no CloseDate, so it is found by its
 * SendDate (TypeDateFilter 2), Status 0.
 */
export function openReportsQuery(month: string, currency: string | null): Record<string, unknown> {
  return {
    ...closedReportsQuery(month, currency),
    TypeDateFilter: 2,
    Status: 0,
    IntegrationStatus: undefined,
  };
}

/** A page of a list, as the refresh's reader gives it (src/refresh/reader.ts). */
export interface Page<T> {
  items: T[];
  pages: number;
}

/**
 * Every item of the lists of `queries`: the first page of each, then all their other pages in
 * one batch (`readPages` is one fetchAll, with the client's retries).
 */
export function readEveryPage<T>(
  readPages: (queries: readonly Record<string, unknown>[]) => Page<T>[],
  queries: readonly Record<string, unknown>[],
): T[][] {
  const clean = queries.map(withoutUndefined);
  const firsts = readPages(clean.map((q) => ({ ...q, Page: 1 })));
  const rest: { list: number; query: Record<string, unknown> }[] = [];
  firsts.forEach((first, list) => {
    // An empty page ends a list whatever Records.Pages said.
    if (first.items.length === 0) return;
    for (let page = 2; page <= first.pages; page++)
      rest.push({ list, query: { ...clean[list], Page: page } });
  });
  const lists = firsts.map((first) => [...first.items]);
  if (rest.length > 0) {
    const pages = readPages(rest.map((r) => r.query));
    pages.forEach((page, i) => {
      lists[(rest[i] as { list: number }).list]?.push(...page.items);
    });
  }
  return lists;
}

function withoutUndefined(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
}
