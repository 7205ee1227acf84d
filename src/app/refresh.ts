/**
 * Refresh entry points: the menu items, what a sidebar calls, and the engine the scheduled
 * refresh runs. Thin: the work is in src/refresh/ (steps, cursor), src/sheets/ (columns, merge)
 * and src/audit/ (rows, redaction); this hands them Apps Script's services.
 */

import type { CallEvent } from "../api/client";
import { plainError, plainText } from "../api/plain";
import { callAudit } from "../audit/observer";
import { redactText } from "../audit/redact";
import type { DocumentLock } from "../gas/document-lock";
import { runtime } from "../gas/runtime";
import { auditUser } from "../gas/session";
import { refreshSheets, refreshStamps, selectedRecords } from "../gas/spreadsheet";
import { keepSummaryCurrent } from "../gas/summary-sheet";
import { type Language, type StringKey, translate } from "../i18n";
import type { QuotaCheck } from "../longrun/quota";
import {
  type EngineResult,
  isRefreshCursor,
  type RefreshCursor,
  type RefreshKind,
  refreshSelection,
  runRefreshSteps,
  type Stage,
  startCursor,
} from "../refresh/engine";
import type { ListStateStore } from "../refresh/list-cursor";
import { optionsFingerprint, refreshOptionsFrom, type SheetNames, sheetNamesFrom } from "../refresh/options";
import { pausedRefreshMessage, refreshPercent, type StoredCursor, storedCursorOf } from "../refresh/paused";
import { clientReader } from "../refresh/reader";
import { deleteText, loadText, saveText } from "../refresh/stored-text";
import { parseScheduleState, SCHEDULE_STATE_KEY } from "../schedule/plan";
import { whoText } from "../sheets/headers";
import {
  auditLimits,
  auditLog,
  auditSheet,
  currentLanguage,
  entry,
  executionBudget,
  serviceClient,
  settingsStore,
  tolerate,
  withDocumentLock,
} from "./entry";
import { countUrlFetchCalls, refreshQuotaCheck, smallQuotaCheck } from "./quota";

/**
 * Where the settings live: defined once in src/settings/ (document property `settings.form`,
 * the token in user property `settings.token`); named here too for the tests that pre-store them.
 */
export { SETTINGS_KEY as SETTINGS_FORM_KEY, TOKEN_KEY } from "../settings/store";
/** Document property: a refresh started from the menu that stopped near the time limit. */
export const MENU_CURSOR_KEY = "refresh.menuCursor";

export type RefreshSource = "menu" | "sidebar" | "schedule";

/** What the user is told at the end, and what a sidebar receives (plain data only). */
export interface RefreshSummary {
  ok: boolean;
  finished: boolean;
  records: number;
  calls: number;
  seconds: number;
  refreshed: Stage[];
  message: string;
  /** How far a refresh that stopped near the time limit got (0–100); 100 when finished. */
  percent: number;
}

interface Context {
  language: Language;
  form: Record<string, string>;
  token: string;
  baseUrl: string;
  names: SheetNames;
  timeZone: string;
}

function readContext(): Context {
  const store = settingsStore();
  const form = store.fields();
  const language = currentLanguage();
  const { settings } = store.load(language);
  return {
    language,
    form,
    // The token only for the URL the requests go to: one bound to another origin (another
    // editor changed the URL) stops the refresh here, before any request, with the notice.
    token: store.token(settings.baseUrl, language),
    baseUrl: settings.baseUrl,
    names: sheetNamesFrom(form, language),
    timeZone: runtime().spreadsheet().getSpreadsheetTimeZone(),
  };
}

function today(timeZone: string): string {
  return runtime().formatDate(new Date(), timeZone, "yyyy-MM-dd");
}

function toast(message: string, title: string, seconds = 5): void {
  // No one to show it to in a trigger; the summary still goes to the caller and the audit.
  tolerate("no Ui", () => runtime().spreadsheet().toast(message, title, seconds), undefined);
}

