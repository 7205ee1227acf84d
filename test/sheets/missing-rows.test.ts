import { describe, expect, it } from "vitest";
import { MISSING_ROW_COLOR, missingRowColors } from "../../src/sheets/changes";
import type { RefreshPlan, SheetSnapshot } from "../../src/sheets/merge";

const plan = (notes: string[]): RefreshPlan => ({
  keys: ["id", "refreshNote"],
  values: [["Id", "Refresh note"], ...notes.map((n, i) => [i + 1, n])],
  formats: [],
  width: 3,
  dataRows: notes.length,
  counts: { updated: 0, added: 0, removed: 0, marked: 0, untouched: 0 },
  inPlace: true,
});
const snapshot = (notes: string[]): SheetSnapshot => ({
  name: "Funds",
  values: [["Id", "Refresh note"], ...notes.map((n, i) => [i + 1, n])],
  formulas: [],
  formats: [],
});

describe("rows no longer returned are greyed", () => {
  it("greys the add-on's cells of a kept row, and only those", () => {
    const grey = MISSING_ROW_COLOR;
    expect(missingRowColors(plan(["", "gone"]), null, { row: 1, height: 3 })).toEqual([
      [null, null],
      [null, null],
      [grey, grey],
    ]);
  });

  it("puts the default colour back on a row that came back, and changes nothing when no row has a note", () => {
    expect(missingRowColors(plan(["", ""]), snapshot(["", "gone"]), { row: 3, height: 1 })).toEqual([
      [null, null],
    ]);
    expect(missingRowColors(plan(["", ""]), snapshot(["", ""]), { row: 2, height: 2 })).toBeNull();
    const noNote = { ...plan(["x"]), keys: ["id", "title"] };
    expect(missingRowColors(noNote, null, { row: 2, height: 1 })).toBeNull();
  });
});
