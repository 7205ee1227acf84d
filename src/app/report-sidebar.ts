/**
 * Report sidebar entry points: the selected rows of the Expense reports sheet (one or many),
 * and the marks its forms send for each of them: integrated (voucher code, date and time),
 * not integrated, custom status with a message.
 */

import type { ExpenseReport } from "../api";
import { ownData, ownMember } from "../api/arguments";
import { runtime } from "../gas/runtime";
import { policyCustomStatuses, type SelectedReport, selectedReports } from "../gas/selection";
import { formWriter, recentSubmissions } from "../gas/submissions";
import { type Language, type StringKey, translate } from "../i18n";
import { DATE_TIME } from "../outbox/cells";
import { type FormOutcome, once, readSubmission, recordedSubmissions, submitWrite } from "../outbox/forms";
import type { OutboxOperation } from "../outbox/operations";
import { isFailure } from "../refresh/engine";
import { clientReader } from "../refresh/reader";
import { customStatusSuggestions } from "../sheets/custom-statuses";
import { currentLanguage, entry } from "./entry";
import { openWriteSession } from "./outbox";

/**
 * A selected row as the service has its Id: number, title, employee and states read fresh
 * ("read"); none of them when the service has no report with that Id ("unknown") or the read
 * failed ("unread"): such a row cannot be marked.
 */
export interface ReportLine {
  id: number;
  check: "read" | "unknown" | "unread";
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
  results: { id: number; outcome: FormOutcome }[];
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

function reportSidebarView(): ReportSidebarView {
  const session = openWriteSession("sidebar");
  const spreadsheet = runtime().spreadsheet();
  const selected = selectedReports(spreadsheet, session.settings.sheetNames.reports);
  const reader = clientReader(session.client);
  const reports: ReportLine[] = [];
  const shown: Record<number, string> = {};
  const policies = new Set<number>();
  const seen: (readonly [unknown, unknown])[] = [];
  // In fetchAll batches of the refresh's default size.
  for (let i = 0; i < selected.length; i += 25) {
    const rows = selected.slice(i, i + 25);
    reader.batch(rows.map((r) => ({ kind: "report" as const, id: r.id }))).forEach((read, k) => {
      const row = rows[k] as SelectedReport;
      const r = (isFailure(read) ? null : read) as ExpenseReport | null;
      if (r) {
        shown[row.id] = r.reportNumber;
        policies.add(r.policyId);
        seen.push([r.policyId, r.customStatus]);
      }
      reports.push({
        id: row.id,
        check: r ? "read" : read ? "unread" : "unknown",
        sheetNumber: row.reportNumber,
        ...(r && {
          reportNumber: r.reportNumber,
          title: r.title,
          employeeName: r.employeeName,
          // A single report says whether it is integrated by its integration date.
          integrated: r.integrated ?? r.integrationDate !== null,
          customStatus: r.customStatus,
        }),
      });
    });
  }
  runtime().userCache()?.put(shownKey(), JSON.stringify(shown), 21600);
  const now = runtime().formatDate(new Date(), spreadsheet.getSpreadsheetTimeZone(), DATE_TIME);
  // Learnt at refresh: the statuses the Expense reports sheet shows for the same policies.
  if (policies.size > 0) seen.push(...policyCustomStatuses(spreadsheet, session.settings.sheetNames.reports));
  const customStatuses = customStatusSuggestions(seen, policies);
  session.finish();
  return {
    language: session.language,
    adminId: session.adminId,
    reports,
    now,
    customStatusSuggestions: customStatuses,
  };
}

/** Reads the report ids a form sent: 1 to 200 positive whole numbers. */
function reportIds(raw: unknown): number[] | null {
  if (typeof raw !== "object" || raw === null) return null;
  const ids = ownMember(raw, "reportIds");
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 200) return null;
  const out = ids.map((v) => (typeof v === "number" || typeof v === "string" ? Number(v) : Number.NaN));
  return out.every((n) => Number.isSafeInteger(n) && n > 0) ? [...new Set(out)] : null;
}

function markReports(operation: OutboxOperation, raw: unknown): ReportFormResult {
  return entry("sidebar", () => mark(operation, raw));
}

function mark(operation: OutboxOperation, raw: unknown): ReportFormResult {
  const session = openWriteSession("sidebar");
  const t = (key: StringKey, params: Record<string, string | number> = {}) =>
    translate(session.language, key, params);
  const ids = reportIds(raw);
  const submission = readSubmission(operation, ownData(raw));
  if (!ids || !submission.ok) {
    session.finish();
    const detail = !ids ? "reportIds" : submission.ok ? "" : submission.detail;
    const outcome: FormOutcome = {
      kind: "invalid",
      problems: [{ field: detail, message: t("form.invalidArguments", { detail }) }],
    };
    return { results: [{ id: 0, outcome }], summary: outcome.problems[0]?.message ?? "" };
  }
  const context = { ...session, newKey: () => runtime().uuid(), by: formWriter() };
  const recent = recordedSubmissions(recentSubmissions(), session.records, context.by, session.language);
  // Written by this user's own view only (no other editor reaches a user cache).
  const shown = JSON.parse(runtime().userCache()?.get(shownKey()) || "{}") as Record<number, unknown>;
  // The page sends, per Id, the report number it showed (`reportNumbers`: Id → number).
  const numbers = ownMember(raw, "reportNumbers");
  const results = ids.map((id) => ({
    id,
    outcome:
      (shown[id] ?? NaN) === ownMember(numbers, `${id}`)
        ? once(recent, `${submission.requestId}-${id}`, session.language, () =>
            submitWrite({ ...context, requestId: `${submission.requestId}-${id}` }, operation, {
              ...submission.fields,
              Id: id,
            }),
          )
        : ({ kind: "refused", message: t("form.report.notShown", { id }) } as FormOutcome),
  }));
  session.finish();
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
