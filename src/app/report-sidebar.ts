/**
 * Report sidebar entry points: the selected rows of the Expense reports sheet (one or many),
 * and the marks its forms send for each of them: integrated (voucher code, date and time),
 * not integrated, custom status with a message.
 */

import type { ExpenseReport } from "../api";
import { ownData, ownMember } from "../api/arguments";
import { FIRST_COMPANY_KEY } from "../company/model";
import { runtime } from "../gas/runtime";
import { policyCustomStatuses, type SelectedReport, selectedReports } from "../gas/selection";
import { formWriter, recentSubmissions } from "../gas/submissions";
import { type Language, type StringKey, translate } from "../i18n";
import { DATE_TIME } from "../outbox/cells";
import { type FormOutcome, once, readSubmission, recordedSubmissions, submitWrite } from "../outbox/forms";
import type { OutboxOperation } from "../outbox/operations";
import { formWords } from "../outbox/words";
import { isFailure } from "../refresh/engine";
import { clientReader } from "../refresh/reader";
import { type CompanyEntry, listedCompanies } from "../settings/companies";
import { customStatusSuggestions } from "../sheets/custom-statuses";
import { companyOfSelectedRow } from "../sheets/words";
import { currentLanguage, entry, settingsStore } from "./entry";
import { loadWriteSettings, openWriteSession, type WriteSession } from "./outbox";

/**
 * A selected row as the service has its Id: number, title, employee and states read fresh
 * ("read"); none of them when the service has no report with that Id ("unknown") or the read
 * failed ("unread"): such a row cannot be marked.
 */
export interface ReportLine {
  id: number;
  /** "refused": the row's company could not be told (`message` says why), or is not usable now. */
  check: "read" | "unknown" | "unread" | "refused";
  /** With several companies: the key and name of the row's company (reports' Ids repeat across them). */
  company?: string;
  companyName?: string;
  /** Why the row is refused. */
  message?: string;
  /** The report number in the row's cell (another editor may have changed the Id beside it). */
  sheetNumber: string;
  reportNumber?: string;
  title?: string;
  employeeName?: string;
  integrated?: boolean;
  customStatus?: string;
}

export interface ReportSidebarView {
  language: Language;
  adminId: number | null;
  reports: ReportLine[];
  /** Now in the spreadsheet's time zone, YYYY-MM-DD HH:MM:SS: the default integration date. */
  now: string;
  /** Custom statuses already seen on reports of the selected reports' policies (suggestions). */
  customStatusSuggestions: string[];
}

export interface ReportFormResult {
  /** Each report's outcome; `company` (its key) with several companies. */
  results: { id: number; company?: string; outcome: FormOutcome }[];
  summary: string;
}

/** Menu: opens the Report sidebar. */
export function showReportSidebar(): void {
  entry("menu", () => runtime().showSidebar("report", translate(currentLanguage(), "form.report.title")));
}

/** Sidebar: the reports of the selected rows of the Expense reports sheet. */
export function getReportSidebarView(): ReportSidebarView {
  return entry("sidebar", reportSidebarView);
}

/**
 * What this user's sidebar showed last in this spreadsheet, report Id → the service's number
 * (user cache, which every spreadsheet of theirs shares: the key ends with this one's id): a
 * mark goes only to a report shown read from the service, whatever the page or the sheet says.
 */
const shownKey = () => `reports:shown${runtime().spreadsheet().getId()}`;

/** A report's entry in what was shown: its Id for the first company (as before companies), "K|Id" for another. */
const shownEntry = (company: string, id: number) =>
  company === FIRST_COMPANY_KEY ? `${id}` : `${company}|${id}`;

/** A write session per company, opened when first needed; each finished once. */
function sessionsByCompany(purpose: "read" | "write") {
  const sessions = new Map<string, WriteSession>();
  return {
    of(key: string): WriteSession {
      let session = sessions.get(key);
      if (!session) {
        session = openWriteSession("sidebar", key, purpose);
        sessions.set(key, session);
      }
      return session;
    },
    finish: () => {
      for (const session of sessions.values()) session.finish();
    },
  };
}

