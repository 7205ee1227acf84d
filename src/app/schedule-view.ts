/**
 * The settings sidebar's schedule section: what it shows (schedule, history, notice, quota),
 * after re-creating a disabled trigger and moving a run the document could not record into its
 * history.
 */

import { runtime } from "../gas/runtime";
import { loadContinuation, type PropertyStore } from "../longrun/continuation";
import { parseRun } from "../schedule/history";
import { currentNotice } from "../schedule/notices";
import { savedByMe } from "../schedule/plan";
import { loadHistory, quotaForNextRefresh, saveRun } from "../schedule/run";
import { triggerTimePlan } from "../schedule/trigger-time";
import type { ScheduleSidebarView } from "../schedule/view";
import { runWords, scheduleView } from "../schedule/words";
import { currentLanguage, entry, tolerate } from "./entry";
import { ACCOUNT_KIND_KEY, plannedAccountKind, quotaPort, quotaResetTime } from "./quota";
import { ensureSchedule, UNRECORDED_RUN_KEY } from "./schedule";
import {
  currentUser,
  documentStore,
  MAIL_ON_FAILURE_KEY,
  mySaved,
  NOTICE_DISMISSED_KEY,
  readState,
  userStore,
} from "./schedule-state";

/** What the settings sidebar shows about the schedule; re-creates a disabled trigger first. */
export function getScheduleView(): ScheduleSidebarView {
  return entry("sidebar", currentScheduleView);
}

/** The schedule as the settings sidebar shows it, after re-creating a disabled trigger. */
export function currentScheduleView(): ScheduleSidebarView {
  // Showing the schedule matters more than repairing it now.
  return buildScheduleView(repairedNow());
}

export function buildScheduleView(repaired: boolean): ScheduleSidebarView {
  const spreadsheet = runtime().spreadsheet();
  const timeZone = spreadsheet.getSpreadsheetTimeZone();
  const now = Date.now();
  const store = documentStore();
  recordWaitingRun(store);
  const language = currentLanguage();
  const runs = loadHistory(store, now, runWords(language));
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

/** Whether reconciling the triggers re-created a disabled one just now. */
export function repairedNow(): boolean {
  const ensured = tolerate("tried again later", () => ensureSchedule(), null);
  return Boolean(ensured?.created && ensured.reasons.includes("disabled"));
}

/** Moves a run that could not be recorded in the document into its history. */
function recordWaitingRun(store: GoogleAppsScript.Properties.Properties): void {
  const user = userStore();
  const waiting = parseRun(user.getProperty(UNRECORDED_RUN_KEY) ?? "");
  if (waiting) saveRun(store as PropertyStore, waiting);
  if (user.getProperty(UNRECORDED_RUN_KEY) !== null) user.deleteProperty(UNRECORDED_RUN_KEY);
}

/** Minutes east of UTC of the spreadsheet's time zone at `ms` (for "daily at 9"). */
function tzOffsetMinutes(timeZone: string, ms: number): number {
  const z = runtime().formatDate(new Date(ms), timeZone, "Z"); // e.g. -0300
  const sign = z.startsWith("-") ? -1 : 1;
  return sign * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5)));
}
