/**
 * The merge of a refresh into a sheet that users may have extended: a `RefreshPlan` is the
 * whole new content of the sheet's used area (header and every data row, the add-on's block and
 * the users' columns to its right), written back with one setValues and one setNumberFormats.
 *
 * - Rows keep the order they have in the sheet (users sort and annotate them); a record already
 *   there is updated in place, a new record is appended below (or, with `anchorOf`, inserted
 *   right after the row it belongs with, the rows below moving down with their users' cells).
 * - A row whose record the refresh covered but did not return is kept and marked ("keep") or
 *   removed ("remove"); the rows below move up with their users' cells.
 * - Users' columns follow their row; formulas in them are written back as formulas with their
 *   references moved the way Sheets moves them on a row deletion or column insertion, and
 *   number formats move with the cell.
 * - Rows the refresh did not cover (a selected-rows refresh, funds whose movements did not
 *   change, another company's rows) are left exactly as they are.
 * - Rows are matched by `keyColumns` ("c0|5001" once a sheet has company columns). A column the
 *   old layout lacked reads as its `legacyParts` value, and when the company columns first
 *   appear every old row with a key is labelled so, covered or not: its cells stay its own.
 */
import type { Language } from "../i18n";
import { type CellValue, FORMAT, rewritableValue } from "./cells";
import { type Column, headerText, KEY_SEPARATOR, REFRESH_NOTE_KEY } from "./columns";
import { moveReferences } from "./formulas";

/** What to do with a row whose record the refresh covered but the service no longer returned. */
export type MissingRowMode = "keep" | "remove";

/** The used area of a sheet as read before the refresh (row 1 is the header). */
export interface SheetSnapshot {
  /** Name of the sheet, for formulas qualified with it. */
  name: string;
  /** Every row from row 1 to the last row, every column from A to the last column. */
  values: CellValue[][];
  /** Same shape; "" where the cell holds no formula. */
  formulas: string[][];
  /** Same shape; the number format of each cell. */
  formats: string[][];
  /** Only the add-on's columns were read: the sheet has users' columns beyond them. */
  partial?: boolean;
}

export interface MergeInput<R> {
  columns: readonly Column<R>[];
  /** Keys of the add-on's columns as the sheet holds them now; empty for a fresh sheet. */
  previousKeys: readonly string[];
  snapshot: SheetSnapshot;
  records: readonly R[];
  keyOf: (record: R) => string;
  /**
   * The columns whose cells make an old row's key (joined by KEY_SEPARATOR, as `keyOf` joins a
   * record's); the first column alone when absent.
   */
  keyColumns?: readonly string[];
  /**
   * The cell of a column the old layout did not have, for each old row with a key: read into
   * the row's key, and written into the row ({ companyKey: "c0", company: "Alpha" }: rows
   * written before there were company columns are the first company's).
   */
  legacyParts?: Readonly<Record<string, string>>;
  /** Which existing rows this refresh covers: every row ("all") or those whose key passes. */
  covers: "all" | ((key: string) => boolean);
  mode: MissingRowMode;
  language: Language;
  /** Text put in the refresh-note column of a kept row whose record did not come back. */
  missingNote: string;
  /** Columns whose cells an update keeps as they are (values these records do not carry). */
  preserveKeys?: readonly string[];
  /**
   * The key of the row a new record belongs right after (a fund's new movement after its
   * previous one), or null: new records without an anchor in the sheet go to the bottom.
   */
  anchorOf?: (record: R) => string | null;
}

export interface RefreshPlan {
  /** Keys of the add-on's columns after the refresh (kept per sheet for the next one). */
  keys: string[];
  /** New content from A1: header row then data rows; as tall as the old content if that was taller. */
  values: CellValue[][];
  formats: string[][];
  width: number;
  /** Data rows (without header) after the refresh. */
  dataRows: number;
  counts: { updated: number; added: number; removed: number; marked: number; untouched: number };
  /**
   * Whether every row stays where it was (nothing removed, nothing inserted above an existing
   * row, users' columns not shifted): then any prefix of the plan's rows, written alone, leaves
   * a sheet in which every row is whole, so a write may stop between chunks.
   */
  inPlace: boolean;
}

interface OldRow {
  index: number; // 0-based index in snapshot.values (row number - 1)
  key: string;
}

