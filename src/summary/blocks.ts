/**
 * The Summary's blocks, one function each, over the records of the data sheets. Amounts are
 * integer cents; days are YYYY-MM-DD texts (compared as text, counted with UTC arithmetic).
 *
 * Computed here in one pass rather than with formulas over the data sheets: the data sheets'
 * names and columns move (settings, extra fields, user columns), the cells are labels in the
 * user's language, and the counts must link to their rows; plain code over the records is
 * tested with fixed data and costs one read of the few columns it needs.
 */
import { rememberedByText } from "../api/remembered";
import { addDays, type DateWindow } from "../refresh/windows";
import type { SummaryFund, SummaryMovement, SummaryReport } from "./records";

/** Rows of a data sheet behind a count (1-based). */
export type Rows = number[];

export interface FundsLine {
  currency: string;
  open: Rows;
  /** Balance of the open funds. */
  balanceCents: number;
  depositsCents: number;
  withdrawalsCents: number;
  negative: Rows;
  blocked: Rows;
  expiring: Rows;
}

export interface ReportsLine {
  currency: string;
  sent: Rows;
  open: Rows;
  closed: Rows;
  /** Closed and not integrated. */
  pending: Rows;
  pendingCents: number;
  /** Days since the oldest pending report closed; null when none. */
  oldestDays: number | null;
}

export interface CustomStatusLine {
  status: string;
  rows: Rows;
}

export interface AttentionItem {
  kind: "negative" | "expiring" | "pending" | "run";
  /** Fund or report id, or the run's start as text. */
  id: string;
  /** Values for the reason's text: amounts in cents, days, dates, a message. */
  detail: Record<string, string | number>;
  /** Row of the fund or report on its data sheet (1-based): what the id links to. */
  row?: number;
  /** The name of its company, once the data sheets have company columns. */
  company?: string;
}

export const EXPIRING_DAYS = 30;
/** A closed report not integrated this many days after closing needs someone. */
export const PENDING_ATTENTION_DAYS = 30;
export const AGE_BUCKETS = [
  { label: "0–7", upTo: 7 },
  { label: "8–30", upTo: 30 },
  { label: "31–90", upTo: 90 },
  { label: "90+", upTo: Number.POSITIVE_INFINITY },
] as const;

/** Days from `from` to `to` (YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((dayStart(to) - dayStart(from)) / 86_400_000);
}

/** A day's start in ms (NaN for a text that is not one), read once per day: rows share few days. */
const dayStart = rememberedByText((day: string) => Date.parse(`${day}T00:00:00Z`));

const inWindow = (day: string, w: DateWindow) => day !== "" && day >= w.since && day <= w.until;

/** The entry of `currency` in `lines`, created by `make` the first time. */
function lineOf<L extends { currency: string }>(lines: L[], currency: string, make: () => L): L {
  let line = lines.find((l) => l.currency === currency);
  if (!line) {
    line = make();
    lines.push(line);
  }
  return line;
}

const byCurrency = <L extends { currency: string }>(lines: L[]) =>
  lines.sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));

/** Funds per currency: open, balance, movements in the window, negative, blocked, expiring soon. */
export function fundsBlock(
  funds: readonly SummaryFund[],
  movements: readonly SummaryMovement[],
  window: DateWindow,
  today: string,
): FundsLine[] {
  const lines: FundsLine[] = [];
  const make = (currency: string) => () => ({
    currency,
    open: [],
    balanceCents: 0,
    depositsCents: 0,
    withdrawalsCents: 0,
    negative: [],
    blocked: [],
    expiring: [],
  });
  const soon = addDays(today, EXPIRING_DAYS);
  for (const f of funds) {
    const line = lineOf(lines, f.currency, make(f.currency));
    if (f.status === "open") {
      line.open.push(f.row);
      line.balanceCents += f.balanceCents;
      if (f.expiration !== "" && f.expiration >= today && f.expiration <= soon) line.expiring.push(f.row);
    }
    if (f.balanceCents < 0) line.negative.push(f.row);
    if (f.status === "blocked") line.blocked.push(f.row);
  }
  for (const m of movements) {
    if (!inWindow(m.date, window) || m.kind === "") continue;
    const line = lineOf(lines, m.currency, make(m.currency));
    if (m.kind === "deposit") line.depositsCents += m.amountCents;
    else line.withdrawalsCents += m.amountCents;
  }
  return byCurrency(lines);
}

/** Reports per currency: sent, open, closed in the window; closed and not yet integrated. */
export function reportsBlock(
  reports: readonly SummaryReport[],
  window: DateWindow,
  today: string,
): ReportsLine[] {
  const lines: ReportsLine[] = [];
  for (const r of reports) {
    const line = lineOf(lines, r.currency, () => ({
      currency: r.currency,
      sent: [],
      open: [],
      closed: [],
      pending: [],
      pendingCents: 0,
      oldestDays: null,
    }));
    if (inWindow(r.sendDate, window)) line.sent.push(r.row);
    if (r.status === "open") line.open.push(r.row);
    if (r.status === "closed" && inWindow(r.closeDate, window)) line.closed.push(r.row);
    if (r.status === "closed" && !r.integrated) {
      line.pending.push(r.row);
      line.pendingCents += r.approvedCents;
      if (r.closeDate !== "") {
        const age = daysBetween(r.closeDate, today);
        if (line.oldestDays === null || age > line.oldestDays) line.oldestDays = age;
      }
    }
  }
  return byCurrency(lines);
}

