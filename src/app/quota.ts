/**
 * This user's UrlFetch quota over Apps Script: the calls of the quota window (user properties:
 * the quota is per user, across documents; the window closes 24 hours after its first call) and
 * the daily limit of the account kind the user set (consumer until they say otherwise). Every path that calls the service counts
 * its calls here (refreshes from the menu, sidebars and schedule, the Outbox, the fund and
 * report sidebars, the connection tests), and refreshes check it before they start.
 */

import { scriptProperty } from "../gas/properties";
import { runtime } from "../gas/runtime";
import type { Language } from "../i18n";
import { loadContinuation } from "../longrun/continuation";
import {
  type AccountKind,
  type AccountKindSource,
  accountKind,
  addCalls,
  callsInWindow,
  checkQuota,
  DEFAULT_ACCOUNT_KIND_KEY,
  dailyQuota,
  deploymentAccountKind,
  parseLedger,
  type QuotaCheck,
  quotaResetsAt,
} from "../longrun/quota";
import { loadHistory, type QuotaPort, quotaForNextRefresh } from "../schedule/run";
import { runWords } from "../schedule/words";
import { tolerate } from "./entry";

/** User property: the UrlFetch calls of the current quota window (`{since, calls}`). */
export const LEDGER_KEY = "longrun.urlfetch";
/** User property: "consumer", "workspace" or "auto" (default: not said, consumer assumed). */
export const ACCOUNT_KIND_KEY = "longrun.accountKind";

/** This user's account kind setting ("auto" when not said or unreadable). */
export function accountKindSetting(): AccountKind | "auto" {
  const setting = runtime().userProperties().getProperty(ACCOUNT_KIND_KEY);
  return setting === "consumer" || setting === "workspace" ? setting : "auto";
}

/** The deployment's default account kind (script property; consumer when unset or unreadable). */
function deploymentDefault(): AccountKind {
  return tolerate(
    "unreadable",
    () => deploymentAccountKind(scriptProperty(DEFAULT_ACCOUNT_KIND_KEY)),
    "consumer",
  );
}

/**
 * The account kind the quotas are planned with, and whether the user said it, the deployment
 * set it, or it is assumed.
 */
export function plannedAccountKind(): { kind: AccountKind; source: AccountKindSource } {
  return accountKind(accountKindSetting(), deploymentDefault());
}

/** When this user's quota window closes and the count starts over (null: no calls counted). */
export function quotaResetTime(): number | null {
  return quotaResetsAt(parseLedger(runtime().userProperties().getProperty(LEDGER_KEY)), Date.now());
}

export function quotaPort(): QuotaPort {
  const store = runtime().userProperties();
  return {
    used: () => callsInWindow(parseLedger(store.getProperty(LEDGER_KEY)), Date.now()),
    limit: () => dailyQuota(accountKindSetting(), deploymentDefault()),
    add: (calls) => {
      const ledger = addCalls(parseLedger(store.getProperty(LEDGER_KEY)), Date.now(), calls);
      store.setProperty(LEDGER_KEY, JSON.stringify(ledger));
    },
  };
}

/** Adds `calls` UrlFetch calls to this user's count of the quota window. Never throws: the calls happened. */
export function countUrlFetchCalls(calls: number): void {
  if (!(calls > 0)) return;
  tolerate("counted only", () => quotaPort().add(calls), undefined);
}

/**
 * Whether a whole refresh fits in what is left of the quota window's calls ("ok", "warn" above 80%,
 * "refuse" past it), estimated from the last complete refresh, as the scheduled run checks.
 */
export function refreshQuotaCheck(language: Language): QuotaCheck {
  const store = runtime().documentProperties();
  return quotaForNextRefresh(
    loadHistory(store, Date.now(), runWords(language)),
    quotaPort(),
    loadContinuation(store),
  );
}

/** Whether `calls` more calls fit in what is left of the quota window's calls (a refresh of a few rows). */
export function smallQuotaCheck(calls: number): QuotaCheck {
  const port = quotaPort();
  return checkQuota(port.used(), port.limit(), calls);
}
