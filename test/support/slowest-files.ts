/**
 * A vitest reporter, beside the default one (vitest.config.ts): at the end of a run it prints
 * the slowest test files, each with the time it took (its import and its tests and hooks), so
 * that the next slowdown is seen in the run that brings it.
 */
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/** How many files the list shows. */
export const SLOWEST_SHOWN = 10;

export interface FileTime {
  file: string;
  ms: number;
}

/** The `count` slowest of `times`, slowest first (ties in file order). */
export function slowest(times: FileTime[], count = SLOWEST_SHOWN): FileTime[] {
  return [...times].sort((a, b) => b.ms - a.ms || (a.file < b.file ? -1 : 1)).slice(0, count);
}

/** The lines printed: a heading, then one line per file with its seconds, aligned. */
export function slowestLines(times: FileTime[], count = SLOWEST_SHOWN): string[] {
  const shown = slowest(times, count);
  if (shown.length === 0) return [];
  const seconds = shown.map((t) => `${(t.ms / 1000).toFixed(1)} s`);
  const width = Math.max(...seconds.map((s) => s.length));
  return [
    "Slowest test files:",
    ...shown.map((t, i) => `  ${(seconds[i] as string).padStart(width)}  ${t.file}`),
  ];
}

/** How long a test file took: importing it (collecting its tests) and running its tests and hooks. */
export function fileTime(module: TestModule, root: string): FileTime {
  const diagnostic = module.diagnostic();
  return {
    file: relative(root, module.moduleId),
    ms: diagnostic.collectDuration + diagnostic.duration,
  };
}

export default class SlowestFilesReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: { config: { root: string } }): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines = slowestLines(modules.map((m) => fileTime(m, this.root)));
    if (lines.length > 0) process.stdout.write(`\n${lines.join("\n")}\n\n`);
  }
}
