/**
 * Scheduled refresh: the recurring trigger's handler, the one-off continuation handler, one
 * refresh execution with every service handed in, and the reconciliation of this user's
 * triggers with the document's schedule. Thin: the decisions live in src/schedule/ and
 * src/longrun/; this hands them Apps Script's services.
 */

import type { DocumentLock } from "../gas/document-lock";
import { sendPlainMail } from "../gas/mail";
import { runtime } from "../gas/runtime";
import { createRefreshTrigger, deleteMyTriggers, listMyTriggers } from "../gas/triggers";
import { translate } from "../i18n";
import type { PropertyStore } from "../longrun/continuation";
import type { QuotaCheck } from "../longrun/quota";
import { lastScheduledRunAt, type RunRecord, readHistory, serializeRun } from "../schedule/history";
import { planContinuationTriggers, planTriggers, savedByMe } from "../schedule/plan";
import { type RefreshEngine, type RunPorts, type RunResult, runRefresh, saveRun } from "../schedule/run";
import { failureMail, runWords } from "../schedule/words";
import { currentLanguage, entry, executionBudget, secrets, tolerate } from "./entry";
import { refreshQuotaCheck as checkRefreshQuota, quotaPort } from "./quota";
import { createGasRefreshEngine } from "./refresh-engine";
import { myPosition } from "./refresh-session";
import {
  currentUser,
  documentStore,
  MAIL_ON_FAILURE_KEY,
  mySaved,
  mySavedKey,
  readState,
  userStore,
  writeState,
} from "./schedule-state";

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

/**
 * The failure e-mail, to a user who asked for it. A run Google started without the spreadsheet
 * still sends it, naming no document and in the script's time zone.
 */
function notifyFailure(run: RunRecord): void {
  if (userStore().getProperty(MAIL_ON_FAILURE_KEY) !== "1") return;
  const language = currentLanguage();
  const spreadsheet = runtime().spreadsheet();
  const timeZone = spreadsheet ? spreadsheet.getSpreadsheetTimeZone() : runtime().scriptTimeZone();
  const document = spreadsheet
    ? { name: spreadsheet.getName(), url: spreadsheet.getUrl() }
    : { name: translate(language, "mail.failed.noDocument"), url: translate(language, "mail.failed.noUrl") };
  const mail = failureMail(language, run, document, (ms) =>
    runtime().formatDate(new Date(ms), timeZone, "yyyy-MM-dd HH:mm"),
  );
  sendPlainMail(runtime().effectiveUserEmail(), mail.subject, mail.body);
}

/** The refresh of the sheets as the run needs it, with the calls it made and the tokens to hide. */
interface GasRefreshEngine extends RefreshEngine<unknown> {
  callsMade(): number;
  secret(): readonly string[];
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
    return { run: fail, settingsFingerprint: fail, callsMade: () => 0, secret: secrets };
  }
}

/** Runs one refresh execution with every service handed in. */
export function runRefreshExecution(source: RunRecord["source"], startedAt: number): RunResult {
  const engine = gasRefreshEngine(source);
  const documentLock = runtime().documentLock("refresh") as DocumentLock;
  const ports: RunPorts<unknown> = {
    words: runWords(currentLanguage()),
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
  // Never silent: the e-mail goes out as for any failed run, to a user who asked for it.
  if (problem !== "run.message.notSaved") tolerate("shown only", () => notifyFailure(run), undefined);
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

/**
 * For a refresh started by hand: whether it fits in what is left of today's UrlFetch quota
 * ("ok", "warn" above 80%, "refuse" past it), estimated from the last complete refresh.
 */
export function refreshQuotaCheck(): QuotaCheck {
  return checkRefreshQuota(currentLanguage());
}
