/**
 * Entry numbers of the audit sheet: the add-on numbers every row it appends (1, 2, 3…) and keeps
 * the last number where no editor can reach it (document properties of the add-on's own script),
 * so a row deleted, added or renumbered in the sheet shows as a gap or a number out of place.
 * Before appending, the add-on compares the sheet's numbers with what it wrote and reports what
 * it finds in a row of the audit itself, once per change. Pure: the sheet's number column and
 * the stored state are handed in.
 */

import { type Language, translate } from "../i18n";
import type { CellValue } from "../sheets/cells";

/** What the add-on remembers of one audit sheet (stored per sheet id). */
export interface SequenceState {
  /** The number the sheet's first numbered data row should carry (older ones went to the archive). */
  first: number;
  /** The last number the add-on gave. */
  last: number;
  /** Data rows at the top written before numbering began (they carry no number). */
  unnumbered: number;
  /** What the last report said, so the same findings are not reported again. */
  reported: string;
}

export type SequenceFinding =
  /** Numbers the add-on gave that no row of the sheet carries any more. */
  | { kind: "missing"; from: number; to: number }
  /** A row whose number cell is not the number the add-on wrote there (or is empty). */
  | { kind: "outOfPlace"; row: number; value: string }
  /** Rows that were there before numbering began (reported once, when it begins). */
  | { kind: "unnumberedBefore"; rows: number }
  /** The header row was missing or changed and has been written again. */
  | { kind: "headerRestored" };

/** The state of a sheet the add-on has just created, or of one where numbering starts now. */
export function startSequence(unnumberedRows = 0): SequenceState {
  return { first: 1, last: 0, unnumbered: unnumberedRows, reported: "" };
}

export function parseSequenceState(text: string | null): SequenceState | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as Partial<SequenceState>;
    const whole = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
    if (!whole(v.first) || !whole(v.last) || !whole(v.unnumbered)) return null;
    return {
      first: v.first as number,
      last: v.last as number,
      unnumbered: v.unnumbered as number,
      reported: typeof v.reported === "string" ? v.reported : "",
    };
  } catch (_err) {
    return null;
  }
}

export function sequenceStateText(state: SequenceState): string {
  return JSON.stringify(state);
}

/** A cell of the number column as the number the add-on wrote, or null. */
export function entryNumber(cell: CellValue | undefined): number | null {
  return typeof cell === "number" && Number.isSafeInteger(cell) && cell > 0 ? cell : null;
}

/**
 * Compares the sheet's number column (`cells[i]` is data row `i + 2`) with what the add-on
 * wrote: numbers from `state.first` to `state.last`, once each, in order, below the rows that
 * predate numbering. Returns what differs: numbers no row carries (as ranges) and rows whose
 * number is empty, not a number, repeated, out of order or never given.
 */
export function checkSequence(cells: readonly CellValue[], state: SequenceState): SequenceFinding[] {
  const findings: SequenceFinding[] = [];
  const seen = new Set<number>();
  let previous = state.first - 1;
  let firstNumbered = cells.findIndex((c) => entryNumber(c) !== null);
  if (firstNumbered < 0) firstNumbered = cells.length;
  cells.forEach((cell, i) => {
    const n = entryNumber(cell);
    // Rows from before numbering began stay unnumbered at the top.
    if (n === null && i < Math.min(firstNumbered, state.unnumbered) && cell === "") return;
    if (n === null || n < state.first || n > state.last || n <= previous || seen.has(n)) {
      findings.push({
        kind: "outOfPlace",
        row: i + 2,
        value: cell instanceof Date ? "a date" : String(cell),
      });
      return;
    }
    seen.add(n);
    previous = n;
  });
  let from = 0;
  for (let n = state.first; n <= state.last + 1; n++) {
    const missing = n <= state.last && !seen.has(n);
    if (missing && from === 0) from = n;
    if (!missing && from !== 0) {
      findings.push({ kind: "missing", from, to: n - 1 });
      from = 0;
    }
  }
  // Missing numbers first: what a controller looks for.
  return [...findings.filter((f) => f.kind === "missing"), ...findings.filter((f) => f.kind !== "missing")];
}

/** A short text that changes whenever the findings do (what `reported` keeps). */
export function findingsKey(findings: readonly SequenceFinding[]): string {
  return findings
    .filter((f) => f.kind === "missing" || f.kind === "outOfPlace")
    .map((f) =>
      f.kind === "missing" ? `m${f.from}-${f.to}` : f.kind === "outOfPlace" ? `o${f.row}:${f.value}` : "",
    )
    .join(",");
}

/** At most this many findings are spelled out in one report row; the rest are counted. */
const SPELLED_OUT = 20;

/** The report of `findings` as a controller reads it, in `language`. */
export function describeFindings(findings: readonly SequenceFinding[], language: Language): string {
  const parts = findings.slice(0, SPELLED_OUT).map((f) => {
    switch (f.kind) {
      case "missing":
        return f.from === f.to
          ? translate(language, "audit.check.missingOne", { n: f.from })
          : translate(language, "audit.check.missing", { from: f.from, to: f.to });
      case "outOfPlace":
        return f.value === ""
          ? translate(language, "audit.check.noNumber", { row: f.row })
          : translate(language, "audit.check.outOfPlace", { row: f.row, value: f.value.slice(0, 40) });
      case "unnumberedBefore":
        return translate(language, "audit.check.unnumbered", { rows: f.rows });
      case "headerRestored":
        return translate(language, "audit.check.header");
    }
    return "";
  });
  if (findings.length > SPELLED_OUT)
    parts.push(translate(language, "audit.check.more", { count: findings.length - SPELLED_OUT }));
  return parts.join(" ");
}

/**
 * The state after the oldest data rows moved to the archive, `moved` being their number cells:
 * the sheet now starts after the last of them the add-on numbered.
 */
export function afterRotation(state: SequenceState, moved: readonly CellValue[]): SequenceState {
  let first = state.first;
  for (const cell of moved) {
    const n = entryNumber(cell);
    if (n !== null && n >= first && n <= state.last) first = n + 1;
  }
  return { ...state, first, unnumbered: Math.max(0, state.unnumbered - moved.length) };
}
