/**
 * Fund sidebar entry points: open it, show the fund of the selected row (or an Id typed in)
 * read fresh, and the writes of its forms. Every argument is checked here: any top-level
 * function can be called by anyone who can open a sidebar.
 */

import { ownData, ownMember } from "../api/arguments";
import { runtime } from "../gas/runtime";
import { type Language, type StringKey, translate } from "../i18n";
import {
  type FormOutcome,
  type FundView,
  fundView,
  once,
  type RecentSubmissions,
  readSubmission,
  settleBlockingWrites,
  submitWrite,
} from "../outbox/forms";
import { MONEY_OPERATIONS, type OutboxOperation } from "../outbox/operations";
import type { FieldProblem } from "../outbox/requests";
import { FUND_COLUMNS, REPORT_COLUMNS } from "../sheets/columns";
import { openWriteSession, type WriteSession } from "./outbox";

export type { FieldProblem, FormOutcome, FundView };

export interface FundSidebarView {
  language: Language;
  adminId: number | null;
  fundId: number | null;
  fund: FundView | null;
  /** Why the fund could not be shown ("" when it is shown or none was asked for). */
  error: string;
  /** Earlier form requests on this fund that got no answer: settled now, or why not yet ("" when none). */
  notice: string;
  employees: { id: number; name: string }[];
}

/** Menu: opens the Fund sidebar. */
export function showFundSidebar(): void {
  const language = sessionLanguage();
  runtime().showSidebar("fund", translate(language, "form.fund.title"));
}

function sessionLanguage(): Language {
  try {
    return openWriteSession("sidebar").language;
  } catch (_err) {
    return "en";
  }
}

/** Header texts of a column in both languages. */
function headerTexts(key: string, columns: readonly { key: string; header: unknown }[]): string[] {
  const column = columns.find((c) => c.key === key);
  if (!column || typeof column.header !== "string") return [];
  return [translate("en", column.header as StringKey), translate("es", column.header as StringKey)];
}

function columnIn(sheet: GoogleAppsScript.Spreadsheet.Sheet, headers: string[]): number | null {
  if (sheet.getLastColumn() === 0) return null;
  const row = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] ?? [];
  const index = row.findIndex((v) => typeof v === "string" && headers.includes(v));
  return index < 0 ? null : index + 1;
}

/** The fund id of the active row, from the Funds sheet (Id) or any sheet with a fund Id column. */
function selectedFundId(session: WriteSession): number | null {
  const sheet = runtime().spreadsheet().getActiveSheet();
  const range = runtime().spreadsheet().getActiveRange();
  if (!sheet || !range || range.getRow() < 2) return null;
  const headers =
    sheet.getName() === session.settings.sheetNames.funds
      ? headerTexts("id", FUND_COLUMNS)
      : headerTexts("fundId", REPORT_COLUMNS);
  const column = columnIn(sheet, headers);
  if (column === null) return null;
  const id = Number(sheet.getRange(range.getRow(), column).getValue());
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Employees seen in the sheets: fund owners (IdAssignTo) and reports' EmployeeId/EmployeeName. */
function knownEmployees(session: WriteSession): { id: number; name: string }[] {
  const spreadsheet = runtime().spreadsheet();
  const byId = new Map<number, string>();
  const collect = (
    sheetName: string,
    idKey: string,
    nameKey: string | null,
    columns: readonly { key: string; header: unknown }[],
  ) => {
    const sheet = spreadsheet.getSheetByName(sheetName);
    if (!sheet || sheet.getLastRow() < 2) return;
    const idCol = columnIn(sheet, headerTexts(idKey, columns));
    if (idCol === null) return;
    const nameCol = nameKey ? columnIn(sheet, headerTexts(nameKey, columns)) : null;
    // Only the two columns: a reports sheet may hold tens of thousands of wide rows.
    const rows = sheet.getLastRow() - 1;
    const idValues = sheet.getRange(2, idCol, rows, 1).getValues();
    const nameValues = nameCol ? sheet.getRange(2, nameCol, rows, 1).getValues() : [];
    idValues.forEach((cells, i) => {
      const id = Number(cells[0]);
      if (!Number.isSafeInteger(id) || id <= 0) return;
      const name = String(nameValues[i]?.[0] ?? "");
      if (!byId.has(id) || (name && !byId.get(id))) byId.set(id, name);
    });
  };
  collect(session.settings.sheetNames.reports, "employeeId", "employeeName", REPORT_COLUMNS);
  collect(session.settings.sheetNames.funds, "assignedTo", null, FUND_COLUMNS);
  return [...byId.entries()]
    .map(([id, name]) => ({ id, name }))
    .sort((a, b) => (a.name || "~").localeCompare(b.name || "~") || a.id - b.id)
    .slice(0, 500);
}

/** Sidebar: the fund of the selected row, or of `input.fundId`, read fresh. */
export function getFundSidebarView(input?: unknown): FundSidebarView {
  const session = openWriteSession("sidebar");
  const typed = ownMember(input, "fundId");
  let fundId: number | null = null;
  let error = "";
  if (typed !== undefined && typed !== null && typed !== "") {
    const n = Number(typed);
    if (Number.isSafeInteger(n) && n > 0) fundId = n;
    else error = translate(session.language, "form.noFund");
  } else {
    fundId = selectedFundId(session);
  }
  let fund: FundView | null = null;
  let notice = "";
  if (fundId !== null) {
    notice = settleEarlierFormWrites(session, fundId);
    try {
      const read = session.service.getFund(fundId);
      if (read.unreadableTotals !== undefined) error = read.unreadableTotals;
      else fund = fundView(read, session.language);
    } catch (err) {
      error = (err as { message?: string }).message ?? String(err);
    }
  }
  const view: FundSidebarView = {
    language: session.language,
    adminId: session.adminId,
    fundId,
    fund,
    error,
    notice,
    employees: knownEmployees(session),
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
  const pending = session.records.all().some((r) => r.source === "form" && r.fundId === fundId);
  if (!pending) return "";
  const lock = runtime().documentLock();
  if (!lock?.tryLock(1000)) return "";
  try {
    const { held, settled } = settleBlockingWrites(
      { ...session, newKey: () => runtime().uuid() },
      { operation: "deposit", fundId, amount: 0 },
    );
    return [...settled, held ?? ""].filter((m) => m !== "").join(" ");
  } catch (_err) {
    return ""; // The fund's own read below says what is wrong.
  } finally {
    lock.releaseLock();
  }
}

/** Recent submissions per user, so that a double click never sends twice. */
export function recentSubmissions(): RecentSubmissions {
  const cache = runtime().userCache();
  return {
    get(requestId) {
      const text = cache?.get(`form:${requestId}`);
      if (!text) return null;
      try {
        return JSON.parse(text) as FormOutcome | "pending";
      } catch (_err) {
        return null;
      }
    },
    put(requestId, value) {
      cache?.put(`form:${requestId}`, JSON.stringify(value), 600);
    },
  };
}

/** The one path of every form write: arguments checked, sent once per request id. */
export function submitForm(operation: OutboxOperation, raw: unknown): FormOutcome {
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
  const outcome = once(recentSubmissions(), submission.requestId, session.language, () =>
    underLock(operation, session.language, () =>
      submitWrite({ ...session, newKey: () => runtime().uuid() }, operation, submission.fields),
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
  const lock = runtime().documentLock();
  if (!lock?.tryLock(10_000)) return { kind: "refused", message: translate(language, "outbox.run.busy") };
  try {
    return send();
  } finally {
    lock.releaseLock();
  }
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
