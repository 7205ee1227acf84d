/**
 * The account mark of each company (src/settings/account-mark.ts) in this document: read, taken
 * when a company's first token is saved or tested, checked before any later token is saved for
 * it, and taken again on an editor's confirmation. The mark is the document's (document
 * property ACCOUNT_MARKS_KEY), shared by every editor; it holds no token and no amount. Marks
 * are written under the document lock, read again there, so two editors' first tokens of two
 * different accounts cannot both become the mark.
 */

import type { MessageLanguage } from "../api/messages";
import { plainError, plainText } from "../api/plain";
import type { Fund } from "../api/types";
import { originOf } from "../api/urls";
import { callAudit } from "../audit/observer";
import type { CompanyKey } from "../company/model";
import { runtime } from "../gas/runtime";
import { translate } from "../i18n";
import {
  ACCOUNT_MARKS_KEY,
  type AccountMark,
  type AccountMarks,
  accountMarksFrom,
  accountMarksText,
  checkAccount,
  MARK_QUERY,
  type MarkedFund,
  markedFundText,
  markOf,
} from "../settings/account-mark";
import { type CompanyEntry, companyByKey, companyLabel, listedCompanies } from "../settings/companies";
import { companyConnections, connectionTestClient } from "./company-clients";
import { settingsStore, withDocumentLock } from "./entry";
import { countUrlFetchCalls } from "./quota";
import { sidebarAuditLog } from "./sidebar-audit";

/** Every company's mark in this document. */
export function accountMarks(): AccountMarks {
  return accountMarksFrom(runtime().documentProperties().getProperty(ACCOUNT_MARKS_KEY));
}

function writeMark(key: CompanyKey, mark: AccountMark): void {
  const marks = accountMarks();
  marks[key] = mark;
  runtime().documentProperties().setProperty(ACCOUNT_MARKS_KEY, accountMarksText(marks));
}

/** "5001 (2023-01-05 10:00:00, IdCreator 1001), 5002 (…)". */
function fundsText(mark: AccountMark): string {
  return mark.funds.map(markedFundText).join(", ");
}

/** What Settings says of a company's mark, in the user's words. */
export function accountStatus(
  company: CompanyEntry,
  marks: AccountMarks,
  language: MessageLanguage,
  empty = false,
): string {
  const label = companyLabel(company, language);
  const mark = marks[company.key];
  if (mark) return translate(language, "account.marked", { company: label, funds: fundsText(mark) });
  return translate(language, empty ? "account.unmarkedEmpty" : "account.unmarked", { company: label });
}

export type MarkOutcome =
  /** The funds are the marked account's, or now mark it (`marked`), or there was nothing to mark. */
  | { ok: true; marked: AccountMark | null; empty: boolean }
  /** Another account's (or the lock was `busy`): `message` says so, naming the company. */
  | { ok: false; message: string; fund: string; busy?: boolean; owner?: CompanyEntry };

/**
 * Compares the oldest funds read with a token of `company` with its mark, under the document
 * lock; takes the mark from them when there is none and they hold a fund, unless `take` is
 * false (a token only typed, not saved: it is compared, never trusted to mark the account).
 */