/** Each custom status and its reports, most used first. */
export function customStatuses(reports: readonly SummaryReport[]): CustomStatusLine[] {
  const byStatus = new Map<string, Rows>();
  for (const r of reports) {
    if (r.customStatus === "") continue;
    const rows = byStatus.get(r.customStatus) ?? [];
    rows.push(r.row);
    byStatus.set(r.customStatus, rows);
  }
  const lines: CustomStatusLine[] = [...byStatus].map(([status, rows]) => ({ status, rows }));
  return lines.sort((a, b) => b.rows.length - a.rows.length || (a.status < b.status ? -1 : 1));
}

/** Funds that need someone today: negative balance first (largest debt first), then expiring. */
export function fundsAttention(funds: readonly SummaryFund[], today: string): AttentionItem[] {
  const soon = addDays(today, EXPIRING_DAYS);
  const negative = funds
    .filter((f) => f.balanceCents < 0)
    .sort((a, b) => a.balanceCents - b.balanceCents)
    .map(
      (f): AttentionItem => ({
        kind: "negative",
        id: String(f.id),
        detail: { cents: f.balanceCents, currency: f.currency },
        row: f.row,
      }),
    );
  const expiring = funds
    .filter(
      (f) => f.status === "open" && f.expiration !== "" && f.expiration >= today && f.expiration <= soon,
    )
    .sort((a, b) => (a.expiration < b.expiration ? -1 : 1))
    .map(
      (f): AttentionItem => ({
        kind: "expiring",
        id: String(f.id),
        detail: { date: f.expiration },
        row: f.row,
      }),
    );
  return [...negative, ...expiring];
}

/** Closed reports still not integrated after PENDING_ATTENTION_DAYS, oldest first. */
export function reportsAttention(reports: readonly SummaryReport[], today: string): AttentionItem[] {
  return reports
    .filter((r) => r.status === "closed" && !r.integrated && r.closeDate !== "")
    .map((r) => ({ r, days: daysBetween(r.closeDate, today) }))
    .filter((x) => x.days > PENDING_ATTENTION_DAYS)
    .sort((a, b) => b.days - a.days)
    .map(({ r, days }) => ({
      kind: "pending",
      id: String(r.id),
      detail: { days, cents: r.approvedCents, currency: r.currency },
      row: r.row,
    }));
}

/** Approved amounts of closed reports not integrated, per age bucket (rows) and currency. */
export function pendingByAge(
  reports: readonly SummaryReport[],
  today: string,
): { currencies: string[]; cents: number[][] } {
  const currencies = [
    ...new Set(reports.filter((r) => r.status === "closed" && !r.integrated).map((r) => r.currency)),
  ].sort();
  const cents = AGE_BUCKETS.map(() => currencies.map(() => 0));
  for (const r of reports) {
    if (r.status !== "closed" || r.integrated) continue;
    const age = r.closeDate === "" ? 0 : Math.max(0, daysBetween(r.closeDate, today));
    const bucket = AGE_BUCKETS.findIndex((b) => age <= b.upTo);
    const row = cents[bucket] as number[];
    const column = currencies.indexOf(r.currency);
    row[column] = (row[column] as number) + r.approvedCents;
  }
  return { currencies, cents };
}

/** Reports sent in each month of the window (YYYY-MM), open and closed. */
export function reportsPerMonth(
  reports: readonly SummaryReport[],
  window: DateWindow,
): Array<{ month: string; open: number; closed: number }> {
  const months: Array<{ month: string; open: number; closed: number }> = [];
  for (let m = window.since.slice(0, 7); m <= window.until.slice(0, 7); ) {
    months.push({ month: m, open: 0, closed: 0 });
    const [y, mo] = m.split("-").map(Number) as [number, number];
    m = mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, "0")}`;
  }
  const byMonth = new Map(months.map((x) => [x.month, x]));
  for (const r of reports) {
    if (!inWindow(r.sendDate, window) || r.status === "") continue;
    const month = byMonth.get(r.sendDate.slice(0, 7));
    if (month) month[r.status] += 1;
  }
  return months;
}

/** The last scheduled run, when it failed: someone must look (add-ons get no failure e-mail). */
export function runAttention(
  runs: ReadonlyArray<{ source: string; outcome: string; startedAt: number; message: string }>,
  when: (ms: number) => string,
): AttentionItem[] {
  const last = runs
    .filter((r) => r.source === "schedule" || r.source === "continuation")
    .sort((a, b) => b.startedAt - a.startedAt)[0];
  return last && last.outcome === "failed"
    ? [{ kind: "run", id: when(last.startedAt), detail: { message: last.message.slice(0, 300) } }]
    : [];
}
