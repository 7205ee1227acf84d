/**
 * Menu: Refresh funds, transactions, expense reports, or all. One execution under the document
 * lock, stopping cleanly near the time limit; a refresh stopped there is kept (this user's own)
 * and the Refresh sidebar continues it. Thin: the work is in src/refresh/ (steps, cursor),
 * src/sheets/ (columns, merge) and src/audit/ (rows, redaction); this hands them Apps Script's
 * services.
 */

import { runtime } from "../gas/runtime";
import { keepSummaryCurrent } from "../gas/summary-sheet";
import { type Language, type StringKey, translate } from "../i18n";
import { type RefreshKind, startCursor } from "../refresh/engine";
import type { LanesCursor } from "../refresh/lanes";
import { optionsFingerprint } from "../refresh/options";
import { lanesPercent, type StoredCursor } from "../refresh/paused";
import { deleteText, loadText, saveText } from "../refresh/stored-text";
import { pausedRefreshMessage } from "../refresh/words";
import { parseScheduleState, SCHEDULE_STATE_KEY } from "../schedule/plan";
import { currentLanguage, entry, executionBudget, withDocumentLock } from "./entry";
import { refreshQuotaCheck } from "./quota";
import {
  ACTION_OF,
  busy,
  endRefresh,
  failedRefresh,
  fromMenu,
  laneNotes,
  MENU_CURSOR_KEY,
  myPosition,
  onlyLaneError,
  openRefreshSidebar,
  PAUSED_BY_ME_KEY,
  parseStoredCursor,
  quotaRefusal,
  type RefreshSource,
  type RefreshSummary,
  runSessionLanes,
  session,
  summary,
  toast,
} from "./refresh-session";

/**
 * Where the settings live: defined once in src/settings/ (document property `settings.form`,
 * the token in user property `settings.token`); named here too for the tests that pre-store them.
 */
export { SETTINGS_KEY as SETTINGS_FORM_KEY, TOKEN_KEY } from "../settings/store";

/**
 * Runs a refresh of `kind` in this execution, under the document lock, stopping cleanly near
 * the time limit (a later refresh of the same kind continues where it stopped). Never throws:
 * the summary says what happened.
 */
export function runRefreshNow(kind: RefreshKind, source: RefreshSource): RefreshSummary {
  const started = Date.now();
  return withDocumentLock(
    "refresh",
    10_000,
    (lock) => busy(started, lock),
    () => refreshUnderLock(kind, source, started),
  );
}

function refreshUnderLock(kind: RefreshKind, source: RefreshSource, started: number): RefreshSummary {
  // The document's language, so that a failure before the session (no token) speaks it too.
  let language: Language = currentLanguage();
  let built: ReturnType<typeof session> | null = null;
  try {
    built = session(source, ACTION_OF[kind]);
    language = built.context.language;
    const { context, options } = built;
    const title = translate(language, "refresh.title");
    // The same check as the scheduled run's: a refresh that cannot finish within what is left
    // of today's UrlFetch quota does not start.
    const quota = refreshQuotaCheck(language);
    const refused = quotaRefusal(quota, language, title, source);
    if (refused) return summary(false, true, 0, 0, started, [], refused);
    const fingerprint = `${kind}|${optionsFingerprint(options, context.names)}`;
    const documentProperties = runtime().documentProperties();
    const mine = myPosition(PAUSED_BY_ME_KEY);
    const text = loadText(documentProperties, MENU_CURSOR_KEY);
    // Only the user's own pause goes on: any editor can write the position, in anyone's name.
    const stored = text && mine.is(text) ? storedCursor(text, fingerprint) : null;
    const budget = executionBudget(started);
    let lastToast = started;
    const audit = built.audit;
    const result = runSessionLanes(
      built,
      kind,
      // A pause of the previous version: its progress scale goes on with the first company's lane.
      stored && "stages" in stored.cursor
        ? { ...stored.cursor, fundsAtStart: stored.fundsAtStart }
        : stored?.cursor,
      () => budget.shouldStop(),
      (p) => {
        if (Date.now() - lastToast < 5_000) return;
        lastToast = Date.now();
        const stage = translate(language, `refresh.stage.${p.stage}` as StringKey);
        toast(translate(language, "refresh.progress", { stage, done: audit.requests() }), title);
      },
    );
    // One company: its failure is the refresh's, told as it always was.
    const failure = onlyLaneError(built, result);
    if (failure !== undefined) throw failure;
    // A paused refresh updates the Summary when it finishes (every stage of its kind is new then).
    const fresh = result.finished ? startCursor(kind).stages : [];
    keepSummaryCurrent(built, fresh, translate(language, ACTION_OF[kind]), source);
    const percent = lanesPercent(result.cursor);
    // The cursor may list thousands of funds still to fetch: more than one property value holds.
    if (result.finished) deleteText(documentProperties, MENU_CURSOR_KEY);
    else {
      const paused: StoredCursor = {
        fingerprint,
        kind,
        cursor: result.cursor as LanesCursor,
        fundsAtStart: 0,
        percent,
        pausedAt: Date.now(),
      };
      const pausedText = JSON.stringify(paused);
      saveText(documentProperties, MENU_CURSOR_KEY, pausedText);
      mine.keep(pausedText);
    }
    const calls = audit.requests();
    const message = result.finished
      ? translate(language, "refresh.summary", {
          records: result.records,
          calls,
          seconds: Math.round((Date.now() - started) / 100) / 10,
        })
      : pausedRefreshMessage(language, {
          action: translate(language, ACTION_OF[kind]),
          records: result.records,
          calls,
          refreshed: result.refreshed,
          scheduled: hasSchedule(documentProperties),
        });
    // Companies that failed or were skipped, one line each; a failure makes the refresh one.
    const notes = laneNotes(built, result, language);
    const ok = !result.lanes.some((lane) => lane.error !== undefined);
    const told = [message, ...notes].join("\n");
    // A pause must be read: it says how to continue.
    toast(told, title, result.finished && notes.length === 0 ? 10 : 30);
    // From the menu, the Refresh sidebar takes over: it continues piece by piece.
    if (!result.finished && source === "menu") openRefreshSidebar(language);
    return summary(ok, result.finished, result.records, calls, started, result.refreshed, told, percent);
  } catch (err) {
    return failedRefresh(err, source, language, built, started);
  } finally {
    endRefresh(built);
  }
}

/** Whether the document has a refresh schedule (whose runs would also finish the work). */
function hasSchedule(documentProperties: GoogleAppsScript.Properties.Properties): boolean {
  const state = parseScheduleState(documentProperties.getProperty(SCHEDULE_STATE_KEY));
  return state !== null && state.schedule.kind !== "off";
}

function storedCursor(text: string | null, fingerprint: string): StoredCursor | null {
  const stored = parseStoredCursor(text);
  return stored && stored.fingerprint === fingerprint ? stored : null;
}

/** Menu: Refresh funds. */
export function refreshFunds(): void {
  entry("menu", () => fromMenu(() => runRefreshNow("funds", "menu")));
}

/** Menu: Refresh funds and transactions. */
export function refreshTransactions(): void {
  entry("menu", () => fromMenu(() => runRefreshNow("transactions", "menu")));
}

/** Menu: Refresh expense reports. */
export function refreshReports(): void {
  entry("menu", () => fromMenu(() => runRefreshNow("reports", "menu")));
}

/** Menu: Refresh all. */
export function refreshAll(): void {
  entry("menu", () => fromMenu(() => runRefreshNow("all", "menu")));
}
