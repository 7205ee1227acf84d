/**
 * Trigger total runtime: Google gives each user 90 minutes a day of trigger executions on a
 * consumer account and 6 hours on Workspace (Apps Script quotas page), counted over 24 hours
 * from the first one; past it, the user's triggers fail ("Service using too much computer time
 * for one day") until the window closes. A schedule runs as its owner's trigger, and so does
 * each follow-up execution of a long refresh: this says, for each frequency, how much of the
 * owner's allowance it may use, measured on the run history.
 */

import type { AccountKind } from "../longrun/quota";
import type { RunRecord } from "./history";
import { HOUR_CHOICES, type Schedule, scheduleKey } from "./plan";

export const DAILY_TRIGGER_RUNTIME_MS: Record<AccountKind, number> = {
  consumer: 90 * 60 * 1000,
  workspace: 6 * 60 * 60 * 1000,
};

/** Scheduled runs in 24 hours (0 when off). */
export function runsPerDay(schedule: Schedule): number {
  if (schedule.kind === "hours") return 24 / schedule.every;
  return schedule.kind === "daily" ? 1 : 0;
}

/**
 * How long the last complete refresh took in executions: its finishing run plus the runs it
 * continued from just before it (each piece is an execution of its own, counted by Google).
 * Null when no refresh has finished yet.
 */
export function refreshExecutionMs(runs: readonly RunRecord[]): number | null {
  // Newest first, as the history is shown.
  const sorted = [...runs].sort((a, b) => b.startedAt - a.startedAt);
  const done = sorted.findIndex((r) => r.outcome === "ok" && r.endedAt !== null);
  if (done < 0) return null;
  let total = 0;
  for (let i = done; i < sorted.length; i++) {
    const run = sorted[i] as RunRecord;
    if (i > done && run.outcome !== "continued") break;
    if (run.endedAt !== null) total += Math.max(0, run.endedAt - run.startedAt);
  }
  return total;
}

export interface TriggerTimeChoice {
  runsPerDay: number;
  /** Trigger time a day at this frequency, from the last complete refresh (null: not measured). */
  dailyMs: number | null;
  /** True when that is more than the account's allowance: runs would fail for the rest of the day. */
  over: boolean;
}

export interface TriggerTimePlan {
  kind: AccountKind;
  allowanceMs: number;
  /** The last complete refresh, in execution time (null before the first). */
  refreshMs: number | null;
  /** By frequency key as the sidebar names it: "hours:1" … "hours:12", "daily". */
  choices: Record<string, TriggerTimeChoice>;
}

/** What each frequency would use of the account's daily trigger time. */
export function triggerTimePlan(runs: readonly RunRecord[], kind: AccountKind): TriggerTimePlan {
  const allowanceMs = DAILY_TRIGGER_RUNTIME_MS[kind];
  const refreshMs = refreshExecutionMs(runs);
  const choices: Record<string, TriggerTimeChoice> = {};
  const schedules: Schedule[] = [
    ...HOUR_CHOICES.map((every): Schedule => ({ kind: "hours", every })),
    { kind: "daily", hour: 0 },
  ];
  for (const schedule of schedules) {
    const perDay = runsPerDay(schedule);
    const dailyMs = refreshMs === null ? null : perDay * refreshMs;
    const key = schedule.kind === "daily" ? "daily" : scheduleKey(schedule);
    choices[key] = { runsPerDay: perDay, dailyMs, over: dailyMs !== null && dailyMs > allowanceMs };
  }
  return { kind, allowanceMs, refreshMs, choices };
}
