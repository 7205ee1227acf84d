/**
 * The sheets a refresh fills, over SpreadsheetApp: one read of the used area (values, formulas,
 * number formats) and one write (number formats, then values) per sheet per refresh. The layout
 * of the add-on's columns is kept in document properties per sheet kind.
 */

import { tolerate } from "../api/errors";
import { FIRST_COMPANY_KEY } from "../company/model";
import { type Language, translate } from "../i18n";
import type { RefreshSheets, Selection, SheetTarget, Stage } from "../refresh/engine";
import { loadLayout, saveLayout } from "../refresh/stored-text";
import type { SheetAccess } from "../sheets/apply";
import type { CellValue } from "../sheets/cells";
import {
  cellsBeyondLimit,
  changedBlocks,
  missingRowColors,
  SPREADSHEET_CELL_LIMIT,
  WRITE_CHUNK_ROWS,
} from "../sheets/changes";
import { COMPANY_KEY_COLUMN, fundIdOfMovementKey, hasCompanyColumns } from "../sheets/columns";
import { type CompanyRefusal, companyOfRow, type SheetCompany } from "../sheets/company";
import { whoText } from "../sheets/headers";
import { normaliseKey, type RefreshPlan, type SheetSnapshot } from "../sheets/merge";
import { applyToSheetIn } from "../sheets/words";
import { activeSpreadsheet, documentProperties } from "./active";

/**
 * The sheet named `name`, created (with its header row frozen) when it does not exist. A new
 * sheet becomes the active one in Sheets; a sheet written beside another (`keepActive`: the
 * report files beside the reports) gives the user back the sheet they were shown.
 */
export function sheetNamed(name: string, keepActive = false): GoogleAppsScript.Spreadsheet.Sheet {
  const spreadsheet = activeSpreadsheet();
  const existing = spreadsheet.getSheetByName(name);
  if (existing) return existing;
  const shown = keepActive ? spreadsheet.getActiveSheet() : null;
  const created = spreadsheet.insertSheet(name);
  shown?.activate();
  return created;
}

/** Makes the sheet at least `rows` × `columns` (a new sheet has 1000 × 26). */
export function ensureSize(sheet: GoogleAppsScript.Spreadsheet.Sheet, rows: number, columns: number): void {
  const maxRows = sheet.getMaxRows();
  if (maxRows < rows) sheet.insertRowsAfter(maxRows, rows - maxRows);
  const maxColumns = sheet.getMaxColumns();
  if (maxColumns < columns) sheet.insertColumnsAfter(maxColumns, columns - maxColumns);
}

/**
 * Refuses a write that would take the spreadsheet past Google's 10 million cells, before
 * anything is written: the sheet keeps its previous rows, and the message says what to do.
 */
function checkCellBudget(sheet: GoogleAppsScript.Spreadsheet.Sheet, rows: number, columns: number): void {
  let total = 0;
  for (const s of activeSpreadsheet().getSheets()) total += s.getMaxRows() * s.getMaxColumns();
  const before = sheet.getMaxRows() * sheet.getMaxColumns();
  const after = Math.max(sheet.getMaxRows(), rows) * Math.max(sheet.getMaxColumns(), columns);
  const beyond = cellsBeyondLimit(total, before, after);
  if (beyond !== null) {
    throw new Error(
      `${sheet.getName()}: this refresh would make the spreadsheet hold ${beyond.toLocaleString("en")} cells, above Google's limit of ${SPREADSHEET_CELL_LIMIT.toLocaleString("en")}. Nothing was written. Narrow the report window or the filters in Settings, delete empty rows and columns, or move old rows to another spreadsheet.`,
    );
  }
}

