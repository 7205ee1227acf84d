/**
 * The Summary sheet as data: what each refresh recomputes (a part per data sheet, kept between
 * refreshes so a refresh of one sheet recomputes only the blocks it feeds), and the whole
 * sheet's cells and charts rendered from those parts in one pass.
 *
 * The add-on owns columns A–H (SUMMARY_WIDTH), where its blocks grow and shrink downwards; its
 * charts float over column J onwards. Cells from column I on are the user's and never touched.
 */

import { formatCents } from "../api/money";
import { type Language, type StringKey, translate } from "../i18n";
import type { DateWindow } from "../refresh/windows";
import { amountFormat, type CellValue, FORMAT } from "../sheets/cells";
import { FIRST_COMPANY_KEY } from "../sheets/company";
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
import type { LeftOut, RowCompanies, SummaryFund, SummaryMovement, SummaryReport } from "./records";

export const SUMMARY_WIDTH = 8;
/** Property of the document where the parts are kept between refreshes. */
export const SUMMARY_STATE_KEY = "summary.state";
const ATTENTION_SHOWN = 15;
/** Why rows were left out, in the order the Summary names them. */
const LEFT_OUT_REASONS = ["noKey", "unknownKey", "nameMismatch", "removed"] as const;

/** How many rows are behind a count, and the first and last of them (a link's span). */
export type Count = [n: number, first: number, last: number];

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

/** A chart of the Summary: its title and the block of cells it draws (header row first). */
export interface ChartSpec {
  /** What the chart shows, stable between refreshes ("funds:PEN", "months", "ages:CLP"). */
  key: string;
  title: string;
  stacked: boolean;
  /** A legend under the chart (its series are named: statuses, movements, ages). */
  legend?: boolean;
  range: { row: number; column: number; numRows: number; numColumns: number };
  /** Where it is placed when first inserted (a chart the user moved stays where it is). */
  anchorRow: number;
  /** Pixels right of CHART_COLUMN: the charts of one kind, one per currency, side by side. */
  offsetX: number;
  width: number;
}

export const CHART_COLUMN = SUMMARY_WIDTH + 2;
/** Each chart's height in pixels, and the rows (21 px each) between the tops of two kinds of chart. */
export const CHART_SIZE = { width: 480, small: 320, gap: 12, height: 260 } as const;
const CHART_ROWS = 14;
/** Charts of amounts drawn per currency: beyond these, the tables above still hold them all. */
export const CURRENCY_CHARTS = 6;

/** How a row of the Summary looks: the adapter turns these into fonts and colours. */
export type RowStyle = "title" | "line" | "block" | "header" | "group" | "plain";

export interface SummaryGrid {
  values: CellValue[][];
  formats: string[][];
  /** One per row of `values`. */
  styles: RowStyle[];
  charts: ChartSpec[];
}

/**
 * The number format of an amount in `currency`: its code first ("PEN 1,234.50", as the sidebars
 * write money), the currency's decimals (none for CLP unless the value has cents), negative
 * amounts red. A code that is not three capital letters comes from a cell anyone can type in:
 * it stays out of the format.
 */
export function moneyFormat(currency: string, cents: number): string {
  const number = amountFormat(currency, cents);
  const code = /^[A-Z]{3}$/.test(currency) ? `"${currency} "` : "";
  return `${code}${number};[Red]-${code}${number}`;
}

/** A link to rows of another sheet of the spreadsheet, showing `label` (digits only, or a number). */
function rowsLink(gid: number, first: number, last: number, label: string | number): string {
  const shown = typeof label === "number" ? String(label) : `"${label}"`;
  return `=HYPERLINK("#gid=${gid}&range=A${first}:A${last}",${shown})`;
}

/**
 * The whole area in one grid. Text that comes from the service (currencies, custom statuses)
 * or the settings lands in plain-text cells: never a formula. Links are built here from numbers
 * only (an id that is not all digits is shown as text, without a link).
 */
