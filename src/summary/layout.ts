/**
 * The Summary sheet as data: what each refresh recomputes (a part per data sheet, kept between
 * refreshes so a refresh of one sheet recomputes only the blocks it feeds), and the whole
 * sheet's cells and charts rendered from those parts in one pass.
 *
 * The add-on owns columns A–H (SUMMARY_WIDTH), where its blocks grow and shrink downwards; its
 * charts float over column J onwards. Cells from column I on are the user's and never touched.
 */

import { formatCents } from "../api/money";
import { FIRST_COMPANY_KEY } from "../company/model";
import type { Language, StringKey } from "../i18n";
import type { DateWindow } from "../refresh/windows";
import { FORMAT } from "../sheets/cells";

import {
  AGE_BUCKETS,
  type AttentionItem,
  customStatuses,
  fundsAttention,
  fundsBlock,
  pendingByAge,
  type Rows,
  reportsAttention,
  reportsBlock,
  reportsPerMonth,
} from "./blocks";
import {
  CHART_SIZE,
  type Count,
  type CurrencyTable,
  countLink,
  GridWriter,
  idLink,
  label,
  money,
  type SummaryGrid,
} from "./grid";
import type { LeftOut, RowCompanies, SummaryFund, SummaryMovement, SummaryReport } from "./records";

export {
  CHART_COLUMN,
  CHART_SIZE,
  type ChartSpec,
  type Count,
  CURRENCY_CHARTS,
  moneyFormat,
  type RowStyle,
  SUMMARY_WIDTH,
  type SummaryGrid,
} from "./grid";

/** Property of the document where the parts are kept between refreshes. */
export const SUMMARY_STATE_KEY = "summary.state";
const ATTENTION_SHOWN = 15;
/** Why rows were left out, in the order the Summary names them. */
const LEFT_OUT_REASONS = ["noKey", "unknownKey", "nameMismatch", "removed"] as const;

export function countOf(rows: Rows): Count {
  return rows.length === 0 ? [0, 0, 0] : [rows.length, Math.min(...rows), Math.max(...rows)];
}

export interface FundsPart {
  at: string;
  /** Sheet id of the Funds sheet: what a count links to. */
  gid: number;
  lines: Array<{
    currency: string;
    open: Count;
    balanceCents: number;
    depositsCents: number;
    withdrawalsCents: number;
    negative: Count;
    blocked: Count;
    expiring: Count;
  }>;
  /** The first ATTENTION_SHOWN items, and how many there were in all. */
  attention: AttentionItem[];
  attentionCount: number;
  /**
   * Only when the data sheets have company columns: each listed company's lines, in the
   * document's order; `lines` are then the totals per currency across companies.
   */
  companies?: Array<{ key: string; name: string; lines: FundsPart["lines"] }>;
  /** Rows left out of every figure because their company was refused, per sheet. */
  leftOut?: LeftOutLine[];
}

/** The rows of one data sheet left out of the figures, by why (see `rowCompanies`). */
export interface LeftOutLine {
  sheet: "funds" | "transactions" | "reports";
  counts: LeftOut;
}

/** What splits the Summary per company: the companies listed, and the rows left out. */
export interface CompanySplit {
  /** The document's live companies, in its order: a group each. */
  companies: ReadonlyArray<{ key: string; name: string }>;
  leftOut: LeftOutLine[];
}

/**
 * The Summary's split per company, once a data sheet it reads has company columns (`sheets`:
 * each sheet's row companies, null without those columns); undefined when none has them: the
 * Summary of one company, as before there were several.
 */
export function companySplit(
  companies: ReadonlyArray<{ key: string; name: string }>,
  sheets: ReadonlyArray<readonly [LeftOutLine["sheet"], RowCompanies | null]>,
): CompanySplit | undefined {
  if (sheets.every(([, rows]) => rows === null)) return undefined;
  return {
    companies: companies.map((c) => ({ key: c.key, name: c.name })),
    leftOut: sheets.flatMap(([sheet, rows]) => (rows ? [{ sheet, counts: rows.leftOut }] : [])),
  };
}

