/**
 * The document lock, taken for a named activity, so that a run refused the lock can say which
 * run holds the spreadsheet. Executions overlap on Google: a scheduled refresh, an Outbox run
 * and a deposit from the Fund sidebar each wait for the others, and the one that gives up must
 * not blame the wrong one. The holder's activity is noted in the document cache (expiring after
 * the longest execution, in case a run is killed before it lets go).
 */
import { tolerate } from "../api/errors";
import { type Language, type StringKey, translate } from "../i18n";

export type DocumentActivity = "outbox" | "refresh" | "form";

const ACTIVITY_KEY = "documentLock.activity";
/** Seconds: a little more than the longest execution (6 minutes). */
const NOTE_SECONDS = 400;

const BUSY: Record<DocumentActivity, StringKey> = {
  outbox: "outbox.run.busy",
  refresh: "busy.refresh",
  form: "busy.form",
};

export interface DocumentLock extends GoogleAppsScript.Lock.Lock {
  /** What the run holding the lock is doing, when it said so. */
  holder(): DocumentActivity | null;
  /** Why the lock could not be had, naming the run that holds it (`fallback` when unknown). */
  busyMessage(language: Language, fallback: StringKey): string;
}

function activityCache(): GoogleAppsScript.Cache.Cache | null {
  // Without a document cache a refusal keeps its general message.
  return tolerate("shown only", () => CacheService.getDocumentCache(), null);
}

function holder(): DocumentActivity | null {
  const noted = activityCache()?.get(ACTIVITY_KEY);
  return noted === "outbox" || noted === "refresh" || noted === "form" ? noted : null;
}

/**
 * The execution's document lock, noted as held for `activity` when it is taken (null: not
 * noted, for a moment's hold such as an audit append), or null where there is none (outside a
 * document). `lock` is the one Lock object of the execution (runtime().documentLock): Google
 * documents `hasLock` per Lock object only, so a second `getDocumentLock()` object in the same
 * execution might not see the first one's hold (docs/real-apps-script.md).
 */
export function documentLockFor(
  lock: GoogleAppsScript.Lock.Lock | null,
  activity: DocumentActivity | null,
): DocumentLock | null {
  if (!lock) return null;
  const taken = (got: boolean): boolean => {
    if (got && activity) activityCache()?.put(ACTIVITY_KEY, activity, NOTE_SECONDS);
    return got;
  };
  return {
    tryLock: (ms) => taken(lock.tryLock(ms)),
    waitLock: (ms) => {
      lock.waitLock(ms);
      taken(true);
    },
    hasLock: () => lock.hasLock(),
    releaseLock: () => {
      if (lock.hasLock()) activityCache()?.remove(ACTIVITY_KEY);
      lock.releaseLock();
    },
    holder,
    busyMessage: (language, fallback) => {
      const activity = holder();
      return translate(language, activity ? BUSY[activity] : fallback);
    },
  };
}
