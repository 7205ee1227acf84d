/**
 * The document's refresh schedule and this user's part in it: where they are kept (document and
 * user properties), who the current user is, and the schedule this user saved here.
 */

import { runtime } from "../gas/runtime";
import {
  MY_SCHEDULE_KEY,
  parseScheduleState,
  SCHEDULE_STATE_KEY,
  type ScheduleState,
} from "../schedule/plan";
import { FAILURE_EMAIL_KEY } from "../settings/store";
import { tolerate } from "./entry";

/** Document property: id of the failed run whose notice someone dismissed. */
export const NOTICE_DISMISSED_KEY = "schedule.noticeDismissed";
/** User property: a random id of this user, stable across documents and months. */
export const USER_ID_KEY = "schedule.userId";
/** User property: "1" when this user wants an e-mail when their scheduled run fails. */
export const MAIL_ON_FAILURE_KEY = FAILURE_EMAIL_KEY;

export function documentStore(): GoogleAppsScript.Properties.Properties {
  return runtime().documentProperties();
}

export function userStore(): GoogleAppsScript.Properties.Properties {
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

export function readState(): ScheduleState | null {
  return parseScheduleState(documentStore().getProperty(SCHEDULE_STATE_KEY));
}

/** This user's own record of the schedule they saved in this document (`MY_SCHEDULE_KEY`). */
export function mySavedKey(): string {
  return MY_SCHEDULE_KEY + runtime().spreadsheet().getId();
}

export function mySaved(): string | null {
  return userStore().getProperty(mySavedKey());
}

export function writeState(state: ScheduleState): void {
  documentStore().setProperty(SCHEDULE_STATE_KEY, JSON.stringify(state));
}
