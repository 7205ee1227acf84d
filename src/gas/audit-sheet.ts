/**
 * The audit sheet and its archive over SpreadsheetApp. Rows are only ever appended (and a
 * write's own "sending" row completed); the sheet is protected with a warning so that a person
 * editing it by accident is asked first (an add-on cannot lock its users out); past a size the
 * oldest rows move to the archive, which is bounded too, so the 10-million-cell limit of a
 * spreadsheet is never reached through the audit.
 */
import { AUDIT_LIMITS, type AuditSink, planRotation } from "../audit/log";
import { AUDIT_COLUMNS, AUDIT_TABLE, type AuditRowSource, headersOf, rowOf } from "../sheets/columns";
import type { Language } from "../ui/strings";
import { ensureSize } from "./spreadsheet";

const WIDTH = AUDIT_COLUMNS.length;
const FORMATS = AUDIT_COLUMNS.map((c) => c.format);

export interface AuditSheetOptions {
  name: string;
  archiveName: string;
  language: Language;
  limits?: { maxRows: number; maxArchiveRows: number };
}

/** The sheet named `name` with the audit header, frozen and protected; created when missing. */
function auditSheet(name: string, language: Language): GoogleAppsScript.Spreadsheet.Sheet {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  let sheet = spreadsheet.getSheetByName(name);
  if (!sheet) {
    sheet = spreadsheet.insertSheet(name);
    ensureSize(sheet, 2, WIDTH);
    const header = sheet.getRange(1, 1, 1, WIDTH);
    header.setNumberFormats([FORMATS.map(() => "@")]);
    header.setValues([headersOf(AUDIT_TABLE, language)]);
    sheet.setFrozenRows(1);
  }
  const protections = sheet.getProtections(SpreadsheetApp.ProtectionType.SHEET);
  if (protections.length === 0) {
    sheet.protect().setWarningOnly(true).setDescription("Written by the add-on: every call to the service.");
  }
  return sheet;
}

function cells(rows: readonly AuditRowSource[], language: Language) {
  return rows.map((r) => rowOf(AUDIT_TABLE, r, language));
}

/** The audit sheet as the audit log's sink; rotates it first when it has grown past its bound. */
export function auditSheetSink(options: AuditSheetOptions): AuditSink {
  const sheet = auditSheet(options.name, options.language);
  rotate(sheet, options);
  return {
    append(rows) {
      if (rows.length === 0) return sheet.getLastRow() + 1;
      const first = Math.max(sheet.getLastRow(), 1) + 1;
      ensureSize(sheet, first + rows.length - 1, WIDTH);
      const range = sheet.getRange(first, 1, rows.length, WIDTH);
      range.setNumberFormats(rows.map(() => FORMATS));
      range.setValues(cells(rows, options.language));
      return first;
    },
    update(rowNumber, row) {
      sheet.getRange(rowNumber, 1, 1, WIDTH).setValues(cells([row], options.language));
    },
    flush() {
      SpreadsheetApp.flush();
    },
  };
}

/** Moves the oldest rows to the archive when the audit is past its bound; trims the archive. */
function rotate(sheet: GoogleAppsScript.Spreadsheet.Sheet, options: AuditSheetOptions): void {
  const rows = Math.max(0, sheet.getLastRow() - 1);
  const limits = options.limits ?? AUDIT_LIMITS;
  if (rows <= limits.maxRows) return;
  const archive = auditSheet(options.archiveName, options.language);
  const archived = Math.max(0, archive.getLastRow() - 1);
  const plan = planRotation(rows, archived, limits);
  if (plan.moveToArchive === 0) return;
  if (plan.dropFromArchive > 0) deleteOldest(archive, plan.dropFromArchive);
  const moving = sheet.getRange(2, 1, plan.moveToArchive, WIDTH);
  const values = moving.getValues();
  const first = Math.max(archive.getLastRow(), 1) + 1;
  ensureSize(archive, first + values.length - 1, WIDTH);
  const target = archive.getRange(first, 1, values.length, WIDTH);
  target.setNumberFormats(values.map(() => FORMATS));
  target.setValues(values);
  deleteOldest(sheet, plan.moveToArchive);
}

/** Deletes data rows 2…n+1; Sheets refuses to delete every unfrozen row, so one is kept spare. */
function deleteOldest(sheet: GoogleAppsScript.Spreadsheet.Sheet, count: number): void {
  const maxRows = sheet.getMaxRows();
  if (maxRows - 1 <= count) sheet.insertRowsAfter(maxRows, 1);
  sheet.deleteRows(2, count);
}