export interface ReportsPart {
  at: string;
  gid: number;
  lines: Array<{
    currency: string;
    sent: Count;
    open: Count;
    closed: Count;
    pending: Count;
    pendingCents: number;
    oldestDays: number | null;
  }>;
  custom: Array<{ status: string; count: Count }>;
  attention: AttentionItem[];
  attentionCount: number;
  months: Array<{ month: string; open: number; closed: number }>;
  ages: { currencies: string[]; cents: number[][] };
  /** As FundsPart's: each company's lines, custom statuses and ages; the fields above total them. */
  companies?: Array<{
    key: string;
    name: string;
    lines: ReportsPart["lines"];
    custom: ReportsPart["custom"];
    ages: ReportsPart["ages"];
  }>;
  leftOut?: LeftOutLine[];
}

export interface SummaryLine {
  at: string;
  action: string;
  source: "menu" | "sidebar" | "schedule";
  window: DateWindow;
  filters: string;
}

export interface SummaryState {
  v: 1;
  funds: FundsPart | null;
  reports: ReportsPart | null;
  run: AttentionItem[];
  line: SummaryLine | null;
  /** Rows of the add-on's area last written: cleared before the next write. */
  height: number;
  /**
   * Ids of the charts the add-on inserted, by ChartSpec key (an array, by position, in states
   * written before the charts were per currency).
   */
  charts: Record<string, number> | Array<number | null>;
  /** The Summary sheet's id: followed through a rename, and never confused with a user's sheet. */
  sheetId?: number;
  /** How long the last update took, in ms on the script's clock (`npm run bench` reports it). */
  ms?: number;
}

export const EMPTY_STATE: SummaryState = {
  v: 1,
  funds: null,
  reports: null,
  run: [],
  line: null,
  height: 0,
  charts: {},
};

export function parseState(text: string | null): SummaryState {
  try {
    const state = JSON.parse(text ?? "") as SummaryState;
    if (state && state.v === 1) return state;
  } catch (_err) {
    // Unreadable: computed again from scratch.
  }
  return { ...EMPTY_STATE, run: [], charts: {} };
}

/** What a part keeps of its attention items: the first ones shown, and how many in all. */
function attentionOf(items: AttentionItem[]): { attention: AttentionItem[]; attentionCount: number } {
  return { attention: items.slice(0, ATTENTION_SHOWN), attentionCount: items.length };
}

function fundLines(
  funds: readonly SummaryFund[],
  movements: readonly SummaryMovement[],
  window: DateWindow,
  today: string,
): FundsPart["lines"] {
  return fundsBlock(funds, movements, window, today).map((l) => ({
    ...l,
    open: countOf(l.open),
    negative: countOf(l.negative),
    blocked: countOf(l.blocked),
    expiring: countOf(l.expiring),
  }));
}

function reportLines(
  reports: readonly SummaryReport[],
  window: DateWindow,
  today: string,
): ReportsPart["lines"] {
  return reportsBlock(reports, window, today).map((l) => ({
    ...l,
    sent: countOf(l.sent),
    open: countOf(l.open),
    closed: countOf(l.closed),
    pending: countOf(l.pending),
  }));
}

function customLines(reports: readonly SummaryReport[]): ReportsPart["custom"] {
  return customStatuses(reports)
    .slice(0, 20)
    .map((c) => ({ status: c.status, count: countOf(c.rows) }));
}

/** The records of each company, by key (one pass). */
function byCompany<R extends { company?: string }>(records: readonly R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const r of records) {
    // A row of a sheet without company columns is the first company's, as the merge labels it.
    const key = r.company ?? FIRST_COMPANY_KEY;
    const list = out.get(key);
    if (list) list.push(r);
    else out.set(key, [r]);
  }
  return out;
}

