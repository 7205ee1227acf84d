/**
 * Connection sidebar: service URL, the user's own access token (write-only), IdAdmin, and a
 * connection test. Thin: the work is in src/settings/connection.ts. Every function here can be
 * called by anyone who can open the sidebar, with any arguments: the core checks them.
 */

import { ownData } from "../api/arguments";
import type { AuditLog } from "../audit/log";
import { type CallAudit, callAudit } from "../audit/observer";
import { lazyAuditSink } from "../gas/outbox-sheet";
import { runtime } from "../gas/runtime";
import { translate } from "../i18n";
import { sheetNamesFrom } from "../refresh/options";
import {
  type ConnectionTestResult,
  type ConnectionView,
  connectionView,
  testConnection as runConnectionTest,
  type SaveConnectionResult,
  saveConnection,
} from "../settings";
import { auditLimits, auditLog, currentLanguage, entry, serviceClient, settingsStore } from "./entry";
import { countUrlFetchCalls } from "./quota";

/** Opens the connection sidebar. */
export function showConnectionSidebar(): void {
  entry("menu", () => runtime().showSidebar("connection", translate(currentLanguage(), "connection.title")));
}

/** What the sidebar shows: the URL and IdAdmin of the document, whether this user has a token. */
export function getConnectionSettings(): ConnectionView {
  return entry("sidebar", () => connectionView(settingsStore(), currentLanguage()));
}

/** Saves what the sidebar sent, or nothing when a field breaks a rule (the problems come back). */
export function saveConnectionSettings(input: unknown): SaveConnectionResult {
  return entry("sidebar", () => saveConnection(settingsStore(), ownData(input), currentLanguage()));
}

/**
 * One small call with the saved settings, or with the URL and token being typed when the
 * sidebar sends them, and a plain explanation of the outcome.
 */
export function testConnection(input?: unknown): ConnectionTestResult {
  return entry("sidebar", () => connectionTest(input));
}

/**
 * The connection test, for this sidebar and the settings sidebar's. Its calls are counted in today's
 * UrlFetch quota and audited like any other (the token being tried is hidden from the audit).
 */
export function connectionTest(input?: unknown): ConnectionTestResult {
  const language = currentLanguage();
  let audit: CallAudit | null = null;
  let log: AuditLog | null = null;
  try {
    return runConnectionTest(
      {
        store: settingsStore(),
        createClient: (baseUrl, token) => {
          const form = settingsStore().fields();
          const names = sheetNamesFrom(form, language);
          const opened = auditLog(
            lazyAuditSink(runtime().spreadsheet(), {
              name: names.audit,
              archiveName: names.auditArchive,
              language,
              limits: auditLimits(form),
            }),
            "sidebar",
            token,
          );
          const calls = callAudit(opened, () => translate(language, "connection.test"));
          log = opened;
          audit = calls;
          return serviceClient({
            baseUrl,
            token,
            // A test answers quickly; retrying would only hide the problem for longer.
            retry: { maxAttempts: 1 },
            onCall: (event) => calls.onCall(event),
          });
        },
      },
      ownData(input),
      language,
    );
  } finally {
    try {
      (log as AuditLog | null)?.flush();
    } finally {
      countUrlFetchCalls((audit as CallAudit | null)?.requests() ?? 0);
    }
  }
}
