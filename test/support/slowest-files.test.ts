import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { LONG_FILES, longFirst } from "./long-files-first";
import { slowest, slowestLines } from "./slowest-files";

const times = Array.from({ length: 14 }, (_, i) => ({
  file: `test/f${String(i).padStart(2, "0")}.test.ts`,
  ms: i * 1_000,
}));

describe("the slowest test files", () => {
  it("lists the ten slowest, slowest first", () => {
    const shown = slowest(times);
    expect(shown).toHaveLength(10);
    expect(shown[0]).toEqual({ file: "test/f13.test.ts", ms: 13_000 });
    expect(shown.map((t) => t.ms)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4].map((s) => s * 1_000));
  });

  it("prints a heading and each file with its seconds, aligned", () => {
    expect(
      slowestLines([
        { file: "test/a.test.ts", ms: 1_234 },
        { file: "test/b.test.ts", ms: 74_060 },
      ]),
    ).toEqual(["Slowest test files:", "  74.1 s  test/b.test.ts", "   1.2 s  test/a.test.ts"]);
  });

  it("prints nothing when no file ran", () => {
    expect(slowestLines([])).toEqual([]);
  });
});

describe("the order test files start in", () => {
  it("starts the listed long files first, in the list's order, and keeps the others' order", () => {
    const files = ["test/a.test.ts", "test/long2.test.ts", "test/b.test.ts", "test/long1.test.ts"];
    expect(longFirst(files, (f) => f, ["test/long1.test.ts", "test/long2.test.ts"])).toEqual([
      "test/long1.test.ts",
      "test/long2.test.ts",
      "test/a.test.ts",
      "test/b.test.ts",
    ]);
  });

  it("lists only files that exist", () => {
    for (const file of LONG_FILES)
      expect(existsSync(resolve(import.meta.dirname, "../..", file)), file).toBe(true);
  });
});
