/**
 * The data of one sheet: a grid of cells (value, formula, number format, note, validation) of
 * a given size, with the row and column operations Sheets offers. Plain data, no Apps Script
 * types: the fakes in fakes.ts put the Apps Script face on it.
 */
import { COPY_SELF, type CopiesItself } from "../clone";
import type { CellScalar } from "./typed-input";

/**
 * What a formula and a conditional format read of the spreadsheet they are in: its sheets by
 * name. SpreadsheetDoc (fakes.ts) is one; declared here, below the formula and the fakes, so
 * that neither imports the other.
 */
export interface Workbook {
  sheetByName(name: string): SheetData | undefined;
}

export interface ValidationRule {
  kind: "list" | "checkbox";
  values: string[];
  showDropdown: boolean;
  allowInvalid: boolean;
}

export interface Cell {
  value: CellScalar;
  formula?: string;
  numberFormat?: string;
  note?: string;
  validation?: ValidationRule;
  /** Formats kept only so that they can be shown (bold, background…). */
  style?: Record<string, string>;
}

/** A conditional format rule as the sheet keeps it (Sheets applies the first that holds). */
export interface ConditionalRuleData {
  ranges: { row: number; column: number; numRows: number; numColumns: number }[];
  /** BooleanCriteria name ("CUSTOM_FORMULA", "TEXT_EQUAL_TO", "CELL_EMPTY"…) and its values. */
  criteria: string;
  values: string[];
  background?: string;
  fontColor?: string;
  bold?: boolean;
}

export const DEFAULT_ROWS = 1000;
export const DEFAULT_COLUMNS = 26;

export class SheetData implements CopiesItself {
  maxRows = DEFAULT_ROWS;
  maxColumns = DEFAULT_COLUMNS;
  frozenRows = 0;
  frozenColumns = 0;
  /** Columns hidden by the user or a script (1-based). */
  hiddenColumns = new Set<number>();
  /** Rows hidden by the user or a script (1-based). */
  hiddenRows = new Set<number>();
  /**
   * A filter an editor set on the sheet, with the rows it hides (1-based). The emulator only
   * keeps it (no script API reads or applies it): a sheet rewritten in place would keep it.
   */
  filter: { a1: string; hiddenRows: number[] } | null = null;
  /** Widths in pixels a script set, by column (1-based); the others have the default width. */
  columnWidths = new Map<number, number>();
  conditionalRules: ConditionalRuleData[] = [];
  /** rows[r][c], 0-based; holes are empty cells. */
  private rows: Array<Array<Cell | undefined> | undefined> = [];

  constructor(
    public name: string,
    readonly sheetId: number,
  ) {}

  cell(row: number, column: number): Cell | undefined {
    return this.rows[row - 1]?.[column - 1];
  }

  /**
   * A copy for cloneState (saveState, restoreState): the cells, tens of thousands on a formatted
   * sheet, are copied by spreading, not key by key through the clone's map of objects seen. A
   * cell belongs to one position and its style is replaced, never changed in place (fakes.ts);
   * a validation rule is shared by the cells it was set on, so it goes through `member`, which
   * keeps that sharing.
   */
  [COPY_SELF](member: (value: unknown) => unknown, register: (copy: object) => void): SheetData {
    const out = Object.create(SheetData.prototype) as SheetData;
    register(out);
    const fields = this as unknown as Record<string, unknown>;
    const copied = out as unknown as Record<string, unknown>;
    for (const key of Object.keys(this)) if (key !== "rows") copied[key] = member(fields[key]);
    const rows: Array<Array<Cell | undefined> | undefined> = new Array(this.rows.length);
    for (let r = 0; r < this.rows.length; r++) {
      const row = this.rows[r];
      if (!row) continue;
      const cells: Array<Cell | undefined> = new Array(row.length);
      for (let c = 0; c < row.length; c++) {
        const cell = row[c];
        if (!cell) continue;
        const made: Cell = { ...cell };
        if (cell.value instanceof Date) made.value = new Date(cell.value.getTime());
        if (cell.style) made.style = { ...cell.style };
        if (cell.validation) made.validation = member(cell.validation) as ValidationRule;
        cells[c] = made;
      }
      rows[r] = cells;
    }
    out.rows = rows;
    return out;
  }

  /** The cell at (row, column), created if missing. */
  cellForWrite(row: number, column: number): Cell {
    let r = this.rows[row - 1];
    if (!r) {
      r = [];
      this.rows[row - 1] = r;
    }
    let c = r[column - 1];
    if (!c) {
      // Made with the number format's place (empty): nearly every written cell gets one, and
      // adding it afterwards gave each of a refresh's 185,000 cells a second allocation.
      c = { value: "", numberFormat: undefined };
      r[column - 1] = c;
    }
    return c;
  }

  /** Removes the cell's content (value and formula), keeping formats, notes and validation. */
  clearContent(row: number, column: number): void {
    const c = this.cell(row, column);
    if (!c) return;
    c.value = "";
    delete c.formula;
  }

  clearCell(
    row: number,
    column: number,
    what: { content?: boolean; format?: boolean; notes?: boolean; validation?: boolean },
  ): void {
    const c = this.cell(row, column);
    if (!c) return;
    if (what.content) this.clearContent(row, column);
    if (what.format) {
      delete c.numberFormat;
      delete c.style;
    }
    if (what.notes) delete c.note;
    if (what.validation) delete c.validation;
  }

