/**
 * The Summary sheet over SpreadsheetApp: reads the few columns its blocks need from the data
 * sheets a refresh just wrote, recomputes only the parts those sheets feed (the others come
 * from the document's properties), and writes the add-on's area and its charts in one pass.
 */

import { tolerate } from "../api/errors";
import { LANGUAGES, type Language, translate } from "../i18n";
import type { RefreshOptions, Stage } from "../refresh/engine";
import type { SheetNames } from "../refresh/options";
import { loadLayout, loadText, saveText } from "../refresh/stored-text";
import type { DateWindow } from "../refresh/windows";
import { readHistory } from "../schedule/history";
import { COMPANIES_KEY, companiesFrom, listedCompanies } from "../settings/companies";
import { appliedFilters } from "../settings/words";
import {
  COMPANY_COLUMN,
  COMPANY_KEY_COLUMN,
  fundColumns,
  hasCompanyColumns,
  REPORT_COLUMNS,
  TRANSACTION_COLUMNS,
} from "../sheets/columns";
import { runAttention } from "../summary/blocks";
import {
  CHART_COLUMN,
  CHART_SIZE,
  companySplit,
  fundsPart,
  parseState,
  type RowStyle,
  renderSummary,
  reportsPart,
  SUMMARY_STATE_KEY,
  SUMMARY_WIDTH,
  type SummaryLine,
  type SummaryState,
} from "../summary/layout";
import {
  type ColumnsByKey,
  fundsFrom,
  movementsFrom,
  NEEDED_COLUMNS,
  reportsFrom,
  rowCompanies,
} from "../summary/records";
import { activeSpreadsheet, documentProperties } from "./active";
import { ensureSize } from "./spreadsheet";

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export interface SummaryUpdate {
  language: Language;
  names: SheetNames;
  window: DateWindow;
  /** The filters that applied, as text (settings: never a formula, the cell is plain text). */
  filters: string;
  /** The data sheets the refresh wrote: only the blocks they feed are recomputed. */
  refreshed: readonly Stage[];
  action: string;
  source: SummaryLine["source"];
}

const COMPANY_COLUMNS = [COMPANY_COLUMN, COMPANY_KEY_COLUMN] as const;

const DEFAULT_KEYS: Record<Stage, string[]> = {
  funds: fundColumns(new Map()).map((c) => c.key),
  transactions: TRANSACTION_COLUMNS.map((c) => c.key),
  reports: REPORT_COLUMNS.map((c) => c.key),
};

/** The needed columns of a data sheet, one read each; null when the sheet does not exist. */
function readColumns(kind: Stage, name: string, props: GoogleAppsScript.Properties.Properties) {
  const sheet = activeSpreadsheet().getSheetByName(name);
  if (!sheet) return null;
  // No layout stored yet (or unreadable): the sheet has the default columns.
  const keys = loadLayout(props, kind) ?? DEFAULT_KEYS[kind];
  const columns: ColumnsByKey = {};
  const rows = sheet.getLastRow() - 1;
  // The company columns, only on a sheet that has them: a one-company sheet reads as before.
  const needed = hasCompanyColumns(keys)
    ? [...NEEDED_COLUMNS[kind], ...COMPANY_COLUMNS]
    : NEEDED_COLUMNS[kind];
  for (const key of needed) {
    const at = keys.indexOf(key);
    columns[key] =
      rows > 0 && at >= 0
        ? sheet
            .getRange(2, at + 1, rows, 1)
            .getValues()
            .map((r) => r[0])
        : [];
  }
  return { columns, gid: sheet.getSheetId() };
}

/** The add-on's Summary sheet: the one it made (kept by id, so a rename is followed), else a new one. */
function summarySheet(name: string, id: number | undefined): Sheet {
  const spreadsheet = activeSpreadsheet();
  // The id is a document property any editor can write: the sheet must also still look like
  // the Summary (empty, or its title in A1), never someone's own (perhaps protected) sheet.
  const titles = LANGUAGES.map((l) => translate(l, "summary.sheet"));
  const ours = spreadsheet
    .getSheets()
    .find(
      (s) =>
        s.getSheetId() === id &&
        (s.getLastRow() === 0 || titles.includes(String(s.getRange(1, 1).getValue()))),
    );
  if (ours) return ours;
  // A sheet of the user's that happens to bear the name is never written into.
  let free = name;
  for (let n = 2; spreadsheet.getSheetByName(free); n++) free = `${name} (${n})`;
  // A new sheet becomes the active one: the user stays on the sheet the refresh showed.
  const shown = spreadsheet.getActiveSheet();
  const sheet = spreadsheet.insertSheet(free);
  shown.activate();
  return sheet;
}

