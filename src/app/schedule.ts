/**
 * Scheduled refresh entry points: the recurring trigger's handler, the one-off continuation
 * handler, and what the settings sidebar calls to show and change the schedule. Thin: the
 * decisions live in src/schedule/ and src/longrun/; this hands them Apps Script's services.
 */

import { ownData, ownRecord } from "../api/arguments";
import type { DocumentLock } from "../gas/document-lock";
import { sendPlainMail } from "../gas/mail";
import { runtime } from "../gas/runtime";
import { createRefreshTrigger, deleteMyTriggers, listMyTriggers } from "../gas/triggers";
import { translate } from "../i18n";
import { loadContinuation, type PropertyStore } from "../longrun/continuation";
import type { QuotaCheck } from "../longrun/quota";
import {
  lastScheduledRunAt,
  parseRun,
  type RunRecord,
  readHistory,
  serializeRun,
  settleAbandonedRuns,
} from "../schedule/history";
import { currentNotice, type Notice } from "../schedule/notices";
import {
  chooseSchedule,
  MY_SCHEDULE_KEY,
  parseSchedule,
  parseScheduleState,
  planContinuationTriggers,
  planTriggers,
  SCHEDULE_STATE_KEY,
  type ScheduleState,
  savedByMe,
  scheduleKey,
} from "../schedule/plan";
import {
  loadHistory,
  quotaForNextRefresh,
  type RefreshEngine,
  type RunPorts,
  type RunResult,
  runRefresh,
  saveRun,
} from "../schedule/run";
import { triggerTimePlan } from "../schedule/trigger-time";
import { failureMail, type ScheduleSidebarView, scheduleView } from "../schedule/view";
import { FAILURE_EMAIL_KEY } from "../settings/store";
import { currentLanguage, entry, executionBudget, tolerate } from "./entry";
import type { MenuItem } from "./menu";
import {
  ACCOUNT_KIND_KEY,
  refreshQuotaCheck as checkRefreshQuota,
  plannedAccountKind,
  quotaPort,
  quotaResetTime,
} from "./quota";
import { createGasRefreshEngine, myPosition } from "./refresh";

/** Document property: id of the failed run whose notice someone dismissed. */
export const NOTICE_DISMISSED_KEY = "schedule.noticeDismissed";
/** User property: a random id of this user, stable across documents and months. */
export const USER_ID_KEY = "schedule.userId";
/** User property: "1" when this user wants an e-mail when their scheduled run fails. */
export const MAIL_ON_FAILURE_KEY = FAILURE_EMAIL_KEY;

function documentStore(): GoogleAppsScript.Properties.Properties {
  return runtime().documentProperties();
}

function userStore(): GoogleAppsScript.Properties.Properties {
  return runtime().userProperties();
}

/** The current user: a stable private key (kept in their own user properties) and a label. */
export function currentUser(): { key: string; label: string } {
  const store = userStore();
  let key = store.getProperty(USER_ID_KEY);
  if (!key) {
    key = runtime().uuid();
    store.setProperty(USER_ID_KEY, key);
  }
  const email = tolerate(
    "shown only",
    () => runtime().activeUserEmail() || runtime().effectiveUserEmail(),
    "",
  );
  return { key, label: email || `user ${key.slice(0, 8)}` };
}

function readState(): ScheduleState | null {
  return parseScheduleState(documentStore().getProperty(SCHEDULE_STATE_KEY));
}

/** This user's own record of the schedule they saved in this document (`MY_SCHEDULE_KEY`). */
function mySavedKey(): string {
  return MY_SCHEDULE_KEY + runtime().spreadsheet().getId();
}

function mySaved(): string | null {
  return userStore().getProperty(mySavedKey());
}

function writeState(state: ScheduleState): void {
  documentStore().setProperty(SCHEDULE_STATE_KEY, JSON.stringify(state));
}

/** Minutes east of UTC of the spreadsheet's time zone at `ms` (for "daily at 9"). */
function tzOffsetMinutes(timeZone: string, ms: number): number {
  const z = runtime().formatDate(new Date(ms), timeZone, "Z"); // e.g. -0300
  const sign = z.startsWith("-") ? -1 : 1;
  return sign * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5)));
}

export interface EnsureResult {
  removed: number;
  created: boolean;
  reasons: string[];
}

