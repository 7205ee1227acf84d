/**
 * The Summary's grid as it is written: columns A–H of cells, each with its number format, a
 * style per row, and the charts drawn from small tables of it. The blocks (./layout) write
 * rows through a GridWriter, top to bottom; links are built here from numbers only.
 */

import { type Language, type StringKey, translate } from "../i18n";
import { amountFormat, type CellValue, FORMAT } from "../sheets/cells";
import type { AttentionItem } from "./blocks";

export const SUMMARY_WIDTH = 8;

/** How many rows are behind a count, and the first and last of them (a link's span). */
export type Count = [n: number, first: number, last: number];

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

/** One cell: its value and its number format. */
export type Cell = [CellValue, string];

/** A chart's table, one per currency: its title, header row and rows. */
export interface CurrencyTable {
  title: string;
  head: string[];
  body: Cell[][];
  stacked?: boolean;
  legend?: boolean;
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

/** A text cell: plain text, never a formula. */
export function label(text: string): Cell {
  return [text, FORMAT.text];
}

/** An amount in `currency`, as a number of the currency's format. */
export function money(cents: number, currency: string): Cell {
  return [cents / 100, moneyFormat(currency, cents)];
}

/** A count linking to the rows behind it (a plain 0 when there are none). */
export function countLink(count: Count, gid: number): Cell {
  return [count[0] === 0 ? 0 : rowsLink(gid, count[1], count[2], count[0]), FORMAT.integer];
}

/** An item's id, linking to its row when it has one and the id is all digits; else its text. */
export function idLink(item: AttentionItem, gid: number | undefined): Cell {
  return item.row && gid !== undefined && /^\d{1,20}$/.test(item.id)
    ? [rowsLink(gid, item.row, item.row, item.id), FORMAT.general]
    : label(item.id);
}

/** The grid written row by row, and the charts over its tables. */
export class GridWriter {
  private readonly values: CellValue[][] = [];
  private readonly formats: string[][] = [];
  private readonly styles: RowStyle[] = [];
  private readonly charts: ChartSpec[] = [];
  /** The kinds of chart so far: each kind starts CHART_ROWS below the one before. */
  private kinds = 0;

  constructor(readonly language: Language) {}

  t(key: StringKey, params?: Record<string, string | number>): string {
    return translate(this.language, key, params);
  }

  /** A row of cells, padded with empty text cells to SUMMARY_WIDTH. */
  row(cells: Cell[], style: RowStyle = "plain"): void {
    const padded = [...cells];
    while (padded.length < SUMMARY_WIDTH) padded.push(["", FORMAT.text]);
    this.values.push(padded.map((c) => c[0]));
    this.formats.push(padded.map((c) => c[1]));
    this.styles.push(style);
  }

  /** A header row: the string's columns, split at "|". */
  header(key: StringKey): void {
    this.row(this.t(key).split("|").map(label), "header");
  }

  gap(): void {
    this.row([]);
  }

  /** A company's lines under its name, then the totals per currency across companies. */
  grouped<L>(
    companies: ReadonlyArray<{ name: string; lines: readonly L[] }> | undefined,
    totals: readonly L[],
    line: (l: L) => void,
  ): void {
    for (const c of companies ?? []) {
      this.row([label(c.name)], "group");
      for (const l of c.lines) line(l);
      if (c.lines.length === 0) this.row([label(this.t("summary.empty"))]);
    }
    if (companies) this.row([label(this.t("summary.co.total"))], "group");
    for (const l of totals) line(l);
    if (totals.length === 0) this.row([label(this.t("summary.empty"))]);
  }

  /** The next kind of chart: its charts are placed below the previous kind's. */
  chartKind(): void {
    this.kinds += 1;
  }

  /** A chart's table (header row, then `body`), and the chart drawn from it. */
  table(
    spec: { key: string; title: string; stacked: boolean; legend?: boolean; width: number; offsetX: number },
    head: string[],
    body: Cell[][],
  ): void {
    const first = this.values.length + 1;
    this.row(head.map(label), "header");
    for (const r of body) this.row(r);
    this.charts.push({
      ...spec,
      range: { row: first, column: 1, numRows: body.length + 1, numColumns: head.length },
      anchorRow: 1 + (this.kinds - 1) * CHART_ROWS,
    });
    this.gap();
  }

  /**
   * A kind of chart of amounts, one small chart per currency side by side: amounts of different
   * currencies never share a chart (one scale would flatten all but the largest).
   */
  perCurrency(prefix: string, currencies: string[], make: (currency: string) => CurrencyTable): void {
    this.chartKind();
    currencies.slice(0, CURRENCY_CHARTS).forEach((currency, i) => {
      const { title, head, body, stacked = false, legend } = make(currency);
      const offsetX = i * (CHART_SIZE.small + CHART_SIZE.gap);
      this.table(
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
  }

  grid(): SummaryGrid {
    return { values: this.values, formats: this.formats, styles: this.styles, charts: this.charts };
  }
}