/** Recomputes the blocks that `update.refreshed` feeds and writes the Summary sheet. */
export function updateSummarySheet(update: SummaryUpdate): void {
  const started = Date.now();
  const props = documentProperties();
  const state = parseState(loadText(props, SUMMARY_STATE_KEY));
  const zone = activeSpreadsheet().getSpreadsheetTimeZone();
  const format = (d: Date, pattern: string) => Utilities.formatDate(d, zone, pattern);
  // Thousands of rows share a few hundred days: each is formatted once.
  const days = new Map<number, string>();
  const day = (d: Date) => {
    const text = days.get(d.getTime()) ?? format(d, "yyyy-MM-dd");
    days.set(d.getTime(), text);
    return text;
  };
  const now = new Date();
  const today = day(now);
  const at = format(now, "yyyy-MM-dd HH:mm");
  const fed = (stage: Stage) => update.refreshed.includes(stage);

  // The companies the rows are resolved against (no list saved: the one company of before).
  const registry = companiesFrom(props.getProperty(COMPANIES_KEY), "");
  const companiesOf = (sheet: { columns: ColumnsByKey } | null) =>
    sheet ? rowCompanies(sheet.columns, registry.entries) : null;
  const listed = listedCompanies(registry);
  if (fed("funds") || fed("transactions")) {
    const funds = readColumns("funds", update.names.funds, props);
    const moves = readColumns("transactions", update.names.transactions, props);
    const fundCompanies = companiesOf(funds);
    const moveCompanies = companiesOf(moves);
    state.funds = fundsPart(
      funds ? fundsFrom(funds.columns, day, fundCompanies) : [],
      moves ? movementsFrom(moves.columns, day, moveCompanies) : [],
      update.window,
      today,
      at,
      funds?.gid ?? 0,
      companySplit(listed, [
        ["funds", fundCompanies],
        ["transactions", moveCompanies],
      ]),
    );
  }
  if (fed("reports")) {
    const reports = readColumns("reports", update.names.reports, props);
    const reportCompanies = companiesOf(reports);
    state.reports = reportsPart(
      reports ? reportsFrom(reports.columns, day, reportCompanies) : [],
      update.window,
      today,
      at,
      reports?.gid ?? 0,
      companySplit(listed, [["reports", reportCompanies]]),
    );
  }
  const history = readHistory(props.getProperties()).runs;
  state.run = runAttention(history, (ms) => format(new Date(ms), "yyyy-MM-dd HH:mm"));
  state.line = {
    at,
    action: update.action,
    source: update.source,
    window: update.window,
    filters: update.filters,
  };
  writeSummary(state, update.language, started);
}

/** The Summary written again in `language` from what it last showed, when it exists. */
export function redrawSummarySheet(language: Language): void {
  const state = parseState(loadText(documentProperties(), SUMMARY_STATE_KEY));
  const exists = activeSpreadsheet()
    .getSheets()
    .some((s) => s.getSheetId() === state.sheetId);
  if (exists) writeSummary(state, language, Date.now());
}

/** How each kind of row looks: a finance team's dashboard, title and blocks set apart. */
const ROW_LOOK: Record<
  RowStyle,
  { bold: boolean; background: string | null; color: string | null; wrap: boolean }
> = {
  title: { bold: true, background: null, color: "#1f3b57", wrap: false },
  line: { bold: false, background: null, color: "#5f6368", wrap: false },
  block: { bold: true, background: "#d9e4f0", color: "#1f3b57", wrap: false },
  header: { bold: true, background: "#f1f3f4", color: null, wrap: true },
  group: { bold: true, background: null, color: "#1f3b57", wrap: false },
  plain: { bold: false, background: null, color: null, wrap: false },
};
/** Widths in pixels: column A holds currencies, months and labels; B–H numbers under wrapped headers. */
const COLUMN_WIDTHS = { first: 190, other: 125 } as const;

/** The ids of the charts the add-on inserted, by key (states of before the per-currency charts kept an array). */
function chartIds(charts: SummaryState["charts"]): Record<string, number> {
  if (!Array.isArray(charts)) return { ...charts };
  // Of the three charts of then, only the months chart (counts) still means the same.
  const ids: Record<string, number> = {};
  charts.forEach((id, i) => {
    if (id !== null) ids[i === 1 ? "months" : `legacy:${i}`] = id;
  });
  return ids;
}