/**
 * Reconciles this user's refresh triggers with the document's schedule: the owner ends with
 * exactly one, anyone else with none; a duplicate is removed, a disabled one re-created. Runs
 * under the user lock so that two clicks of the same user cannot create two triggers.
 * `firingNow` when called from the recurring trigger itself.
 */
export function ensureSchedule(firingNow = false): EnsureResult {
  const lock = runtime().userLock();
  if (!lock.tryLock(10_000)) return { removed: 0, created: false, reasons: [] };
  try {
    const spreadsheet = runtime().spreadsheet();
    const state = readState();
    const now = Date.now();
    const runs = readHistory(documentStore().getProperties()).runs;
    const mine = listMyTriggers(spreadsheet);
    const me = currentUser().key;
    // Someone else's schedule now: what this user saved here no longer stands, even if the
    // document's state is later written back to name them.
    if (state?.ownerKey !== me && mySaved() !== null) userStore().deleteProperty(mySavedKey());
    const plan = planTriggers({
      state,
      me,
      mySaved: mySaved(),
      mine,
      // The recurring trigger firing right now is proof that it is not disabled.
      lastScheduledRunAt: firingNow ? now : lastScheduledRunAt(runs),
      nowMs: now,
    });
    let removed = deleteMyTriggers(spreadsheet, plan.remove);
    let created = false;
    if (plan.create && state) {
      // An add-on may hold one time-driven trigger per user per document: a pending one-off
      // continuation gives way, and the scheduled run continues that refresh instead.
      removed += deleteMyTriggers(spreadsheet, planContinuationTriggers(mine, null));
      const uid = createRefreshTrigger(plan.create, spreadsheet.getSpreadsheetTimeZone());
      writeState({ ...state, triggerUid: uid, installedAt: now });
      created = true;
    }
    return { removed, created, reasons: plan.reasons };
  } finally {
    lock.releaseLock();
  }
}

/**
 * A refresh stopped near the time limit is never continued by an extra trigger: an add-on's
 * clock triggers run at most once an hour (a one-off `after(ms)` included) and it may hold one
 * per user per document, the schedule's. The next scheduled run continues it; a refresh started
 * by hand continues from the Refresh sidebar. Old one-off triggers are tidied away.
 */
function scheduleFollowUp(_delayMs: number): boolean {
  const spreadsheet = runtime().spreadsheet();
  if (spreadsheet) deleteMyTriggers(spreadsheet, planContinuationTriggers(listMyTriggers(spreadsheet), null));
  return false;
}

function notifyFailure(run: RunRecord): void {
  if (userStore().getProperty(MAIL_ON_FAILURE_KEY) !== "1") return;
  const spreadsheet = runtime().spreadsheet();
  const timeZone = spreadsheet.getSpreadsheetTimeZone();
  const mail = failureMail(
    currentLanguage(),
    run,
    { name: spreadsheet.getName(), url: spreadsheet.getUrl() },
    (ms) => runtime().formatDate(new Date(ms), timeZone, "yyyy-MM-dd HH:mm"),
  );
  sendPlainMail(runtime().effectiveUserEmail(), mail.subject, mail.body);
}

/** The refresh of the sheets as the run needs it, with the calls it made and the token to hide. */
interface GasRefreshEngine extends RefreshEngine<unknown> {
  callsMade(): number;
  secret(): string | null;
}

/**
 * The refresh of every sheet. When it cannot even be set up (no token saved for this user,
 * settings that break a rule), the run still happens so that the failure is recorded, shown
 * and e-mailed instead of vanishing with the trigger's execution.
 */
function gasRefreshEngine(source: RunRecord["source"]): GasRefreshEngine {
  try {
    // The audit's "from where": unattended executions are the schedule's.
    return createGasRefreshEngine(source === "menu" || source === "sidebar" ? source : "schedule", "all");
  } catch (err) {
    const fail = (): never => {
      throw err;
    };
    return { run: fail, settingsFingerprint: fail, callsMade: () => 0, secret: () => null };
  }
}

