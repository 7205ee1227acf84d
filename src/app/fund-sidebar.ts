/**
 * Fund sidebar entry points: open it, show the fund of the selected row (or an Id typed in)
 * read fresh, and the writes of its forms. Every argument is checked here: any top-level
 * function can be called by anyone who can open a sidebar.
 */

import { ownData, ownMember } from "../api/arguments";
import { plainText } from "../api/plain";
import { FIRST_COMPANY_KEY, hasHadSeveral } from "../company/model";
import { runtime } from "../gas/runtime";
import { knownEmployees, selectedFund } from "../gas/selection";
import { formWriter, recentSubmissions } from "../gas/submissions";
import { type Language, translate } from "../i18n";
import {
  acknowledgeCheckedWrite,
  checksToAcknowledge,
  type FormOutcome,
  type FundView,
  fundView,
  once,
  readSubmission,
  recordedSubmissions,
  repeatedOutcome,
  settleBlockingWrites,
  submitWrite,
} from "../outbox/forms";
import { MONEY_OPERATIONS, type OutboxOperation } from "../outbox/operations";
import { isUnsettled, recordCompany } from "../outbox/records";
import { formWords } from "../outbox/words";
import { type Companies, listedCompanies } from "../settings/companies";
import type { SidebarCompany } from "../sheets/sidebar-company";
import { companyOfSelectedRow, companyOfSubmission, companyOfTypedId } from "../sheets/words";
import { currentLanguage, entry, settingsStore, tolerate, withDocumentLock } from "./entry";
import { loadWriteSettings, openWriteSession, type WriteSession } from "./outbox";
import { myCompanyNames } from "./refresh-session";

export interface FundSidebarView {
  language: Language;
  adminId: number | null;
  fundId: number | null;
  fund: FundView | null;
  /** Why the fund could not be shown ("" when it is shown or none was asked for). */
  error: string;
  /** Earlier form requests on this fund that got no answer: settled now, or why not yet ("" when none). */
  notice: string;
  /**
   * This user's earlier requests on this fund that reading cannot settle: each holds the fund
   * until they acknowledge having checked it (acknowledgeFundCheck with its key).
   */
  checks: { key: string; sent: string; message: string }[];
  employees: { id: number; name: string }[];
  /**
   * The company the sidebar acts on (its fund read with that company's client, its forms sent
   * to it); null when none could be chosen (a refused row, an Id typed without a company).
   */
  company: { key: string; name: string } | null;
  /** The listed companies, for the picker of an Id typed in: shown with two or more. */
  companies: { key: string; name: string }[];
}

/** Menu: opens the Fund sidebar. */
export function showFundSidebar(): void {
  entry("menu", () => runtime().showSidebar("fund", translate(currentLanguage(), "form.fund.title")));
}

/** Sidebar: the fund of the selected row, or of `input.fundId`, read fresh. */
export function getFundSidebarView(input?: unknown): FundSidebarView {
  return entry("sidebar", () => fundSidebarView(input));
}

/**
 * What this user's Fund sidebar showed last in this spreadsheet, per fund Id ("new" for the
 * creation form): the company key (user cache, which every spreadsheet of theirs shares: the
 * key ends with this one's id). With several companies, a form is sent only to the company
 * shown for its fund.
 */
const shownKey = () => `fund:shown${runtime().spreadsheet().getId()}`;

function shownCompanies(): Record<string, string> {
  const text = runtime().userCache()?.get(shownKey());
  const value = tolerate("unreadable", () => JSON.parse(text || "{}") as unknown, {});
  return typeof value === "object" && value !== null ? (value as Record<string, string>) : {};
}

function rememberShown(targets: string[], key: string): void {
  const shown = shownCompanies();
  for (const target of targets) shown[target] = key;
  runtime().userCache()?.put(shownKey(), JSON.stringify(shown), 21600);
}