export function checkOrMark(
  company: CompanyEntry,
  funds: readonly Fund[],
  language: MessageLanguage,
  take = true,
): MarkOutcome {
  const decide = (): MarkOutcome => {
    const mark = accountMarks()[company.key];
    const check = checkAccount(mark, funds);
    if (check.kind === "other") {
      const fund = markedFundText(check.missing);
      return {
        ok: false,
        fund,
        message: translate(language, "account.other", { company: companyLabel(company, language), fund }),
      };
    }
    if (check.kind === "same") return { ok: true, marked: null, empty: false };
    // Unmarked: the account must not be one another company of the list is marked with.
    const all = accountMarks();
    const listed = listedCompanies(settingsStore().companies());
    const owner = listed.find(
      (c) => c.key !== company.key && checkAccount(all[c.key], funds).kind === "same",
    );
    if (owner) {
      const fund = markedFundText((all[owner.key] as AccountMark).funds[0] as MarkedFund);
      return {
        ok: false,
        fund,
        owner,
        message: translate(language, "account.otherCompany", {
          company: companyLabel(company, language),
          other: companyLabel(owner, language),
        }),
      };
    }
    const taken = markOf(funds, Date.now());
    if (!take) return { ok: true, marked: null, empty: taken === null };
    if (taken) writeMark(company.key, taken);
    return { ok: true, marked: taken, empty: taken === null };
  };
  return withDocumentLock(
    "form",
    10_000,
    (lock) => ({
      ok: false,
      fund: "",
      busy: true,
      message: lock?.busyMessage(language, "busy.refresh") ?? translate(language, "busy.refresh"),
    }),
    decide,
  );
}

/**
 * The oldest funds of the account `token` opens at `company`'s URL (one getFunds, MARK_QUERY),
 * audited as the account check of that company and counted in the UrlFetch quota; or the
 * failure in plain words.
 */
function oldestFunds(
  company: CompanyEntry,
  token: string,
  language: MessageLanguage,
): { ok: true; funds: Fund[] } | { ok: false; reason: string; opensNothing: boolean } {
  const log = sidebarAuditLog(language, [token]);
  const calls = callAudit(log, () => translate(language, "account.check"), company);
  try {
    const client = connectionTestClient(company.apiUrl, token, calls);
    return { ok: true, funds: client.getFunds({ ...MARK_QUERY }).funds };
  } catch (err) {
    const plain = plainError(err, language);
    // Refused as a token (401): it opens no account at all, so it cannot be another's.
    return { ok: false, reason: plainText(plain, language), opensNothing: plain.kind === "notAuthorised" };
  } finally {
    try {
      log.flush();
    } finally {
      countUrlFetchCalls(calls.requests());
    }
  }
}

/**
 * Before a token is saved for `company`: the account it opens checked against the company's
 * mark (refused, naming the company, when it is another account's), or the mark taken when the
 * company has none. A token that cannot be read with is refused only when there is a mark to
 * check it against; without one it is saved as before, unchecked.
 */
export function checkTokenAccount(
  company: CompanyEntry,
  token: string,
  language: MessageLanguage,
): { ok: true; note: string } | { ok: false; message: string } {
  const read = oldestFunds(company, token, language);
  if (!read.ok) {
    // A token the service refuses opens no account: saved, as it always was, and its refusal
    // shows at its first use. One that could not be read with (service down) is refused while
    // the company has a mark: it may open any account.
    if (!accountMarks()[company.key] || read.opensNothing)
      return { ok: true, note: accountStatus(company, {}, language) };
    return {
      ok: false,
      message: translate(language, "account.unreadable", {
        company: companyLabel(company, language),
        reason: read.reason,
      }),
    };
  }
  const outcome = checkOrMark(company, read.funds, language);
  if (!outcome.ok) return { ok: false, message: outcome.message };
  return { ok: true, note: outcome.empty ? accountStatus(company, {}, language, true) : "" };
}

/** Whether a connection test of `url` reached `company`'s own service (its origin). */
export function testedCompany(company: CompanyEntry | undefined, url: string): CompanyEntry | null {
  return company && originOf(company.apiUrl) === originOf(url) ? company : null;
}

/** What the question of a retake showed: the funds of the old mark and of the new one, as it named them. */
export interface RetakeShown {
  old: string;
  new: string;
}

/** A retake's outcome; `shown` with a question, to be sent back with the confirmation. */
export interface RetakeOutcome {
  ok: boolean;
  message: string;
  ask: boolean;
  shown?: RetakeShown;
}

function shownFrom(value: unknown): RetakeShown | null {
  if (typeof value !== "object" || value === null) return null;
  const { old, new: fresh } = value as { old?: unknown; new?: unknown };
  return typeof old === "string" && typeof fresh === "string" ? { old, new: fresh } : null;
}

