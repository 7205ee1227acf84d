import { describe, expect, it } from "vitest";
import {
  callsOfLastCompleteRefresh,
  HISTORY_SIZE,
  lastScheduledRunAt,
  parseRun,
  type RunRecord,
  readHistory,
  runKey,
  serializeRun,
  settleAbandonedRuns,
} from "../../src/schedule/history";
import { runRecord } from "./runs";

const T0 = Date.UTC(2026, 0, 10, 8);
const MIN = 60_000;

const run = runRecord;

function store(runs: RunRecord[]): Record<string, string> {
  return Object.fromEntries(runs.map((r) => [runKey(r), serializeRun(r)]));
}

describe("run history", () => {
  it("lists runs newest first, bounded, and names the keys to prune", () => {
    const runs = Array.from({ length: HISTORY_SIZE + 3 }, (_, i) => run(`r${i}`, T0 + i * MIN));
    const props = { ...store(runs), "schedule.run.garbage": "{not json", other: "x" };
    const view = readHistory(props);
    expect(view.runs.map((r) => r.id)).toEqual(
      runs
        .slice(3)
        .reverse()
        .map((r) => r.id),
    );
    expect(view.staleKeys.sort()).toEqual(
      [runKey(runs[0]), runKey(runs[1]), runKey(runs[2]), "schedule.run.garbage"].sort(),
    );
  });

  it("orders by start time even when times have different digit counts", () => {
    const view = readHistory(store([run("old", 999_999), run("new", 1_000_000)]));
    expect(view.runs.map((r) => r.id)).toEqual(["new", "old"]);
  });

  it("keeps stored records within the property value limit", () => {
    const long = run("x", T0, { message: "é".repeat(20_000) });
    const text = serializeRun(long);
    expect(new TextEncoder().encode(text).length).toBeLessThan(9 * 1024);
    expect(parseRun(text)?.message.length).toBe(500);
  });

  it("marks runs left running by a killed execution as failed, and only those", () => {
    const settled = settleAbandonedRuns(
      [
        run("a", T0, { outcome: "running", endedAt: null }),
        run("b", T0 + 9 * MIN, { outcome: "running" }),
        run("c", T0),
      ],
      T0 + 15 * MIN,
    );
    expect(settled.map((r) => [r.id, r.outcome])).toEqual([["a", "failed"]]);
    expect(settled[0].message).toMatch(/stopped without finishing/);
  });

  it("finds the last scheduled run and the calls of the last complete refresh across continuations", () => {
    const runs = [
      run("m", T0, { source: "menu", calls: 50 }),
      run("s1", T0 + MIN, { outcome: "continued", calls: 40 }),
      run("s2", T0 + 2 * MIN, { source: "continuation", outcome: "continued", calls: 40 }),
      run("s3", T0 + 3 * MIN, { source: "continuation", outcome: "ok", calls: 5 }),
      run("s4", T0 + 4 * MIN, { outcome: "skipped", calls: 0 }),
    ];
    expect(lastScheduledRunAt(runs)).toBe(T0 + 4 * MIN);
    expect(callsOfLastCompleteRefresh(runs)).toBe(85);
    expect(callsOfLastCompleteRefresh([run("f", T0, { outcome: "failed" })])).toBeNull();
  });
});