function reportSidebarView(): ReportSidebarView {
  const settings = loadWriteSettings();
  const language = settings.language;
  const registry = settingsStore().companies();
  const several = listedCompanies(registry).length > 1;
  const spreadsheet = runtime().spreadsheet();
  const selected = selectedReports(spreadsheet, settings.sheetNames.reports);
  const sessions = sessionsByCompany("read");
  // Each row's company, from its Company and Company key cells: a refused row is read by none.
  const reports: (ReportLine | null)[] = selected.map(() => null);
  const groups = new Map<string, { company: CompanyEntry; at: number[] }>();
  selected.forEach((row, at) => {
    const choice = companyOfSelectedRow(
      row.cells,
      row.header,
      registry,
      row.row,
      true,
      row.id,
      language,
      settings.sheetNames.reports,
    );
    if (!choice.ok) {
      reports[at] = { id: row.id, check: "refused", sheetNumber: row.reportNumber, message: choice.message };
      return;
    }
    const company = choice.company as CompanyEntry;
    const group = groups.get(company.key) ?? { company, at: [] };
    group.at.push(at);
    groups.set(company.key, group);
  });
  const shown: Record<string, string> = {};
  const policies = new Set<number>();
  const seen: (readonly [unknown, unknown])[] = [];
  for (const [key, group] of groups) {
    const session = sessions.of(key);
    const named = several ? { company: key, companyName: group.company.name } : {};
    if (several && session.unusable) {
      const message = session.unusable.message;
      for (const at of group.at) {
        const row = selected[at] as SelectedReport;
        reports[at] = { id: row.id, check: "refused", sheetNumber: row.reportNumber, message, ...named };
      }
      continue;
    }
    const reader = clientReader(session.client);
    // In fetchAll batches of the refresh's default size.
    for (let i = 0; i < group.at.length; i += 25) {
      const rows = group.at.slice(i, i + 25);
      reader
        .batch(rows.map((at) => ({ kind: "report" as const, id: (selected[at] as SelectedReport).id })))
        .forEach((read, k) => {
          const at = rows[k] as number;
          const row = selected[at] as SelectedReport;
          const r = (isFailure(read) ? null : read) as ExpenseReport | null;
          if (r) {
            shown[shownEntry(key, row.id)] = r.reportNumber;
            policies.add(r.policyId);
            seen.push([r.policyId, r.customStatus]);
          }
          reports[at] = {
            id: row.id,
            check: r ? "read" : read ? "unread" : "unknown",
            sheetNumber: row.reportNumber,
            ...named,
            ...(r && {
              reportNumber: r.reportNumber,
              title: r.title,
              employeeName: r.employeeName,
              // A single report says whether it is integrated by its integration date.
              integrated: r.integrated ?? r.integrationDate !== null,
              customStatus: r.customStatus,
            }),
          };
        });
    }
  }
  runtime().userCache()?.put(shownKey(), JSON.stringify(shown), 21600);
  const now = runtime().formatDate(new Date(), spreadsheet.getSpreadsheetTimeZone(), DATE_TIME);
  // Learnt at refresh: the statuses the Expense reports sheet shows for the same policies.
  if (policies.size > 0) seen.push(...policyCustomStatuses(spreadsheet, settings.sheetNames.reports));
  const customStatuses = customStatusSuggestions(seen, policies);
  // With no row of a usable company, the first company's session (as before companies).
  const first = sessions.of(groups.keys().next().value ?? FIRST_COMPANY_KEY);
  sessions.finish();
  return {
    language: first.language,
    adminId: first.adminId,
    reports: reports as ReportLine[],
    now,
    customStatusSuggestions: customStatuses,
  };
}

/** A report a form asks to mark: its Id, its company and the number the page showed for it. */
interface AskedReport {
  id: number;
  company: string;
  number: unknown;
}

/**
 * Reads the reports a form sent: 1 to 200, each a positive whole number. With several
 * companies the page sends `reports` ({ id, company, reportNumber } each); otherwise, as before
 * companies, `reportIds` and `reportNumbers` (Id → number), all of the only company.
 */
