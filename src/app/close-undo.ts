/**
 * "Undo a voucher": the reports integrated with a voucher's code are found for the chosen
 * company (§4.8 IntegrationCode, every page; nothing is sent), the person confirms exactly that
 * list, and they are set not integrated through the marking's engine (src/close/undo.ts), with
 * the marking's guarantees: this user's connection to that company (its token checked against
 * the account mark), a record of each batch before its calls leave (`close.mark.…`, that
 * company's), the document lock, the time budget, every call in the Audit sheet. A list that
 * changed between the two calls is refused, naming what changed. Once undone, the Journal
 * sheet's rows of the voucher say so, its code is forgotten among the marked ones, and the
 * journal's approval is void when it holds the voucher: it is marked again only after a new
 * approval.
 */
import { ownMember } from "../api/arguments";
import { moneyText } from "../api/money";
import { monthWindow, parseMonth } from "../close/month";
import type { MarkOutcome } from "../close/types";
import { lastYear, type UndoWindow, undoVoucher, type VoucherReport } from "../close/undo";
import { MAX_CODE_LENGTH } from "../close/voucher";
import { markReasonText } from "../close/words";
import { runtime } from "../gas/runtime";
import { type Language, translate } from "../i18n";
import { createTimeBudget } from "../longrun/budget";
import { saveText } from "../refresh/stored-text";
import { companyByKey, companyLabel, listedCompanies } from "../settings/companies";
import { CLOSE_APPROVAL_KEY, CLOSE_JOURNAL_KEY, closeUser, parseJson, withCloseLock } from "./close";
import { forgetMarkedVoucher, showUndoneVoucher, voucherRows } from "./close-journal-state";
import { propertyRecords } from "./close-marking";
import { currentLanguage, entry, settingsStore } from "./entry";
import { openWriteSession, type WriteSession } from "./outbox";

export interface VoucherFound {
  ok: boolean;
  message: string;
  company: string;
  code: string;
  /** One line per report: its number and amount. */
  reports: string[];
  /** Per currency: the count and the total. */
  totals: string[];
  count: number;
  /** The reports' Ids, to send back with the undo: the list confirmed. */
  ids: number[];
}

export interface VoucherUndone {
  ok: boolean;
  message: string;
  outcomes: MarkOutcome[];
  /** True when the undo stopped near the time limit: find the voucher again to go on. */
  more: boolean;
}

/** The company and code a call names, checked, and the window its reports are looked for in. */
function voucherInput(
  input: unknown,
  language: Language,
): { company: string; code: string; window: UndoWindow } {
  const company = ownMember(input, "company");
  const listed = listedCompanies(settingsStore().companies());
  if (typeof company !== "string" || !listed.some((c) => c.key === company))
    throw new Error(translate(language, "close.error.company"));
  const code = ownMember(input, "code");
  if (typeof code !== "string" || code.trim() === "" || code.length > MAX_CODE_LENGTH)
    throw new Error(translate(language, "close.undo.error.code"));
  const asked = ownMember(input, "month");
  const month = asked === undefined || asked === null || asked === "" ? null : parseMonth(asked);
  if (month === null && asked !== undefined && asked !== null && asked !== "")
    throw new Error(translate(language, "close.error.month"));
  return { company, code: code.trim(), window: voucherWindow(company, code.trim(), month) };
}

/**
 * Where a voucher's reports are looked for (§4.8 takes a year at most): the year up to the end
 * of the month asked, else of the Journal sheet's month when it holds the voucher (its reports
 * were closed in that month), else the year up to today.
 */
function voucherWindow(company: string, code: string, month: string | null): UndoWindow {
  const meta = parseJson(runtime().documentProperties().getProperty(CLOSE_JOURNAL_KEY)) as {
    month?: unknown;
  } | null;
  const journalMonth =
    typeof meta?.month === "string" && voucherRows(company, code).length > 0 ? parseMonth(meta.month) : null;
  const chosen = month ?? journalMonth;
  if (!chosen) return lastYear(Date.now());
  return lastYear(new Date(`${monthWindow(chosen).until}T12:00:00`).getTime());
}

/** This user's session to `company`, or why it cannot be used (its token, its account). */
function sessionTo(
  company: string,
  purpose: "read" | "write",
): { session: WriteSession; refusal: string | null } {
  const session = openWriteSession("sidebar", company, purpose);
  const port = session.companies(company);
  const refusal = session.unusable?.message ?? ("unusable" in port ? port.unusable : null);
  return { session, refusal };
}

/** The reports found, as the confirmation lists them: each, then the totals per currency. */
function foundLines(found: readonly VoucherReport[], language: Language) {
  const reports = found.map((r) =>
    translate(language, "close.undo.reportLine", {
      number: r.reportNumber || String(r.reportId),
      amount: moneyText(r.cents, r.currency, language),
    }),
  );
  const byCurrency = new Map<string, { count: number; cents: number }>();
  for (const r of found) {
    const t = byCurrency.get(r.currency) ?? { count: 0, cents: 0 };
    t.count++;
    t.cents += r.cents;
    byCurrency.set(r.currency, t);
  }
  const totals = [...byCurrency].map(([currency, t]) =>
    translate(language, "close.undo.totalLine", {
      currency,
      count: t.count,
      amount: moneyText(t.cents, currency, language),
    }),
  );
  return { reports, totals };
}