/**
 * Takes `key`'s mark again from the account this user's saved token for it opens: without
 * `confirmed`, only the question naming what changes (the old funds and the new), with what it
 * showed (`shown`); with `confirmed`, that `shown` sent back, the new mark is saved, but only
 * when the read made now and the mark kept now are what the question named: otherwise it asks
 * again. The service's data really changed (a test account reset): an editor says so.
 */
export function retakeAccountMark(
  key: unknown,
  confirmed: unknown,
  language: MessageLanguage,
): RetakeOutcome {
  const store = settingsStore();
  const company = typeof key === "string" ? companyByKey(store.companies(), key) : undefined;
  if (!company || company.removed)
    return {
      ok: false,
      ask: false,
      message: translate(language, "company.issue.unknown", { key: String(key).slice(0, 40) }),
    };
  const label = companyLabel(company, language);
  const connections = companyConnections({
    purpose: "read",
    language,
    audit: (c) => {
      const log = sidebarAuditLog(language);
      return Object.assign(
        callAudit(log, () => translate(language, "account.check"), c),
        { flush: () => log.flush() },
      );
    },
  });
  const connection = connections.ready.get(company.key);
  if (!connection) {
    const unusable = connections.unusable.find((u) => u.key === company.key);
    return { ok: false, ask: false, message: unusable?.message ?? label };
  }
  let funds: Fund[];
  try {
    funds = connection.client.getFunds({ ...MARK_QUERY }).funds;
  } catch (err) {
    return { ok: false, ask: false, message: plainText(plainError(err, language), language) };
  } finally {
    try {
      connection.audit.flush();
    } finally {
      countUrlFetchCalls(connection.audit.requests());
    }
  }
  const fresh = markOf(funds, Date.now());
  if (!fresh)
    return { ok: false, ask: false, message: translate(language, "account.retakeEmpty", { company: label }) };
  const old = accountMarks()[company.key];
  if (old && checkAccount(old, funds).kind === "same")
    return {
      ok: true,
      ask: false,
      message: translate(language, "account.retakeSame", { company: label, funds: fundsText(old) }),
    };
  const shown = { old: old ? fundsText(old) : "", new: fundsText(fresh) };
  const asked = shownFrom(confirmed);
  // What is confirmed is what the question named: another read now (the account changed again)
  // or another mark kept now (another editor took it meanwhile) is asked about again.
  const askAgain = (changed: boolean): RetakeOutcome => ({
    ok: false,
    ask: true,
    shown,
    message: `${changed ? `${translate(language, "account.retakeChanged", { company: label })} ` : ""}${translate(
      language,
      "account.retakeAsk",
      { company: label, old: shown.old, new: shown.new },
    )}`,
  });
  if (old && !asked) return askAgain(false);
  if (old && (asked?.old !== shown.old || asked.new !== shown.new)) return askAgain(true);
  return withDocumentLock<RetakeOutcome>(
    "form",
    10_000,
    (lock) => ({
      ok: false,
      ask: false,
      message: lock?.busyMessage(language, "busy.refresh") ?? translate(language, "busy.refresh"),
    }),
    () => {
      // Never another company's account: the token saved for this one may be that company's.
      const all = accountMarks();
      const kept = all[company.key];
      if ((kept ? fundsText(kept) : "") !== shown.old) return askAgain(true);
      const owner = listedCompanies(store.companies()).find(
        (c) => c.key !== company.key && checkAccount(all[c.key], funds).kind === "same",
      );
      if (owner)
        return {
          ok: false,
          ask: false,
          message: translate(language, "account.otherCompany", {
            company: label,
            other: companyLabel(owner, language),
          }),
        };
      writeMark(company.key, fresh);
      return {
        ok: true,
        ask: false,
        message: translate(language, "account.retaken", { company: label, funds: fundsText(fresh) }),
      };
    },
  );
}
