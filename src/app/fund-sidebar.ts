/**
 * Fund sidebar entry points: open it, show the fund of the selected row (or an Id typed in)
 * read fresh, and the writes of its forms. Every argument is checked here: any top-level
 * function can be called by anyone who can open a sidebar.
 */

import { ownData, ownMember } from "../api/arguments";
import { plainText } from "../api/plain";
import { runtime } from "../gas/runtime";
import { knownEmployees, selectedFundId } from "../gas/selection";
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
import { isUnsettled } from "../outbox/records";
import { loadEmployeeNames } from "../refresh/employees";
import { currentLanguage, entry, tolerate, withDocumentLock } from "./entry";
import { openWriteSession, type WriteSession } from "./outbox";
import { myNames } from "./refresh-session";

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
}

/** Menu: opens the Fund sidebar. */
export function showFundSidebar(): void {
  entry("menu", () => runtime().showSidebar("fund", translate(currentLanguage(), "form.fund.title")));
}

/** Sidebar: the fund of the selected row, or of `input.fundId`, read fresh. */
export function getFundSidebarView(input?: unknown): FundSidebarView {
  return entry("sidebar", () => fundSidebarView(input));
}

function fundSidebarView(input: unknown): FundSidebarView {
  const session = openWriteSession("sidebar");
  const typed = ownMember(input, "fundId");
  let fundId: number | null = null;
  let error = "";
  if (typed !== undefined && typed !== null && typed !== "") {
    const n = Number(typed);
    if (Number.isSafeInteger(n) && n > 0) fundId = n;
    else error = translate(session.language, "form.noFund");
  } else {
    fundId = selectedFundId(runtime().spreadsheet(), session.settings.sheetNames.funds);
  }
  let fund: FundView | null = null;
  let notice = "";
  let checks: FundSidebarView["checks"] = [];
  if (fundId !== null) {
    notice = settleEarlierFormWrites(session, fundId);
    checks = checksToAcknowledge(formContext(session), fundId);
    try {
      const read = session.service.getFund(fundId);
      if (read.unreadableTotals !== undefined) error = read.unreadableTotals;
      else fund = fundView(read, session.language);
    } catch (err) {
      // Plain words first, the service's after them (src/api/plain.ts).
      const detail = (err as { message?: string }).message ?? String(err);
      error = plainText(
        { kind: null, message: translate(session.language, "form.fundUnreadable"), detail },
        session.language,
      );
    }
  }
  const view: FundSidebarView = {
    language: session.language,
    adminId: session.adminId,
    fundId,
    fund,
    error,
    notice,
    checks,
    employees: knownEmployees(
      runtime().spreadsheet(),
      session.settings.sheetNames,
      loadEmployeeNames(runtime().documentProperties(), myNames()),
    ),
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
    .some((r) => r.source === "form" && isUnsettled(r) && r.fundId === fundId);
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
  const session = openWriteSession("sidebar");
  const submission = readSubmission(operation, ownData(raw));
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
  const recent = recordedSubmissions(recentSubmissions(), session.records, context.by, session.language);
  const outcome =
    repeatedOutcome(recent, submission.requestId, session.language) ??
    underLock(operation, session.language, () =>
      once(recent, submission.requestId, session.language, () =>
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
  return { ...session, newKey: () => runtime().uuid(), by: formWriter() };
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
