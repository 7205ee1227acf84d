/**
 * A1 notation and the grid selection, as plain data. A selection is an anchor (where the click
 * started) and a focus (where shift-click or shift-arrow moved to), both zero-based.
 */

export interface CellPosition {
  row: number;
  column: number;
}

export interface Selection {
  anchor: CellPosition;
  focus: CellPosition;
  /** Whole rows were picked from the row numbers. */
  wholeRows: boolean;
}

/** Column letters of a zero-based column index: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  if (!Number.isInteger(index) || index < 0)
    throw new Error(`column index must be a whole number ≥ 0, got ${index}`);
  let n = index + 1;
  let letters = "";
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

/** A1 name of a zero-based cell position. */
export function cellName(position: CellPosition): string {
  return `${columnLetters(position.column)}${position.row + 1}`;
}

/** The rectangle a selection covers (inclusive bounds). */
export function selectionBounds(selection: Selection, columnCount: number) {
  const top = Math.min(selection.anchor.row, selection.focus.row);
  const bottom = Math.max(selection.anchor.row, selection.focus.row);
  if (selection.wholeRows) return { top, bottom, left: 0, right: Math.max(0, columnCount - 1) };
  const left = Math.min(selection.anchor.column, selection.focus.column);
  const right = Math.max(selection.anchor.column, selection.focus.column);
  return { top, bottom, left, right };
}

/** A1 range of a selection: `B3`, `A2:F4`, or `A2:Z4` for whole rows 2 to 4. */
export function selectionRange(selection: Selection, columnCount: number): string {
  const b = selectionBounds(selection, columnCount);
  const start = cellName({ row: b.top, column: b.left });
  const end = cellName({ row: b.bottom, column: b.right });
  return start === end ? start : `${start}:${end}`;
}

/** A selection of one cell. */
export function singleCell(position: CellPosition): Selection {
  return { anchor: position, focus: position, wholeRows: false };
}

export type Direction = "up" | "down" | "left" | "right";

const STEP: Record<Direction, CellPosition> = {
  up: { row: -1, column: 0 },
  down: { row: 1, column: 0 },
  left: { row: 0, column: -1 },
  right: { row: 0, column: 1 },
};

function clamp(position: CellPosition, rows: number, columns: number): CellPosition {
  return {
    row: Math.min(Math.max(position.row, 0), rows - 1),
    column: Math.min(Math.max(position.column, 0), columns - 1),
  };
}

/**
 * The selection after an arrow key: without shift it moves to one cell next to the focus, with
 * shift it extends from the anchor, as in Sheets. Stays inside the grid.
 */
export function moveSelection(
  selection: Selection,
  direction: Direction,
  extend: boolean,
  rows: number,
  columns: number,
): Selection {
  const step = STEP[direction];
  const focus = clamp(
    { row: selection.focus.row + step.row, column: selection.focus.column + step.column },
    rows,
    columns,
  );
  if (extend) return { anchor: selection.anchor, focus, wholeRows: selection.wholeRows };
  return singleCell(focus);
}

/** The selection after a click on a cell (shift extends from the anchor). */
export function clickCell(selection: Selection | null, position: CellPosition, extend: boolean): Selection {
  if (extend && selection && !selection.wholeRows)
    return { anchor: selection.anchor, focus: position, wholeRows: false };
  return singleCell(position);
}

/** The selection after a click on a row number (shift extends over the rows in between). */
export function clickRow(selection: Selection | null, row: number, extend: boolean): Selection {
  if (extend && selection) {
    return { anchor: { row: selection.anchor.row, column: 0 }, focus: { row, column: 0 }, wholeRows: true };
  }
  return { anchor: { row, column: 0 }, focus: { row, column: 0 }, wholeRows: true };
}
