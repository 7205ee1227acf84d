/**
 * The Outbox sheet in Apps Script: menu entry points (create the sheet, preview, run) and the
 * write session shared with the sidebar forms (client, audit, settings, sheets updated from
 * each response). The decisions live in src/outbox/; this file only hands them the services.
 */

import { createClient, formatCents, responseAmountToCents } from "../api";
import { type AuditSink, createAuditLog } from "../audit/log";
import { auditSheetSink } from "../gas/audit-sheet";
import { documentSettingsStore, documentWriteRecords } from "../gas/properties";
import { runtime } from "../gas/runtime";
import { auditUser } from "../gas/session";
import { appsScriptClock, urlFetchTransport } from "../gas/transport";
import { type Language, type StringKey, translate } from "../i18n";
import { EXECUTION_LIMIT_MS } from "../longrun/budget";
import { writeAudit } from "../outbox/audit";
import type { DateFormatter } from "../outbox/cells";
import {
  type CellValue,
  columnNumber,
  FIRST_OWNED_COLUMN,
  headerKey,
  OUTBOX_COLUMNS,
  OWNED_COLUMNS,
  type OwnedCells,
  ownedCellsToRow,
  TEXT_COLUMNS,
} from "../outbox/columns";
import { FUND_STATUSES, fundStatusLabel, OUTBOX_OPERATIONS, operationLabel } from "../outbox/operations";
import { type FundFacts, previewOutbox as planPreview, previewText } from "../outbox/preview";
import type { RecordStore } from "../outbox/records";
import { readOutboxRow } from "../outbox/rows";
import { type OutboxSheetPort, outboxBudgetMs, type RunSummary, runOutbox as runRows } from "../outbox/run";
import { servicePort } from "../outbox/service";
import type { WriteContext, WriteResult } from "../outbox/write";
import { sheetNamesFrom } from "../refresh/options";
import { FORMAT, rewritableValue } from "../sheets/cells";
import { FUND_COLUMNS, FUNDS_TABLE, rowOf } from "../sheets/columns";
import { countUrlFetchCalls } from "./quota";
import { EXECUTION_LIMIT_KEY } from "./schedule";

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/**
 * The execution limit a run plans with: Google's 6 minutes, or less when the document asks for
 * less (the same document property the refreshes read: a deployment or test with a shorter
 * limit). Never more. A run stops between rows at two thirds of it (`outboxBudgetMs`).
 */
function executionLimitMs(): number {
  const asked = Number(runtime().documentProperties().getProperty(EXECUTION_LIMIT_KEY));
  return asked > 0 && asked < EXECUTION_LIMIT_MS ? asked : EXECUTION_LIMIT_MS;
}

// ---------------------------------------------------------------------------------------------
// Settings as the write paths need them.

export interface WriteSettings {
  baseUrl: string;
  /** The current user's own token (user properties); "" when none is saved. */
  token: string;
  /** IdAdmin for writes; null when not set (writes are then refused with IdAdmin's message). */
  adminId: number | null;
  language: Language;
  sheetNames: { funds: string; reports: string; audit: string; auditArchive: string; outbox: string };
}