export function renderSummary(state: SummaryState, language: Language): SummaryGrid {
  const t = (key: StringKey, params?: Record<string, string | number>) => translate(language, key, params);
  const values: CellValue[][] = [];
  const formats: string[][] = [];
  const styles: RowStyle[] = [];
  const charts: ChartSpec[] = [];
  const row = (cells: Array<[CellValue, string]>, style: RowStyle = "plain") => {
    const padded = [...cells];
    while (padded.length < SUMMARY_WIDTH) padded.push(["", FORMAT.text]);
    values.push(padded.map((c) => c[0]));
    formats.push(padded.map((c) => c[1]));
    styles.push(style);
  };
  const label = (text: string): [CellValue, string] => [text, FORMAT.text];
  const money = (cents: number, currency: string): [CellValue, string] => [
    cents / 100,
    moneyFormat(currency, cents),
  ];
  const header = (key: StringKey) => row(t(key).split("|").map(label), "header");
  const link = (count: Count, gid: number): [CellValue, string] => [
    count[0] === 0 ? 0 : rowsLink(gid, count[1], count[2], count[0]),
    FORMAT.integer,
  ];
  const idLink = (item: AttentionItem, gid: number | undefined): [CellValue, string] =>
    item.row && gid !== undefined && /^\d{1,20}$/.test(item.id)
      ? [rowsLink(gid, item.row, item.row, item.id), FORMAT.general]
      : label(item.id);
  const gap = () => row([]);
  /** A company's lines under its name, then the totals per currency across companies. */
  const grouped = <L>(
    companies: ReadonlyArray<{ name: string; lines: readonly L[] }> | undefined,
    totals: readonly L[],
    line: (l: L) => void,
  ) => {
    for (const c of companies ?? []) {
      row([label(c.name)], "group");
      for (const l of c.lines) line(l);
      if (c.lines.length === 0) row([label(t("summary.empty"))]);
    }
    if (companies) row([label(t("summary.co.total"))], "group");
    for (const l of totals) line(l);
    if (totals.length === 0) row([label(t("summary.empty"))]);
  };
  const leftOut = (lines: readonly LeftOutLine[] | undefined) => {
    for (const l of lines ?? []) {
      const counts = LEFT_OUT_REASONS.map((reason) => [reason, l.counts[reason] ?? 0] as const).filter(
        ([, n]) => n > 0,
      );
      const count = counts.reduce((sum, [, n]) => sum + n, 0);
      if (count === 0) continue;
      const reasons = counts.map(([reason, n]) => t(`summary.co.reason.${reason}`, { count: n })).join(", ");
      row([label(t(`summary.co.leftOut.${l.sheet}`, { count, reasons }))]);
    }
  };

  row([label(t("summary.sheet"))], "title");
  const line = state.line;
  row(
    [
      label(
        line
          ? t("summary.line", {
              when: line.at,
              action: line.action,
              source: t(`summary.from.${line.source}` as StringKey),
              since: line.window.since,
              until: line.window.until,
              filters: line.filters || t("summary.noFilters"),
            })
          : t("summary.empty"),
      ),
    ],
    "line",
  );
  gap();

  const funds = state.funds;
  row([label(t("summary.funds", { when: funds?.at ?? "—" }))], "block");
  header("summary.funds.header");
  grouped(funds?.companies, funds?.lines ?? [], (l) => {
    const g = funds?.gid ?? 0;
    row([
      label(l.currency),
      link(l.open, g),
      money(l.balanceCents, l.currency),
      money(l.depositsCents, l.currency),
      money(l.withdrawalsCents, l.currency),
      link(l.negative, g),
      link(l.blocked, g),
      link(l.expiring, g),
    ]);
  });
  leftOut(funds?.leftOut);
  gap();

  const reports = state.reports;
  row([label(t("summary.reports", { when: reports?.at ?? "—" }))], "block");
  header("summary.reports.header");
  grouped(reports?.companies, reports?.lines ?? [], (l) => {
    const g = reports?.gid ?? 0;
    row([
      label(l.currency),
      link(l.sent, g),
      link(l.open, g),
      link(l.closed, g),
      link(l.pending, g),
      money(l.pendingCents, l.currency),
      [l.oldestDays ?? "", FORMAT.integer],
    ]);
  });
  leftOut(reports?.leftOut);
  gap();
  header("summary.custom.header");
  const custom = (c: ReportsPart["custom"][number]) =>
    row([label(c.status), link(c.count, reports?.gid ?? 0)]);
  // Custom statuses belong to each company's policies: listed per company, never summed.
  if (reports?.companies)
    for (const c of reports.companies.filter((x) => x.custom.length > 0)) {
      row([label(c.name)], "group");
      c.custom.forEach(custom);
    }
  else (reports?.custom ?? []).forEach(custom);
  gap();

  row([label(t("summary.attention"))], "block");
  // With several companies, an id alone does not say whose fund or report it is.
  const split = Boolean(funds?.companies || reports?.companies);
  header(split ? "summary.co.attention.header" : "summary.attention.header");
  const items = [...(funds?.attention ?? []), ...(reports?.attention ?? []), ...state.run];
  const total = (funds?.attentionCount ?? 0) + (reports?.attentionCount ?? 0) + state.run.length;
  for (const item of items.slice(0, ATTENTION_SHOWN)) {
    const d = item.detail;
    const amount =
      typeof d.cents === "number"
        ? formatCents(d.cents, { language, currency: String(d.currency ?? "") || undefined })
        : "";
    const gid = item.kind === "pending" ? reports?.gid : item.kind === "run" ? undefined : funds?.gid;
    const what = label(t(`summary.kind.${item.kind}` as StringKey));
    const why = label(t(`summary.reason.${item.kind}` as StringKey, { ...d, amount }));
    row(split ? [what, label(item.company ?? ""), idLink(item, gid), why] : [what, idLink(item, gid), why]);
  }
  if (total > ATTENTION_SHOWN) row([label(t("summary.more", { count: total - ATTENTION_SHOWN }))]);
  if (items.length === 0) row([label(t("summary.attention.none"))]);
  gap();

  // The charts' data: small tables the embedded charts draw from. Amounts of different
  // currencies never share a chart (one scale would flatten all but the largest): one small
  // chart per currency, side by side; counts, which compare, share one.
  row([label(t("summary.chartData"))], "block");
  let kinds = 0;
  const table = (
    spec: { key: string; title: string; stacked: boolean; legend?: boolean; width: number; offsetX: number },
    head: string[],
    body: Array<Array<[CellValue, string]>>,
  ) => {
    const first = values.length + 1;
    row(head.map(label), "header");
    for (const r of body) row(r);
    charts.push({
      ...spec,
      range: { row: first, column: 1, numRows: body.length + 1, numColumns: head.length },
      anchorRow: 1 + (kinds - 1) * CHART_ROWS,
    });
    gap();
  };
  const perCurrency = (
    prefix: string,
    currencies: string[],
    make: (currency: string) => {
      title: string;
      head: string[];
      body: Array<Array<[CellValue, string]>>;
      stacked?: boolean;
      legend?: boolean;
    },
  ) => {
    kinds += 1;
    currencies.slice(0, CURRENCY_CHARTS).forEach((currency, i) => {
      const { title, head, body, stacked = false, legend } = make(currency);
      const offsetX = i * (CHART_SIZE.small + CHART_SIZE.gap);
      table(
        {
          key: `${prefix}:${currency}`,
          title,
          stacked,
          ...(legend ? { legend } : {}),
          width: CHART_SIZE.small,
          offsetX,
        },
        head,
        body,
      );
    });
  };
  perCurrency(
    "funds",
    (funds?.lines ?? []).map((l) => l.currency),
    (currency) => {
      const l = funds?.lines.find((x) => x.currency === currency);
      const [, ...names] = t("summary.funds.header").split("|");
      // Several companies: a group of bars per company (balance, deposits, withdrawals), one
      // currency per chart as without companies.
      if (funds?.companies)
        return {
          title: t("summary.chart.balance", { currency }),
          head: [t("col.company"), names[1] ?? "", names[2] ?? "", names[3] ?? ""],
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
        title: t("summary.chart.balance", { currency }),
        head: [t("summary.chart.balance.header"), currency],
        body: [
          [label(names[1] ?? ""), money(l?.balanceCents ?? 0, currency)],
          [label(names[2] ?? ""), money(l?.depositsCents ?? 0, currency)],
          [label(names[3] ?? ""), money(l?.withdrawalsCents ?? 0, currency)],
        ],
      };
    },
  );
  kinds += 1;
  table(
    { key: "months", title: t("summary.chart.months"), stacked: true, width: CHART_SIZE.width, offsetX: 0 },
    t("summary.chart.months.header").split("|"),
    (reports?.months ?? []).map((m) => [
      label(m.month),
      [m.open, FORMAT.integer],
      [m.closed, FORMAT.integer],
    ]),
  );
  const ages = reports?.ages ?? { currencies: [], cents: [] };
  perCurrency("ages", ages.currencies, (currency) => {
    const c = ages.currencies.indexOf(currency);
    // Several companies: a column per company, stacked by age, in the one currency.
    if (reports?.companies)
      return {
        title: t("summary.chart.ages", { currency }),
        head: [t("col.company"), ...AGE_BUCKETS.map((b) => b.label)],
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
      title: t("summary.chart.ages", { currency }),
      head: [t("summary.chart.ages.header"), currency],
      body: AGE_BUCKETS.map((b, i) => [label(b.label), money(ages.cents[i]?.[c] ?? 0, currency)]),
    };
  });
  return { values, formats, styles, charts };
}
