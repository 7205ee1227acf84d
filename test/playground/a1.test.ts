import { describe, expect, it } from "vitest";
import {
  clickCell,
  clickRow,
  columnLetters,
  moveSelection,
  selectionRange,
  singleCell,
} from "../../dev/playground/a1";

describe("column letters", () => {
  it.each([
    [0, "A"],
    [25, "Z"],
    [26, "AA"],
    [51, "AZ"],
    [701, "ZZ"],
    [702, "AAA"],
    [18277, "ZZZ"],
  ])("column %i is %s", (index, letters) => {
    expect(columnLetters(index)).toBe(letters);
  });
  it("refuses a negative index", () => {
    expect(() => columnLetters(-1)).toThrow(/column index must be a whole number/);
  });
});

describe("grid selection", () => {
  it("names a single cell, a block and whole rows in A1 notation", () => {
    expect(selectionRange(singleCell({ row: 2, column: 1 }), 26)).toBe("B3");
    const block = clickCell(singleCell({ row: 1, column: 5 }), { row: 3, column: 0 }, true);
    expect(selectionRange(block, 26)).toBe("A2:F4");
    const rows = clickRow(clickRow(null, 4, false), 1, true);
    expect(selectionRange(rows, 8)).toBe("A2:H5");
  });

  it("moves with arrows and extends with shift, staying inside the grid", () => {
    let s = singleCell({ row: 0, column: 0 });
    s = moveSelection(s, "up", false, 10, 5);
    expect(selectionRange(s, 5)).toBe("A1");
    s = moveSelection(s, "down", true, 10, 5);
    s = moveSelection(s, "right", true, 10, 5);
    expect(selectionRange(s, 5)).toBe("A1:B2");
    s = moveSelection(s, "right", false, 10, 5);
    expect(selectionRange(s, 5)).toBe("C2");
  });

  it("starts a new selection on a plain click", () => {
    const s = clickCell(clickRow(null, 3, false), { row: 0, column: 2 }, false);
    expect(selectionRange(s, 26)).toBe("C1");
  });
});
