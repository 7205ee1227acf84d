/**
 * scripts/function-lengths.ts: a function's lines count the closures nested in it, which are
 * not listed on their own; `--limit` fails on a function over it unless it is exempt.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { functionLengths, longestFunctions, overLimit } from "../scripts/function-lengths";

const root = resolve(import.meta.dirname, "..");
const fixtures = "test/fixtures/function-lengths";
const nested = `${fixtures}/nested.ts`;

describe("functionLengths", () => {
  it("counts a function's nested closures in its lines and lists only the outer function", () => {
    const found = functionLengths(nested, readFileSync(resolve(root, nested), "utf8"));
    expect(found).toEqual([
      { name: "longWithClosures", file: nested, line: 4, lines: 24 },
      { name: "short", file: nested, line: 29, lines: 1 },
      { name: "Ledger.constructor", file: nested, line: 34, lines: 3 },
      { name: "Ledger.sum", file: nested, line: 38, lines: 3 },
    ]);
  });

  it("lists a folder's functions longest first", () => {
    const names = longestFunctions(resolve(root, fixtures), root).map((f) => `${f.name} ${f.lines}`);
    expect(names).toEqual(["longWithClosures 24", "Ledger.constructor 3", "Ledger.sum 3", "short 1"]);
  });
});

describe("overLimit", () => {
  const found = functionLengths(nested, readFileSync(resolve(root, nested), "utf8"));

  it("names each function over the limit, its closures counted in it", () => {
    expect(overLimit(found, 20, []).map((f) => f.name)).toEqual(["longWithClosures"]);
    expect(overLimit(found, 24, [])).toEqual([]);
  });

  it("leaves out a function exempt by file and name, and only that one", () => {
    expect(overLimit(found, 20, [`${nested}:longWithClosures`])).toEqual([]);
    expect(overLimit(found, 20, [`other.ts:longWithClosures`]).map((f) => f.name)).toEqual([
      "longWithClosures",
    ]);
  });
});

describe("the command", () => {
  const run = (args: string[]) =>
    execFileSync(
      process.execPath,
      ["--import", "tsx", "scripts/function-lengths.ts", "--dir", fixtures, ...args],
      {
        cwd: root,
        encoding: "utf8",
        stdio: "pipe",
      },
    );

  it("fails naming the function over --limit, and passes when it is exempt", () => {
    let failure: { status?: number; stderr?: string } = {};
    try {
      run(["--limit", "20"]);
    } catch (error) {
      failure = error as typeof failure;
    }
    expect(failure.status).toBe(1);
    expect(failure.stderr).toContain(`longWithClosures  ${nested}:4`);
    expect(run(["--limit", "20", "--exempt", `${nested}:longWithClosures`])).toContain("exempt");
  }, 120_000);
});
