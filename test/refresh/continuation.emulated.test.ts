/**
 * A list that needs several executions, in the emulation: each execution reads pages until its
 * time is nearly up (the service answers slowly, the limit is a few seconds), merges what it
 * read and stops in its budget; the next goes on from the page reached. The sheet ends as one
 * execution writes it, and a list that shifted in between is read again from page 1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeToken } from "../../dev/emulator/settings";
import { privateBuild, type Setup, setUp, sheetOf } from "./emulation";

const FORM = {
  pageSize: "10",
  fetchBatchSize: "2",
  windowMode: "range",
  windowFrom: "2023-07-01",
  windowTo: "2024-06-30",
  reportTypeDateFilter: "2",
  // One audit row per call: the test counts the pages each execution read.
  auditReads: "every",
};
/**
 * A short execution and a slow service: about a dozen pages an execution. The service's slowness
 * is on the emulator clock (fetchLatencyMs): the add-on sees it, the test does not wait for it.
 */
const LIMIT_MS = 6_000;
const LATENCY_MS = 500;

let s: Setup;
let straight: { values: unknown[][]; files: unknown[][] | undefined };

beforeAll(async () => {
  s = await setUp({ distDir: privateBuild(), funds: 2, reports: 450 });
  s.settings(FORM);
  const out = s.emulator.tryRun("refreshFromSidebar", ["reports"]);
  expect(out.ok && (out.result as { finished: boolean }).finished).toBe(true);
  straight = {
    values: sheetOf(s.emulator, "Expense reports")?.values ?? [],
    files: sheetOf(s.emulator, "Report files")?.values,
  };
}, 120_000);

afterAll(async () => {
  await s?.close();
});

function fresh(): void {
  s.emulator.resetState();
  storeToken(s.emulator, s.user, s.sandbox.token, s.sandbox.url);
  s.settings(FORM);
  s.emulator.documentPropertiesData.values.set("longrun.executionLimitMs", String(LIMIT_MS));
}

interface Execution {
  ok: boolean;
  finished: boolean;
  ms: number;
  note: string;
  rows: number;
}

/** One execution of the sidebar's refresh, killed by the emulator if it overran the limit. */
function execution(): Execution {
  const before = s.emulator.now().getTime();
  const out = s.emulator.tryRun("refreshFromSidebar", ["reports"], { budgetMs: LIMIT_MS });
  const ms = s.emulator.now().getTime() - before;
  const summary = (out.ok ? out.result : null) as { ok: boolean; finished: boolean } | null;
  const sheet = sheetOf(s.emulator, "Expense reports");
  return {
    ok: out.ok && summary?.ok === true,
    finished: summary?.finished === true,
    ms,
    note: String(sheet?.sheet.cell(1, 1)?.note ?? ""),
    rows: (sheet?.values.length ?? 1) - 1,
  };
}

function reportCalls(): number {
  const audit = sheetOf(s.emulator, "Audit");
  const endpoint = (audit?.header ?? []).indexOf("Endpoint");
  return (audit?.values ?? []).filter((r) => r[endpoint] === "getExpenseReports").length;
}

/**
 * Executions one after another, the service's latency on, each ok, until one finishes (fewer
 * than 12); `between` runs after each that did not finish.
 */
async function executionsToTheEnd(between?: (done: Execution[]) => Promise<void>): Promise<Execution[]> {
  s.emulator.fetchLatencyMs = LATENCY_MS;
  const runs: Execution[] = [];
  try {
    for (;;) {
      const run = execution();
      runs.push(run);
      expect(run.ok).toBe(true);
      if (run.finished) break;
      await between?.(runs);
      expect(runs.length).toBeLessThan(12);
    }
  } finally {
    s.emulator.fetchLatencyMs = 0;
  }
  return runs;
}

describe("a list that needs several executions", () => {
  it("goes on from the page reached, each execution within its limit, and ends as one execution writes it", async () => {
    const pages = Math.ceil((straight.values.length - 1) / 10);
    // More than two executions can read, even with no time lost but the service's.
    expect(pages).toBeGreaterThanOrEqual(39);
    fresh();
    const runs = await executionsToTheEnd();
    expect(runs.length).toBeGreaterThanOrEqual(3);
    for (const run of runs) expect(run.ms).toBeLessThanOrEqual(LIMIT_MS);
    // Every execution but the last merged its part, said so, and added rows.
    for (const [i, run] of runs.slice(0, -1).entries()) {
      expect(run.note).toMatch(/^Refresh in progress/);
      expect(run.rows).toBeGreaterThan(i === 0 ? 0 : (runs[i - 1] as Execution).rows);
    }
    expect(runs.at(-1)?.note).toMatch(/^Refreshed /);
    // Each page read once, plus the page before the one reached at each continuation.
    expect(reportCalls()).toBe(pages + runs.length - 1);
    expect(sheetOf(s.emulator, "Expense reports")?.values).toEqual(straight.values);
    expect(sheetOf(s.emulator, "Report files")?.values).toEqual(straight.files);
  }, 180_000);

  it("reads the list again from page 1 when a report at the front moved in between, and ends without duplicates or gaps", async () => {
    fresh();
    // An open report sent early in the window: sent again, it moves to the end of the list.
    const state = await s.control("state");
    const moved = (state.reports as { id: number; status: number; sendDate: string }[])
      .filter((r) => r.status === 0 && r.sendDate >= FORM.windowFrom && r.sendDate <= FORM.windowTo)
      .sort((a, b) => a.sendDate.localeCompare(b.sendDate) || a.id - b.id)[0];
    expect(moved).toBeDefined();
    const runs = await executionsToTheEnd(async (done) => {
      if (done.length === 1) await s.control(`reports/${moved?.id}/send`, {});
    });
    for (const run of runs) expect(run.ms).toBeLessThanOrEqual(LIMIT_MS);
    const pages = Math.ceil((straight.values.length - 1) / 10);
    // The pages read before the move were read again.
    expect(reportCalls()).toBeGreaterThan(pages + runs.length - 1);
    const ids = (sheetOf(s.emulator, "Expense reports")?.values ?? []).slice(1).map((r) => String(r[0]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(
      straight.values
        .slice(1)
        .map((r) => String(r[0]))
        .sort(),
    );
    expect(ids).toContain(String(moved?.id));
  }, 180_000);
});