/** Attention items named with their company: with several, an id alone does not say which fund. */
function named<R extends { company?: string }>(
  items: AttentionItem[],
  records: readonly R[],
  split: CompanySplit | undefined,
): AttentionItem[] {
  if (!split) return items;
  const names = new Map(split.companies.map((c) => [c.key, c.name]));
  const byRow = new Map<number, string>();
  for (const r of records as ReadonlyArray<R & { row: number }>)
    byRow.set(r.row, r.company ?? FIRST_COMPANY_KEY);
  return items.map((item) => ({ ...item, company: names.get(byRow.get(item.row ?? 0) ?? "") ?? "" }));
}

export function fundsPart(
  funds: readonly SummaryFund[],
  movements: readonly SummaryMovement[],
  window: DateWindow,
  today: string,
  at: string,
  gid: number,
  split?: CompanySplit,
): FundsPart {
  const part: FundsPart = {
    at,
    gid,
    lines: fundLines(funds, movements, window, today),
    ...attentionOf(named(fundsAttention(funds, today), funds, split)),
  };
  if (!split) return part;
  const fundsOf = byCompany(funds);
  const movementsOf = byCompany(movements);
  part.companies = split.companies.map((c) => ({
    key: c.key,
    name: c.name,
    lines: fundLines(fundsOf.get(c.key) ?? [], movementsOf.get(c.key) ?? [], window, today),
  }));
  part.leftOut = split.leftOut.filter((l) => l.sheet !== "reports");
  return part;
}

export function reportsPart(
  reports: readonly SummaryReport[],
  window: DateWindow,
  today: string,
  at: string,
  gid: number,
  split?: CompanySplit,
): ReportsPart {
  const part: ReportsPart = {
    at,
    gid,
    lines: reportLines(reports, window, today),
    custom: customLines(reports),
    ...attentionOf(named(reportsAttention(reports, today), reports, split)),
    // The last two years of a longer window: a chart of more months is unreadable.
    months: reportsPerMonth(reports, window).slice(-24),
    ages: pendingByAge(reports, today),
  };
  if (!split) return part;
  const reportsOf = byCompany(reports);
  part.companies = split.companies.map((c) => {
    const own = reportsOf.get(c.key) ?? [];
    return {
      key: c.key,
      name: c.name,
      lines: reportLines(own, window, today),
      custom: customLines(own),
      ages: pendingByAge(own, today),
    };
  });
  part.leftOut = split.leftOut.filter((l) => l.sheet === "reports");
  return part;
}

/**
 * The whole area in one grid. Text that comes from the service (currencies, custom statuses)
 * or the settings lands in plain-text cells: never a formula. Links are built from numbers
 * only (an id that is not all digits is shown as text, without a link).
 */
export function renderSummary(state: SummaryState, language: Language): SummaryGrid {
  const g = new GridWriter(language);
  writeHeadline(g, state.line);
  writeFunds(g, state.funds);
  writeReports(g, state.reports);
  writeCustomStatuses(g, state.reports);
  writeAttention(g, state);
  writeChartData(g, state);
  return g.grid();
}

/** The sheet's title and the line saying what the last refresh read. */
function writeHeadline(g: GridWriter, line: SummaryLine | null): void {
  g.row([label(g.t("summary.sheet"))], "title");
  g.row(
    [
      label(
        line
          ? g.t("summary.line", {
              when: line.at,
              action: line.action,
              source: g.t(`summary.from.${line.source}` as StringKey),
              since: line.window.since,
              until: line.window.until,
              filters: line.filters || g.t("summary.noFilters"),
            })
          : g.t("summary.empty"),
      ),
    ],
    "line",
  );
  g.gap();
}

