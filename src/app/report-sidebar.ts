/**
 * Report sidebar entry points: the selected rows of the Expense reports sheet (one or many),
 * and the marks its forms send for each of them: integrated (voucher code, date and time),
 * not integrated, custom status with a message.
 */

import { ownData, ownMember } from "../api/arguments";
import { runtime } from "../gas/runtime";
import { type Language, type StringKey, translate } from "../i18n";
import { type FormOutcome, once, readSubmission, submitWrite } from "../outbox/forms";
import type { OutboxOperation } from "../outbox/operations";
import { REPORT_COLUMNS } from "../sheets/columns";
import { recentSubmissions } from "./fund-sidebar";
import { openWriteSession } from "./outbox";

export interface SelectedReport {
  id: number;
  reportNumber: string;
  title: string;
  employeeName: string;
  integrated: string;
  customStatus: string;
}

export interface ReportSidebarView {
  language: Language;
  adminId: number | null;
  reports: SelectedReport[];
  /** Now in the spreadsheet's time zone, YYYY-MM-DD HH:MM:SS: the default integration date. */
  now: string;
}

export interface ReportFormResult {
  results: { id: number; outcome: FormOutcome }[];
  summary: string;
}

/** Menu: opens the Report sidebar. */
export function showReportSidebar(): void {
  let language: Language = "en";
  try {
    language = openWriteSession("sidebar").language;
  } catch (_err) {
    // English until the settings can be read.
  }
  runtime().showSidebar("report", translate(language, "form.report.title"));
}

function headerTexts(key: string): string[] {
  const column = REPORT_COLUMNS.find((c) => c.key === key);
  if (!column || typeof column.header !== "string") return [];
  return [translate("en", column.header as StringKey), translate("es", column.header as StringKey)];
}

/** Sidebar: the reports of the selected rows of the Expense reports sheet. */
export function getReportSidebarView(): ReportSidebarView {
  const session = openWriteSession("sidebar");
  const spreadsheet = runtime().spreadsheet();
  const sheet = runtime().spreadsheet().getActiveSheet();
  const reports: SelectedReport[] = [];
  if (sheet && sheet.getName() === session.settings.sheetNames.reports && sheet.getLastColumn() > 0) {
    const header = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] ?? [];
    const col = (key: string) => {
      const texts = headerTexts(key);
      const index = header.findIndex((v) => typeof v === "string" && texts.includes(v));
      return index < 0 ? null : index;
    };
    const [idCol, numberCol, titleCol, nameCol, integratedCol, customCol] = [
      "id",
      "reportNumber",
      "title",
      "employeeName",
      "integrated",
      "customStatus",
    ].map(col);
    const rows = new Set<number>();
    for (const range of runtime().spreadsheet().getActiveRangeList()?.getRanges() ?? []) {
      for (let r = Math.max(2, range.getRow()); r <= range.getLastRow(); r += 1) rows.add(r);
    }
    if (idCol !== null && idCol !== undefined) {
      for (const r of [...rows].sort((a, b) => a - b).slice(0, 200)) {
        const values = sheet.getRange(r, 1, 1, sheet.getLastColumn()).getValues()[0] ?? [];
        const id = Number(values[idCol]);
        if (!Number.isSafeInteger(id) || id <= 0) continue;
        const text = (c: number | null | undefined) =>
          c === null || c === undefined ? "" : String(values[c] ?? "");
        reports.push({
          id,
          reportNumber: text(numberCol),
          title: text(titleCol),
          employeeName: text(nameCol),
          integrated: text(integratedCol),
          customStatus: text(customCol),
        });
      }
    }
  }
  const now = runtime().formatDate(new Date(), spreadsheet.getSpreadsheetTimeZone(), "yyyy-MM-dd HH:mm:ss");
  session.finish();
  return { language: session.language, adminId: session.adminId, reports, now };
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
  const recent = recentSubmissions();
  const context = { ...session, newKey: () => runtime().uuid() };
  const results = ids.map((id) => ({
    id,
    outcome: once(recent, `${submission.requestId}-${id}`, session.language, () =>
      submitWrite(context, operation, { ...submission.fields, Id: id }),
    ),
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