/** The fund Id and company the view is asked for: an Id typed in (and the company picked), or the selected row's. */
function askedFund(
  input: unknown,
  registry: Companies,
  names: { funds: string; reports: string },
  language: FundSidebarView["language"],
): { fundId: number | null; choice: SidebarCompany | null; error: string } {
  const typed = ownMember(input, "fundId");
  const asked = ownMember(input, "company");
  if (typed !== undefined && typed !== null && typed !== "") {
    const n = Number(typed);
    if (!Number.isSafeInteger(n) || n <= 0)
      return { fundId: null, choice: null, error: translate(language, "form.noFund") };
    return { fundId: n, choice: companyOfTypedId(asked, registry.entries, n, language), error: "" };
  }
  const selected = selectedFund(runtime().spreadsheet(), names.funds, [names.funds, names.reports]);
  if (selected)
    return {
      fundId: selected.id,
      choice: companyOfSelectedRow(
        selected.cells,
        selected.header,
        registry,
        selected.row,
        selected.dataSheet,
        selected.id,
        language,
        selected.sheet,
      ),
      error: "",
    };
  // No fund: the company of the creation form, when there is one to act on.
  const none = companyOfTypedId(asked, registry.entries, 0, language);
  return { fundId: null, choice: none.ok ? none : null, error: "" };
}

function fundSidebarView(input: unknown): FundSidebarView {
  const settings = loadWriteSettings();
  const registry = settingsStore().companies();
  const listed = listedCompanies(registry);
  const several = listed.length > 1;
  // Once the document has had several companies, a form goes only to the company shown for
  // its fund, even with one company left (companyOfSubmission).
  const remember = hasHadSeveral(registry);
  const asked = askedFund(input, registry, settings.sheetNames, settings.language);
  const { fundId, choice } = asked;
  let error = asked.error || (choice && !choice.ok ? choice.message : "");
  const company = choice?.ok ? choice.company : null;
  // Nothing is read for a refused row: the session is the first company's, and sends nothing.
  const session = openWriteSession("sidebar", company?.key ?? FIRST_COMPANY_KEY, "read");
  if (company && several && session.unusable && error === "") error = session.unusable.message;
  let fund: FundView | null = null;
  let notice = "";
  let checks: FundSidebarView["checks"] = [];
  if (fundId !== null && company && error === "") {
    notice = settleEarlierFormWrites(session, fundId);
    checks = checksToAcknowledge(formContext(session), fundId);
    try {
      const read = session.service.getFund(fundId);
      if (read.unreadableTotals !== undefined) error = read.unreadableTotals;
      else fund = fundView(session.language, read);
      if (remember) rememberShown([String(fundId)], company.key);
    } catch (err) {
      // Plain words first, the service's after them (src/api/plain.ts).
      const detail = (err as { message?: string }).message ?? String(err);
      error = plainText(
        { kind: null, message: translate(session.language, "form.fundUnreadable"), detail },
        session.language,
      );
    }
  }
  if (remember && company && !session.unusable) rememberShown(["new"], company.key);
  const view: FundSidebarView = {
    language: session.language,
    adminId: session.adminId,
    fundId,
    fund,
    error,
    notice,
    checks,
    // The company's own employees, named as this user's own refreshes of it read them.
    employees: company
      ? knownEmployees(
          runtime().spreadsheet(),
          session.settings.sheetNames,
          myCompanyNames(company.key),
          company.key,
          hasHadSeveral(registry),
        )
      : [],
    company: company ? { key: company.key, name: company.name } : null,
    companies: several ? listed.map((c) => ({ key: c.key, name: c.name })) : [],
  };
  session.finish();
  return view;
}

/**
 * Settles this fund's earlier form writes whose answer never came, once they can no longer
 * land, so that opening the fund again tells whether they were applied. Under the document lock
 * (an Outbox run settles the same records); when the lock is busy, the next opening does it.
 */
function settleEarlierFormWrites(session: WriteSession, fundId: number): string {
  const pending = session.records
    .all()
    .some(
      (r) =>
        r.source === "form" &&
        isUnsettled(r) &&
        r.fundId === fundId &&
        recordCompany(r) === session.companyKey,
    );
  if (!pending) return "";
  return withDocumentLock(
    "form",
    1000,
    () => "",
    // The fund's own read that follows says what is wrong.
    () =>
      tolerate(
        "reported next",
        () => {
          const { held, settled } = settleBlockingWrites(formContext(session), {
            operation: "deposit",
            fundId,
            amount: 0,
          });
          return [...settled, held ?? ""].filter((m) => m !== "").join(" ");
        },
        "",
      ),
  );
}

/** The one path of every form write: arguments checked, sent once per request id. */
export function submitForm(operation: OutboxOperation, raw: unknown): FormOutcome {
  return entry("sidebar", () => submit(operation, raw));
}