/** The funds' block: a line per currency (per company, then their totals). */
function writeFunds(g: GridWriter, funds: FundsPart | null): void {
  g.row([label(g.t("summary.funds", { when: funds?.at ?? "—" }))], "block");
  g.header("summary.funds.header");
  const gid = funds?.gid ?? 0;
  g.grouped(funds?.companies, funds?.lines ?? [], (l) => {
    g.row([
      label(l.currency),
      countLink(l.open, gid),
      money(l.balanceCents, l.currency),
      money(l.depositsCents, l.currency),
      money(l.withdrawalsCents, l.currency),
      countLink(l.negative, gid),
      countLink(l.blocked, gid),
      countLink(l.expiring, gid),
    ]);
  });
  writeLeftOut(g, funds?.leftOut);
  g.gap();
}

/** The reports' block: a line per currency (per company, then their totals). */
function writeReports(g: GridWriter, reports: ReportsPart | null): void {
  g.row([label(g.t("summary.reports", { when: reports?.at ?? "—" }))], "block");
  g.header("summary.reports.header");
  const gid = reports?.gid ?? 0;
  g.grouped(reports?.companies, reports?.lines ?? [], (l) => {
    g.row([
      label(l.currency),
      countLink(l.sent, gid),
      countLink(l.open, gid),
      countLink(l.closed, gid),
      countLink(l.pending, gid),
      money(l.pendingCents, l.currency),
      [l.oldestDays ?? "", FORMAT.integer],
    ]);
  });
  writeLeftOut(g, reports?.leftOut);
  g.gap();
}

/** The rows a sheet's figures left out because of their company, by why. */
function writeLeftOut(g: GridWriter, lines: readonly LeftOutLine[] | undefined): void {
  for (const l of lines ?? []) {
    const counts = LEFT_OUT_REASONS.map((reason) => [reason, l.counts[reason] ?? 0] as const).filter(
      ([, n]) => n > 0,
    );
    const count = counts.reduce((sum, [, n]) => sum + n, 0);
    if (count === 0) continue;
    const reasons = counts.map(([reason, n]) => g.t(`summary.co.reason.${reason}`, { count: n })).join(", ");
    g.row([label(g.t(`summary.co.leftOut.${l.sheet}`, { count, reasons }))]);
  }
}

/** The reports per custom status. */
function writeCustomStatuses(g: GridWriter, reports: ReportsPart | null): void {
  g.header("summary.custom.header");
  const custom = (c: ReportsPart["custom"][number]) =>
    g.row([label(c.status), countLink(c.count, reports?.gid ?? 0)]);
  // Custom statuses belong to each company's policies: listed per company, never summed.
  if (reports?.companies)
    for (const c of reports.companies.filter((x) => x.custom.length > 0)) {
      g.row([label(c.name)], "group");
      c.custom.forEach(custom);
    }
  else (reports?.custom ?? []).forEach(custom);
  g.gap();
}

/** What needs attention: the first ATTENTION_SHOWN items, and how many more there are. */
function writeAttention(g: GridWriter, state: SummaryState): void {
  const { funds, reports } = state;
  g.row([label(g.t("summary.attention"))], "block");
  // With several companies, an id alone does not say whose fund or report it is.
  const split = Boolean(funds?.companies || reports?.companies);
  g.header(split ? "summary.co.attention.header" : "summary.attention.header");
  const items = [...(funds?.attention ?? []), ...(reports?.attention ?? []), ...state.run];
  const total = (funds?.attentionCount ?? 0) + (reports?.attentionCount ?? 0) + state.run.length;
  for (const item of items.slice(0, ATTENTION_SHOWN)) {
    const d = item.detail;
    const amount =
      typeof d.cents === "number"
        ? formatCents(d.cents, { locale: g.language, currency: String(d.currency ?? "") || undefined })
        : "";
    const gid = item.kind === "pending" ? reports?.gid : item.kind === "run" ? undefined : funds?.gid;
    const what = label(g.t(`summary.kind.${item.kind}` as StringKey));
    const why = label(g.t(`summary.reason.${item.kind}` as StringKey, { ...d, amount }));
    g.row(split ? [what, label(item.company ?? ""), idLink(item, gid), why] : [what, idLink(item, gid), why]);
  }
  if (total > ATTENTION_SHOWN) g.row([label(g.t("summary.more", { count: total - ATTENTION_SHOWN }))]);
  if (items.length === 0) g.row([label(g.t("summary.attention.none"))]);
  g.gap();
}