/** Everything one execution of a refresh needs, built once. */
function session(source: RefreshSource, action: StringKey) {
  const context = readContext();
  if (!context.token) {
    throw new Error(translate(context.language, "refresh.noToken"));
  }
  const options = refreshOptionsFrom(context.form, today(context.timeZone), context.language);
  const log = auditLog(
    auditSheet({
      name: context.names.audit,
      archiveName: context.names.auditArchive,
      language: context.language,
      limits: auditLimits(context.form),
    }),
    source,
    context.token,
  );
  const audit = callAudit(log, () => translate(context.language, action));
  const client = serviceClient({
    baseUrl: context.baseUrl,
    token: context.token,
    onCall: (event: CallEvent) => audit.onCall(event),
  });
  const deps = {
    reader: clientReader(client),
    // The reads behind a sheet go to the audit once the sheet is written: a run stopped later
    // still leaves the trace of what it had done.
    sheets: refreshSheets({
      names: context.names,
      language: context.language,
      missingNote: translate(context.language, "note.missing", { date: today(context.timeZone) }),
      mode: options.missingRows,
      afterWrite: () => log.flush(),
      stamp: {
        when: runtime().formatDate(new Date(), context.timeZone, "yyyy-MM-dd HH:mm"),
        who: auditUser(source),
      },
    }),
    fingerprints: runtime().documentProperties(),
    pageSizes: runtime().userProperties(),
    listState: listState(),
    employeeNames: runtime().documentProperties(),
    namesMine: myNames(),
    options,
  };
  return { context, options, log, audit, deps };
}

/**
 * Where a list read over several executions keeps the ids merged so far: the document cache
 * (every editor continues the same refresh). A value it cannot keep, or has dropped, is found
 * missing by its check, and the list is read again from page 1.
 */
function listState(): ListStateStore | undefined {
  const cache = tolerate("checked later", () => runtime().documentCache(), null);
  if (!cache) return undefined;
  return {
    get: (key) => tolerate("checked later", () => cache.get(key), null),
    put: (key, value, seconds) => tolerate("checked later", () => cache.put(key, value, seconds), undefined),
    remove: (key) => tolerate("checked later", () => cache.remove(key), undefined),
  };
}

const ACTION_OF: Record<RefreshKind, StringKey> = {
  funds: "menu.refreshFunds",
  transactions: "menu.refreshTransactions",
  reports: "menu.refreshReports",
  all: "menu.refreshAll",
};

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

/** Another execution holds the document (a refresh, an Outbox run): nothing was done. */
function busy(started: number, lock: DocumentLock | null): RefreshSummary {
  const language = currentLanguage();
  return summary(
    false,
    true,
    0,
    0,
    started,
    [],
    lock?.busyMessage(language, "refresh.busy") ?? translate(language, "refresh.busy"),
  );
}