/** Reads the used area of a sheet (its first `upTo` columns at most): three reads of one range. */
export function readUsedArea(sheet: GoogleAppsScript.Spreadsheet.Sheet, upTo?: number): SheetSnapshot {
  const rows = sheet.getLastRow();
  const last = sheet.getLastColumn();
  const columns = upTo ? Math.min(upTo, last) : last;
  if (rows === 0 || columns === 0) return { name: sheet.getName(), values: [], formulas: [], formats: [] };
  const range = sheet.getRange(1, 1, rows, columns);
  return {
    name: sheet.getName(),
    values: range.getValues() as CellValue[][],
    formulas: range.getFormulas(),
    formats: range.getNumberFormats(),
    partial: columns < last,
  };
}

/** The sheet of kind `kind` (funds, transactions, reports) named `name`. */
export function sheetAccess(kind: string, name: string): SheetAccess {
  const store = documentProperties();
  // What the sheet held when read: only the rows that differ from it are written.
  let read: SheetSnapshot | null = null;
  return {
    read(columns) {
      const sheet = activeSpreadsheet().getSheetByName(name);
      read = sheet ? readUsedArea(sheet, columns) : null;
      return read;
    },
    write(plan: RefreshPlan, shouldStop?: () => boolean) {
      const fresh = activeSpreadsheet().getSheetByName(name) === null;
      const sheet = sheetNamed(name, kind === "files");
      checkCellBudget(sheet, plan.values.length, plan.width);
      ensureSize(sheet, plan.values.length, plan.width);
      const zone = activeSpreadsheet().getSpreadsheetTimeZone();
      const dateTexts = (date: Date) => [
        Utilities.formatDate(date, zone, "yyyy-MM-dd HH:mm:ss"),
        Utilities.formatDate(date, zone, "yyyy-MM-dd"),
      ];
      let written = 0;
      let complete = true;
      for (const block of changedBlocks(plan, read, WRITE_CHUNK_ROWS, dateTexts)) {
        // Every execution writes at least one chunk; rows that move are written all at once.
        if (written++ > 0 && plan.inPlace && shouldStop?.()) {
          complete = false;
          break;
        }
        const range = sheet.getRange(block.row, 1, block.height, plan.width);
        const from = block.row - 1;
        // Formats first: a string lands in a plain-text cell as it is, never parsed.
        range.setNumberFormats(plan.formats.slice(from, from + block.height));
        range.setValues(plan.values.slice(from, from + block.height));
        const colors = missingRowColors(plan, read, block);
        if (colors) sheet.getRange(block.row, 1, block.height, plan.keys.length).setFontColors(colors);
      }
      read = null;
      if (sheet.getFrozenRows() !== 1) sheet.setFrozenRows(1);
      // A new sheet: the add-on's header bold on a band of its own, told apart from the users'
      // columns to come beside it, and widths that fit the data (after that they are the users').
      if (fresh) {
        sheet
          .getRange(1, 1, 1, plan.keys.length)
          .setFontWeight("bold")
          .setBackground(ADDON_HEADER_BACKGROUND);
        sheet.autoResizeColumns(1, plan.keys.length);
      }
      return complete;
    },
    layout: () => loadLayout(store, kind),
    saveLayout: (keys) => saveLayout(store, kind, keys),
  };
}

/** The background of the header cells of the add-on's columns on the data sheets. */
export const ADDON_HEADER_BACKGROUND = "#d9e4f0";

/** The selected data rows of the active sheet (1-based, header excluded) and the sheet's name. */
export function selectedRows(): { sheetName: string; rows: number[] } {
  const spreadsheet = activeSpreadsheet();
  const list = spreadsheet.getActiveRangeList();
  const active = spreadsheet.getActiveRange();
  const ranges = list ? list.getRanges() : active ? [active] : [];
  const sheetName = ranges[0]?.getSheet().getName() ?? spreadsheet.getActiveSheet().getName();
  const rows = new Set<number>();
  for (const range of ranges) {
    const first = range.getRow();
    for (let r = first; r < first + range.getNumRows(); r++) if (r > 1) rows.add(r);
  }
  return { sheetName, rows: [...rows].sort((a, b) => a - b) };
}

