/**
 * Which rows of a refresh plan differ from what the sheet already holds, as blocks of
 * consecutive rows of at most `maxRows`: a refresh writes only those, a block per call, so a
 * refresh that changes nothing writes nothing, and a big sheet is written in pieces that each
 * stay well inside Sheets' limits on one call.
 */
import { type CellValue, wouldBeInterpreted } from "./cells";
import { REFRESH_NOTE_KEY } from "./columns";
import type { RefreshPlan, SheetSnapshot } from "./merge";

/** The font colour of the add-on's cells in a row kept though the service no longer returns it. */
export const MISSING_ROW_COLOR = "#999999";

/**
 * The font colours of a block's add-on cells: grey where the row's refresh note says why it is
 * kept, the default elsewhere; or null when no row of the block has or had such a note (nothing
 * to change, no call).
 */
export function missingRowColors(
  plan: RefreshPlan,
  snapshot: SheetSnapshot | null,
  block: RowBlock,
): (string | null)[][] | null {
  const from = block.row - 1;
  const to = from + block.height;
  const note = plan.keys.indexOf(REFRESH_NOTE_KEY);
  let i = from;
  while (i < to && !notedIn(plan, snapshot, note, i)) i++;
  return i === to
    ? null
    : plan.values
        .slice(from, to)
        .map((_, i) => plan.keys.map(() => (notedAt(plan, note, from + i) ? MISSING_ROW_COLOR : null)));
}

/** Whether data row `i` (0 is the header) has a refresh note (column `note`) in `sheet`. */
function notedAt(
  sheet: { values: readonly (readonly unknown[])[] } | null,
  note: number,
  i: number,
): boolean {
  return i > 0 && (sheet?.values[i]?.[note] ?? "") !== "";
}

/** Whether data row `i` has a refresh note in the plan or had one in the sheet. */
function notedIn(plan: RefreshPlan, snapshot: SheetSnapshot | null, note: number, i: number): boolean {
  return notedAt(plan, note, i) || notedAt(snapshot, note, i);
}

/** Rows written per call at most: 5,000 rows of a wide sheet stay well under a call's limits. */
export const WRITE_CHUNK_ROWS = 5_000;

export interface RowBlock {
  /** 1-based first row. */
  row: number;
  height: number;
}

/** A Date from any realm (a cell's Date may come from another global than the code's). */
function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === "[object Date]";
}

/**
 * How the sheet's date cells read as text in its time zone ("2024-03-21 09:06:17" and
 * "2024-03-21"): a date written as text is parsed by Sheets into a date, and is the same cell
 * when that date prints back as the same text.
 */
export type DateTexts = (date: Date) => readonly string[];

/** Whether a planned cell is what the sheet shows: its formula, else its value. */
export function sameCell(
  planned: CellValue,
  value: CellValue | undefined,
  formula: string | undefined,
  dateTexts?: DateTexts,
): boolean {
  if (formula) return planned === formula;
  // Dates are the only objects a cell holds: the common cells (text, numbers) skip the test.
  if (typeof planned === "object" && isDate(planned))
    return isDate(value) && value.getTime() === planned.getTime();
  if (typeof value === "object" && isDate(value))
    return typeof planned === "string" && dateTexts !== undefined && dateTexts(value).includes(planned);
  if (typeof planned === "string" && planned !== "") {
    const first = planned.charCodeAt(0);
    // A formula to write is never taken as already there (the cell holds no formula).
    if (first === 61 /* = */) return false;
    // An escaped text is stored without its apostrophe, as literal text: the same cell when
    // the sheet holds that text (a number or a date there is another cell).
    if (first === 39 /* ' */) return value === planned.slice(1);
  }
  return planned === (value ?? "");
}

function sameRow(plan: RefreshPlan, snapshot: SheetSnapshot, index: number, dateTexts?: DateTexts): boolean {
  const planned = plan.values[index] ?? [];
  const formats = plan.formats[index] ?? [];
  const values = snapshot.values[index];
  const formulas = snapshot.formulas[index];
  const oldFormats = snapshot.formats[index];
  if (!values || !formulas || !oldFormats) return false;
  for (let c = 0; c < plan.width; c += 1) {
    const cell = planned[c] ?? "";
    if (!sameCell(cell, values[c], formulas[c], dateTexts)) return false;
    if ((formats[c] ?? "") !== (oldFormats[c] ?? "")) return false;
    // Equal text, another type: a date planned as text that Sheets parses, in a date-formatted
    // cell, where the sheet holds it as literal text (an earlier write's apostrophe). Written again.
    if (
      typeof cell === "string" &&
      typeof values[c] === "string" &&
      /y/.test(formats[c] ?? "") &&
      !cell.startsWith("'") &&
      wouldBeInterpreted(cell)
    )
      return false;
  }
  return true;
}

/**
 * Unchanged cells written again rather than a gap between two blocks: a call costs Sheets far
 * more than the cells it carries, so rows that changed here and there (names learnt, statuses
 * moved) go out in a few calls, not one per row. The rows in a gap hold what the plan would
 * write, so writing them again changes nothing.
 */
export const GAP_CELLS = 2_000;

/**
 * The blocks of rows to write: rows that differ, with the unchanged rows between two of them
 * when those are at most `gapCells` cells, `maxRows` at most each.
 */
export function changedBlocks(
  plan: RefreshPlan,
  snapshot: SheetSnapshot | null,
  maxRows = WRITE_CHUNK_ROWS,
  dateTexts?: DateTexts,
  gapCells = GAP_CELLS,
): RowBlock[] {
  const note = plan.keys.indexOf(REFRESH_NOTE_KEY);
  // Rows, compared with whole numbers only: no need to round it.
  const maxGap = gapCells / Math.max(1, plan.width);
  const blocks: RowBlock[] = [];
  let start = -1;
  let end = -1;
  // Whether the block holds a row with a refresh note (now or before): the font colours of all
  // its rows are written then, so it is never widened over unchanged rows (a user's colour there).
  let noted = false;
  const close = () => {
    for (let from = start; from < end; from += maxRows) {
      blocks.push({ row: from + 1, height: Math.min(maxRows, end - from) });
    }
  };
  for (let index = 0; index < plan.values.length; index += 1) {
    if (snapshot && sameRow(plan, snapshot, index, dateTexts)) continue;
    for (let i = end; i <= index; i++) noted ||= notedIn(plan, snapshot, note, i);
    if (start < 0 || index - end > (noted ? 0 : maxGap)) {
      close(); // Nothing while no block is open (start and end at -1).
      start = index;
      noted = notedIn(plan, snapshot, note, index);
    }
    end = index + 1;
  }
  close();
  return blocks;
}

/** Google's limit on the cells of one spreadsheet, every sheet counted (rows × columns of each). */
export const SPREADSHEET_CELL_LIMIT = 10_000_000;

/**
 * The cells the spreadsheet would hold once a sheet grows from `before` to `after` cells, when
 * that is above Google's limit (the refresh must not start writing), else null.
 */
export function cellsBeyondLimit(
  spreadsheetCells: number,
  before: number,
  after: number,
  limit = SPREADSHEET_CELL_LIMIT,
): number | null {
  const total = spreadsheetCells - before + Math.max(before, after);
  return total > limit ? total : null;
}