/** The settings of this document and user (src/settings/ reads them), with defaults. */
export function loadWriteSettings(): WriteSettings {
  const store = documentSettingsStore();
  const form = store.fields();
  const chosen = form.language === "es" || form.language === "en" ? form.language : null;
  const language: Language = chosen ?? userLanguageFallback();
  // A stored value that breaks its rule falls back to its default here; the settings sidebar
  // shows the problem.
  const { settings } = store.load(language);
  const names = sheetNamesFrom(form, language);
  return {
    baseUrl: settings.baseUrl,
    // Read where a path sends requests (openWriteSession): a token bound to another origin
    // than this URL stops that path there with the notice; paths that only need the sheet
    // names are not stopped.
    get token() {
      return store.token(settings.baseUrl, language);
    },
    adminId: settings.adminId,
    language,
    sheetNames: {
      funds: names.funds,
      reports: names.reports,
      audit: names.audit,
      auditArchive: names.auditArchive,
      outbox: names.outbox,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The write session: what every write path (outbox, fund and report forms) shares.

export interface WriteSession extends WriteContext {
  settings: WriteSettings;
  language: Language;
  adminId: number | null;
  format: DateFormatter;
  /** Brings the Funds or Expense reports sheet in line with a write's response. */
  applyResult(result: WriteResult): void;
  /** The add-on's records of writes (document properties), shared by the Outbox and the forms. */
  records: RecordStore;
  /** Appends the reads recorded during the session to the audit (one batch). */
  finish(): void;
}

export function dateFormatter(spreadsheet: Spreadsheet): DateFormatter {
  const zone = spreadsheet.getSpreadsheetTimeZone();
  return (date, pattern) => runtime().formatDate(date, zone, pattern);
}

/**
 * The audit sheet, reached only when the first row is written: opening a sidebar must not
 * create it, and creating it (insertSheet activates the new sheet) must not move the user's
 * selection, which the forms read.
 */
function lazyAuditSink(spreadsheet: Spreadsheet, options: Parameters<typeof auditSheetSink>[0]): AuditSink {
  let sink: AuditSink | null = null;
  const open = (): AuditSink => {
    if (sink) return sink;
    const sheet = spreadsheet.getActiveSheet();
    const range = spreadsheet.getActiveRange();
    sink = auditSheetSink(options);
    if (sheet && spreadsheet.getActiveSheet().getName() !== sheet.getName()) {
      spreadsheet.setActiveSheet(sheet);
      if (range) spreadsheet.setActiveRange(range);
    }
    return sink;
  };
  return {
    append: (rows) => open().append(rows),
    update: (rowNumber, row) => open().update(rowNumber, row),
    flush: () => runtime().flush(),
  };
}

/** Opens a write session for `source`; throws a plain message when the connection is not set. */
export function openWriteSession(source: "outbox" | "sidebar" | "menu"): WriteSession {
  const spreadsheet = runtime().spreadsheet();
  const settings = loadWriteSettings();
  const language = settings.language;
  const log = createAuditLog(
    lazyAuditSink(spreadsheet, {
      name: settings.sheetNames.audit,
      archiveName: settings.sheetNames.auditArchive,
      language,
    }),
    {
      user: auditUser(source),
      source,
      secrets: settings.token ? [settings.token] : [],
      now: () => new Date(),
    },
  );
  const audit = writeAudit(log, language);
  let counted = 0;
  const client = createClient({
    transport: urlFetchTransport(),
    baseUrl: settings.baseUrl,
    token: settings.token,
    clock: appsScriptClock(),
    onCall: audit.onCall,
  });
  const format = dateFormatter(spreadsheet);
  return {
    settings,
    language,
    adminId: settings.adminId,
    format,
    // Reads need no IdAdmin; writes without one are refused by the contract's check first.
    service: servicePort(client, settings.adminId ?? 0),
    audit: audit.port,
    now: () => new Date(),
    applyResult: (result) => applyResultToSheets(spreadsheet, settings, result),
    records: documentWriteRecords(),
    finish: () => {
      audit.flushReads();
      // The calls since the last finish go to today's UrlFetch count.
      countUrlFetchCalls(audit.requests() - counted);
      counted = audit.requests();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The Funds and Expense reports sheets, updated from a write's response without a refresh.

/** 1-based column of each header text (either language) in row 1 of `sheet`. */
function headerColumns(sheet: Sheet): Map<string, number> {
  const lastColumn = sheet.getLastColumn();
  const map = new Map<string, number>();
  if (lastColumn === 0) return map;
  sheet
    .getRange(1, 1, 1, lastColumn)
    .getValues()[0]
    ?.forEach((value, index) => {
      if (typeof value === "string" && value !== "" && !map.has(value)) map.set(value, index + 1);
    });
  return map;
}

function columnOfKey(headers: Map<string, number>, header: StringKey): number | undefined {
  return headers.get(translate("en", header)) ?? headers.get(translate("es", header));
}

/** Row number whose first cell holds `id`, or null. */
function rowOfId(sheet: Sheet, id: number): number | null {
  const last = sheet.getLastRow();
  if (last < 2) return null;
  const ids = sheet.getRange(2, 1, last - 1, 1).getValues();
  const index = ids.findIndex((r) => String(r[0]) === String(id));
  return index < 0 ? null : index + 2;
}

function applyResultToSheets(spreadsheet: Spreadsheet, settings: WriteSettings, result: WriteResult): void {
  const language = settings.language;
  if (result.kind === "fund") {
    const fund = result.fund.record;
    const sheet = spreadsheet.getSheetByName(settings.sheetNames.funds);
    if (!fund || !sheet) return;
    const row = rowOfId(sheet, fund.id);
    if (row === null) return; // A new fund shows up at the next refresh, in its place by Id.
    const headers = headerColumns(sheet);
    const cells = rowOf(FUNDS_TABLE, fund, language);
    FUND_COLUMNS.forEach((column, index) => {
      if (column.key === "refreshNote" || typeof column.header !== "string") return;
      const col = columnOfKey(headers, column.header);
      const value = cells[index];
      if (col !== undefined && value !== undefined) {
        sheet.getRange(row, col).setValue(rewritableValue(value, column.format));
      }
    });
    return;
  }
  const sheet = spreadsheet.getSheetByName(settings.sheetNames.reports);
  if (!sheet) return;
  const row = rowOfId(sheet, result.report.id);
  if (row === null) return;
  const headers = headerColumns(sheet);
  const set = (header: StringKey, value: CellValue, format: string) => {
    const col = columnOfKey(headers, header);
    if (col !== undefined) sheet.getRange(row, col).setValue(rewritableValue(value, format));
  };
  const report = result.report;
  if (report.integrated !== undefined) {
    set(
      "col.integrated" as StringKey,
      translate(language, report.integrated ? "flag.yes" : "flag.no"),
      FORMAT.text,
    );
    set("col.integrationCode" as StringKey, report.integrationCode ?? "", FORMAT.text);
    set("col.integrationDate" as StringKey, report.integrationDate ?? "", FORMAT.datetime);
  }
  if (report.customStatus !== undefined)
    set("col.customStatus" as StringKey, report.customStatus, FORMAT.text);
}

// ---------------------------------------------------------------------------------------------
// The Outbox sheet.

function outboxSheet(spreadsheet: Spreadsheet, settings: WriteSettings): Sheet | null {
  return (
    spreadsheet.getSheetByName(settings.sheetNames.outbox) ??
    spreadsheet.getSheetByName(translate("en", "outbox.sheetName")) ??
    spreadsheet.getSheetByName(translate("es", "outbox.sheetName"))
  );
}

const FORMATS: Partial<Record<(typeof OUTBOX_COLUMNS)[number], string>> = {
  targetId: "0",
  employeeId: "0",
  // Plain text: an amount is read exactly as typed, so "10,50" reaches the contract's check
  // (and its message) instead of being turned into 1050 or 10.5 by the sheet's locale.
  amount: FORMAT.text,
  integrationDate: FORMAT.datetime,
  expirationDate: FORMAT.date,
  time: FORMAT.datetime,
};

function formatOf(column: (typeof OUTBOX_COLUMNS)[number]): string {
  return FORMATS[column] ?? (TEXT_COLUMNS.includes(column) ? FORMAT.text : FORMAT.general);
}

const OWNED_FORMATS = OWNED_COLUMNS.map(formatOf);

/** The Outbox sheet as a run reads and writes it. */
export function outboxSheetPort(sheet: Sheet): OutboxSheetPort {
  const width = OUTBOX_COLUMNS.length;
  const keyColumn = columnNumber("operationKey");
  return {
    lastRow: () => sheet.getLastRow(),
    readRow: (rowNumber) => (sheet.getRange(rowNumber, 1, 1, width).getValues()[0] ?? []) as CellValue[],
    readAll() {
      const last = sheet.getLastRow();
      return last < 2 ? [] : (sheet.getRange(2, 1, last - 1, width).getValues() as CellValue[][]);
    },
    readOperationKeys() {
      const last = sheet.getLastRow();
      if (last < 2) return [];
      return sheet
        .getRange(2, keyColumn, last - 1, 1)
        .getValues()
        .map((r) => String(r[0] ?? ""));
    },
    writeOwned(rowNumber, cells: OwnedCells) {
      const range = sheet.getRange(rowNumber, FIRST_OWNED_COLUMN, 1, OWNED_COLUMNS.length);
      // Plain text formats first: the result may quote the service, which must stay literal.
      range.setNumberFormats([OWNED_FORMATS]);
      range.setValues([ownedCellsToRow(cells)]);
    },
    flush: () => runtime().flush(),
  };
}

function userLanguageFallback(): Language {
  try {
    return /^es/i.test(runtime().userLocale()) ? "es" : "en";
  } catch (_err) {
    return "en";
  }
}

function settingsOrNull(): WriteSettings | null {
  try {
    return loadWriteSettings();
  } catch (_err) {
    return null;
  }
}

/** Menu: creates the Outbox sheet with its headers, dropdowns and formats (or says it exists). */
export function createOutboxSheet(): void {
  const spreadsheet = runtime().spreadsheet();
  const settings = settingsOrNull();
  const language = settings?.language ?? userLanguageFallback();
  const ui = runtime().ui();
  const name = settings?.sheetNames.outbox ?? translate(language, "outbox.sheetName");
  if (spreadsheet.getSheetByName(name)) {
    ui.alert(translate(language, "outbox.exists"));
    return;
  }
  const sheet = spreadsheet.insertSheet(name);
  setUpOutboxSheet(sheet, language);
  ui.alert(translate(language, "outbox.created"));
}

/** Headers, formats, dropdowns and protections of a new Outbox sheet. */
export function setUpOutboxSheet(sheet: Sheet, language: Language): void {
  const width = OUTBOX_COLUMNS.length;
  sheet.getRange(1, 1, 1, width).setValues([OUTBOX_COLUMNS.map((c) => translate(language, headerKey(c)))]);
  sheet.setFrozenRows(1);
  // The Sent column shows what the add-on sent, for reading only: narrow, with a note.
  const snapshot = columnNumber("snapshot");
  sheet.setColumnWidth(snapshot, 40);
  sheet.getRange(1, snapshot).setNote(translate(language, "outbox.snapshotNote"));
  applyOutboxRules(sheet, language, 2);
}

/** Document property: the rows of each Outbox sheet its formats, dropdowns and protection cover. */
const RULES_ROWS_KEY = "outbox.rulesRows.";

/**
 * Number formats, dropdowns and the warning protection of the add-on's columns, from `fromRow`
 * to the sheet's last row. A sheet grown since (rows added below the first 1,000) gets them on
 * its new rows at the next Preview or Run, so every row works the same.
 */
function applyOutboxRules(sheet: Sheet, language: Language, fromRow: number): void {
  const width = OUTBOX_COLUMNS.length;
  const maxRows = sheet.getMaxRows();
  const rows = maxRows - fromRow + 1;
  if (rows > 0) {
    sheet
      .getRange(fromRow, 1, rows, width)
      .setNumberFormats(Array.from({ length: rows }, () => OUTBOX_COLUMNS.map(formatOf)));
    const list = (column: (typeof OUTBOX_COLUMNS)[number], values: string[]) => {
      // Invalid entries are allowed (with a warning) so that labels in the other language still work.
      const rule = runtime()
        .newDataValidation()
        .requireValueInList(values, true)
        .setAllowInvalid(true)
        .build();
      sheet.getRange(fromRow, columnNumber(column), rows, 1).setDataValidation(rule);
    };
    list(
      "operation",
      OUTBOX_OPERATIONS.map((op) => operationLabel(language, op)),
    );
    list(
      "fundStatus",
      FUND_STATUSES.map((s) => fundStatusLabel(language, s)),
    );
    const yesNo = [translate(language, "outbox.yes"), translate(language, "outbox.no")];
    for (const column of ["flexible", "autoDeposit", "autoBlock"] as const) list(column, yesNo);
    // Users may not lock themselves out; a warning is the protection an add-on can give.
    const top = fromRow === 2 ? 1 : fromRow;
    const protection = sheet
      .getRange(top, FIRST_OWNED_COLUMN, maxRows - top + 1, OWNED_COLUMNS.length)
      .protect();
    protection.setDescription(translate(language, "outbox.col.state")).setWarningOnly(true);
  }
  runtime()
    .documentProperties()
    ?.setProperty(RULES_ROWS_KEY + sheet.getName(), String(maxRows));
}

/** Extends the rules to rows added since they were last applied. */
function extendOutboxRules(sheet: Sheet, language: Language): void {
  const covered = Number(
    runtime()
      .documentProperties()
      ?.getProperty(RULES_ROWS_KEY + sheet.getName()),
  );
  // A sheet from before this was kept: its first 1,000 rows were set up when it was made.
  const from = Number.isInteger(covered) && covered > 0 ? covered + 1 : 1001;
  if (sheet.getMaxRows() >= from) applyOutboxRules(sheet, language, from);
}

function readRows(sheet: Sheet) {
  const last = sheet.getLastRow();
  if (last < 2) return [];
  return sheet
    .getRange(2, 1, last - 1, OUTBOX_COLUMNS.length)
    .getValues()
    .map((values, i) => readOutboxRow(values as CellValue[], i + 2));
}

/** What the preview knows of each fund: its row of the Funds sheet, else a fresh read. */
function fundFactsSource(spreadsheet: Spreadsheet, session: WriteSession): (id: number) => FundFacts | null {
  const fromSheet = new Map<number, FundFacts>();
  const sheet = spreadsheet.getSheetByName(session.settings.sheetNames.funds);
  if (sheet && sheet.getLastRow() >= 2) {
    const headers = headerColumns(sheet);
    const col = (key: string) => {
      const column = FUND_COLUMNS.find((c) => c.key === key);
      return column && typeof column.header === "string" ? columnOfKey(headers, column.header) : undefined;
    };
    const [idCol, currencyCol, balanceCol, flexibleCol, statusCol] = [
      "id",
      "currency",
      "balance",
      "flexible",
      "status",
    ].map(col);
    if (idCol && currencyCol && balanceCol && flexibleCol && statusCol) {
      const values = sheet.getRange(2, 1, sheet.getLastRow() - 1, sheet.getLastColumn()).getValues();
      const yes = new Set([
        translate("en", "flag.yes" as StringKey),
        translate("es", "flag.yes" as StringKey),
      ]);
      const statusOf = (text: unknown) =>
        FUND_STATUSES.find(
          (s) =>
            text === translate("en", `status.fund.${s}` as StringKey) ||
            text === translate("es", `status.fund.${s}` as StringKey),
        );
      for (const row of values) {
        const id = Number(row[idCol - 1]);
        // The balance cell's number read digit by digit into cents, never multiplied as a float;
        // a cell that is not an amount leaves the fund to a fresh read.
        const balance = responseAmountToCents(row[balanceCol - 1]);
        const status = statusOf(row[statusCol - 1]);
        if (!Number.isSafeInteger(id) || balance === null || status === undefined) continue;
        fromSheet.set(id, {
          currency: String(row[currencyCol - 1]),
          balance,
          flexible: yes.has(String(row[flexibleCol - 1])),
          status,
        });
      }
    }
  }
  return (id) => {
    const known = fromSheet.get(id);
    if (known) return known;
    try {
      const fund = session.service.getFund(id);
      const facts: FundFacts = {
        currency: fund.currency,
        balance: fund.balance,
        flexible: fund.flexible,
        status: fund.status,
      };
      fromSheet.set(id, facts);
      return facts;
    } catch (_err) {
      return null;
    }
  };
}

function previewOf(session: WriteSession, sheet: Sheet) {
  const spreadsheet = runtime().spreadsheet();
  return planPreview(
    readRows(sheet),
    fundFactsSource(spreadsheet, session),
    {
      format: session.format,
      now: new Date(),
      adminId: session.adminId,
      language: session.language,
    },
    session.records.all(),
  );
}

/** Menu: shows what a run would send (totals, warnings, invalid rows), sending nothing. */
export function previewOutbox(): string {
  const session = openWriteSession("outbox");
  const t = (key: StringKey) => translate(session.language, key);
  if (!session.settings.token) {
    runtime().ui().alert(t("outbox.noToken"));
    return t("outbox.noToken");
  }
  const sheet = outboxSheet(runtime().spreadsheet(), session.settings);
  const ui = runtime().ui();
  if (!sheet) {
    ui.alert(t("outbox.run.noSheet"));
    return t("outbox.run.noSheet");
  }
  extendOutboxRules(sheet, session.language);
  const text = previewText(session.language, previewOf(session, sheet));
  session.finish();
  ui.alert(t("outbox.preview.title"), text, ui.ButtonSet.OK);
  return text;
}

/**
 * Menu: asks for confirmation with the preview's totals, then runs the Outbox under the
 * document lock. The question comes first: a lock does not survive an alert's suspension.
 */
export function runOutbox(): RunSummary | null {
  // The time limit counts the whole execution: the preview's reads and the question too.
  const startedAt = Date.now();
  const session = openWriteSession("outbox");
  const t = (key: StringKey, params: Record<string, string | number> = {}) =>
    translate(session.language, key, params);
  const spreadsheet = runtime().spreadsheet();
  const sheet = outboxSheet(spreadsheet, session.settings);
  const ui = runtime().ui();
  if (!session.settings.token) {
    ui.alert(t("outbox.noToken"));
    return null;
  }
  if (!sheet) {
    ui.alert(t("outbox.run.noSheet"));
    return null;
  }
  extendOutboxRules(sheet, session.language);
  const preview = previewOf(session, sheet);
  const text = previewText(session.language, preview);
  // Invalid rows count too: the run marks them Refused with the reason, sending nothing.
  // Rows to restore or flag (a cleared or edited Done row, a State typed by hand) need a run too.
  if (
    preview.toSend.length === 0 &&
    preview.toSettle.length === 0 &&
    preview.invalid.length === 0 &&
    preview.warnings.length === 0
  ) {
    session.finish();
    ui.alert(t("outbox.preview.title"), text, ui.ButtonSet.OK);
    return null;
  }
  const answer = ui.alert(
    t("outbox.preview.title"),
    `${text}\n\n${t("outbox.run.confirm")}`,
    ui.ButtonSet.YES_NO,
  );
  if (answer !== ui.Button.YES) {
    session.finish();
    ui.alert(t("outbox.run.cancelled"));
    return null;
  }
  const lock = runtime().documentLock();
  if (!lock?.tryLock(1000)) {
    session.finish();
    ui.alert(t("outbox.run.busy"));
    return null;
  }
  let summary: RunSummary;
  try {
    summary = runRows({
      ...session,
      sheet: outboxSheetPort(sheet),
      records: session.records,
      newKey: () => runtime().uuid(),
      budgetMs: outboxBudgetMs(executionLimitMs()),
      startedAt,
    });
    session.finish();
  } finally {
    runtime().flush();
    lock.releaseLock();
  }
  const lines = [
    t("outbox.run.summary", {
      done: summary.done,
      refused: summary.refused,
      unknown: summary.unknown,
      skipped: summary.skipped,
    }),
  ];
  if (summary.stoppedForTime) lines.push(t("outbox.run.stoppedForTime"));
  spreadsheet.toast(lines.join(" "), t("menu.outbox.run"), 10);
  return summary;
}

/** Money as the user reads it, for messages built here. */
export function moneyText(cents: number, language: Language, currency: string): string {
  return formatCents(cents, { language, currency });
}
