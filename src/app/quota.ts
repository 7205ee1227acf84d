/**
 * This user's UrlFetch quota over Apps Script: today's calls (user properties: the quota is
 * per user, across documents) and the daily limit. Every path that calls the service counts
 * its calls here (refreshes from the menu, sidebars and schedule, the Outbox, the fund and
 * report sidebars, the connection tests), and refreshes check it before they start.
 */

import { runtime } from "../gas/runtime";
import type { Language } from "../i18n";
import { loadContinuation } from "../longrun/continuation";
import {
  type AccountKind,
  addCalls,
  callsToday,
  checkQuota,
  dailyQuota,
  detectAccountKind,
  parseLedger,
  type QuotaCheck,
} from "../longrun/quota";
import { loadHistory, type QuotaPort, quotaForNextRefresh } from "../schedule/run";
import { tolerate } from "./entry";

/** User property: today's UrlFetch calls. */
export const LEDGER_KEY = "longrun.urlfetch";
/** User property: "consumer", "workspace" or "auto" (default). */
export const ACCOUNT_KIND_KEY = "longrun.accountKind";

/** Today as Google's quotas count days: the date in Pacific time. */
function pacificDay(): string {
  return runtime().formatDate(new Date(), "America/Los_Angeles", "yyyy-MM-dd");
}

export function quotaPort(): QuotaPort {
  const store = runtime().userProperties();
  return {
    used: () => callsToday(parseLedger(store.getProperty(LEDGER_KEY)), pacificDay()),
    limit: () => {
      const setting = (store.getProperty(ACCOUNT_KIND_KEY) ?? "auto") as AccountKind | "auto";
      const email = tolerate("shown only", () => runtime().activeUserEmail(), "");
      return dailyQuota(
        ["consumer", "workspace"].includes(setting) ? setting : "auto",
        detectAccountKind(email),
      );
    },
    add: (calls) => {
      const ledger = addCalls(parseLedger(store.getProperty(LEDGER_KEY)), pacificDay(), calls);
      store.setProperty(LEDGER_KEY, JSON.stringify(ledger));
    },
  };
}

/** Adds `calls` UrlFetch calls to this user's count of today. Never throws: the calls happened. */
export function countUrlFetchCalls(calls: number): void {
  if (!(calls > 0)) return;
  tolerate("counted only", () => quotaPort().add(calls), undefined);
}

/**
 * Whether a whole refresh fits in what is left of today's quota ("ok", "warn" above 80%,
 * "refuse" past it), estimated from the last complete refresh, as the scheduled run checks.
 */
export function refreshQuotaCheck(language: Language): QuotaCheck {
  const store = runtime().documentProperties();
  return quotaForNextRefresh(loadHistory(store, Date.now(), language), quotaPort(), loadContinuation(store));
}

/** Whether `calls` more calls fit in what is left of today's quota (a refresh of a few rows). */
export function smallQuotaCheck(calls: number): QuotaCheck {
  const port = quotaPort();
  return checkQuota(port.used(), port.limit(), calls);
}
