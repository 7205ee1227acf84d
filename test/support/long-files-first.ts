/**
 * The order test files start in (vitest.config.ts): the files known to take longest first, so
 * that no long file starts last and runs alone at the end. vitest orders files
 * by the durations of its previous run when it has them (node_modules/.vite), else by size,
 * else as found; a fresh clone (CI) has no previous run, and would start test/writeback/, the
 * longest folder, last. The list comes from the "Slowest test files" a run prints; a file not
 * in it keeps vitest's order after them.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Longest first, as measured on the 2-core machine CI uses; the playground's browser files
 * alternate with emulated ones, so that they run beside those rather than beside each other (a
 * Chromium and a playground each, on the same two cores).
 */
export const LONG_FILES = [
  "test/audit/audit-rows.emulated.test.ts",
  "test/browser/playground-reset.test.ts",
  "test/writeback/kill-sweep.test.ts",
  "test/browser/playground-scripted.test.ts",
  "test/writeback/kill-sweep-others.test.ts",
  "test/browser/playground-companies.test.ts",
  "test/writeback/refused-applied.test.ts",
  "test/browser/playground-sidebars.test.ts",
  "test/writeback/sidebar-pages.test.ts",
  "test/browser/playground-refresh.test.ts",
  "test/browser/close.test.ts",
  "test/writeback/layout.test.ts",
  "test/writeback/layout-company.test.ts",
  "test/settings-sidebar/sidebar.test.ts",
  "test/close/mark.test.ts",
  "test/writeback/confirmation.test.ts",
  "test/refresh/sidebar.test.ts",
  "test/deploy/deploy.test.ts",
  "test/schedule/emulated.test.ts",
  "test/bench/bench.test.ts",
  "test/sandbox/companies.test.ts",
  "test/emulator/concurrency.test.ts",
  "test/summary/summary.emulated.test.ts",
  "test/writeback/kill-resend.test.ts",
  "test/writeback/overlap.test.ts",
  "test/refresh/continuation.emulated.test.ts",
  "test/writeback/outbox.test.ts",
  "test/refresh/emulated.test.ts",
  "test/build.test.ts",
  "test/writeback/form-kill-sweep.test.ts",
  "test/writeback/trust.test.ts",
  "test/writeback/run-rereads-records.test.ts",
  "test/writeback/many-rows.test.ts",
  "test/longrun/emulated.test.ts",
  "test/browser/playground-outbox.test.ts",
  "test/browser/playground-settings.test.ts",
];

/** The files in `files` ordered by `long` (listed ones first, in its order); the rest keep theirs. */
export function longFirst<T>(files: readonly T[], pathOf: (file: T) => string, long = LONG_FILES): T[] {
  const rank = (file: T) => {
    const at = long.indexOf(pathOf(file));
    return at < 0 ? long.length : at;
  };
  // Array.prototype.sort is stable: unlisted files keep the order they came in.
  return [...files].sort((a, b) => rank(a) - rank(b));
}

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    return longFirst(await super.sort(files), (f) => relative(root, f.moduleId).split("\\").join("/"));
  }
}