/** Runs one refresh execution with every service handed in. */
export function runRefreshExecution(source: RunRecord["source"], startedAt: number): RunResult {
  const engine = gasRefreshEngine(source);
  const documentLock = runtime().documentLock("refresh") as DocumentLock;
  const ports: RunPorts<unknown> = {
    language: currentLanguage(),
    now: () => Date.now(),
    newId: () => runtime().uuid(),
    me: currentUser(),
    lock: {
      tryLock: (ms) => documentLock.tryLock(ms),
      release: () => {
        runtime().flush();
        documentLock.releaseLock();
      },
      holder: () => documentLock.holder(),
    },
    documentStore: documentStore(),
    quota: quotaPort(),
    callsMade: () => engine.callsMade(),
    refresh: engine,
    budget: executionBudget(startedAt),
    scheduleFollowUp,
    notifyFailure,
    secret: () => engine.secret(),
    mine: myPosition("longrun.mine."),
  };
  return runRefresh(source, ports);
}

/**
 * User property: a scheduled run that could not be written to the document's history (Google
 * gave the trigger no document properties); moved there when the settings are next opened.
 */
export const UNRECORDED_RUN_KEY = "schedule.unrecordedRun";

/**
 * What a time trigger may lack on Google: the active spreadsheet, the document's properties, the
 * document lock. Each gives a history entry with its reason instead of a TypeError.
 */
function triggerContextProblem():
  | "run.message.noSpreadsheet"
  | "run.message.noDocumentProperties"
  | "run.message.noDocumentLock"
  | null {
  if (!runtime().spreadsheet()) return "run.message.noSpreadsheet";
  if (!runtime().documentProperties()) return "run.message.noDocumentProperties";
  if (!runtime().documentLock("refresh")) return "run.message.noDocumentLock";
  return null;
}

function recordTriggerProblem(
  problem: NonNullable<ReturnType<typeof triggerContextProblem>> | "run.message.notSaved",
  startedAt: number,
): void {
  const run: RunRecord = {
    id: runtime().uuid(),
    source: "schedule",
    user: currentUser().label,
    startedAt,
    endedAt: Date.now(),
    refreshed: [],
    records: 0,
    calls: 0,
    outcome: "failed",
    message: translate(currentLanguage(), problem),
  };
  const document = runtime().documentProperties();
  if (document) saveRun(document as PropertyStore, run);
  else userStore().setProperty(UNRECORDED_RUN_KEY, serializeRun(run));
}

/** Moves a run that could not be recorded in the document into its history. */
function recordWaitingRun(store: GoogleAppsScript.Properties.Properties): void {
  const user = userStore();
  const waiting = parseRun(user.getProperty(UNRECORDED_RUN_KEY) ?? "");
  if (waiting) saveRun(store as PropertyStore, waiting);
  if (user.getProperty(UNRECORDED_RUN_KEY) !== null) user.deleteProperty(UNRECORDED_RUN_KEY);
}

/** Handler of the recurring refresh trigger (no Ui here: triggers have none). */
export function runScheduledRefresh(e?: GoogleAppsScript.Events.TimeDriven): void {
  entry("trigger", () => scheduledRefresh(e));
}

function scheduledRefresh(e?: GoogleAppsScript.Events.TimeDriven): void {
  const startedAt = Date.now();
  const problem = triggerContextProblem();
  if (problem) {
    recordTriggerProblem(problem, startedAt);
    return;
  }
  const state = readState();
  const me = currentUser();
  const uid = e?.triggerUid;
  const stale =
    !state ||
    state.schedule.kind === "off" ||
    state.ownerKey !== me.key ||
    (uid !== undefined && state.triggerUid !== null && uid !== state.triggerUid);
  if (stale) {
    // A trigger the document no longer counts on (replaced, another user's schedule now, or a
    // duplicate): remove it instead of refreshing twice.
    if (uid) deleteMyTriggers(runtime().spreadsheet(), [uid]);
    ensureSchedule();
    return;
  }
  // The state names this user, but they did not save this schedule here (another editor wrote
  // it): their token is not used for it, and the history says why.
  if (!savedByMe(state, me.key, mySaved())) {
    recordTriggerProblem("run.message.notSaved", startedAt);
    return;
  }
  // Tidying triggers must not cost the refresh.
  tolerate("tried again later", () => ensureSchedule(true), null);
  runRefreshExecution("schedule", startedAt);
}

/** Handler of the one-off trigger that continues a refresh stopped near the time limit. */
export function continueRefresh(e?: GoogleAppsScript.Events.TimeDriven): void {
  entry("trigger", () => continuation(e));
}