function writeSummary(state: SummaryState, language: Language, started: number): void {
  const props = documentProperties();
  const sheet = summarySheet(translate(language, "summary.sheet"), state.sheetId);
  if (sheet.getSheetId() !== state.sheetId) state.charts = {};
  const grid = renderSummary(state, language);
  // Rows the previous Summary used and this one does not are emptied in the same write.
  const used = grid.values.length;
  const height = Math.max(used, state.height);
  while (grid.values.length < height) {
    grid.values.push(Array(SUMMARY_WIDTH).fill(""));
    grid.formats.push(Array(SUMMARY_WIDTH).fill("@"));
    grid.styles.push("plain");
  }
  ensureSize(sheet, height, CHART_COLUMN);
  const area = sheet.getRange(1, 1, height, SUMMARY_WIDTH);
  area.setNumberFormats(grid.formats);
  area.setValues(grid.values);
  const looks = grid.styles.map((style) => ROW_LOOK[style]);
  const across = <T>(value: (look: (typeof looks)[number]) => T) =>
    looks.map((look) => Array<T>(SUMMARY_WIDTH).fill(value(look)));
  area
    .setFontWeights(across((l) => (l.bold ? "bold" : "normal")))
    .setBackgrounds(across((l) => l.background))
    .setFontColors(across((l) => l.color))
    .setWraps(across((l) => l.wrap));
  sheet.getRange(1, 1).setFontSize(14);
  sheet.setColumnWidth(1, COLUMN_WIDTHS.first);
  sheet.setColumnWidths(2, SUMMARY_WIDTH - 1, COLUMN_WIDTHS.other);

  const ids = chartIds(state.charts);
  const existing = sheet.getCharts();
  const ours = (key: string) => existing.find((c) => c.getChartId() !== null && c.getChartId() === ids[key]);
  // Charts of a currency no longer shown (or of the charts of before) go; a user's own charts stay.
  const keys = grid.charts.map((spec) => spec.key);
  for (const key of Object.keys(ids)) {
    if (keys.includes(key)) continue;
    const chart = ours(key);
    if (chart) sheet.removeChart(chart);
    delete ids[key];
  }
  const inserted: string[] = [];
  for (const spec of grid.charts) {
    const chart = ours(spec.key);
    const r = spec.range;
    const builder = (
      chart
        ? chart.modify().clearRanges()
        : sheet.newChart().asColumnChart().setPosition(spec.anchorRow, CHART_COLUMN, spec.offsetX, 0)
    )
      .addRange(sheet.getRange(r.row, r.column, r.numRows, r.numColumns))
      .setOption("title", spec.title)
      .setOption("isStacked", spec.stacked)
      .setOption("legend", { position: "none" })
      .setOption("width", spec.width)
      .setOption("height", CHART_SIZE.height);
    if (spec.key === "months" || spec.legend) builder.setOption("legend", { position: "bottom" });
    if (chart) sheet.updateChart(builder.build());
    else {
      sheet.insertChart(builder.build());
      inserted.push(spec.key);
    }
  }
  if (inserted.length > 0) {
    const before = existing.map((c) => c.getChartId());
    const added = sheet
      .getCharts()
      .map((c) => c.getChartId())
      .filter((id) => !before.includes(id));
    inserted.forEach((key, k) => {
      const id = added[k];
      if (id !== undefined && id !== null) ids[key] = id;
    });
  }
  saveText(
    props,
    SUMMARY_STATE_KEY,
    JSON.stringify({
      ...state,
      charts: ids,
      height: used,
      sheetId: sheet.getSheetId(),
      ms: Date.now() - started,
    }),
  );
}

/**
 * After a refresh: the Summary recomputed for the sheets it wrote. A Summary that cannot be
 * written never turns a refresh that worked into a failure; the log says why.
 */
export function keepSummaryCurrent(
  run: { context: { language: Language; names: SheetNames }; options: RefreshOptions },
  refreshed: readonly Stage[],
  action: string,
  source: SummaryLine["source"],
): void {
  if (refreshed.length === 0) return;
  const { reportFilters, fundFilters } = run.options;
  tolerate(
    "derived only",
    () =>
      updateSummarySheet({
        language: run.context.language,
        names: run.context.names,
        window: run.options.reportWindow,
        filters: appliedFilters({ reportFilters, fundFilters }, run.context.language),
        refreshed,
        action,
        source,
      }),
    undefined,
  );
}