/** Sidebar: the reports of `company` integrated with the voucher `code` (`{company, code}`); sends nothing. */
export function closeFindVoucher(input: unknown): VoucherFound {
  return entry("sidebar", () => {
    const language = currentLanguage();
    const { company, code, window } = voucherInput(input, language);
    const { session, refusal } = sessionTo(company, "read");
    try {
      const none = { company, code, reports: [], totals: [], count: 0, ids: [] };
      if (refusal) return { ok: false, message: refusal, ...none };
      let found: VoucherReport[] = [];
      const records = propertyRecords(company);
      const clock = { now: () => Date.now() };
      undoVoucher(company, code, {
        clientOf: () => session.client,
        records,
        clock,
        window,
        confirm: (list) => {
          found = [...list];
          return false;
        },
      });
      const label = companyOrKey(company, language);
      if (found.length === 0)
        return {
          ok: false,
          message: translate(language, "close.undo.none", { code, company: label }),
          ...none,
        };
      const lines = foundLines(found, language);
      return {
        ok: true,
        message: translate(language, "close.undo.found", { code, company: label, count: found.length }),
        company,
        code,
        ...lines,
        count: found.length,
        ids: found.map((r) => r.reportId),
      };
    } finally {
      session.finish();
    }
  });
}

function companyOrKey(company: string, language: Language): string {
  const entry = companyByKey(settingsStore().companies(), company);
  return entry ? companyLabel(entry, language) : company;
}

/** What differs between the list confirmed and the one found now, in words; "" when nothing. */
function listChange(
  confirmed: readonly number[],
  found: readonly VoucherReport[],
  language: Language,
): string {
  const was = new Set(confirmed);
  const now = new Set(found.map((r) => r.reportId));
  const added = found.filter((r) => !was.has(r.reportId)).map((r) => r.reportNumber || String(r.reportId));
  const gone = confirmed.filter((id) => !now.has(id)).map(String);
  const parts: string[] = [];
  if (added.length > 0)
    parts.push(translate(language, "close.undo.changed.added", { reports: added.join(", ") }));
  if (gone.length > 0) parts.push(translate(language, "close.undo.changed.gone", { ids: gone.join(", ") }));
  return parts.join("; ");
}

/** The undo's outcome in the user's words: the count undone, then each report that is not. */
function undoneText(
  found: readonly VoucherReport[],
  outcomes: readonly MarkOutcome[],
  more: boolean,
  language: Language,
): string {
  const numberOf = (id: number) => found.find((r) => r.reportId === id)?.reportNumber || String(id);
  const done = outcomes.filter((o) => o.kind === "done").length;
  const lines = [translate(language, "close.undo.done", { done, count: found.length })];
  for (const o of outcomes) {
    const report = numberOf(o.reportId);
    if (o.kind === "otherCode")
      lines.push(translate(language, "close.undo.otherCode", { report, code: o.code, voucher: o.voucher }));
    else if (o.kind === "unknown" || o.kind === "refused")
      lines.push(
        translate(language, o.kind === "unknown" ? "close.undo.unknown" : "close.undo.refused", {
          report,
          voucher: o.voucher,
          reason: markReasonText(o.reason, language),
        }),
      );
  }
  if (more) lines.push(translate(language, "close.undo.more"));
  return lines.join("\n");
}

/**
 * Sidebar: sets not integrated the reports of `company`'s voucher `code`, once the person
 * confirmed exactly the list `ids` that closeFindVoucher gave (`{company, code, ids}`).
 */
export function closeUndoVoucher(input: unknown): VoucherUndone {
  return entry("sidebar", () => {
    const language = currentLanguage();
    const { company, code, window } = voucherInput(input, language);
    const ids = ownMember(input, "ids");
    if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id) && id > 0))
      throw new Error(translate(language, "close.undo.error.ids"));
    return withCloseLock(language, () => undoConfirmed(company, code, window, ids as number[], language));
  });
}

function undoConfirmed(
  company: string,
  code: string,
  window: UndoWindow,
  ids: readonly number[],
  language: Language,
): VoucherUndone {
  const { session, refusal } = sessionTo(company, "write");
  try {
    if (refusal) return { ok: false, message: refusal, outcomes: [], more: false };
    const clock = { now: () => Date.now() };
    let change = "";
    const result = undoVoucher(company, code, {
      clientOf: () => session.client,
      records: propertyRecords(company),
      clock,
      budget: createTimeBudget({ clock }),
      window,
      confirm: (found) => {
        change = listChange(ids, found, language);
        return change === "";
      },
    });
    if (!result.confirmed) {
      const message =
        result.found.length === 0 && ids.length === 0
          ? translate(language, "close.undo.none", { code, company: companyOrKey(company, language) })
          : translate(language, "close.undo.changed", { code, changes: change });
      return { ok: false, message, outcomes: [], more: false };
    }
    const done = result.outcomes.filter((o) => o.kind === "done").length;
    showUndoneVoucher(company, code, done, result.found.length, closeUser(), language);
    if (done === result.found.length && !result.mustContinue) forgetMarkedVoucher(company, code);
    // The approval covered this voucher: it is marked again only once approved again.
    if (done > 0 && voucherRows(company, code).length > 0)
      saveText(runtime().documentProperties(), CLOSE_APPROVAL_KEY, "");
    const ok = !result.mustContinue && done === result.found.length;
    return {
      ok,
      message: undoneText(result.found, result.outcomes, result.mustContinue, language),
      outcomes: result.outcomes,
      more: result.mustContinue,
    };
  } finally {
    session.finish();
  }
}