function continuation(e?: GoogleAppsScript.Events.TimeDriven): void {
  const startedAt = Date.now();
  const problem = triggerContextProblem();
  if (problem) {
    recordTriggerProblem(problem, startedAt);
    return;
  }
  // One-off triggers stay listed (and count against the 20 allowed) until deleted.
  if (e?.triggerUid) deleteMyTriggers(runtime().spreadsheet(), [e.triggerUid]);
  runRefreshExecution("continuation", startedAt);
}

/** Whether reconciling the triggers re-created a disabled one just now. */
function repairedNow(): boolean {
  const ensured = tolerate("tried again later", () => ensureSchedule(), null);
  return Boolean(ensured?.created && ensured.reasons.includes("disabled"));
}

/** The notice of the document, if any (read-only: safe in onOpen's LIMITED mode). */
export function currentScheduleNotice(): Notice | null {
  const props = documentStore().getProperties();
  const now = Date.now();
  const view = readHistory(props);
  const settled = new Map(settleAbandonedRuns(view.runs, now).map((r) => [r.id, r]));
  const runs = view.runs.map((r) => settled.get(r.id) ?? r);
  return currentNotice(runs, readState(), now, props[NOTICE_DISMISSED_KEY] ?? null);
}

/**
 * Menu items that carry the schedule's notice, for onOpen outside AuthMode.NONE. Any error
 * reading the document leaves the menu as it is: the menu must always appear.
 */
export function scheduleNoticeMenuItems(): MenuItem[] {
  return tolerate("shown only", (): MenuItem[] => {
    const notice = currentScheduleNotice();
    if (!notice) return [];
    const label = notice.kind === "failed" ? "menu.notice.failed" : "menu.notice.stalled";
    return [{ label, functionName: "showSettingsSidebar" }];
  }, []);
}

/**
 * On opening the spreadsheet (outside AuthMode.NONE): a failed scheduled run also pops up in
 * the corner, besides its menu item, so that nobody works on stale data without knowing it.
 */
export function toastScheduleNotice(): void {
  tolerate(
    "shown only",
    () => {
      if (currentScheduleNotice()?.kind !== "failed") return;
      const language = currentLanguage();
      runtime()
        .spreadsheet()
        .toast(translate(language, "notice.toast.failed"), translate(language, "menu.notice.failed"), 15);
    },
    undefined,
  );
}

/** What the settings sidebar shows about the schedule; re-creates a disabled trigger first. */
export function getScheduleView(): ScheduleSidebarView {
  return entry("sidebar", currentScheduleView);
}

/** The schedule as the settings sidebar shows it, after re-creating a disabled trigger. */
export function currentScheduleView(): ScheduleSidebarView {
  // Showing the schedule matters more than repairing it now.
  return buildScheduleView(repairedNow());
}

function buildScheduleView(repaired: boolean): ScheduleSidebarView {
  const spreadsheet = runtime().spreadsheet();
  const timeZone = spreadsheet.getSpreadsheetTimeZone();
  const now = Date.now();
  const store = documentStore();
  recordWaitingRun(store);
  const language = currentLanguage();
  const runs = loadHistory(store, now, language);
  const state = readState();
  const notice = currentNotice(runs, state, now, store.getProperty(NOTICE_DISMISSED_KEY));
  const me = currentUser();
  const quota = quotaPort();
  const user = userStore();
  const kind = user.getProperty(ACCOUNT_KIND_KEY);
  const resetsAt = quotaResetTime();
  return {
    ...scheduleView({
      language,
      state,
      // "Mine" only for the schedule this user saved: one another editor wrote naming them
      // does not run, and the sidebar shows it as someone else's, to be saved to run.
      me: savedByMe(state, me.key, mySaved()) ? me.key : "",
      runs,
      notice,
      nowMs: now,
      tzOffsetMinutes: tzOffsetMinutes(timeZone, now),
      formatTime: (ms) => runtime().formatDate(new Date(ms), timeZone, "yyyy-MM-dd HH:mm"),
    }),
    mailOnFailure: user.getProperty(MAIL_ON_FAILURE_KEY) === "1",
    quota: quotaForNextRefresh(runs, quota, loadContinuation(store as PropertyStore)),
    accountKind: kind === "consumer" || kind === "workspace" ? kind : "auto",
    accountKindSource: plannedAccountKind().source,
    triggerTime: triggerTimePlan(runs, plannedAccountKind().kind),
    quotaResetsText:
      resetsAt === null ? "" : runtime().formatDate(new Date(resetsAt), timeZone, "yyyy-MM-dd HH:mm"),
    repaired,
  };
}

