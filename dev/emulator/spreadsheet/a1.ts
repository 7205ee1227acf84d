/**
 * A1 notation as Sheets reads it: "B2", "A1:C10", open-ended "A2:C" (to the last row), column
 * ranges "A:C", row ranges "2:5", absolute "$A$1", and an optional sheet prefix ("'My sheet'!A1").
 */

export interface GridRect {
  /** 1-based first row and column, as Apps Script counts them. */
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
}

export interface SheetRef {
  sheetName: string | undefined;
  a1: string;
}

/** "AA" → 27. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** 27 → "AA". */
export function columnLetters(column: number): string {
  let n = column;
  let out = "";
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** Splits "'Sheet 1'!A1:B2" into its sheet name and A1 part. */
export function splitSheetRef(notation: string): SheetRef {
  const m = /^(?:'((?:[^']|'')+)'|([^'!]+))!(.+)$/.exec(notation.trim());
  if (!m) return { sheetName: undefined, a1: notation.trim() };
  return { sheetName: m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2], a1: m[3] as string };
}

interface Corner {
  column: number | undefined;
  row: number | undefined;
}

function parseCorner(text: string): Corner | undefined {
  const m = /^\$?([A-Za-z]{0,3})\$?(\d*)$/.exec(text);
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  return {
    column: m[1] ? columnNumber(m[1]) : undefined,
    row: m[2] ? Number(m[2]) : undefined,
  };
}

/**
 * The rectangle named by `a1` on a sheet of `maxRows` × `maxColumns`, or undefined when the text
 * is not A1 notation (Apps Script then throws "Range not found").
 */
export function parseA1(a1: string, maxRows: number, maxColumns: number): GridRect | undefined {
  const parts = a1.trim().split(":");
  if (parts.length > 2) return undefined;
  const start = parseCorner(parts[0] as string);
  const end = parts.length === 2 ? parseCorner(parts[1] as string) : start;
  if (!start || !end) return undefined;
  if (start.row === 0 || end.row === 0) return undefined;
  if (parts.length === 1 && (start.row === undefined || start.column === undefined)) return undefined;
  // "A:C" spans all rows, "2:5" all columns, "A2:C" runs to the last row.
  const r1 = start.row ?? 1;
  const c1 = start.column ?? 1;
  const r2 = end.row ?? maxRows;
  const c2 = end.column ?? maxColumns;
  if (start.column === undefined && end.column !== undefined) return undefined;
  if (start.row === undefined && end.row !== undefined) return undefined;
  const top = Math.min(r1, r2);
  const left = Math.min(c1, c2);
  return {
    row: top,
    column: left,
    numRows: Math.abs(r2 - r1) + 1,
    numColumns: Math.abs(c2 - c1) + 1,
  };
}

/** "B2:C3" for a rectangle ("B2" for one cell). */
export function toA1(rect: GridRect): string {
  const first = `${columnLetters(rect.column)}${rect.row}`;
  if (rect.numRows === 1 && rect.numColumns === 1) return first;
  return `${first}:${columnLetters(rect.column + rect.numColumns - 1)}${rect.row + rect.numRows - 1}`;
}
