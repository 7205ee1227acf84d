/**
 * The expense-report window in pieces the service accepts: getExpenseReports takes at most one
 * year between Since and Until, so a longer window is asked for one year at a time.
 */
import { oneYearAfter } from "../api/endpoints";

export interface DateWindow {
  since: string;
  until: string;
}

/** The day after `date` (YYYY-MM-DD). */
export function nextDay(date: string): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + 1));
  return t.toISOString().slice(0, 10);
}

/** `date` moved by `days` (negative: earlier). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * Consecutive pieces covering since..until (both included), each at most one year long as the
 * service counts it, none overlapping. A window that ends before it starts is refused.
 */
export function splitWindow(window: DateWindow): DateWindow[] {
  const { since, until } = window;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(since) || !/^\d{4}-\d{2}-\d{2}$/.test(until)) {
    throw new Error(
      `Report window: Since and Until must be dates YYYY-MM-DD (got "${since}" and "${until}").`,
    );
  }
  if (until < since) throw new Error(`Report window: Until (${until}) must not be before Since (${since}).`);
  const pieces: DateWindow[] = [];
  let start = since;
  while (start <= until) {
    const latest = oneYearAfter(start);
    // Dates as YYYY-MM-DD compare as text.
    const end = [latest, until].sort()[0] as string;
    pieces.push({ since: start, until: end });
    start = nextDay(end);
  }
  return pieces;
}
