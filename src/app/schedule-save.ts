/**
 * The settings sidebar's schedule changes: the schedule itself (with its trigger, or not at
 * all), this user's own preferences, and dismissing a failed run's notice.
 */

import { ownData, ownRecord } from "../api/arguments";
import { translate } from "../i18n";
import { chooseSchedule, parseSchedule, SCHEDULE_STATE_KEY, scheduleKey } from "../schedule/plan";
import type { ScheduleSidebarView } from "../schedule/view";
import { currentLanguage, entry } from "./entry";
import { ACCOUNT_KIND_KEY } from "./quota";
import { ensureSchedule } from "./schedule";
import {
  currentUser,
  documentStore,
  MAIL_ON_FAILURE_KEY,
  mySaved,
  mySavedKey,
  NOTICE_DISMISSED_KEY,
  userStore,
  writeState,
} from "./schedule-state";
import { buildScheduleView } from "./schedule-view";

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