/** The first cell (the Id) of each of `rows` in `sheet`, read with one call. */
export function firstCellsOf(sheetName: string, rows: readonly number[]): CellValue[] {
  const sheet = activeSpreadsheet().getSheetByName(sheetName);
  if (!sheet || rows.length === 0) return [];
  const first = rows[0] as number;
  const last = Math.min(rows[rows.length - 1] as number, sheet.getLastRow());
  if (last < first) return [];
  const column = sheet.getRange(first, 1, last - first + 1, 1).getValues() as CellValue[][];
  return rows.filter((r) => r <= last).map((r) => column[r - first]?.[0] ?? "");
}

/** The selected rows of one company: its key and the records' ids. */
export interface SelectedGroup {
  key: string;
  ids: number[];
}

/**
 * The records of the selected rows of the active sheet, if it is one the add-on fills. With
 * company columns, grouped by each row's company (`companyOfRow`: its key cell checked against
 * its name); a row whose company cannot be told is refused, never read with another's token.
 * Without them, every row is the first company's.
 */
export function selectedRecords(
  names: { funds: string; transactions: string; reports: string },
  companies: readonly SheetCompany[] = [],
): (Selection & { groups: SelectedGroup[]; refused: CompanyRefusal[] }) | null {
  const { sheetName, rows } = selectedRows();
  const target: Selection["target"] | null =
    sheetName === names.funds
      ? "funds"
      : sheetName === names.reports
        ? "reports"
        : sheetName === names.transactions
          ? "transactions"
          : null;
  if (!target) return null;
  const idOf = (cell: CellValue) => {
    const key = normaliseKey(cell);
    if (target === "transactions") return fundIdOfMovementKey(key);
    return /^\d+$/.test(key) ? Number(key) : null;
  };
  const layout = loadLayout(documentProperties(), target) ?? [];
  if (!hasCompanyColumns(layout)) {
    const ids = firstCellsOf(sheetName, rows)
      .map(idOf)
      .filter((id): id is number => id !== null);
    return { target, ids, groups: [{ key: FIRST_COMPANY_KEY, ids }], refused: [] };
  }
  const groups = new Map<string, number[]>();
  const refused: CompanyRefusal[] = [];
  rowCellsOf(sheetName, rows, layout.length).forEach(({ row, cells }) => {
    const id = idOf(cells[0] ?? "");
    if (id === null) return;
    const company = companyOfRow(cells, layout, companies, row);
    if (!company.ok) {
      refused.push(company.refusal);
      return;
    }
    groups.set(company.company.key, [...(groups.get(company.company.key) ?? []), id]);
  });
  const list = [...groups].map(([key, ids]) => ({ key, ids }));
  return { target, ids: list.flatMap((g) => g.ids), groups: list, refused };
}

/** The first `width` cells of each of `rows` in the sheet, read with one call. */
function rowCellsOf(
  sheetName: string,
  rows: readonly number[],
  width: number,
): { row: number; cells: CellValue[] }[] {
  const sheet = activeSpreadsheet().getSheetByName(sheetName);
  if (!sheet || rows.length === 0 || width === 0) return [];
  const first = rows[0] as number;
  const last = Math.min(rows[rows.length - 1] as number, sheet.getLastRow());
  if (last < first) return [];
  const grid = sheet.getRange(first, 1, last - first + 1, width).getValues() as CellValue[][];
  return rows.filter((r) => r <= last).map((row) => ({ row, cells: grid[row - first] ?? [] }));
}

