import { describe, expect, it } from "vitest";
import type { RunRecord } from "../../src/schedule/history";
import {
  DAILY_TRIGGER_RUNTIME_MS,
  refreshExecutionMs,
  runsPerDay,
  triggerTimePlan,
} from "../../src/schedule/trigger-time";

const MIN = 60_000;
function run(startedAt: number, minutes: number, outcome: RunRecord["outcome"]): RunRecord {
  return {
    id: String(startedAt),
    source: outcome === "continued" ? "schedule" : "continuation",
    user: "ana",
    startedAt,
    endedAt: startedAt + minutes * MIN,
    refreshed: [],
    records: 0,
    calls: 0,
    outcome,
    message: "",
  };
}

describe("trigger time a day by frequency", () => {
  it("uses Google's allowances: 90 minutes for consumer accounts, 6 hours for Workspace", () => {
    expect(DAILY_TRIGGER_RUNTIME_MS).toEqual({ consumer: 90 * MIN, workspace: 360 * MIN });
    expect(runsPerDay({ kind: "hours", every: 4 })).toBe(6);
    expect(runsPerDay({ kind: "daily", hour: 9 })).toBe(1);
    expect(runsPerDay({ kind: "off" })).toBe(0);
  });

  it("measures a refresh as all its executions: the finishing one and those it continued", () => {
    const runs = [
      run(0, 3, "ok"),
      run(10 * MIN, 6, "continued"),
      run(20 * MIN, 5, "continued"),
      run(30 * MIN, 2, "ok"),
    ];
    // Newest complete refresh: the one that started at 10 min (6 + 5 + 2 minutes).
    expect(refreshExecutionMs(runs)).toBe(13 * MIN);
    expect(refreshExecutionMs([run(0, 6, "continued")])).toBeNull();
  });

  it("says when a frequency would go past the day's allowance on long refreshes", () => {
    const runs = [run(0, 6, "continued"), run(10 * MIN, 2, "ok")]; // 8 minutes a refresh
    const consumer = triggerTimePlan(runs, "consumer");
    expect(consumer.refreshMs).toBe(8 * MIN);
    expect(consumer.choices["hours:1"]).toEqual({ runsPerDay: 24, dailyMs: 192 * MIN, over: true });
    expect(consumer.choices["hours:2"]?.over).toBe(true); // 96 minutes
    expect(consumer.choices["hours:4"]).toEqual({ runsPerDay: 6, dailyMs: 48 * MIN, over: false });
    expect(consumer.choices["daily"]).toEqual({ runsPerDay: 1, dailyMs: 8 * MIN, over: false });
    expect(triggerTimePlan(runs, "workspace").choices["hours:1"]?.over).toBe(false);
    expect(triggerTimePlan([], "consumer").choices["hours:1"]).toEqual({
      runsPerDay: 24,
      dailyMs: null,
      over: false,
    });
  });
});