/** Plans the new content of a sheet; pure. */
export function planRefresh<R>(input: MergeInput<R>): RefreshPlan {
  const { columns, snapshot, language } = input;
  const oldValues = snapshot.values;
  const oldHeight = oldValues.length;
  // A loop, not Math.max(...rows): spreading 125,000 rows or more overflows the call stack.
  let oldWidth = 0;
  for (const row of oldValues) if (row.length > oldWidth) oldWidth = row.length;
  const prevKeys = oldHeight > 0 ? input.previousKeys.slice(0, oldWidth) : [];
  const ownedOld = prevKeys.length;
  const newKeys = columns.map((c) => c.key);
  const ownedNew = newKeys.length;
  const userWidth = Math.max(0, oldWidth - ownedOld);
  const width = ownedNew + userWidth;
  const noteIndex = newKeys.indexOf(REFRESH_NOTE_KEY);
  // Legacy parts describe an old layout without any of their columns (never half of them).
  const given = input.legacyParts ?? {};
  const legacy: Readonly<Record<string, string>> = Object.keys(given).some((key) => prevKeys.includes(key))
    ? {}
    : given;
  const keyOfRow = rowKeyReader(input.keyColumns ?? newKeys.slice(0, 1), legacy, prevKeys);
  // Cells an old row with a key gets in the columns its layout lacked (its company, once).
  const labelAt = newKeys.map((key) =>
    prevKeys.includes(key) || legacy[key] === undefined ? null : (legacy[key] as string),
  );

  const byKey = new Map<string, R>();
  for (const r of input.records) byKey.set(input.keyOf(r), r);
  const covers = input.covers === "all" ? () => true : input.covers;

  // Decide the fate of every old data row.
  type Fate = { row: OldRow; kind: "update" | "keep-marked" | "untouched"; record?: R } | null;
  const fates: Fate[] = [];
  const placed = new Set<string>();
  const counts = { updated: 0, added: 0, removed: 0, marked: 0, untouched: 0 };
  for (let i = 1; i < oldHeight; i++) {
    const key = keyOfRow(oldValues[i]);
    const row = { index: i, key };
    if (key === "" || !covers(key)) {
      fates.push({ row, kind: "untouched" });
      counts.untouched++;
      continue;
    }
    const record = byKey.get(key);
    if (record !== undefined && !placed.has(key)) {
      placed.add(key);
      fates.push({ row, kind: "update", record });
      counts.updated++;
    } else if (input.mode === "keep") {
      fates.push({ row, kind: "keep-marked" });
      counts.marked++;
    } else {
      fates.push(null);
      counts.removed++;
    }
  }
  const added = input.records.filter((r) => {
    const key = input.keyOf(r);
    if (placed.has(key)) return false;
    placed.add(key);
    return true;
  });
  counts.added = added.length;

  // Where new records go: after their anchor's row when it is in the sheet (and after the new
  // records placed there before them), else at the bottom.
  const after = new Map<number, R[]>();
  const tail: R[] = [];
  const groupOf = new Map<string, number>();
  fates.forEach((f, j) => {
    if (f && f.row.key !== "") groupOf.set(f.row.key, j);
  });
  for (const record of added) {
    const anchor = input.anchorOf?.(record) ?? null;
    const group = anchor === null ? undefined : groupOf.get(anchor);
    if (group === undefined) {
      tail.push(record);
      continue;
    }
    after.set(group, [...(after.get(group) ?? []), record]);
    groupOf.set(input.keyOf(record), group);
  }

  // Old row number → new row number, and old column → new column, for moving formulas.
  const rowMap = new Map<number, number>();
  rowMap.set(1, 1);
  let next = 2;
  fates.forEach((f, j) => {
    if (f) rowMap.set(j + 2, next++);
    next += after.get(j)?.length ?? 0;
  });
  const newDataRows = next - 2 + tail.length;
  const shiftBelow = newDataRows + 1 - oldHeight;
  const mapRow = (r: number) => (r > oldHeight ? r + shiftBelow : (rowMap.get(r) ?? null));
  const mapColumn = (c: number): number | null => {
    if (c > ownedOld) return c - ownedOld + ownedNew;
    const key = prevKeys[c - 1] as string;
    const at = newKeys.indexOf(key);
    return at >= 0 ? at + 1 : null;
  };
  const maps = { row: mapRow, column: mapColumn, sheetName: snapshot.name };

  const values: CellValue[][] = [];
  const formats: string[][] = [];

  // Header: the add-on's labels, then the users' headers as they were.
  const header: CellValue[] = columns.map((c) => headerText(c as Column<unknown>, language));
  const headerFormats: string[] = columns.map(() => FORMAT.text);
  for (let u = 0; u < userWidth; u++) {
    const [v, f] = preserved(snapshot, 0, ownedOld + u, maps);
    header.push(v);
    headerFormats.push(f);
  }
  values.push(header);
  formats.push(headerFormats);

  // New records: the users' cells start empty, formatted like the column's last cell above.
  const userFormats: string[] = [];
  for (let u = 0; u < userWidth; u++) {
    let f = "";
    for (let i = oldHeight - 1; i >= 1 && f === ""; i--) f = snapshot.formats[i]?.[ownedOld + u] ?? "";
    userFormats.push(f || FORMAT.general);
  }
  // One array per row for its cells and one for their formats (a first refresh makes thousands).
  const pushNew = (record: R) => {
    const rowValues: CellValue[] = new Array(width);
    const rowFormats: string[] = new Array(width);
    for (let c = 0; c < ownedNew; c++) {
      const column = columns[c] as Column<R>;
      rowValues[c] = column.cell(record, language);
      rowFormats[c] = column.formatOf?.(record) ?? column.format;
    }
    for (let u = 0; u < userWidth; u++) {
      rowValues[ownedNew + u] = "";
      rowFormats[ownedNew + u] = userFormats[u] as string;
    }
    values.push(rowValues);
    formats.push(rowFormats);
  };

  // Where each column was, and whether an update keeps its cells: once, not per row.
  const oldAt = columns.map((column) => prevKeys.indexOf(column.key));
  const keptOnUpdate = columns.map(
    (column, c) => (oldAt[c] as number) >= 0 && !!input.preserveKeys?.includes(column.key),
  );
  for (const [j, fate] of fates.entries()) {
    if (!fate) {
      // A removed row's anchored records still go where it was.
      for (const record of after.get(j) ?? []) pushNew(record);
      continue;
    }
    const i = fate.row.index;
    const rowValues: CellValue[] = [];
    const rowFormats: string[] = [];
    columns.forEach((column, c) => {
      const at = oldAt[c] as number;
      if (fate.kind === "update" && !keptOnUpdate[c]) {
        rowValues.push(column.cell(fate.record as R, language));
        rowFormats.push(column.formatOf?.(fate.record as R) ?? column.format);
        return;
      }
      if (fate.kind === "keep-marked" && c === noteIndex) {
        // A row already marked keeps its note: the date says when the record went missing.
        const old = at >= 0 ? snapshot.values[i]?.[at] : "";
        rowValues.push(typeof old === "string" && old !== "" ? old : input.missingNote);
        rowFormats.push(column.format);
      } else if (at < 0) {
        rowValues.push(fate.row.key !== "" ? (labelAt[c] ?? "") : "");
        rowFormats.push(column.format);
      } else {
        const [v, f] = preserved(snapshot, i, at, maps);
        rowValues.push(v);
        rowFormats.push(f || column.format);
      }
    });
    for (let u = 0; u < userWidth; u++) {
      const [v, f] = preserved(snapshot, i, ownedOld + u, maps);
      rowValues.push(v);
      rowFormats.push(f);
    }
    values.push(rowValues);
    formats.push(rowFormats);
    for (const record of after.get(j) ?? []) pushNew(record);
  }
  for (const record of tail) pushNew(record);

  // Rows that are no longer used are cleared within the same write.
  while (values.length < oldHeight) {
    values.push(new Array<CellValue>(width).fill(""));
    formats.push(new Array<string>(width).fill(FORMAT.general));
  }

  const columnsStay = userWidth === 0 || String(newKeys) === String(prevKeys);
  const inPlace = counts.removed === 0 && after.size === 0 && columnsStay;
  return { keys: newKeys, values, formats, width, dataRows: newDataRows, counts, inPlace };
}

