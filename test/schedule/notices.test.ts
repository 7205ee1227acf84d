import { describe, expect, it } from "vitest";
import type { RunRecord } from "../../src/schedule/history";
import { currentNotice, withoutSecret } from "../../src/schedule/notices";
import { allowedSilenceMs, type ScheduleState } from "../../src/schedule/plan";
import { runRecord } from "./runs";

const T0 = Date.UTC(2026, 0, 10, 8);
const HOUR = 3_600_000;

/** A run that ended at once, having refreshed nothing. */
const run = (id: string, startedAt: number, patch: Partial<RunRecord> = {}): RunRecord =>
  runRecord(id, startedAt, { endedAt: startedAt + 1, refreshed: [], records: 0, calls: 0, ...patch });

const state: ScheduleState = {
  schedule: { kind: "hours", every: 4 },
  ownerKey: "ana",
  ownerLabel: "ana@example.com",
  triggerUid: "t1",
  installedAt: T0,
};

describe("currentNotice", () => {
  it("shows the last unattended failure until a later unattended run succeeds or it is dismissed", () => {
    const failed = run("f", T0 + HOUR, { outcome: "failed", message: "Service down" });
    expect(currentNotice([failed], state, T0 + 2 * HOUR)).toEqual({
      kind: "failed",
      runId: "f",
      at: T0 + HOUR,
      message: "Service down",
    });
    // A refresh by hand does not clear it; a skipped scheduled run does not either.
    const later = [
      failed,
      run("m", T0 + 2 * HOUR, { source: "menu" }),
      run("s", T0 + 3 * HOUR, { outcome: "skipped" }),
    ];
    expect(currentNotice(later, state, T0 + 3 * HOUR)?.kind).toBe("failed");
    expect(currentNotice([...later, run("ok", T0 + 5 * HOUR)], state, T0 + 5 * HOUR)).toBeNull();
    expect(currentNotice([failed], state, T0 + 2 * HOUR, "f")).toBeNull();
  });

  it("treats a continuation that failed as a failed scheduled refresh", () => {
    const runs = [
      run("s", T0, { outcome: "continued" }),
      run("c", T0 + 60_000, { source: "continuation", outcome: "failed" }),
    ];
    expect(currentNotice(runs, state, T0 + HOUR)?.kind).toBe("failed");
  });

  it("says the schedule stalled once its trigger is silent for too long", () => {
    expect(currentNotice([run("s", T0)], state, T0 + allowedSilenceMs(state.schedule))).toBeNull();
    expect(currentNotice([run("s", T0)], state, T0 + allowedSilenceMs(state.schedule) + 1)).toEqual({
      kind: "stalled",
      since: T0,
      owner: "ana@example.com",
    });
    expect(currentNotice([], { ...state, schedule: { kind: "off" } }, T0 + 100 * HOUR)).toBeNull();
  });
});

describe("withoutSecret", () => {
  it("hides every occurrence of the token", () => {
    expect(withoutSecret("Bearer tok-123 failed for tok-123", "tok-123")).toBe(
      "Bearer [hidden] failed for [hidden]",
    );
    expect(withoutSecret("nothing", "")).toBe("nothing");
  });

  it("hides every token of a user with one per company, a token inside another included", () => {
    expect(
      withoutSecret("Alpha tok-alpha-1; Beta tok-beta-22 and tok-alpha-1x", [
        "tok-alpha-1",
        "tok-beta-22",
        "tok-alpha-1x",
      ]),
    ).toBe("Alpha [hidden]; Beta [hidden] and [hidden]");
    expect(withoutSecret("tok-1234", [])).toBe("tok-1234");
  });
});