  /** Last row with content (0 when the sheet is empty), as getLastRow() counts. */
  lastRow(): number {
    // Plain loops: a formatted sheet has a thousand rows of empty cells to pass, and the add-on
    // asks at almost every read.
    for (let r = Math.min(this.rows.length, this.maxRows); r >= 1; r--) {
      const row = this.rows[r - 1];
      if (!row) continue;
      for (let c = 0; c < row.length; c++) {
        const cell = row[c];
        if (cell !== undefined && (cell.value !== "" || cell.formula !== undefined)) return r;
      }
    }
    return 0;
  }

  lastColumn(): number {
    let last = 0;
    for (const row of this.rows) {
      if (!row) continue;
      for (let c = Math.min(row.length, this.maxColumns); c > last; c--) {
        const cell = row[c - 1];
        if (cell !== undefined && (cell.value !== "" || cell.formula !== undefined)) {
          last = c;
          break;
        }
      }
    }
    return last;
  }

  insertRows(beforeRow: number, count: number): void {
    const holes: Array<Array<Cell | undefined> | undefined> = new Array(count).fill(undefined);
    if (this.rows.length < beforeRow - 1) this.rows.length = beforeRow - 1;
    this.rows.splice(beforeRow - 1, 0, ...holes);
    this.maxRows += count;
  }

  deleteRows(row: number, count: number): void {
    this.rows.splice(row - 1, count);
    this.maxRows -= count;
  }

  /**
   * Moves `count` columns from `first` to before column `destination` (both as numbered before
   * the move), with their cells, hidden state and the parts of conditional formats on them.
   */
  moveColumns(first: number, count: number, destination: number): (old: number) => number {
    const target = destination > first ? destination - count : destination;
    const map = (old: number): number => {
      if (old >= first && old < first + count) return target + (old - first);
      const rest = old >= first + count ? old - count : old;
      return rest >= target ? rest + count : rest;
    };
    for (const r of this.rows) {
      if (!r) continue;
      if (r.length < first + count - 1) r.length = first + count - 1;
      const moved = r.splice(first - 1, count);
      if (r.length < target - 1) r.length = target - 1;
      r.splice(target - 1, 0, ...moved);
    }
    this.remapColumns(map);
    return map;
  }

  /** Hidden columns and conditional formats after columns moved (`map` gives a new position or null). */
  remapColumns(map: (old: number) => number | null): void {
    this.hiddenColumns = new Set([...this.hiddenColumns].map(map).filter((c): c is number => c !== null));
    for (const rule of this.conditionalRules)
      rule.ranges = rule.ranges.flatMap((rect) => remapRect(rect, map));
    this.conditionalRules = this.conditionalRules.filter((rule) => rule.ranges.length > 0);
  }

  insertColumns(beforeColumn: number, count: number): void {
    this.remapColumns((c) => (c >= beforeColumn ? c + count : c));
    for (const r of this.rows) {
      if (!r) continue;
      if (r.length < beforeColumn - 1) r.length = beforeColumn - 1;
      r.splice(beforeColumn - 1, 0, ...new Array<Cell | undefined>(count).fill(undefined));
    }
    this.maxColumns += count;
  }

  deleteColumns(column: number, count: number): void {
    this.remapColumns((c) => (c < column ? c : c >= column + count ? c - count : null));
    for (const r of this.rows) r?.splice(column - 1, count);
    this.maxColumns -= count;
  }

  /** Removes everything from every cell (Sheet.clear()). */
  clearAll(options: { content?: boolean; format?: boolean; notes?: boolean; validation?: boolean }): void {
    this.rows.forEach((row, r) => {
      row?.forEach((_, c) => {
        this.clearCell(r + 1, c + 1, options);
      });
    });
  }

  /** Sorts the rows of a block by one column (numbers before text, empties last). */
  sortRows(row: number, numRows: number, byColumn: number, ascending: boolean): void {
    const block = this.rows.slice(row - 1, row - 1 + numRows);
    while (block.length < numRows) block.push(undefined);
    const key = (r: Array<Cell | undefined> | undefined): CellScalar => r?.[byColumn - 1]?.value ?? "";
    block.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      if (x === "" || y === "") return x === "" ? (y === "" ? 0 : 1) : -1;
      const nx = x instanceof Date ? x.getTime() : x;
      const ny = y instanceof Date ? y.getTime() : y;
      const order =
        typeof nx === "number" && typeof ny === "number"
          ? nx - ny
          : typeof nx === "number"
            ? -1
            : typeof ny === "number"
              ? 1
              : String(nx).localeCompare(String(ny));
      return ascending ? order : -order;
    });
    this.rows.splice(row - 1, numRows, ...block);
  }
}

type Rect = ConditionalRuleData["ranges"][number];

/**
 * The pieces of `rect` after its columns moved: each run of columns still side by side stays one
 * rectangle (Sheets keeps a range whole when its columns stay together, and splits it otherwise).
 */
export function remapRect(rect: Rect, map: (old: number) => number | null): Rect[] {
  const columns: number[] = [];
  for (let c = rect.column; c < rect.column + rect.numColumns; c++) {
    const to = map(c);
    if (to !== null) columns.push(to);
  }
  columns.sort((a, b) => a - b);
  const out: Rect[] = [];
  for (const c of columns) {
    const last = out[out.length - 1];
    if (last && last.column + last.numColumns === c) last.numColumns += 1;
    else out.push({ row: rect.row, column: c, numRows: rect.numRows, numColumns: 1 });
  }
  return out;
}