/**
 * Installs, changes or removes the document's schedule (`{kind:"off"}` removes it). The user
 * who saves becomes its owner: their trigger runs it with their token.
 */
export function saveSchedule(input: unknown): ScheduleSidebarView {
  return entry("sidebar", () => changeSchedule(input));
}

function changeSchedule(input: unknown): ScheduleSidebarView {
  const schedule = parseSchedule(ownData(input));
  const me = currentUser();
  const before = documentStore().getProperty(SCHEDULE_STATE_KEY);
  const savedBefore = mySaved();
  // This user's own word for what their trigger may run here (see savedByMe).
  const keep = (key: string, value: string | null) =>
    value === null ? userStore().deleteProperty(key) : userStore().setProperty(key, value);
  keep(mySavedKey(), schedule.kind === "off" ? null : scheduleKey(schedule));
  writeState(chooseSchedule(schedule, me, Date.now()));
  try {
    ensureSchedule();
  } catch (err) {
    // The schedule is only saved with its trigger: put the previous one back, and say why.
    if (before === null) documentStore().deleteProperty(SCHEDULE_STATE_KEY);
    else documentStore().setProperty(SCHEDULE_STATE_KEY, before);
    keep(mySavedKey(), savedBefore);
    const message = err instanceof Error ? err.message : String(err);
    if (/too many triggers/i.test(message))
      throw new Error(translate(currentLanguage(), "schedule.tooManyTriggers"));
    throw err;
  }
  return buildScheduleView(false);
}

/** Saves this user's own preferences: failure e-mail and account kind (quota). */
export function saveSchedulePreferences(input: unknown): ScheduleSidebarView {
  return entry("sidebar", () => savePreferences(input));
}

function savePreferences(input: unknown): ScheduleSidebarView {
  const value = ownRecord(input);
  if (value === null) throw new Error("preferences: must be an object");
  const user = userStore();
  if ("mailOnFailure" in value) {
    if (typeof value["mailOnFailure"] !== "boolean") throw new Error("mailOnFailure: must be true or false");
    user.setProperty(MAIL_ON_FAILURE_KEY, value["mailOnFailure"] ? "1" : "0");
  }
  if ("accountKind" in value) {
    const kind = value["accountKind"];
    if (kind !== "auto" && kind !== "consumer" && kind !== "workspace") {
      throw new Error('accountKind: must be "auto", "consumer" or "workspace"');
    }
    user.setProperty(ACCOUNT_KIND_KEY, kind);
  }
  return buildScheduleView(false);
}

/** Hides the notice of a failed run for everyone (a later failure shows again). */
export function dismissScheduleNotice(runId: unknown): ScheduleSidebarView {
  return entry("sidebar", () => dismissNotice(runId));
}

function dismissNotice(runId: unknown): ScheduleSidebarView {
  if (typeof runId !== "string" || runId.length === 0 || runId.length > 100) {
    throw new Error("runId: must be the id of a run");
  }
  documentStore().setProperty(NOTICE_DISMISSED_KEY, runId);
  return buildScheduleView(false);
}

/**
 * "Refresh now" in the settings sidebar: one execution of the same refresh the schedule runs,
 * recorded in the history; near the time limit it stops and a follow-up execution continues
 * it. Returns the schedule view with the new run on top.
 */
export function runRefreshFromSettings(): ScheduleSidebarView {
  return entry("sidebar", refreshFromSettings);
}

function refreshFromSettings(): ScheduleSidebarView {
  const startedAt = Date.now();
  const result = runRefreshExecution("sidebar", startedAt);
  // A run is one of the moments a disabled schedule trigger is noticed and re-created.
  return { ...buildScheduleView(repairedNow()), continues: result.outcome === "continued" };
}

/**
 * For a refresh started by hand: whether it fits in what is left of today's UrlFetch quota
 * ("ok", "warn" above 80%, "refuse" past it), estimated from the last complete refresh.
 */
export function refreshQuotaCheck(): QuotaCheck {
  return checkRefreshQuota(currentLanguage());
}
