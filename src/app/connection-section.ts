/**
 * The connection: service URL, the user's own access token (write-only), IdAdmin and the
 * connection test live in the settings sidebar's Connection section (src/app/settings.ts); the
 * menu's "Connection…" opens that sidebar on it. The test's calls are audited and counted like
 * every other call. The work is in src/settings/connection-test.ts.
 */

import { ownData } from "../api/arguments";
import type { AuditLog } from "../audit/log";
import { type CallAudit, callAudit } from "../audit/observer";
import { lazyAuditSink } from "../gas/outbox-sheet";
import { runtime } from "../gas/runtime";
import { translate } from "../i18n";
import { sheetNamesFrom } from "../refresh/options";
import { type ConnectionTestResult, testConnection as runConnectionTest } from "../settings";
import { connectionTestClient, savedTestToken } from "./company-clients";
import { auditLimits, auditLog, currentLanguage, entry, secrets, settingsStore } from "./entry";
import { countUrlFetchCalls } from "./quota";

/** Menu "Connection…": the settings sidebar, opened on its Connection section. */
export function showConnectionSidebar(): void {
  entry("menu", () =>
    runtime().showSidebar("settings", translate(currentLanguage(), "settings.title"), "connection"),
  );
}

/**
 * One small call with the saved settings, or with the URL and token being typed when the
 * sidebar sends them, and a plain explanation of the outcome. Its calls are counted in today's
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
        savedToken: (target) => savedTestToken(settingsStore(), target, language),
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
            [token, ...secrets()],
          );
          const calls = callAudit(opened, () => translate(language, "connection.test"));
          log = opened;
          audit = calls;
          return connectionTestClient(baseUrl, token, calls);
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
