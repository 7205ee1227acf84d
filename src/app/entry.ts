/**
 * What every entry point shares, once: the language (one rule), the settings store, the
 * client and the audit log over Apps Script's services, the execution budget, the document
 * lock, and the one error boundary. Each src/app/<area>.ts goes through `entry`.
 */

import { tolerate, withCause } from "../api/errors";
import { plainError, plainText } from "../api/plain";
import { AUDIT_LIMITS, type AuditLog, type AuditSink, type AuditSource, createAuditLog } from "../audit/log";
import { redactText } from "../audit/redact";
import { FIRST_COMPANY_KEY } from "../company/model";
import { auditSheetSink } from "../gas/audit-sheet";
import type { DocumentActivity, DocumentLock } from "../gas/document-lock";
import { documentSettingsStore } from "../gas/properties";
import { runtime } from "../gas/runtime";
import { auditUser } from "../gas/session";
import { type Language, languageForLocale } from "../i18n";
import { createTimeBudget, EXECUTION_LIMIT_MS, type TimeBudget } from "../longrun/budget";
import { type CompanyEntry, companyByKey } from "../settings/companies";
import type { SettingsStore } from "../settings/store";
import { auditMaxRows } from "../settings/tuning";

/** The one place a failure is swallowed, with its reason (src/api/errors.ts). */
export { type Tolerated, tolerate } from "../api/errors";

/** Where a call came from: a menu item, a sidebar (google.script.run), or a trigger. */
export type Origin = "menu" | "sidebar" | "trigger";

/**
 * Document property: the execution time limit in ms, when lower than Google's 6 minutes (a
 * test deployment with a shorter budget). Never raises it.
 */
export const EXECUTION_LIMIT_KEY = "longrun.executionLimitMs";

/** The active user's locale; "en" where it may not be read (AuthMode.NONE, some triggers). */
export function userLocale(): string {
  return tolerate("shown only", () => runtime().userLocale(), "en");
}

/**
 * The one language rule: the language the document's settings choose, else the user's
 * locale; when the settings cannot be read, the locale decides.
 */
export function currentLanguage(): Language {
  const chosen = tolerate(
    "unreadable",
    () => settingsStore().text().language as string | undefined,
    undefined,
  );
  return chosen === "en" || chosen === "es" ? chosen : languageForLocale(userLocale());
}

let store: SettingsStore | null = null;

/** The document's settings with the current user's token (src/settings/), built once. */
export function settingsStore(): SettingsStore {
  if (!store) store = documentSettingsStore();
  return store;
}

/**
 * The document's first company (c0), named in the audit of paths whose requests still go to it
 * alone (the settings' service URL with the user's token).
 */
export function firstCompany(): CompanyEntry | null {
  return companyByKey(settingsStore().companies(), FIRST_COMPANY_KEY) ?? null;
}

/** Google's 6 minutes, or less when the document asks for less (EXECUTION_LIMIT_KEY). */
export function executionLimitMs(): number {
  const asked = Number(runtime().documentProperties().getProperty(EXECUTION_LIMIT_KEY));
  return asked > 0 && asked < EXECUTION_LIMIT_MS ? asked : EXECUTION_LIMIT_MS;
}

/** The time left to an execution that started at `startedAt`. */
export function executionBudget(startedAt: number): TimeBudget {
  return createTimeBudget({ clock: { now: () => Date.now() }, startedAt, limitMs: executionLimitMs() });
}

/**
 * Runs `body` holding the document lock (one execution per document at a time), waiting at
 * most `waitMs` for it, noted as `activity`; `busy(lock)` answers when another execution keeps it
 * (`lock.busyMessage` names that run). Pending sheet writes
 * are flushed before the lock is released.
 */
export function withDocumentLock<T>(
  activity: DocumentActivity,
  waitMs: number,
  busy: (lock: DocumentLock | null) => T,
  body: () => T,
): T {
  const lock = runtime().documentLock(activity);
  // Already held by this execution (the one Lock object): taken once, released by its taker.
  if (lock?.hasLock()) return body();
  if (!lock?.tryLock(waitMs)) return busy(lock);
  try {
    return body();
  } finally {
    try {
      runtime().flush();
    } finally {
      lock.releaseLock();
    }
  }
}

/**
 * The audit's bounds: AUDIT_LIMITS unless the settings set `auditMaxRows` (the archive then
 * keeps four times as many).
 */
export function auditLimits(form: Partial<Record<string, string | undefined>>): {
  maxRows: number;
  maxArchiveRows: number;
} {
  const asked = auditMaxRows(form);
  return asked === null ? AUDIT_LIMITS : { maxRows: asked, maxArchiveRows: asked * 4 };
}

/** The audit sheet of this document as a sink (src/gas/audit-sheet.ts). */
export function auditSheet(options: Parameters<typeof auditSheetSink>[0]): AuditSink {
  return auditSheetSink(options);
}

/**
 * The audit log of this execution: who runs it, from where, the secrets it must hide (every
 * token of the user, `secrets()`, and any being tried), and whether its reads are summed up
 * (the document's setting).
 */
export function auditLog(
  sink: AuditSink,
  source: AuditSource,
  tokens: readonly string[] = secrets(),
): AuditLog {
  return createAuditLog(sink, {
    user: auditUser(source),
    source,
    secrets: tokens.filter((t) => t !== ""),
    now: () => new Date(),
    reads: tolerate("unreadable", () => settingsStore().load().settings.auditReads, "summed"),
    language: currentLanguage(),
  });
}

/** The text of a thrown value. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message || err.name : String(err);
}

/**
 * Every token the current user has saved (each company's), to hide from what is shown and
 * logged; none when they cannot be read.
 */
export function secrets(): string[] {
  return tolerate("unreadable", () => settingsStore().allTokens(), []);
}

/**
 * The one error boundary of an entry point. What `body` throws is redacted (the user's token,
 * any Bearer credential) and logged; a failure of the service is told in plain words first,
 * its technical text after them (src/api/plain.ts). Then shown according to `origin`: from a
 * menu in an alert (there the user waits for an answer), from a sidebar or a trigger thrown
 * again, redacted, for google.script.run's failure handler or the execution log. An error
 * shown as it was is thrown as it is; a reworded one keeps it as `cause` unless it needed
 * redaction (a redacted one never carries its original).
 */
export function entry<T>(origin: Origin, body: () => T): T {
  try {
    return body();
  } catch (err) {
    const original = errorText(err);
    const hidden = secrets();
    console.error(redactText(original, hidden));
    // Shown: the plain sentence first, the technical text after it (src/api/plain.ts).
    const language = currentLanguage();
    const plain = plainText(plainError(err, language), language);
    const message = redactText(plain, hidden);
    if (origin === "menu") {
      try {
        runtime().ui().alert(message);
        return undefined as T;
      } catch (_noUi) {
        // No Ui after all (a trigger ran a menu function): thrown like a trigger's failure.
      }
    }
    if (message === original) throw err;
    throw redactText(original, hidden) === original ? withCause(new Error(message), err) : new Error(message);
  }
}