function refreshUnderLock(kind: RefreshKind, source: RefreshSource, started: number): RefreshSummary {
  // The document's language, so that a failure before the session (no token) speaks it too.
  let language: Language = currentLanguage();
  let built: ReturnType<typeof session> | null = null;
  try {
    built = session(source, ACTION_OF[kind]);
    language = built.context.language;
    const { deps, context, options } = built;
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
    const cursor = stored?.cursor ?? startCursor(kind);
    const budget = executionBudget(started);
    let lastToast = started;
    const audit = built.audit;
    const result: EngineResult = runRefreshSteps(
      {
        ...deps,
        onStep: (p) => {
          if (Date.now() - lastToast < 5_000) return;
          lastToast = Date.now();
          const stage = translate(language, `refresh.stage.${p.stage}` as StringKey);
          toast(translate(language, "refresh.progress", { stage, done: audit.requests() }), title);
        },
      },
      cursor,
      () => budget.shouldStop(),
    );
    // A paused refresh updates the Summary when it finishes (every stage of its kind is new then).
    const fresh = result.finished ? startCursor(kind).stages : [];
    keepSummaryCurrent(built, fresh, translate(language, ACTION_OF[kind]), source);
    // How many funds' movements the movements stage began with: the progress bar's scale.
    const fundsAtStart =
      stored?.fundsAtStart ||
      (result.cursor?.stages[0] === "transactions" ? (result.cursor.pendingFundIds?.length ?? 0) : 0);
    const percent = result.finished ? 100 : refreshPercent(kind, result.cursor, fundsAtStart);
    // The cursor may list thousands of funds still to fetch: more than one property value holds.
    if (result.finished) deleteText(documentProperties, MENU_CURSOR_KEY);
    else {
      const paused: StoredCursor = {
        fingerprint,
        kind,
        cursor: result.cursor as RefreshCursor,
        fundsAtStart,
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
    // A pause must be read: it says how to continue.
    toast(message, title, result.finished ? 10 : 30);
    // From the menu, the Refresh sidebar takes over: it continues piece by piece.
    if (!result.finished && source === "menu") openRefreshSidebar(language);
    return summary(true, result.finished, result.records, calls, started, result.refreshed, message, percent);
  } catch (err) {
    return failedRefresh(err, source, language, built, started);
  } finally {
    endRefresh(built);
  }
}

/**
 * The message that stops a refresh that would go past today's UrlFetch quota, or null; a
 * refresh that would take usage past 80% starts with a warning.
 */
function quotaRefusal(
  quota: QuotaCheck,
  language: Language,
  title: string,
  source: RefreshSource,
): string | null {
  const params = {
    estimate: quota.estimate,
    remaining: quota.remaining,
    used: quota.used,
    limit: quota.limit,
  };
  if (quota.verdict === "refuse") {
    const message = translate(language, "refresh.quotaRefused", params);
    // From the menu the alert says it (fromMenu).
    if (source !== "menu") toast(message, title, 20);
    return message;
  }
  if (quota.verdict === "warn") toast(translate(language, "refresh.quotaWarn", params), title, 10);
  return null;
}

/** Whether the document has a refresh schedule (whose runs would also finish the work). */
function hasSchedule(documentProperties: GoogleAppsScript.Properties.Properties): boolean {
  const state = parseScheduleState(documentProperties.getProperty(SCHEDULE_STATE_KEY));
  return state !== null && state.schedule.kind !== "off";
}

function parseStoredCursor(text: string | null): StoredCursor | null {
  if (!text) return null;
  return tolerate("unreadable", () => storedCursorOf(JSON.parse(text)), null);
}

function storedCursor(text: string | null, fingerprint: string): StoredCursor | null {
  const stored = parseStoredCursor(text);
  return stored && stored.fingerprint === fingerprint ? stored : null;
}

function summary(
  ok: boolean,
  finished: boolean,
  records: number,
  calls: number,
  started: number,
  refreshed: Stage[],
  message: string,
  percent = finished ? 100 : 0,
): RefreshSummary {
  return {
    ok,
    finished,
    records,
    calls,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    refreshed,
    message,
    percent,
  };
}

/** Refreshes only the funds or reports of the selected rows. Never throws. */
export function runSelectedRowsRefresh(source: RefreshSource): RefreshSummary {
  const started = Date.now();
  return withDocumentLock(
    "refresh",
    10_000,
    (lock) => busy(started, lock),
    () => selectedRowsUnderLock(source, started),
  );
}

function selectedRowsUnderLock(source: RefreshSource, started: number): RefreshSummary {
  // The document's language, so that a failure before the session (no token) speaks it too.
  let language: Language = currentLanguage();
  let built: ReturnType<typeof session> | null = null;
  try {
    built = session(source, "menu.refreshSelected");
    language = built.context.language;
    const selection = selectedRecords(built.context.names);
    if (!selection)
      return summary(false, true, 0, 0, started, [], translate(language, "refresh.selection.none"));
    if (selection.ids.length === 0) {
      return summary(false, true, 0, 0, started, [], translate(language, "refresh.selection.noIds"));
    }
    // About one call per selected record (plus the pages of a list): checked like a refresh.
    const refused = quotaRefusal(
      smallQuotaCheck(selection.ids.length + 1),
      language,
      translate(language, "refresh.title"),
      source,
    );
    if (refused) return summary(false, true, 0, 0, started, [], refused);
    const result = refreshSelection(built.deps, selection);
    keepSummaryCurrent(built, result.refreshed, translate(language, "menu.refreshSelected"), source);
    const calls = built.audit.requests();
    const message = translate(language, "refresh.summary", {
      records: result.records,
      calls,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    });
    toast(message, translate(language, "refresh.title"), 10);
    return summary(true, true, result.records, calls, started, result.refreshed, message);
  } catch (err) {
    return failedRefresh(err, source, language, built, started);
  } finally {
    endRefresh(built);
  }
}

/** The summary of a refresh that threw, shown in a toast; the token never reaches it. */
function failedRefresh(
  err: unknown,
  source: RefreshSource,
  language: Language,
  built: ReturnType<typeof session> | null,
  started: number,
): RefreshSummary {
  // The service's failures in plain words first (src/api/plain.ts); the add-on's own as they are.
  const plain = plainError(err, language, "sheets");
  const text = plain.kind
    ? plainText(plain, language)
    : translate(language, "refresh.failed", { message: plain.message });
  const message = redactText(text, built ? [built.context.token] : []);
  // From the menu the alert says it (fromMenu): the same text twice would only repeat it.
  if (source !== "menu") toast(message, translate(language, "refresh.title"), 20);
  return summary(false, true, 0, built?.audit.requests() ?? 0, started, [], message);
}

/** Ends a refresh however it went: audit rows written, calls counted (the lock then flushes the sheets). */
function endRefresh(built: ReturnType<typeof session> | null): void {
  try {
    built?.log.flush();
  } finally {
    countUrlFetchCalls(built?.audit.requests() ?? 0);
  }
}

function fromMenu(run: () => RefreshSummary): void {
  const result = run();
  if (result.ok) return;
  // A failure must be seen: an alert where there is a Ui (the toast may go unnoticed).
  // Without a Ui, the toast and the audit carry the message.
  tolerate("no Ui", () => runtime().ui().alert(result.message), undefined);
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

/** Menu: Refresh selected rows. */
export function refreshSelectedRows(): void {
  entry("menu", () => fromMenu(() => runSelectedRowsRefresh("menu")));
}

const KINDS: readonly string[] = ["funds", "transactions", "reports", "all", "selected"];

/**
 * For sidebars (google.script.run): refreshes `kind` ("funds", "transactions", "reports",
 * "all" or "selected") and returns the summary. The argument is checked: anyone who can open
 * a sidebar can call this with anything.
 */
export function refreshFromSidebar(kind: unknown): RefreshSummary {
  return entry("sidebar", () => refreshKind(kind));
}

function refreshKind(kind: unknown): RefreshSummary {
  if (typeof kind !== "string" || !KINDS.includes(kind)) {
    throw new Error(`kind: must be one of ${KINDS.join(", ")} (got ${JSON.stringify(kind)})`);
  }
  return kind === "selected"
    ? runSelectedRowsRefresh("sidebar")
    : runRefreshNow(kind as RefreshKind, "sidebar");
}

/**
 * The refresh as the scheduled run drives it (src/schedule/run.ts: RefreshEngine): runs from
 * a cursor until done or told to stop; the lock, history and continuation are the run's.
 */
export function createGasRefreshEngine(
  source: RefreshSource,
  kind: RefreshKind = "all",
): {
  run(
    cursor: unknown,
    shouldStop: () => boolean,
  ): { finished: boolean; cursor: RefreshCursor | null; records: number; refreshed: string[] };
  settingsFingerprint(): string;
  callsMade(): number;
  secret(): string | null;
} {
  const built = session(source, ACTION_OF[kind]);
  return {
    run(cursor, shouldStop) {
      try {
        const from = isRefreshCursor(cursor) ? cursor : startCursor(kind);
        const result = runRefreshSteps(built.deps, from, shouldStop);
        keepSummaryCurrent(
          built,
          result.finished ? startCursor(kind).stages : [],
          translate(built.context.language, ACTION_OF[kind]),
          source,
        );
        return result;
      } finally {
        built.log.flush();
      }
    },
    settingsFingerprint: () => `${kind}|${optionsFingerprint(built.options, built.context.names)}`,
    callsMade: () => built.audit.requests(),
    secret: () => built.context.token || null,
  };
}

/** Menu: Refresh… (the refresh sidebar). */
export function showRefreshSidebar(): void {
  entry("menu", () => openRefreshSidebar(currentLanguage()));
}

function openRefreshSidebar(language: Language): void {
  // Without a Ui (a trigger), the refresh waits for someone to continue it.
  tolerate("no Ui", () => runtime().showSidebar("refresh", translate(language, "refresh.title")), undefined);
}

/** A paused refresh is picked up by a sidebar opened this soon after it stopped (the menu opens it). */
const AUTO_CONTINUE_MS = 2 * 60_000;
/**
 * User property (followed by the spreadsheet's id): the mark of this user's own paused refresh.
 * The paused position is a document property any editor can write: only the user's own goes on.
 */
const PAUSED_BY_ME_KEY = "refresh.pausedByMe.";

/**
 * This user's mark on a position they stored in this document: the digest of its text, in their
 * own property `key` followed by the spreadsheet's id. Another editor can rewrite the position
 * (keeping its time, naming this user), not the mark.
 */
export function myPosition(key: string): { is(text: string): boolean; keep(text: string): void } {
  const name = key + runtime().spreadsheet().getId();
  const user = runtime().userProperties();
  return {
    is: (text) => user.getProperty(name) === runtime().digest(text),
    keep: (text) => user.setProperty(name, runtime().digest(text)),
  };
}

/** This user's mark on the employees' names they stored in this document (`myPosition`). */
export const myNames = () => myPosition("refresh.namesMine.");

export interface RefreshSidebarView {
  language: Language;
  /** How fresh each data sheet is: "Funds: refreshed … by …", one line each refreshed so far. */
  fresh: string[];
  /** A refresh started by hand that stopped near the time limit and can go on. */
  paused: {
    kind: RefreshKind;
    action: string;
    percent: number;
    /** It stopped moments ago (the menu opened this sidebar to continue it): go on at once. */
    continueNow: boolean;
  } | null;
}

/** What the refresh sidebar needs to draw itself, and a paused refresh it can continue. */
export function getRefreshSidebarView(): RefreshSidebarView {
  return entry("sidebar", refreshSidebarView);
}

function refreshSidebarView(): RefreshSidebarView {
  const language = currentLanguage();
  const text = tolerate("unreadable", () => loadText(runtime().documentProperties(), MENU_CURSOR_KEY), null);
  const stored = parseStoredCursor(text);
  const paused: RefreshSidebarView["paused"] = stored && {
    kind: stored.kind,
    action: translate(language, ACTION_OF[stored.kind]),
    percent: stored.percent,
    continueNow:
      Date.now() - stored.pausedAt < AUTO_CONTINUE_MS && myPosition(PAUSED_BY_ME_KEY).is(text as string),
  };
  const names = sheetNamesFrom(settingsStore().fields(), language);
  const stamps = refreshStamps();
  const fresh = (["funds", "transactions", "reports"] as const).flatMap((stage) => {
    const stamp = stamps[stage];
    return stamp
      ? [
          translate(language, "refresh.sidebar.fresh", {
            sheet: names[stage],
            ...stamp,
            who: whoText(stamp.who, language),
          }),
        ]
      : [];
  });
  return { language, fresh, paused };
}
