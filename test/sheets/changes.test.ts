/**
 * Only the rows a refresh changes are written, in blocks of consecutive rows of bounded height:
 * a refresh that changes nothing writes nothing, and a big sheet is written in pieces.
 */
import { describe, expect, it } from "vitest";
import type { CellValue } from "../../src/sheets/cells";
import { cellsBeyondLimit, changedBlocks, sameCell } from "../../src/sheets/changes";
import { FUNDS_TABLE, headersOf } from "../../src/sheets/columns";
import { planRefresh, type RefreshPlan, type SheetSnapshot } from "../../src/sheets/merge";

function plan(values: RefreshPlan["values"], formats?: string[][]): RefreshPlan {
  return {
    keys: [],
    values,
    formats: formats ?? values.map((r) => r.map(() => "@")),
    width: values[0]?.length ?? 0,
    dataRows: values.length - 1,
    counts: { updated: 0, added: 0, removed: 0, marked: 0, untouched: 0 },
    inPlace: true,
  };
}

function snapshot(
  values: SheetSnapshot["values"],
  formulas?: string[][],
  formats?: string[][],
): SheetSnapshot {
  return {
    name: "S",
    values,
    formulas: formulas ?? values.map((r) => r.map(() => "")),
    formats: formats ?? values.map((r) => r.map(() => "@")),
  };
}

describe("changedBlocks", () => {
  const rows = Array.from({ length: 10 }, (_, i) => [`id${i}`, i * 1.5]);

  it("finds nothing to write when the sheet already holds the plan", () => {
    expect(changedBlocks(plan(rows), snapshot(rows))).toEqual([]);
  });

  it("repairs a cell whose text is equal but whose type differs: a date written as literal text", () => {
    const formats = [
      ["@", "yyyy-mm-dd hh:mm"],
      ["@", "yyyy-mm-dd hh:mm"],
    ];
    const planned = plan(
      [
        ["Id", "Created"],
        ["7", "2026-11-23 11:02:27"],
      ],
      formats,
    );
    const dateTexts = (d: Date) => [d.toISOString().slice(0, 19).replace("T", " ")];
    // The sheet holds the text, not the date it names (a write set it with an apostrophe).
    const asText = snapshot(
      [
        ["Id", "Created"],
        ["7", "2026-11-23 11:02:27"],
      ],
      undefined,
      formats,
    );
    expect(changedBlocks(planned, asText, 5_000, dateTexts)).toEqual([{ row: 2, height: 1 }]);
    // The date itself is the same cell; so is a text planned into a plain-text cell.
    const asDate = snapshot(
      [
        ["Id", "Created"],
        ["7", new Date("2026-11-23T11:02:27Z")],
      ],
      undefined,
      formats,
    );
    expect(changedBlocks(planned, asDate, 5_000, dateTexts)).toEqual([]);
    // An escaped text (apostrophe) held as that text is the same cell too.
    const general = [
      ["@", "General"],
      ["@", "General"],
    ];
    expect(
      changedBlocks(
        plan(
          [
            ["Id", "Note"],
            ["7", "'2026-11-23"],
          ],
          general,
        ),
        snapshot(
          [
            ["Id", "Note"],
            ["7", "2026-11-23"],
          ],
          undefined,
          general,
        ),
      ),
    ).toEqual([]);
    const text = [
      ["@", "@"],
      ["@", "@"],
    ];
    expect(
      changedBlocks(
        plan(
          [
            ["Id", "Note"],
            ["7", "2026-11-23"],
          ],
          text,
        ),
        snapshot(
          [
            ["Id", "Note"],
            ["7", "2026-11-23"],
          ],
          undefined,
          text,
        ),
      ),
    ).toEqual([]);
  });

  it("groups consecutive changed rows, and writes everything to a sheet that was not read", () => {
    const changed = rows.map((r, i) => (i === 3 || i === 4 || i === 8 ? [r[0] as string, 99] : r));
    // Without gaps written again: the changed rows alone.
    expect(changedBlocks(plan(changed), snapshot(rows), 5_000, undefined, 0)).toEqual([
      { row: 4, height: 2 },
      { row: 9, height: 1 },
    ]);
    // A gap of 3 rows × 2 columns is 6 cells: written again with its neighbours at up to 6.
    expect(changedBlocks(plan(changed), snapshot(rows), 5_000, undefined, 5)).toEqual([
      { row: 4, height: 2 },
      { row: 9, height: 1 },
    ]);
    expect(changedBlocks(plan(changed), snapshot(rows), 5_000, undefined, 6)).toEqual([
      { row: 4, height: 6 },
    ]);
    expect(changedBlocks(plan(changed), snapshot(rows))).toEqual([{ row: 4, height: 6 }]);
    expect(changedBlocks(plan(rows), null, 4)).toEqual([
      { row: 1, height: 4 },
      { row: 5, height: 4 },
      { row: 9, height: 2 },
    ]);
  });

  it("never writes unchanged rows with a block whose font colours are set (a kept row's grey)", () => {
    // Every cell of a block with a refresh note gets its colour: a user's red in row 4 would go.
    const before = [
      ["Id", "Refresh note"],
      [1, ""],
      [2, ""],
      [3, ""],
      [4, ""],
      [5, ""],
    ];
    const keys = ["id", "refreshNote"];
    const kept = { ...plan(before.map((r, i) => (i === 1 ? [1, "gone"] : i === 4 ? [40, ""] : r))), keys };
    expect(changedBlocks(kept, snapshot(before))).toEqual([
      { row: 2, height: 1 },
      { row: 5, height: 1 },
    ]);
    // A row that came back (its note cleared) is coloured too; an unchanged kept row in the gap too.
    const back = { ...plan(before.map((r, i) => (i === 2 ? [2, ""] : i === 5 ? [50, ""] : r))), keys };
    const was = before.map((r, i) => (i === 2 ? [2, "gone"] : r));
    expect(changedBlocks(back, snapshot(was))).toEqual([
      { row: 3, height: 1 },
      { row: 6, height: 1 },
    ]);
    const keptBetween = { ...plan(was.map((r, i) => (i === 1 ? [10, ""] : i === 4 ? [40, ""] : r))), keys };
    expect(changedBlocks(keptBetween, snapshot(was))).toEqual([
      { row: 2, height: 1 },
      { row: 5, height: 1 },
    ]);
    // Without any note, the same gaps are written with their neighbours.
    const plain = { ...plan(before.map((r, i) => (i === 1 ? [10, ""] : i === 4 ? [40, ""] : r))), keys };
    expect(changedBlocks(plain, snapshot(before))).toEqual([{ row: 2, height: 4 }]);
  });

  it("writes rows changed here and there in a few calls, not one per row", () => {
    // 3,000 rows of 20 columns, every third one changed (a name learnt, a status moved).
    const wide = Array.from({ length: 3_000 }, (_, i) => Array.from({ length: 20 }, (_, c) => `${i}:${c}`));
    const changed = wide.map((r, i) => (i % 3 === 0 ? [...r.slice(0, 19), "new"] : r));
    expect(changedBlocks(plan(changed), snapshot(wide))).toEqual([{ row: 1, height: 2_998 }]);
    // Gaps wider than 2,000 cells (here 150 rows × 20) stay unwritten.
    const far = wide.map((r, i) => (i % 151 === 0 ? [...r.slice(0, 19), "new"] : r));
    expect(changedBlocks(plan(far), snapshot(wide))).toHaveLength(20);
  });

  it("cuts a long block into pieces of at most the chunk size", () => {
    const many = Array.from({ length: 12_001 }, (_, i) => [i]);
    const before = many.map(() => [-1]);
    expect(changedBlocks(plan(many), snapshot(before))).toEqual([
      { row: 1, height: 5_000 },
      { row: 5_001, height: 5_000 },
      { row: 10_001, height: 2_001 },
    ]);
  });

  it("compares formulas, dates, formats and rows the plan adds", () => {
    const when = new Date(Date.UTC(2024, 0, 5));
    const values = [["=A1*2", when, "x"]];
    const same = snapshot([[4, new Date(when.getTime()), "x"]], [["=A1*2", "", ""]]);
    expect(changedBlocks(plan(values), same)).toEqual([]);
    expect(changedBlocks(plan(values, [["0", "@", "@"]]), same)).toEqual([{ row: 1, height: 1 }]);
    expect(changedBlocks(plan([...values, ["new", when, "y"]]), same)).toEqual([{ row: 2, height: 1 }]);
    expect(sameCell("=B2", 4, "")).toBe(false);
    // An escaped text is stored as the literal text after the apostrophe.
    expect(sameCell("'=B2", "=B2", "")).toBe(true);
    expect(sameCell("'00123", "00123", "")).toBe(true);
    expect(sameCell("'00123", 123, "")).toBe(false);
    expect(sameCell("'=B2", "=B2", "=B2")).toBe(false);
    expect(sameCell("00123", "00123", "")).toBe(true);
    expect(sameCell(when, "2024-01-05", "")).toBe(false);
    // A date written as text is the same cell when the sheet's date prints back as that text.
    const texts = (d: Date) => [d.toISOString().slice(0, 10)];
    expect(sameCell("2024-01-05", when, "", texts)).toBe(true);
    expect(sameCell("2024-01-06", when, "", texts)).toBe(false);
    expect(sameCell("2024-01-05", when, "")).toBe(false);
  });
});

