/**
 * vitest.config.ts runs a worker's files in one module graph (isolate: false). That holds only
 * while no test file changes what the next one imports or sees: a module mock, a stubbed global
 * or environment variable, or fake timers would leak into the files after it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const LEAKING = /\bvi\.(mock|doMock|stubGlobal|stubEnv|useFakeTimers|resetModules)\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("test files sharing a worker", () => {
  it("finds the calls it looks for", () => {
    expect(LEAKING.test("vi.mock('../src/api/client')")).toBe(true);
    expect(LEAKING.test("vi.useFakeTimers()")).toBe(true);
    expect(LEAKING.test("vi.fn()")).toBe(false);
  });

  it("none mocks a module, stubs a global or the environment, or fakes timers", () => {
    const files = testFiles(join(ROOT, "test"));
    expect(files.length).toBeGreaterThan(100);
    const leaking = files
      .filter((file) => file !== import.meta.filename && LEAKING.test(readFileSync(file, "utf8")))
      .map((file) => relative(ROOT, file));
    expect(
      leaking,
      "these would leak into the next file of their worker (vitest.config.ts isolate: false)",
    ).toEqual([]);
  });
});
