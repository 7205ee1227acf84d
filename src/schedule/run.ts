/**
 * One refresh execution, as the schedule, a continuation trigger or a user starts it: take the
 * document lock (or record the run as skipped), check the UrlFetch quota, continue a refresh
 * stopped earlier or start one, stop near the time limit and store where it was, record the
 * run, and tell the owner when an unattended run failed. Every Apps Script service is handed
 * in, so the whole flow runs in tests with fakes.
 */

import type { StringKey } from "../i18n";
import { say, type Words } from "../i18n/words";
import type { TimeBudget } from "../longrun/budget";
import {
  type Continuation,
  clearContinuation,
  loadContinuation,
  type PropertyStore,
  saveContinuation,
} from "../longrun/continuation";
import { checkQuota, estimateRefreshCalls, type QuotaCheck, WARN_SHARE } from "../longrun/quota";
import {
  callsOfLastCompleteRefresh,
  type RunRecord,
  type RunSource,
  readHistory,
  runKey,
  serializeRun,
  settleAbandonedRuns,
} from "./history";
import { withoutSecret } from "./notices";

/** How long a run waits for another execution's lock before it is recorded as skipped. */
export const LOCK_WAIT_MS = 30_000;
/** Delay of the one-off trigger that continues a refresh stopped near the time limit. */
export const FOLLOW_UP_DELAY_MS = 60_000;

/** What one execution of the refresh did. */
export interface RefreshProgress<C> {
  /** True when the whole refresh is done; false when it stopped because `shouldStop()` said so. */
  finished: boolean;
  /** Where to continue when not finished. */
  cursor: C | null;
  /** Records written in this execution. */
  records: number;
  /** What was refreshed, e.g. ["funds", "transactions", "reports"]. */
  refreshed: string[];
  /**
   * What the history must say of a run that refreshed only part of the document (a company
   * skipped for want of a usable token); the run itself is still "ok" or "continued".
   */
  notes?: readonly string[];
}

/** The refresh itself, built as steps with a serialisable cursor. */
export interface RefreshEngine<C> {
  /**
   * Runs the refresh from `cursor` (null: from the start), asking `shouldStop()` between steps,
   * and leaves the sheets consistent whenever it returns.
   */
  run(cursor: C | null, shouldStop: () => boolean): RefreshProgress<C>;
  /** The settings that shape the refresh; a continuation under other settings is dropped. */
  settingsFingerprint(): string;
}

export interface DocumentLock {
  tryLock(ms: number): boolean;
  /** Flushes the spreadsheet and releases the lock. */
  release(): void;
  /** What the run holding the lock is doing, when known (a refresh is assumed otherwise). */
  holder?(): "outbox" | "refresh" | "form" | null;
}

const SKIPPED_FOR: Record<"outbox" | "refresh" | "form", StringKey> = {
  outbox: "run.message.skippedOutbox",
  refresh: "run.message.skipped",
  form: "run.message.skippedForm",
};

export interface QuotaPort {
  /** Calls made today by this user. */
  used(): number;
  limit(): number;
  /** Adds calls made by this execution to today's count. */
  add(calls: number): void;
}

/**
 * How a run says what the history keeps of it (in the document's language): words, and a
 * failure in plain words with its technical text after (./words.ts, `runWords`).
 */
export interface RunWords {
  say(words: Words): string;
  failure(err: unknown): string;
}

export interface RunPorts<C> {
  /** Says the messages kept in the history. */
  words: RunWords;
  now(): number;
  newId(): string;
  /** The user running this execution: a stable key and a label (email when known). */
  me: { key: string; label: string };
  lock: DocumentLock;
  /** Document properties: history and continuation. */
  documentStore: PropertyStore;
  quota: QuotaPort;
  /** Calls made so far in this execution (counted by the transport). */
  callsMade(): number;
  refresh: RefreshEngine<C>;
  budget: TimeBudget;
  /**
   * Arranges a follow-up execution to continue a stopped refresh. Returns false when a
   * one-off trigger is not allowed or could not be created: the next run continues it.
   */
  scheduleFollowUp(delayMs: number): boolean;
  /** Tells the owner that an unattended run failed (e-mail when they asked for it). */
  notifyFailure(run: RunRecord): void;
  /** The user's access tokens (one, or one per company), only so that they can be scrubbed from messages. */
  secret(): string | readonly string[] | null;
  /**
   * This user's mark on the position they stored (in their own properties): the stored position
   * is any editor's to rewrite, in anyone's name, so only the one the user stored goes on.
   */
  mine: { is(text: string): boolean; keep(text: string): void };
}

