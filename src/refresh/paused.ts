/**
 * What a refresh started by hand that stops near the time limit reports (./words.ts says it). Such a
 * refresh gets no follow-up trigger (an add-on may hold one time trigger per user per
 * document, and that one belongs to the schedule): it continues when the user runs the same
 * refresh again, or when the scheduled refresh brings everything up to date. Also what the
 * document keeps of it (its cursor) and how far it got.
 */

import { isRefreshCursor, type RefreshCursor, type RefreshKind, type Stage, startCursor } from "./engine";
import { isLanesCursor, type LanesCursor } from "./lanes";

export interface PausedRefresh {
  /** The refresh as the user chose it, in their words ("Refresh all"). */
  action: string;
  /** Rows written in this execution. */
  records: number;
  calls: number;
  /** Sheets this execution finished. */
  refreshed: readonly Stage[];
  /** Whether the document has a refresh schedule that will run. */
  scheduled: boolean;
}

/**
 * How far a refresh of `kind` is, from where it stopped: the stages done, and within the
 * movements stage the funds still to fetch (out of those known when the stage began).
 */
export function refreshPercent(kind: RefreshKind, cursor: RefreshCursor | null, fundsAtStart = 0): number {
  if (!cursor) return 100;
  const total = startCursor(kind).stages.length;
  const done = total - cursor.stages.length;
  let within = 0;
  if (cursor.stages[0] === "transactions" && cursor.pendingFundIds && fundsAtStart > 0)
    within = 1 - cursor.pendingFundIds.length / fundsAtStart;
  // Within a list, the pages merged of the piece it is in (the pieces' sizes are not known).
  else if (cursor.list) within = (cursor.list.page - 1) / Math.max(cursor.list.page, cursor.list.pages);
  return Math.max(0, Math.min(99, Math.floor(((done + within) / total) * 100)));
}

/** How far a refresh of several lanes is: the mean of its lanes (one done counts 100). */
export function lanesPercent(cursor: LanesCursor | null): number {
  if (!cursor) return 100;
  const lanes = Object.values(cursor.lanes);
  if (lanes.length === 0) return 100;
  const each = lanes.map((lane) =>
    lane.stages.length === 0 ? 100 : refreshPercent(cursor.kind, lane, lane.fundsAtStart ?? 0),
  );
  return Math.min(99, Math.floor(each.reduce((a, b) => a + b, 0) / lanes.length));
}

/** Every kind of refresh a user can start. */
const REFRESH_KINDS: readonly string[] = ["funds", "transactions", "reports", "all"];

/** A refresh started by hand that stopped near the time limit, as the document keeps it. */
export interface StoredCursor {
  fingerprint: string;
  kind: RefreshKind;
  /** The lanes' cursor; one of the previous version (v1) is the first company's lane. */
  cursor: RefreshCursor | LanesCursor;
  /** Funds whose movements were to fetch when that stage began (the progress bar's scale). */
  fundsAtStart: number;
  percent: number;
  pausedAt: number;
}

/** What the document kept of a paused refresh, checked; null when it is not one. */
export function storedCursorOf(value: unknown): StoredCursor | null {
  if (typeof value !== "object" || value === null) return null;
  const stored = value as Partial<StoredCursor>;
  if (
    typeof stored.fingerprint !== "string" ||
    !(isRefreshCursor(stored.cursor) || isLanesCursor(stored.cursor))
  )
    return null;
  const kind = stored.fingerprint.split("|")[0] as RefreshKind;
  if (!REFRESH_KINDS.includes(kind)) return null;
  return {
    fingerprint: stored.fingerprint,
    kind,
    cursor: stored.cursor,
    fundsAtStart: Number(stored.fundsAtStart) || 0,
    percent: Number(stored.percent) || 0,
    pausedAt: Number(stored.pausedAt) || 0,
  };
}