/** The sheets of a refresh over SpreadsheetApp: each stage merged into its sheet, by name. */
export function refreshSheets(options: {
  names: Record<SheetTarget, string>;
  language: Language;
  /** The note on rows no longer returned by the service. */
  missingNote: string;
  mode: "keep" | "remove";
  /** After each sheet written (the audit writes its rows then). */
  afterWrite: () => void;
  /** When (in the spreadsheet's zone) and by whom: noted on each sheet written, and kept. */
  stamp: RefreshStamp;
  /** The company whose lane writes through these (its stamps are kept apart); the first by default. */
  company?: string;
}): RefreshSheets {
  return {
    apply(target, update) {
      const plan = applyToSheetIn(sheetAccess(target, options.names[target]), update, {
        language: options.language,
        mode: options.mode,
        missingNote: options.missingNote,
        shouldStop: update.shouldStop,
      });
      stampSheet(
        target,
        options.names[target],
        options.stamp,
        options.language,
        update.partial,
        options.company,
      );
      options.afterWrite();
      return plan.counts.updated + plan.counts.added;
    },
    isEmpty(target, companyKey) {
      const sheet = activeSpreadsheet().getSheetByName(options.names[target]);
      if (!sheet || sheet.getLastRow() <= 1) return true;
      if (companyKey === undefined) return false;
      // With company columns: whether any row is that company's; without, they are the first's.
      const at = (loadLayout(documentProperties(), target) ?? []).indexOf(COMPANY_KEY_COLUMN);
      if (at < 0) return companyKey !== FIRST_COMPANY_KEY;
      const keys = sheet.getRange(2, at + 1, sheet.getLastRow() - 1, 1).getValues() as CellValue[][];
      return !keys.some((row) => normaliseKey(row[0]) === companyKey);
    },
    layout: (target) => loadLayout(documentProperties(), target),
  };
}

/**
 * When a data sheet was last refreshed (in the spreadsheet's time zone), and by whom (as the
 * audit's user is kept: shown through whoText).
 */
export interface RefreshStamp {
  when: string;
  who: string;
}

/**
 * Document property: the last stamp of each data sheet, as JSON by stage; the first company's
 * (and a one-company spreadsheet's) under this name, another company's under `<name>.<key>`.
 */
const STAMPS_KEY = "refresh.stamps";

const stampsKey = (company: string) =>
  company === FIRST_COMPANY_KEY ? STAMPS_KEY : `${STAMPS_KEY}.${company}`;

/**
 * Notes the stamp on the first cell of the sheet's header ("Refreshed … by …"), so that anyone
 * looking at the data sees how fresh it is, and keeps it for the Refresh sidebar.
 */
function stampSheet(
  stage: SheetTarget,
  name: string,
  stamp: RefreshStamp,
  language: Language,
  partial = false,
  company = FIRST_COMPANY_KEY,
): void {
  activeSpreadsheet()
    .getSheetByName(name)
    ?.getRange(1, 1)
    .setNote(
      translate(language, partial ? "note.inProgress" : "note.refreshed", {
        ...stamp,
        who: whoText(stamp.who, language),
      }),
    );
  // Part of a list is not a refresh of the sheet: the Refresh sidebar keeps the last whole one.
  if (partial) return;
  const props = documentProperties();
  const stamps = { ...refreshStamps(company), [stage]: stamp };
  props.setProperty(stampsKey(company), JSON.stringify(stamps));
}

/** The last stamp of each data sheet refreshed so far (by the lane of `company`: the first by default). */
export function refreshStamps(company = FIRST_COMPANY_KEY): Partial<Record<Stage, RefreshStamp>> {
  const stored = tolerate(
    "unreadable",
    () => JSON.parse(documentProperties().getProperty(stampsKey(company)) ?? "{}") as unknown,
    {},
  );
  const out: Partial<Record<Stage, RefreshStamp>> = {};
  if (!stored || typeof stored !== "object") return out;
  for (const stage of ["funds", "transactions", "reports"] as const) {
    const value = (stored as Record<string, unknown>)[stage] as Partial<RefreshStamp> | undefined;
    if (value && typeof value.when === "string" && typeof value.who === "string")
      out[stage] = { when: value.when, who: value.who };
  }
  return out;
}

/** When each of `companies` (their keys) last refreshed each data sheet, and by whom. */
export function refreshStampsByCompany(
  companies: readonly string[],
): Record<string, Partial<Record<Stage, RefreshStamp>>> {
  return Object.fromEntries(companies.map((key) => [key, refreshStamps(key)]));
}