export type RunResult =
  | { outcome: "ok" | "continued" | "failed" | "skipped" | "refused"; run: RunRecord; quota?: QuotaCheck }
  /** A continuation trigger fired but the refresh was already finished or superseded. */
  | { outcome: "nothing" };

/** Stores one run under its own key (see history.ts). */
export function saveRun(store: PropertyStore, run: RunRecord): void {
  store.setProperty(runKey(run), serializeRun(run));
}

/** The bounded history, newest first; prunes old keys and settles runs killed mid-way. */
export function loadHistory(
  store: PropertyStore,
  nowMs: number,
  words: Pick<RunWords, "say"> = { say: (w) => say("en", w) },
): RunRecord[] {
  const view = readHistory(store.getProperties());
  for (const key of view.staleKeys) store.deleteProperty(key);
  const settled = settleAbandonedRuns(view.runs, nowMs, words.say({ key: "run.message.abandoned" }));
  for (const run of settled) saveRun(store, run);
  const byId = new Map(settled.map((r) => [r.id, r]));
  return view.runs.map((r) => byId.get(r.id) ?? r);
}

/** The quota check for the next refresh, from the calls the last complete refresh took. */
export function quotaForNextRefresh(
  runs: readonly RunRecord[],
  quota: QuotaPort,
  continuation: Continuation | null,
): QuotaCheck {
  const full = estimateRefreshCalls(callsOfLastCompleteRefresh(runs));
  // A refresh already under way needs only what it has not done yet (at least one call).
  const estimate = continuation ? Math.max(1, full - continuation.calls) : full;
  return checkQuota(quota.used(), quota.limit(), estimate);
}

function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

/**
 * Runs one refresh execution started by `source`. Never throws for a refresh failure: the
 * failure is recorded in the history (and reported to the owner when unattended); the result
 * says what happened.
 */
export function runRefresh<C>(source: RunSource, ports: RunPorts<C>): RunResult {
  const startedAt = ports.now();
  const run: RunRecord = {
    id: ports.newId(),
    source,
    user: ports.me.label,
    startedAt,
    endedAt: null,
    refreshed: [],
    records: 0,
    calls: 0,
    outcome: "running",
    message: "",
  };
  const unattended = source === "schedule" || source === "continuation";
  const finish = (patch: Partial<RunRecord>): RunRecord => {
    Object.assign(run, patch, { endedAt: ports.now() });
    run.message = withoutSecret(run.message, ports.secret());
    saveRun(ports.documentStore, run);
    return run;
  };

  if (!ports.lock.tryLock(LOCK_WAIT_MS)) {
    // Another refresh holds the document: doing nothing is the only way not to double it.
    // A continuation keeps its stored position and tries again later.
    const retry = source === "continuation" && ports.scheduleFollowUp(FOLLOW_UP_DELAY_MS);
    finish({
      outcome: "skipped",
      message: retry
        ? ports.words.say({ key: "run.message.skippedRetry" })
        : ports.words.say({ key: SKIPPED_FOR[ports.lock.holder?.() ?? "refresh"] }),
    });
    return { outcome: "skipped", run };
  }

  let result: RunResult;
  try {
    result = runLocked(source, ports, run, finish);
  } finally {
    ports.lock.release();
  }
  if (unattended && (result.outcome === "failed" || result.outcome === "refused")) {
    try {
      ports.notifyFailure(result.run);
    } catch (err) {
      // The failure is already in the history and the notice; a mail error must not hide it.
      finish({
        message: `${run.message} ${ports.words.say({ key: "run.message.mailFailed", params: { message: errorMessage(err) } })}`,
      });
    }
  }
  return result;
}