function submit(operation: OutboxOperation, raw: unknown): FormOutcome {
  const submission = readSubmission(operation, ownData(raw));
  // The company the form names, checked against what this user's sidebar showed for the fund.
  const registry = settingsStore().companies();
  const language = currentLanguage();
  const target =
    operation === "createFund" ? "new" : submission.ok ? String(Number(submission.fields.Id)) : "";
  const chosen = submission.ok
    ? companyOfSubmission(ownMember(ownData(raw), "company"), registry, shownCompanies(), target, language)
    : null;
  if (chosen && !chosen.ok) return { kind: "refused", message: chosen.message };
  const session = openWriteSession("sidebar", chosen?.ok ? chosen.company.key : FIRST_COMPANY_KEY);
  if (chosen?.ok && session.unusable && listedCompanies(registry).length > 1) {
    session.finish();
    return { kind: "refused", message: session.unusable.message };
  }
  if (!submission.ok) {
    session.finish();
    return {
      kind: "invalid",
      problems: [
        {
          field: submission.detail,
          message: translate(session.language, "form.invalidArguments", { detail: submission.detail }),
        },
      ],
    };
  }
  // A repeated request id is answered at once, from the cache or the records (which keep a
  // done write's answer as long as its record); a new one is checked again and marked under the
  // document lock for a money movement, so two calls with the same id (a double click, a
  // retried call) cannot both find it unused.
  const context = { ...formContext(session), requestId: submission.requestId };
  const recent = recordedSubmissions(recentSubmissions(), session.records, context.by, context.words);
  const outcome =
    repeatedOutcome(recent, submission.requestId, context.words) ??
    underLock(operation, session.language, () =>
      once(recent, submission.requestId, context.words, () =>
        submitWrite(context, operation, submission.fields),
      ),
    );
  session.finish();
  return outcome;
}

/**
 * Money movements and fund creations from a form wait for a running Outbox (the document
 * lock): the Outbox settles an interrupted row by counting the fund's movements, and a form's
 * movement made in between must not be counted as that row's.
 */
function underLock(operation: OutboxOperation, language: Language, send: () => FormOutcome): FormOutcome {
  if (!MONEY_OPERATIONS.has(operation) && operation !== "createFund") return send();
  return withDocumentLock<FormOutcome>(
    "form",
    10_000,
    (lock) => ({
      kind: "refused",
      message: lock?.busyMessage(language, "outbox.run.busy") ?? translate(language, "outbox.run.busy"),
    }),
    send,
  );
}

/** The form context of a write session: this execution's new keys, this user as the writer. */
function formContext(session: WriteSession) {
  return {
    ...session,
    words: formWords(session.language),
    numbers: session.language,
    newKey: () => runtime().uuid(),
    by: formWriter(),
    company: session.companyKey,
  };
}

/**
 * Sidebar: the writer of a fund's request that reading could not settle says they checked the
 * fund (`{ key }` from the view's checks); the fund is then no longer held.
 */
export function acknowledgeFundCheck(input: unknown): FormOutcome {
  return entry("sidebar", () => {
    const session = openWriteSession("sidebar");
    const key = ownMember(ownData(input), "key");
    const outcome: FormOutcome =
      typeof key === "string" && /^[\w-]{1,64}$/.test(key)
        ? withDocumentLock<FormOutcome>(
            "form",
            10_000,
            (lock) => ({
              kind: "refused",
              message:
                lock?.busyMessage(session.language, "outbox.run.busy") ??
                translate(session.language, "outbox.run.busy"),
            }),
            () => acknowledgeCheckedWrite(formContext(session), key),
          )
        : {
            kind: "invalid",
            problems: [
              {
                field: "key",
                message: translate(session.language, "form.invalidArguments", { detail: "key" }),
              },
            ],
          };
    session.finish();
    return outcome;
  });
}

/** Sidebar: deposit into a fund. */
export function depositToFund(form: unknown): FormOutcome {
  return submitForm("deposit", form);
}

/** Sidebar: withdraw from a fund. */
export function withdrawFromFund(form: unknown): FormOutcome {
  return submitForm("withdraw", form);
}

/** Sidebar: open, block or close a fund (the form asks before closing). */
export function changeFundStatus(form: unknown): FormOutcome {
  return submitForm("setFundStatus", form);
}

/** Sidebar: update a fund's name, code, comment, flags and expiration. */
export function updateFundDetails(form: unknown): FormOutcome {
  return submitForm("updateFund", form);
}

/** Sidebar: create a fund for an employee. */
export function createFundForEmployee(form: unknown): FormOutcome {
  return submitForm("createFund", form);
}
