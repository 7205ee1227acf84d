/**
 * The run history: one record per refresh run (scheduled, continued or started by hand), kept
 * in document properties so that every user of the document sees the same runs.
 *
 * Each run is stored under its own key (`schedule.run.<start>.<id>`), so a run recorded as
 * skipped while another execution holds the lock never overwrites the holder's record: no
 * read-modify-write of a shared list. Old keys are pruned to keep the history bounded.
 */

export type RunSource = "schedule" | "continuation" | "menu" | "sidebar";
export type RunOutcome =
  /** Started and not finished yet (or killed without a trace: see `settleAbandonedRuns`). */
  | "running"
  | "ok"
  | "failed"
  /** Could not get the document lock in time: nothing done, nothing doubled. */
  | "skipped"
  /** Stopped near the time limit; a follow-up execution continues it. */
  | "continued"
  /** Not started: it would have exceeded the daily UrlFetch quota. */
  | "refused";

export interface RunRecord {
  id: string;
  source: RunSource;
  /** Who ran it (email or a label; never a token). */
  user: string;
  startedAt: number;
  endedAt: number | null;
  /** What was refreshed, e.g. ["funds", "transactions", "reports"]. */
  refreshed: string[];
  records: number;
  calls: number;
  outcome: RunOutcome;
  message: string;
}

export const RUN_KEY_PREFIX = "schedule.run.";
/** How many runs the history keeps. */
export const HISTORY_SIZE = 20;
const MESSAGE_LIMIT = 500;
/** A run still "running" after this long was killed (executions last at most 6 minutes). */
const ABANDONED_AFTER_MS = 10 * 60 * 1000;

/** Property key of a run: sorts by start time, unique by id. */
export function runKey(run: Pick<RunRecord, "startedAt" | "id">): string {
  return `${RUN_KEY_PREFIX}${String(run.startedAt).padStart(15, "0")}.${run.id}`;
}

/** The stored text of a run, with its message cut to a bounded length. */
export function serializeRun(run: RunRecord): string {
  const message =
    run.message.length > MESSAGE_LIMIT ? `${run.message.slice(0, MESSAGE_LIMIT - 1)}…` : run.message;
  return JSON.stringify({ ...run, message, refreshed: run.refreshed.slice(0, 10) });
}

const OUTCOMES: readonly RunOutcome[] = ["running", "ok", "failed", "skipped", "continued", "refused"];
const SOURCES: readonly RunSource[] = ["schedule", "continuation", "menu", "sidebar"];

/** Reads one stored run; null when unreadable. */
export function parseRun(text: string): RunRecord | null {
  try {
    const raw = JSON.parse(text) as Record<string, unknown>;
    const outcome = raw["outcome"] as RunOutcome;
    const source = raw["source"] as RunSource;
    if (!OUTCOMES.includes(outcome) || !SOURCES.includes(source)) return null;
    if (typeof raw["id"] !== "string" || !Number.isFinite(raw["startedAt"])) return null;
    return {
      id: raw["id"],
      source,
      user: typeof raw["user"] === "string" ? raw["user"] : "",
      startedAt: Number(raw["startedAt"]),
      endedAt: Number.isFinite(raw["endedAt"]) ? Number(raw["endedAt"]) : null,
      refreshed: Array.isArray(raw["refreshed"]) ? raw["refreshed"].map(String) : [],
      records: Number(raw["records"]) || 0,
      calls: Number(raw["calls"]) || 0,
      outcome,
      message: typeof raw["message"] === "string" ? raw["message"] : "",
    };
  } catch (_err) {
    return null;
  }
}

export interface HistoryView {
  /** Newest first, at most HISTORY_SIZE. */
  runs: RunRecord[];
  /** Keys of runs beyond the bound (or unreadable), to delete. */
  staleKeys: string[];
}

/** The history from all document properties, newest first, and the keys to prune. */
export function readHistory(properties: Record<string, string>, size = HISTORY_SIZE): HistoryView {
  const keys = Object.keys(properties)
    .filter((k) => k.startsWith(RUN_KEY_PREFIX))
    .sort()
    .reverse();
  const runs: RunRecord[] = [];
  const staleKeys: string[] = [];
  for (const key of keys) {
    const run = parseRun(properties[key] ?? "");
    if (!run || runs.length >= size) staleKeys.push(key);
    else runs.push(run);
  }
  return { runs, staleKeys };
}

/**
 * Runs left "running" by an execution that was killed (time limit, crash) become "failed",
 * so the history never shows a run in progress forever.
 */
export function settleAbandonedRuns(
  runs: readonly RunRecord[],
  nowMs: number,
  message = "The run stopped without finishing (time limit or error).",
): RunRecord[] {
  return runs
    .filter((r) => r.outcome === "running" && nowMs - r.startedAt > ABANDONED_AFTER_MS)
    .map((r) => ({
      ...r,
      outcome: "failed" as const,
      endedAt: r.endedAt ?? r.startedAt,
      message: r.message || message,
    }));
}

/** Start of the last run fired by the recurring trigger (evidence that it still fires). */
export function lastScheduledRunAt(runs: readonly RunRecord[]): number | null {
  let last: number | null = null;
  for (const r of runs) {
    if (r.source === "schedule" && (last === null || r.startedAt > last)) last = r.startedAt;
  }
  return last;
}

/**
 * Calls the last complete refresh needed: the calls of its last run plus those of the runs it
 * continued (a chain ends in "ok" and starts after the previous chain). Null when no refresh
 * has completed yet.
 */
export function callsOfLastCompleteRefresh(runs: readonly RunRecord[]): number | null {
  const oldestFirst = [...runs].sort((a, b) => a.startedAt - b.startedAt);
  let lastTotal: number | null = null;
  let chain = 0;
  for (const r of oldestFirst) {
    if (r.outcome === "continued") chain += r.calls;
    else if (r.outcome === "ok") {
      lastTotal = chain + r.calls;
      chain = 0;
    } else if (r.outcome === "failed") chain = 0;
  }
  return lastTotal;
}
