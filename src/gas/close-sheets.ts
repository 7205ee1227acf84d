/**
 * The month-end close's sheets over SpreadsheetApp: the Journal sheet written and read back,
 * the Accounts sheet read and given the rows a month needs, and the rows of the Expense
 * reports sheet a journal line links to. Text from the service goes into plain-text columns.
 */

import { ACCOUNTS_COLUMNS, JOURNAL_COLUMNS, type SheetColumn } from "../close/sheets";
import { FIRST_COMPANY_KEY } from "../company/model";
import { LANGUAGES, type Language, translate } from "../i18n";
import { loadLayout } from "../refresh/stored-text";
import type { CellValue } from "../sheets/cells";
import { COMPANY_KEY_COLUMN } from "../sheets/columns";
import { activeSpreadsheet, documentProperties } from "./active";
import { ensureSize } from "./spreadsheet";

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type SheetKind = "close.sheet.accounts" | "close.sheet.journal";

/** The sheet under its name in either language (the document's language may have changed). */
function findSheet(kind: SheetKind): Sheet | null {
  const spreadsheet = activeSpreadsheet();
  for (const language of LANGUAGES) {
    const sheet = spreadsheet.getSheetByName(translate(language, kind));
    if (sheet) return sheet;
  }
  return null;
}

/** The sheet, created with its header row (frozen, bold) and its columns' formats when missing. */
function sheetWithHeader(kind: SheetKind, columns: readonly SheetColumn[], language: Language): Sheet {
  const existing = findSheet(kind);
  if (existing) return existing;
  const sheet = activeSpreadsheet().insertSheet(translate(language, kind));
  ensureSize(sheet, 2, columns.length);
  const header = sheet.getRange(1, 1, 1, columns.length);
  header.setNumberFormats([columns.map(() => "@")]);
  header.setValues([columns.map((c) => translate(language, c.header))]);
  header.setFontWeight("bold");
  sheet.setFrozenRows(1);
  return sheet;
}

/** The rows below the header, `width` columns, as getValues gives them. */
function rowsOf(sheet: Sheet | null, width: number): unknown[][] {
  if (!sheet) return [];
  const last = sheet.getLastRow();
  if (last < 2) return [];
  return sheet.getRange(2, 1, last - 1, width).getValues();
}

/** The Journal sheet's lines (its columns, from row 2); none when it does not exist. */
export function readJournalSheet(): unknown[][] {
  return rowsOf(findSheet("close.sheet.journal"), JOURNAL_COLUMNS.length);
}

/** Replaces the Journal sheet's lines with `rows` (its header kept), each column in its format. */
export function writeJournalSheet(rows: readonly CellValue[][], language: Language): Sheet {
  const sheet = sheetWithHeader("close.sheet.journal", JOURNAL_COLUMNS, language);
  const width = JOURNAL_COLUMNS.length;
  const last = sheet.getLastRow();
  if (last > 1) sheet.getRange(2, 1, last - 1, width).clearContent();
  if (rows.length === 0) return sheet;
  ensureSize(sheet, rows.length + 1, width);
  const range = sheet.getRange(2, 1, rows.length, width);
  range.setNumberFormats(rows.map(() => JOURNAL_COLUMNS.map((c) => c.format)));
  range.setValues(rows.map((r) => [...r]));
  return sheet;
}

/** Writes the State cell of the Journal's rows (sheet row → text). */
export function writeJournalStates(states: ReadonlyMap<number, string>): void {
  const sheet = findSheet("close.sheet.journal");
  if (!sheet) return;
  const column = JOURNAL_COLUMNS.length;
  for (const [row, text] of states) sheet.getRange(row, column).setValue(text);
}

/** The Accounts sheet's rows (its columns, from row 2); none when it does not exist. */
export function readAccountsSheet(): unknown[][] {
  return rowsOf(findSheet("close.sheet.accounts"), ACCOUNTS_COLUMNS.length);
}

/** Adds `rows` to the Accounts sheet (created when missing), as plain text. */
export function appendAccountsRows(rows: readonly string[][], language: Language): void {
  const sheet = sheetWithHeader("close.sheet.accounts", ACCOUNTS_COLUMNS, language);
  if (rows.length === 0) return;
  const first = Math.max(sheet.getLastRow(), 1) + 1;
  ensureSize(sheet, first + rows.length - 1, ACCOUNTS_COLUMNS.length);
  const range = sheet.getRange(first, 1, rows.length, ACCOUNTS_COLUMNS.length);
  range.setNumberFormats(rows.map(() => ACCOUNTS_COLUMNS.map(() => "@")));
  range.setValues(rows.map((r) => [...r]));
}

/**
 * Where each report (or fund) is in its sheet: "company|Id" → its row, and the sheet's id for a
 * link (#gid=…&range=A<row>); null when the sheet does not exist.
 */
export function recordRows(
  sheetName: string,
  kind: "reports" | "funds" = "reports",
): { gid: number; rows: Map<string, number> } | null {
  const sheet = activeSpreadsheet().getSheetByName(sheetName);
  if (!sheet) return null;
  const keys = loadLayout(documentProperties(), kind) ?? ["id"];
  const idAt = keys.indexOf("id");
  const companyAt = keys.indexOf(COMPANY_KEY_COLUMN);
  const last = sheet.getLastRow();
  const rows = new Map<string, number>();
  if (idAt < 0 || last < 2) return { gid: sheet.getSheetId(), rows };
  const width = Math.max(idAt, companyAt) + 1;
  const values = sheet.getRange(2, 1, last - 1, width).getValues();
  values.forEach((cells, i) => {
    const id = Number(cells[idAt]);
    if (!Number.isInteger(id) || id <= 0) return;
    const company = companyAt >= 0 ? String(cells[companyAt] ?? "") || FIRST_COMPANY_KEY : FIRST_COMPANY_KEY;
    rows.set(`${company}|${id}`, i + 2);
  });
  return { gid: sheet.getSheetId(), rows };
}

/** Selects a row of a sheet (the record a sidebar line links to). */
export function selectRow(sheetName: string, row: number): void {
  const sheet = activeSpreadsheet().getSheetByName(sheetName);
  if (!sheet) return;
  sheet.activate();
  sheet.getRange(row, 1, 1, Math.max(1, sheet.getLastColumn())).activate();
}

/** Shows the Journal sheet. */
export function showJournalSheet(): void {
  findSheet("close.sheet.journal")?.activate();
}
