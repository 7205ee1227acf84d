/**
 * The connection: service URL, the user's own access token (write-only), IdAdmin and the
 * connection test live in the settings sidebar's Connection section (src/app/settings.ts); the
 * menu's "Connection…" opens that sidebar on it. The test's calls are audited and counted like
 * every other call. The work is in src/settings/connection-test.ts.
 */

import { ownData } from "../api/arguments";
import type { AuditLog } from "../audit/log";
import { type CallAudit, callAudit } from "../audit/observer";
import { runtime } from "../gas/runtime";
import { translate } from "../i18n";
import { type ConnectionTestResult, testConnection as runConnectionTest } from "../settings";
import { type CompanyEntry, companyByKey, companyLabel, listedCompanies } from "../settings/companies";
import { checkOrMark, testedCompany } from "./account-mark";
import { connectionTestClient, savedTestToken } from "./company-clients";
import { connectionTestResult } from "./connection-words";
import { currentLanguage, entry, settingsStore } from "./entry";
import { countUrlFetchCalls } from "./quota";
import { sidebarAuditLog } from "./sidebar-audit";

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
  const company = companyTested(input);
  try {
    const result = runConnectionTest(
      {
        store: settingsStore(),
        savedToken: (target) => savedTestToken(settingsStore(), target),
        createClient: (baseUrl, token) => {
          const opened = sidebarAuditLog(language, [token]);
          // The company tested is named on its Audit rows, as every other call names its own.
          const calls = callAudit(
            opened,
            () => translate(language, "connection.test"),
            company ? testedCompany(company, baseUrl) : null,
          );
          log = opened;
          audit = calls;
          return connectionTestClient(baseUrl, token, calls);
        },
      },
      ownData(input),
    );
    return marked(connectionTestResult(result, language), company, language, typedToken(input));
  } finally {
    try {
      (log as AuditLog | null)?.flush();
    } finally {
      countUrlFetchCalls((audit as CallAudit | null)?.requests() ?? 0);
    }
  }
}

/** The company a test is of: the one named by `key`, else (one company) the first. */
function companyTested(input: unknown): CompanyEntry | undefined {
  const companies = settingsStore().companies();
  const key = ownData(input);
  const named =
    typeof key === "object" && key !== null && typeof (key as { key?: unknown }).key === "string"
      ? (key as { key: string }).key
      : undefined;
  if (named !== undefined) {
    const entry = companyByKey(companies, named);
    return entry && !entry.removed ? entry : undefined;
  }
  return companies.several ? undefined : listedCompanies(companies)[0];
}

/** Whether the test is of a token typed in the form (not yet saved), not of the saved one. */
function typedToken(input: unknown): boolean {
  const data = ownData(input);
  const token = typeof data === "object" && data !== null ? (data as { token?: unknown }).token : undefined;
  return typeof token === "string" && token.trim() !== "";
}

/**
 * A test that reached the company's own service: the account it opened checked against the
 * company's mark (another account's is said, the test failing), or marking it when it has none.
 * Only a saved token marks an account: a `typed` one is compared with the mark, never takes it.
 */
function marked(
  result: ConnectionTestResult,
  company: CompanyEntry | undefined,
  language: ReturnType<typeof currentLanguage>,
  typed: boolean,
): ConnectionTestResult {
  const reached = result.reached;
  const tested = reached ? testedCompany(company, reached.url) : null;
  if (!result.ok || !reached || !tested) return result;
  const outcome = checkOrMark(tested, reached.funds, language, !typed);
  // Marked or the same account; or the lock was busy (nothing marked: the next test or save does).
  if (outcome.ok || outcome.busy) return result;
  const label = companyLabel(tested, language);
  return {
    ok: false,
    kind: "otherAccount",
    message: outcome.owner
      ? translate(language, "connection.test.otherCompany", {
          company: label,
          other: companyLabel(outcome.owner, language),
        })
      : translate(language, "connection.test.otherAccount", { company: label, fund: outcome.fund }),
  };
}