function runLocked<C>(
  source: RunSource,
  ports: RunPorts<C>,
  run: RunRecord,
  finish: (patch: Partial<RunRecord>) => RunRecord,
): RunResult {
  const store = ports.documentStore;
  let continuation = loadContinuation<C>(store);
  // Another's position (or one written in this user's name) is not continued: started again.
  if (continuation && !ports.mine.is(JSON.stringify(continuation))) continuation = null;
  // A continuation trigger only carries on its own owner's refresh (their token, their
  // trigger); a refresh already finished or superseded leaves it nothing to do.
  const notMine = !continuation || continuation.ownerKey !== ports.me.key;
  if (source === "continuation" && notMine) return { outcome: "nothing" };
  let fingerprint: string;
  try {
    fingerprint = ports.refresh.settingsFingerprint();
  } catch (err) {
    // The refresh cannot be set up (no token, broken settings): say so, and keep any stored
    // position for when it is fixed.
    finish({ outcome: "failed", message: errorMessage(err) });
    return { outcome: "failed", run };
  }
  if (continuation && continuation.settingsFingerprint !== fingerprint) {
    // The settings changed since it stopped: continuing would mix two different refreshes.
    clearContinuation(store);
    continuation = null;
  }
  if (source === "continuation" && !continuation) return { outcome: "nothing" };

  const history = loadHistory(store, run.startedAt, ports.words);
  const quota = quotaForNextRefresh(history, ports.quota, continuation);
  if (quota.verdict === "refuse") {
    finish({
      outcome: "refused",
      message: ports.words.say({
        key: "quota.refuse",
        params: { estimate: quota.estimate, remaining: quota.remaining, limit: quota.limit },
      }),
    });
    return { outcome: "refused", run, quota };
  }

  saveRun(store, run);
  // The estimate comes from the last refresh, but the settings and the stored position are any
  // editor's (a page size of 1, a crafted position): the run itself stops where it would take
  // the user's day past the quota, or, unattended, past the share a refresh by hand warns about,
  // leaving the rest to the user's own work. The next run continues where it stopped.
  // Started by hand, the sidebar that started it calls again, piece after piece.
  const byHand = source === "sidebar" || source === "menu";
  const ceiling = Math.floor(quota.limit * (byHand ? 1 : WARN_SHARE)) - quota.used;
  const quotaReached = () => ports.callsMade() >= ceiling;
  let progress: RefreshProgress<C>;
  try {
    progress = ports.refresh.run(
      continuation ? continuation.cursor : null,
      () => quotaReached() || ports.budget.shouldStop(),
    );
  } catch (err) {
    const calls = ports.callsMade();
    ports.quota.add(calls);
    // The sheets keep what the last completed step wrote; the next refresh starts over.
    clearContinuation(store);
    // In plain words first (the sheets kept their data), the technical text after, for "Details".
    finish({
      outcome: "failed",
      calls,
      message: ports.words.failure(err),
    });
    return { outcome: "failed", run, quota };
  }
  const calls = ports.callsMade();
  ports.quota.add(calls);
  const base = { calls, records: progress.records, refreshed: progress.refreshed };
  const notes = (progress.notes ?? []).join(" ");
  const withNotes = (message: string) => [message, notes].filter((m) => m !== "").join(" ");

  if (progress.finished) {
    clearContinuation(store);
    const executions = continuation ? continuation.executions + 1 : 1;
    finish({
      ...base,
      outcome: "ok",
      message: withNotes(
        executions > 1 ? ports.words.say({ key: "run.message.finishedIn", params: { executions } }) : "",
      ),
    });
    return { outcome: "ok", run, quota };
  }

  const next: Continuation<C> = {
    chainId: continuation?.chainId ?? run.id,
    ownerKey: ports.me.key,
    ownerLabel: ports.me.label,
    startedBy: continuation?.startedBy ?? source,
    savedAt: ports.now(),
    executions: (continuation?.executions ?? 0) + 1,
    calls: (continuation?.calls ?? 0) + calls,
    records: (continuation?.records ?? 0) + progress.records,
    settingsFingerprint: fingerprint,
    cursor: progress.cursor as C,
  };
  try {
    saveContinuation(store, next, ports.newId());
    ports.mine.keep(JSON.stringify(next));
  } catch (err) {
    finish({
      ...base,
      outcome: "failed",
      message: ports.words.say({ key: "run.message.storeFailed", params: { message: errorMessage(err) } }),
    });
    return { outcome: "failed", run, quota };
  }
  const atQuota = quotaReached()
    ? `${ports.words.say({ key: "run.message.quotaStop", params: { used: quota.used + calls, limit: quota.limit } })} `
    : "";
  // Stopped at the quota, no follow-up: it would stop at once, minute after minute all day;
  // the next scheduled run goes on.
  const followUp = !atQuota && ports.scheduleFollowUp(FOLLOW_UP_DELAY_MS);
  finish({
    ...base,
    outcome: "continued",
    message: withNotes(
      atQuota +
        ports.words.say({
          key: atQuota
            ? "run.message.quotaNext"
            : followUp
              ? "run.message.followUp"
              : byHand
                ? "run.message.sidebarContinues"
                : "run.message.nextRun",
        }),
    ),
  });
  return { outcome: "continued", run, quota };
}
