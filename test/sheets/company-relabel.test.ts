/** A rename's Company cells (relabelledNames): only that key's rows, the key kept, nothing else. */
import { describe, expect, it } from "vitest";
import { relabelledNames } from "../../src/sheets/company";

describe("relabelledNames", () => {
  it("shows the new name on every row of that key, whatever the cell said, and leaves other rows", () => {
    const keys = ["c0", "c1abcdefg", "c0", " c0 ", ""];
    const names = ["Alpha", "Beta", "alpha (typed)", "Alpha", "Alpha"];
    expect(relabelledNames(keys, names, "c0", "Alpha SA")).toEqual([
      "Alpha SA",
      "Beta",
      "Alpha SA",
      "Alpha SA",
      // A row without a key belongs to no company: never relabelled.
      "Alpha",
    ]);
  });

  it("is null when no cell changes", () => {
    expect(relabelledNames(["c0"], ["Alpha SA"], "c0", "Alpha SA")).toBeNull();
    expect(relabelledNames(["c1abcdefg"], ["Beta"], "c0", "Alpha SA")).toBeNull();
  });
});
