/**
 * One refresh of one sheet: read its used area once, plan the merge, write it once. The sheet
 * itself is reached through a `SheetAccess` (src/gas/spreadsheet.ts in Apps Script, a fake in
 * tests), so this runs without Sheets.
 */
import type { Language } from "../i18n";
import { say, type Words } from "../i18n/words";
import { type Column, headerText } from "./columns";
import { inferKeys, type MissingRowMode, planRefresh, type RefreshPlan, type SheetSnapshot } from "./merge";

export interface SheetAccess {
  /**
   * The used area (header included), or null when the sheet does not exist yet; with
   * `columns`, only that many columns from A (`partial` when the sheet has more).
   */
  read(columns?: number): SheetSnapshot | null;
  /**
   * Writes the rows of the plan that differ from the sheet, in chunks (number formats then
   * values); freezes the header. When `shouldStop` says so between two chunks of a plan whose
   * rows stay in place, it stops there and answers false.
   */
  write(plan: RefreshPlan, shouldStop?: () => boolean): boolean | undefined;
  /** Keys of the add-on's columns as the last refresh left them, or null when unknown. */
  layout(): string[] | null;
  saveLayout(keys: readonly string[]): void;
}

export interface SheetRefresh<R> {
  columnsFor(previousKeys: readonly string[]): readonly Column<R>[];
  records: readonly R[];
  keyOf(record: R): string;
  /** See MergeInput: the columns of a row's key, and what a column the old layout lacked reads as. */
  keyColumns?: readonly string[];
  legacyParts?: Readonly<Record<string, string>>;
  covers: "all" | ((key: string) => boolean);
  preserveKeys?: readonly string[];
  anchorOf?: (record: R) => string | null;
}

export interface ApplyOptions {
  /** The sheets' layout language: the headers and cells written (./merge.ts). */
  language: Language;
  mode: MissingRowMode;
  missingNote: string;
  /** Asked between write chunks: the time budget of the execution. */
  shouldStop?: () => boolean;
}

/**
 * A sheet written in part because the execution's time was running out: the rows written are
 * whole and in place, the others still show what they showed; merging the same records again
 * writes the rest.
 */
export class SheetWriteStopped extends Error {
  override name = "SheetWriteStopped";
}

/**
 * A sheet not the add-on's (its first row shows none of the add-on's headers), so nothing was
 * written into it: the sheet's name as data (`words`), the message its English text;
 * ./words.ts (`applyToSheetIn`) says it in the sheets' language.
 */
export class ForeignSheetError extends Error {
  readonly words: Words;
  constructor(
    readonly sheet: string,
    message?: string,
  ) {
    const words: Words = { key: "sheet.foreign", params: { sheet } };
    super(message ?? say("en", words));
    this.words = words;
  }
}

/**
 * Merges `update` into the sheet; returns the plan that was written, or throws
 * SheetWriteStopped when the time budget stopped the write between chunks, ForeignSheetError
 * when the sheet is not the add-on's.
 */
export function applyToSheet<R>(
  access: SheetAccess,
  update: SheetRefresh<R>,
  options: ApplyOptions,
): RefreshPlan {
  const stored = access.layout();
  const planFor = (snapshot: SheetSnapshot) => {
    let previousKeys = snapshot.values.length > 0 ? (stored ?? []) : [];
    const header = snapshot.values[0] ?? [];
    // The stored layout must still describe the sheet: users may have replaced or rebuilt it.
    const fixed = update.columnsFor([]) as readonly Column<unknown>[];
    if (
      snapshot.values.length > 0 &&
      !layoutMatches(previousKeys, header, update.columnsFor(previousKeys) as readonly Column<unknown>[])
    ) {
      previousKeys = inferKeys(header, fixed);
    }
    // A sheet whose first row shows none of the add-on's headers is someone's own (perhaps
    // protected, and named in the document's settings by another editor): never written into.
    if (previousKeys.length === 0 && snapshot.values.some((row) => row.some((cell) => cell !== "")))
      throw new ForeignSheetError(snapshot.name);
    return planRefresh({
      columns: update.columnsFor(previousKeys),
      previousKeys,
      snapshot,
      records: update.records,
      keyOf: update.keyOf,
      keyColumns: update.keyColumns,
      legacyParts: update.legacyParts,
      covers: update.covers,
      mode: options.mode,
      language: options.language,
      missingNote: options.missingNote,
      preserveKeys: update.preserveKeys,
      anchorOf: update.anchorOf,
    });
  };
  const empty: SheetSnapshot = { name: "", values: [], formulas: [], formats: [] };
  // First the add-on's own columns only: users' columns need reading (and writing back) only
  // when rows move, rows are added (their cells take the formats above) or columns shift.
  const owned = access.read(stored?.length) ?? empty;
  let plan = planFor(owned);
  if (owned.partial && !(plan.inPlace && plan.counts.added === 0 && String(plan.keys) === String(stored)))
    plan = planFor(access.read() ?? empty);
  const complete = access.write(plan, options.shouldStop) !== false;
  access.saveLayout(plan.keys);
  if (!complete) throw new SheetWriteStopped("out of time");
  return plan;
}

/** Whether the header row starts with the columns of `keys` (labels in either language). */
function layoutMatches(
  keys: readonly string[],
  header: readonly unknown[],
  columns: readonly Column<unknown>[],
): boolean {
  if (keys.length === 0) return false;
  const byKey = new Map(columns.map((c) => [c.key, c]));
  return keys.every((key, i) => {
    const column = byKey.get(key);
    if (!column) return false;
    const cell = header[i];
    return cell === headerText(column, "en") || cell === headerText(column, "es");
  });
}
