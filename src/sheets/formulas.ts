/**
 * Moving a user's formula with its row. A refresh that removes rows or adds columns to the
 * add-on's block rewrites the user's cells somewhere else; Sheets itself, on a row deletion or a
 * column insertion, rewrites every reference of every formula so that it still names the same
 * cell. This does the same for A1 references into the same sheet, so `=H7*2` written beside
 * fund 42 still reads fund 42's balance after fund 42's row moved from 7 to 5.
 */

/** New position of an old row or column (1-based), or null when it no longer exists. */
export type PositionMap = (old: number) => number | null;

export interface ReferenceMaps {
  row: PositionMap;
  column: PositionMap;
  /** Name of the sheet holding the formula: references qualified with it are moved too. */
  sheetName: string;
}

/** Column letters (A, Z, AA…) to a 1-based number. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** A 1-based column number to its letters. */
export function columnLetters(n: number): string {
  let s = "";
  let x = n;
  while (x > 0) {
    const r = (x - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    x = Math.floor((x - 1) / 26);
  }
  return s;
}

const MAX_COLUMN = 18_278; // ZZZ

// A sheet prefix ('It''s'!, Funds!), then a cell (A1, $A$1) or a column (A, $A) with an
// optional second part after a colon. String literals are matched first so they are skipped.
const TOKEN =
  /"(?:[^"]|"")*"|((?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?(\$?)([A-Za-z]{1,3})(\$?)(\d+)?(?::(\$?)([A-Za-z]{1,3})(\$?)(\d+)?)?/g;

function sheetOfPrefix(prefix: string): string {
  const name = prefix.slice(0, -1);
  return name.startsWith("'") ? name.slice(1, -1).replace(/''/g, "'") : name;
}

/**
 * `formula` with every same-sheet A1 reference moved by `maps`. A single cell whose row or
 * column is gone becomes #REF! (as in Sheets); a range shrinks to what is left of it.
 */
export function moveReferences(formula: string, maps: ReferenceMaps): string {
  if (!formula.startsWith("=")) return formula;
  return formula.replace(
    TOKEN,
    (
      whole,
      prefix: string | undefined,
      d1: string,
      col1: string,
      d2: string,
      row1: string | undefined,
      d3,
      col2,
      d4,
      row2,
      offset: number,
      all: string,
    ) => {
      if (whole.startsWith('"')) return whole;
      const before = all[offset - 1] ?? "";
      const after = all[offset + whole.length] ?? "";
      // Part of a name or number (LOG10, A1B, 1E5), or a function call (ATAN2( ), or a named range.
      if (/[\w.$]/.test(before) || /[\w(!]/.test(after)) return whole;
      if (prefix && sheetOfPrefix(prefix) !== maps.sheetName) return whole;
      const isRange = col2 !== undefined;
      // A bare word (SUM, TRUE) without a row is not a reference unless it is a column range.
      if (!row1 && !(isRange && !row2)) return whole;
      if (isRange && !row1 !== !row2) return whole;
      const c1 = columnNumber(col1);
      if (c1 > MAX_COLUMN) return whole;
      const p = prefix ?? "";
      if (!isRange) {
        const r = maps.row(Number(row1));
        const c = maps.column(c1);
        if (r === null || c === null) return `${p}#REF!`;
        return `${p}${d1}${columnLetters(c)}${d2}${r}`;
      }
      const c2 = columnNumber(col2 as string);
      const [cs, ce] = shrink(c1, c2, maps.column);
      if (cs === null || ce === null) return `${p}#REF!`;
      if (!row1) return `${p}${d1}${columnLetters(cs)}:${d3}${columnLetters(ce)}`;
      const [rs, re] = shrink(Number(row1), Number(row2), maps.row);
      if (rs === null || re === null) return `${p}#REF!`;
      return `${p}${d1}${columnLetters(cs)}${d2}${rs}:${d3}${columnLetters(ce)}${d4}${re}`;
    },
  );
}

/** New ends of the range from..to: the first and last positions inside it that still exist. */
function shrink(from: number, to: number, map: PositionMap): [number | null, number | null] {
  const lo = Math.min(from, to);
  const hi = Math.max(from, to);
  let start: number | null = null;
  for (let x = lo; x <= hi && start === null; x++) start = map(x);
  let end: number | null = null;
  for (let x = hi; x >= lo && end === null; x--) end = map(x);
  return [start, end];
}