describe("planRefresh on a sheet of 200,000 rows", () => {
  it("plans it without overflowing the call stack", () => {
    const header: CellValue[] = headersOf(FUNDS_TABLE, "en");
    const old: CellValue[][] = [header];
    for (let i = 0; i < 200_000; i += 1) old.push([i + 1, `Fund ${i + 1}`]);
    const at = (row: CellValue[]) => row.map(() => "");
    const result = planRefresh({
      columns: FUNDS_TABLE.columns,
      previousKeys: FUNDS_TABLE.columns.map((c) => c.key),
      snapshot: { name: "Funds", values: old, formulas: old.map(at), formats: old.map(at) },
      records: [],
      keyOf: FUNDS_TABLE.keyOf,
      covers: () => false,
      mode: "keep",
      language: "en",
      missingNote: "",
    });
    expect(result.dataRows).toBe(200_000);
  });
});

describe("cellsBeyondLimit", () => {
  it("says how many cells the spreadsheet would hold when a sheet's growth passes Google's limit", () => {
    expect(cellsBeyondLimit(9_999_000, 26_000, 26_000)).toBeNull();
    expect(cellsBeyondLimit(9_999_000, 26_000, 27_000)).toBeNull();
    expect(cellsBeyondLimit(9_999_000, 26_000, 27_001)).toBe(10_000_001);
    // A sheet that shrinks never counts less than it holds now: rows are not deleted by a refresh.
    expect(cellsBeyondLimit(10_000_000, 50_000, 10)).toBeNull();
  });
});