/**
 * How an old row's key is read: the cells of the key columns in the old layout, a column it
 * lacked taken from `legacyParts`; "" when any part is empty (a row the refresh cannot match).
 */
function rowKeyReader(
  keyColumns: readonly string[],
  legacy: Readonly<Record<string, string>>,
  prevKeys: readonly string[],
): (row: readonly CellValue[] | undefined) => string {
  const parts = keyColumns.map((key) => ({ at: prevKeys.indexOf(key), legacy: legacy[key] ?? "" }));
  const [only] = parts;
  if (parts.length === 1 && only) return (row) => (only.at >= 0 ? normaliseKey(row?.[only.at]) : only.legacy);
  return (row) => {
    const texts: string[] = [];
    for (const part of parts) {
      const text = part.at >= 0 ? normaliseKey(row?.[part.at]) : part.legacy;
      if (text === "") return "";
      texts.push(text);
    }
    return texts.join(KEY_SEPARATOR);
  };
}

/** A cell of the old sheet as it must be written back: its formula moved, or its value kept literal. */
function preserved(
  snapshot: SheetSnapshot,
  row: number,
  column: number,
  maps: Parameters<typeof moveReferences>[1],
): [CellValue, string] {
  const format = snapshot.formats[row]?.[column] ?? "";
  const formula = snapshot.formulas[row]?.[column] ?? "";
  if (formula !== "") return [moveReferences(formula, maps), format];
  const value = snapshot.values[row]?.[column];
  if (value === undefined) return ["", format];
  return [rewritableValue(value, format), format];
}

/** A key cell as text: ids read back as numbers (42) and as text ("42") name the same record. */
export function normaliseKey(value: CellValue | undefined): string {
  if (value === undefined || value === null || value === "") return "";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(value);
  if (value instanceof Date) return "";
  return String(value).trim();
}

/**
 * The keys of the add-on's columns read from a header row, for a sheet whose stored layout was
 * lost: the leading headers that match a known column's label (in either language), in order.
 */
export function inferKeys(header: readonly CellValue[], columns: readonly Column<unknown>[]): string[] {
  const byLabel = new Map<string, string>();
  for (const c of columns) for (const l of ["en", "es"] as const) byLabel.set(headerText(c, l), c.key);
  const keys: string[] = [];
  for (const cell of header) {
    const key = typeof cell === "string" ? byLabel.get(cell) : undefined;
    if (key === undefined || keys.includes(key)) break;
    keys.push(key);
  }
  return keys;
}