/**
 * The charts' data: small tables the embedded charts draw from. Amounts of different currencies
 * never share a chart: one small chart per currency, side by side; counts, which compare, share one.
 */
function writeChartData(g: GridWriter, state: SummaryState): void {
  const { funds, reports } = state;
  g.row([label(g.t("summary.chartData"))], "block");
  g.perCurrency(
    "funds",
    (funds?.lines ?? []).map((l) => l.currency),
    (currency) => fundsChart(g, funds, currency),
  );
  g.chartKind();
  g.table(
    { key: "months", title: g.t("summary.chart.months"), stacked: true, width: CHART_SIZE.width, offsetX: 0 },
    g.t("summary.chart.months.header").split("|"),
    (reports?.months ?? []).map((m) => [
      label(m.month),
      [m.open, FORMAT.integer],
      [m.closed, FORMAT.integer],
    ]),
  );
  const ages = reports?.ages ?? { currencies: [], cents: [] };
  g.perCurrency("ages", ages.currencies, (currency) => agesChart(g, reports, ages, currency));
}

/** One currency's balance, deposits and withdrawals (a group of bars per company, if several). */
function fundsChart(g: GridWriter, funds: FundsPart | null, currency: string): CurrencyTable {
  const l = funds?.lines.find((x) => x.currency === currency);
  const [, ...names] = g.t("summary.funds.header").split("|");
  // Several companies: a group of bars per company (balance, deposits, withdrawals), one
  // currency per chart as without companies.
  if (funds?.companies)
    return {
      title: g.t("summary.chart.balance", { currency }),
      head: [g.t("col.company"), names[1] ?? "", names[2] ?? "", names[3] ?? ""],
      body: funds.companies.flatMap((c) => {
        const own = c.lines.find((x) => x.currency === currency);
        return own
          ? [
              [
                label(c.name),
                money(own.balanceCents, currency),
                money(own.depositsCents, currency),
                money(own.withdrawalsCents, currency),
              ],
            ]
          : [];
      }),
      legend: true,
    };
  return {
    title: g.t("summary.chart.balance", { currency }),
    head: [g.t("summary.chart.balance.header"), currency],
    body: [
      [label(names[1] ?? ""), money(l?.balanceCents ?? 0, currency)],
      [label(names[2] ?? ""), money(l?.depositsCents ?? 0, currency)],
      [label(names[3] ?? ""), money(l?.withdrawalsCents ?? 0, currency)],
    ],
  };
}

/** One currency's pending amounts by age (a column per company, stacked by age, if several). */
function agesChart(
  g: GridWriter,
  reports: ReportsPart | null,
  ages: ReportsPart["ages"],
  currency: string,
): CurrencyTable {
  const c = ages.currencies.indexOf(currency);
  // Several companies: a column per company, stacked by age, in the one currency.
  if (reports?.companies)
    return {
      title: g.t("summary.chart.ages", { currency }),
      head: [g.t("col.company"), ...AGE_BUCKETS.map((b) => b.label)],
      body: reports.companies.flatMap((company) => {
        const k = company.ages.currencies.indexOf(currency);
        if (k < 0) return [];
        return [
          [
            label(company.name),
            ...AGE_BUCKETS.map((_b, i) => money(company.ages.cents[i]?.[k] ?? 0, currency)),
          ],
        ];
      }),
      stacked: true,
      legend: true,
    };
  return {
    title: g.t("summary.chart.ages", { currency }),
    head: [g.t("summary.chart.ages.header"), currency],
    body: AGE_BUCKETS.map((b, i) => [label(b.label), money(ages.cents[i]?.[c] ?? 0, currency)]),
  };
}