function askedReports(raw: unknown, only: string): AskedReport[] | null {
  if (typeof raw !== "object" || raw === null) return null;
  const listed = ownMember(raw, "reports");
  const idOf = (v: unknown) => (typeof v === "number" || typeof v === "string" ? Number(v) : Number.NaN);
  let out: AskedReport[];
  if (listed !== undefined) {
    if (!Array.isArray(listed) || listed.length === 0 || listed.length > 200) return null;
    out = listed.map((r) => {
      const company = ownMember(r, "company");
      return {
        id: idOf(ownMember(r, "id")),
        company: typeof company === "string" ? company : "",
        number: ownMember(r, "reportNumber"),
      };
    });
  } else {
    const ids = ownMember(raw, "reportIds");
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 200) return null;
    // The page sends, per Id, the report number it showed (`reportNumbers`: Id → number).
    const numbers = ownMember(raw, "reportNumbers");
    out = ids.map((v) => ({ id: idOf(v), company: only, number: ownMember(numbers, `${idOf(v)}`) }));
  }
  if (!out.every((r) => Number.isSafeInteger(r.id) && r.id > 0)) return null;
  const unique = new Map(out.map((r) => [shownEntry(r.company, r.id), r]));
  return [...unique.values()];
}

function markReports(operation: OutboxOperation, raw: unknown): ReportFormResult {
  return entry("sidebar", () => mark(operation, raw));
}

function mark(operation: OutboxOperation, raw: unknown): ReportFormResult {
  const registry = settingsStore().companies();
  const live = listedCompanies(registry);
  const several = live.length > 1;
  const language = currentLanguage();
  const t = (key: StringKey, params: Record<string, string | number> = {}) =>
    translate(language, key, params);
  const asked = askedReports(raw, live[0]?.key ?? FIRST_COMPANY_KEY);
  const submission = readSubmission(operation, ownData(raw));
  if (!asked || !submission.ok) {
    const detail = !asked ? "reportIds" : submission.ok ? "" : submission.detail;
    const outcome: FormOutcome = {
      kind: "invalid",
      problems: [{ field: detail, message: t("form.invalidArguments", { detail }) }],
    };
    return { results: [{ id: 0, outcome }], summary: outcome.problems[0]?.message ?? "" };
  }
  const sessions = sessionsByCompany("write");
  // Written by this user's own view only (no other editor reaches a user cache).
  const shown = JSON.parse(runtime().userCache()?.get(shownKey()) || "{}") as Record<string, unknown>;
  const results = asked.map(({ id, company, number }) => {
    const named = several ? { company } : {};
    // Only a report shown read from its company's service, with the number shown, is marked.
    const known = live.some((c) => c.key === company);
    if (!known || (shown[shownEntry(company, id)] ?? NaN) !== number)
      return {
        id,
        ...named,
        outcome: { kind: "refused", message: t("form.report.notShown", { id }) } as FormOutcome,
      };
    const session = sessions.of(company);
    if (several && session.unusable)
      return { id, ...named, outcome: { kind: "refused", message: session.unusable.message } as FormOutcome };
    const context = {
      ...session,
      words: formWords(session.language),
      numbers: session.language,
      newKey: () => runtime().uuid(),
      by: formWriter(),
      company,
    };
    const recent = recordedSubmissions(recentSubmissions(), session.records, context.by, context.words);
    const requestId =
      company === FIRST_COMPANY_KEY
        ? `${submission.requestId}-${id}`
        : `${submission.requestId}-${company}-${id}`;
    return {
      id,
      ...named,
      outcome: once(recent, requestId, context.words, () =>
        submitWrite({ ...context, requestId }, operation, { ...submission.fields, Id: id }),
      ) as FormOutcome,
    };
  });
  sessions.finish();
  const count = (kind: FormOutcome["kind"]) => results.filter((r) => r.outcome.kind === kind).length;
  return {
    results,
    summary: t("form.report.summary", {
      done: count("done"),
      refused: count("refused") + count("invalid"),
      unknown: count("unknown"),
    }),
  };
}

/** Sidebar: marks the given reports integrated with a voucher code and a date and time. */
export function markReportsIntegrated(form: unknown): ReportFormResult {
  return markReports("markIntegrated", form);
}

/** Sidebar: marks the given reports not integrated. */
export function markReportsNotIntegrated(form: unknown): ReportFormResult {
  return markReports("markNotIntegrated", form);
}

/** Sidebar: sets a custom status (and an optional message to the employee) on the given reports. */
export function setReportsCustomStatus(form: unknown): ReportFormResult {
  return markReports("setCustomStatus", form);
}
