/** A rename's Company cells (relabelledNames): only that key's rows, the key kept, nothing else. */
import { describe, expect, it } from "vitest";
import { relabelledNames } from "../../src/sheets/company";

describe("relabelledNames", () => {
  const alpha = { key: "c0", name: "Alpha", formerNames: ["Alfa"] };

  it("shows the new name on every row of that key whose Company cell agrees with it, and leaves other rows", () => {
    const keys = ["c0", "c1abcdefg", "c0", " c0 ", "", "c0", "c0"];
    const names = ["Alpha", "Beta", "alpha (typed)", "ALPHA", "Alpha", "Alfa", "Beta"];
    expect(relabelledNames(keys, names, alpha, "Alpha SA")).toEqual([
      "Alpha SA",
      "Beta",
      // Key and name disagree: left as it is, refused where it is used, never made to agree.
      "alpha (typed)",
      "Alpha SA",
      // A row without a key belongs to no company: never relabelled.
      "Alpha",
      // A former name of the company still names it.
      "Alpha SA",
      "Beta",
    ]);
  });

  it("is null when no cell changes", () => {
    expect(relabelledNames(["c0"], ["Alpha SA"], alpha, "Alpha SA")).toBeNull();
    expect(relabelledNames(["c1abcdefg"], ["Beta"], alpha, "Alpha SA")).toBeNull();
  });
});
