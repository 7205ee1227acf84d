/** A run of the schedule's history for the tests: a scheduled run of Ana's that went fine. */
import type { RunRecord } from "../../src/schedule/history";

/** The run `id` started at `startedAt`, ended a minute later, having refreshed the funds; `patch` over it. */
export function runRecord(id: string, startedAt: number, patch: Partial<RunRecord> = {}): RunRecord {
  return {
    id,
    source: "schedule",
    user: "ana@example.com",
    startedAt,
    endedAt: startedAt + 60_000,
    refreshed: ["funds"],
    records: 10,
    calls: 3,
    outcome: "ok",
    message: "",
    ...patch,
  };
}
