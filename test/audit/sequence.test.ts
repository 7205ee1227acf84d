/**
 * The audit's entry numbers against what the add-on wrote: gaps (rows deleted, numbers
 * changed) and rows out of place (added, copied, moved or edited by hand) are found, rows from
 * before numbering are left alone, and the report reads plainly in both languages.
 */
import { describe, expect, it } from "vitest";
import {
  afterRotation,
  checkSequence,
  describeFindings,
  findingsKey,
  parseSequenceState,
  type SequenceState,
  sequenceStateText,
  startSequence,
} from "../../src/audit/sequence";

const state = (first: number, last: number, unnumbered = 0): SequenceState => ({
  first,
  last,
  unnumbered,
  reported: "",
});

describe("checking the entry numbers", () => {
  it("finds nothing when every number is there once, in order", () => {
    expect(checkSequence([1, 2, 3, 4], state(1, 4))).toEqual([]);
    expect(checkSequence([], startSequence())).toEqual([]);
    expect(checkSequence(["", "", 1, 2], state(1, 2, 2))).toEqual([]);
  });

  it("reports deleted rows as the range of entries missing, at the start, middle and end", () => {
    expect(checkSequence([1, 4, 5, 8], state(1, 10))).toEqual([
      { kind: "missing", from: 2, to: 3 },
      { kind: "missing", from: 6, to: 7 },
      { kind: "missing", from: 9, to: 10 },
    ]);
    expect(checkSequence([3], state(1, 3))).toEqual([{ kind: "missing", from: 1, to: 2 }]);
    expect(checkSequence([], state(1, 2))).toEqual([{ kind: "missing", from: 1, to: 2 }]);
  });

  it("reports a row added by hand, a number edited, repeated or moved, naming the row", () => {
    expect(checkSequence([1, "", 2], state(1, 2))).toEqual([{ kind: "outOfPlace", row: 3, value: "" }]);
    expect(checkSequence([1, 99, 3], state(1, 3))).toEqual([
      { kind: "missing", from: 2, to: 2 },
      { kind: "outOfPlace", row: 3, value: "99" },
    ]);
    expect(checkSequence([1, 2, 2, 3], state(1, 3))).toEqual([{ kind: "outOfPlace", row: 4, value: "2" }]);
    expect(checkSequence([2, 1], state(1, 2))).toEqual([
      { kind: "missing", from: 1, to: 1 },
      { kind: "outOfPlace", row: 3, value: "1" },
    ]);
    expect(checkSequence([1, "x", 2], state(1, 2))).toEqual([{ kind: "outOfPlace", row: 3, value: "x" }]);
  });

  it("a row typed with the next number is out of place: numbers come from the add-on only", () => {
    expect(checkSequence([1, 2, 3], state(1, 2))).toEqual([{ kind: "outOfPlace", row: 4, value: "3" }]);
  });

  it("rows renumbered to close a gap still show it: the last number given is kept apart", () => {
    expect(checkSequence([1, 2, 3], state(1, 4))).toEqual([{ kind: "missing", from: 4, to: 4 }]);
  });

  it("allows unnumbered rows only where rows predate numbering, at the top", () => {
    expect(checkSequence(["", 1, ""], state(1, 1, 1))).toEqual([{ kind: "outOfPlace", row: 4, value: "" }]);
    expect(checkSequence(["", "", 1], state(1, 1, 1))).toEqual([{ kind: "outOfPlace", row: 3, value: "" }]);
  });

  it("after rotation the sheet starts after the entries moved to the archive", () => {
    const moved = afterRotation(state(1, 10, 2), ["", "", 1, 2, 3]);
    expect(moved).toEqual({ first: 4, last: 10, unnumbered: 0, reported: "" });
    expect(checkSequence([4, 5, 6, 7, 8, 9, 10], moved)).toEqual([]);
  });
});

describe("the report", () => {
  it("reads plainly in English and Spanish", () => {
    const findings = checkSequence([1, 4, 99], state(1, 4));
    expect(describeFindings(findings, "en")).toBe(
      "Entries 2 to 3 are not in this sheet: their rows were deleted or their entry numbers changed (or a run was stopped while writing them). " +
        'Row 4 carries entry number "99", which the add-on did not write there: the row was added, copied, moved or edited by hand.',
    );
    expect(describeFindings([{ kind: "missing", from: 7, to: 7 }], "es")).toBe(
      "La entrada 7 no está en esta hoja: su fila se eliminó o se cambió su número de entrada (o una ejecución se detuvo mientras la escribía).",
    );
    expect(
      describeFindings([{ kind: "headerRestored" }, { kind: "unnumberedBefore", rows: 5 }], "es"),
    ).toContain("Las 5 filas de arriba");
  });

  it("spells out twenty differences and counts the rest", () => {
    const many = checkSequence(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? i + 1 : "")),
      state(1, 30),
    );
    expect(describeFindings(many, "en")).toMatch(/And \d+ more differences\.$/);
  });

  it("the same findings give the same key; a new one changes it", () => {
    const a = findingsKey(checkSequence([1, 4], state(1, 4)));
    expect(findingsKey(checkSequence([1, 4], state(1, 4)))).toBe(a);
    expect(findingsKey(checkSequence([1, 4], state(1, 5)))).not.toBe(a);
    expect(findingsKey([])).toBe("");
  });

  it("the stored state reads back; anything else reads as none", () => {
    expect(parseSequenceState(sequenceStateText(state(3, 9, 1)))).toEqual(state(3, 9, 1));
    expect(parseSequenceState("{")).toBeNull();
    expect(parseSequenceState('{"first":-1,"last":2,"unnumbered":0}')).toBeNull();
    expect(parseSequenceState(null)).toBeNull();
  });
});
