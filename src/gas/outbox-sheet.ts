/**
 * The Outbox sheet and the sheets a write updates, over SpreadsheetApp: the Outbox's headers,
 * formats, dropdowns and protection, its rows as a run reads and writes them, the Funds and
 * Expense reports rows brought in line with a write's response, what the Funds sheet says of
 * each fund, and the audit sheet opened only when a row is written.
 */
import { responseAmountToCents } from "../api";
import { tolerate } from "../api/errors";
import type { AuditSink } from "../audit/log";
import {
  type CompanyDirectory,
  companyOfCells,
  FIRST_COMPANY_KEY,
  hasHadSeveral,
  ONE_COMPANY,
} from "../company/model";
import { type Language, type StringKey, translate } from "../i18n";
import type { DateFormatter } from "../outbox/cells";
import {
  type CellValue,
  columnNumber,
  HIDDEN_COLUMNS,
  headerKey,
  LEADING_COLUMNS,
  OLD_OUTBOX_COLUMNS,
  OUTBOX_COLUMNS,
  type OwnedCells,
  ownedBlocks,
  TEXT_COLUMNS,
} from "../outbox/columns";
import { outboxHeaderProblem } from "../outbox/headers";
import {
  isOldOutboxHeader,
  isPreviousOutboxHeader,
  operationsNote,
  outboxFormatRules,
} from "../outbox/layout";
import { notesStillFitting, type RowNote } from "../outbox/notes";
import { FUND_STATUSES, OUTBOX_OPERATIONS } from "../outbox/operations";
import { fundStatusLabel, operationLabel } from "../outbox/operations/words";
import type { FundFacts } from "../outbox/preview";
import { readOutboxRow } from "../outbox/rows";
import type { OutboxSheetPort } from "../outbox/run";
import type { WriteResult } from "../outbox/write";
import { dateCell, dateFormat, FORMAT, rewritableValue } from "../sheets/cells";
import { COMPANY_COLUMN, COMPANY_KEY_COLUMN, FUND_COLUMNS, FUNDS_TABLE, rowOf } from "../sheets/columns";
import { companyOfRow } from "../sheets/company";
import { columnWithHeader, relabelledHeader, textsOfHeader } from "../sheets/headers";
import { companyRefusalText } from "../sheets/words";
import { auditSheetSink } from "./audit-sheet";
import { runtime } from "./runtime";

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

export function dateFormatter(spreadsheet: Spreadsheet): DateFormatter {
  const zone = spreadsheet.getSpreadsheetTimeZone();
  return (date, pattern) => runtime().formatDate(date, zone, pattern);
}

/**
 * The audit sheet, reached only when the first row is written: opening a sidebar must not
 * create it, and creating it (insertSheet activates the new sheet) must not move the user's
 * selection, which the forms read.
 */
export function lazyAuditSink(
  spreadsheet: Spreadsheet,
  options: Parameters<typeof auditSheetSink>[0],
): AuditSink {
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

/** Row 1 of `sheet`: its headers. */
function headerRow(sheet: Sheet): unknown[] {
  const lastColumn = sheet.getLastColumn();
  return lastColumn === 0 ? [] : (sheet.getRange(1, 1, 1, lastColumn).getValues()[0] ?? []);
}

function columnOfKey(headers: readonly unknown[], header: StringKey): number | undefined {
  return columnWithHeader(headers, textsOfHeader(header)) ?? undefined;
}

/**
 * Row number whose first cell holds `id` and that is `company`'s: its Company key cell holds the
 * key and its Company cell that company's name (the two cells must agree), or (a sheet without
 * company columns, in a document that never had several companies) the first company's. null
 * when none: a row of another company with the same Id is never changed. A refusal, naming the
 * sheet and column or the row, when the sheet cannot tell whose a row is: a sheet that lost its
 * Company key column once the document has had several companies, or this company's row whose
 * Company cell names another.
 */
function rowOfKey(
  sheet: Sheet,
  directory: CompanyDirectory,
  company: string,
  id: number,
  language: Language,
): number | null | { refused: string } {
  const last = sheet.getLastRow();
  if (last < 2) return null;
  const headers = headerRow(sheet);
  const keyColumn = columnOfKey(headers, "col.companyKey");
  const nameColumn = columnOfKey(headers, "col.company");
  const refused = (cells: readonly CellValue[], layout: readonly string[], row: number) => {
    const found = companyOfRow(cells, layout, directory, row, sheet.getName());
    return found.ok ? null : { refused: companyRefusalText(found.refusal, language) };
  };
  const width = Math.max(keyColumn ?? 1, nameColumn ?? 1);
  const values = sheet.getRange(2, 1, last - 1, width).getValues();
  if (keyColumn === undefined) {
    // The row named is the first of that Id: the one an update by Id alone would have written.
    const first = values.findIndex((r) => String(r[0]) === String(id));
    if (first < 0) return null;
    const why = refused([], [], first + 2);
    if (why) return why;
    if (company !== FIRST_COMPANY_KEY) return null;
  }
  const index = values.findIndex(
    (r) =>
      String(r[0]) === String(id) && (keyColumn === undefined || String(r[keyColumn - 1]).trim() === company),
  );
  if (index < 0) return null;
  if (keyColumn !== undefined) {
    const layout: string[] = [];
    layout[keyColumn - 1] = COMPANY_KEY_COLUMN;
    if (nameColumn !== undefined) layout[nameColumn - 1] = COMPANY_COLUMN;
    const why = refused(
      (values[index] ?? []) as CellValue[],
      Array.from(layout, (k) => k ?? ""),
      index + 2,
    );
    if (why) return why;
  }
  return index + 2;
}

/**
 * Brings the Funds or Expense reports sheet in line with a write's response, cell by cell.
 * Answers why not when the sheet cannot tell the company's row (nothing written); else null.
 */
export function applyResultToSheets(
  spreadsheet: Spreadsheet,
  sheetNames: { funds: string; reports: string },
  language: Language,
  result: WriteResult,
  company: string = FIRST_COMPANY_KEY,
  directory: CompanyDirectory = ONE_COMPANY,
): string | null {
  if (result.kind === "fund") {
    const fund = result.fund.record;
    const sheet = spreadsheet.getSheetByName(sheetNames.funds);
    if (!fund || !sheet) return null;
    const row = rowOfKey(sheet, directory, company, fund.id, language);
    if (row === null) return null; // A new fund shows up at the next refresh, in its place by Id.
    if (typeof row !== "number") return row.refused;
    const headers = headerRow(sheet);
    const cells = rowOf(FUNDS_TABLE, fund, language);
    FUND_COLUMNS.forEach((column, index) => {
      if (column.key === "refreshNote" || typeof column.header !== "string") return;
      const col = columnOfKey(headers, column.header);
      const value = cells[index];
      if (col !== undefined && value !== undefined) {
        // As a refresh writes it (the column's cell and format): a date stays a date.
        const range = sheet.getRange(row, col);
        range.setNumberFormat(column.formatOf?.(fund) ?? column.format);
        range.setValue(value);
      }
    });
    return null;
  }
  const sheet = spreadsheet.getSheetByName(sheetNames.reports);
  if (!sheet) return null;
  const row = rowOfKey(sheet, directory, company, result.report.id, language);
  if (row === null) return null;
  if (typeof row !== "number") return row.refused;
  const headers = headerRow(sheet);
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
    // A date as the refresh writes it: a date cell, never the date's text.
    const date = report.integrationDate ?? "";
    const col = columnOfKey(headers, "col.integrationDate" as StringKey);
    if (col !== undefined) {
      const range = sheet.getRange(row, col);
      range.setNumberFormat(dateFormat(date, true));
      range.setValue(dateCell(date));
    }
  }
  if (report.customStatus !== undefined)
    set("col.customStatus" as StringKey, report.customStatus, FORMAT.text);
  return null;
}

/** The Outbox sheet: the one the settings name, else one named in either language. */
export function outboxSheet(spreadsheet: Spreadsheet, name: string): Sheet | null {
  return (
    spreadsheet.getSheetByName(name) ??
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
      // Two ranges (the record at the right, then State and Result): nothing else of the row.
      for (const block of ownedBlocks(cells)) {
        const range = sheet.getRange(rowNumber, block.column, 1, block.values.length);
        // Plain text formats first: the result may quote the service, which must stay literal.
        range.setNumberFormats([block.columns.map(formatOf)]);
        range.setValues([block.values]);
      }
    },
    flush: () => runtime().flush(),
  };
}

/** Headers, formats, dropdowns and protections of a new Outbox sheet; `names`: the Company dropdown. */
export function setUpOutboxSheet(sheet: Sheet, language: Language, names: readonly string[] = []): void {
  const width = OUTBOX_COLUMNS.length;
  sheet.getRange(1, 1, 1, width).setValues([OUTBOX_COLUMNS.map((c) => translate(language, headerKey(c)))]);
  sheet.setFrozenRows(1);
  applyOutboxRules(sheet, language, 2, names);
  noteLists(sheet, language, names);
  dressOutboxSheet(sheet, language);
}

/** Pixels of the Result column: a refusal's plain sentence fits on two or three lines. */
const RESULT_WIDTH = 420;

/**
 * What makes the Outbox readable, none of it read back: the add-on's record hidden at the right
 * (with its note), the Operation header's note, and the conditional formats.
 */
function dressOutboxSheet(sheet: Sheet, language: Language): void {
  const snapshot = columnNumber("snapshot");
  sheet.setColumnWidth(snapshot, 40);
  // A Result is read without clicking it: a wide column whose text wraps.
  const result = columnNumber("result");
  sheet.setColumnWidth(result, RESULT_WIDTH);
  sheet.getRange(1, result, sheet.getMaxRows(), 1).setWrap(true);
  sheet.getRange(1, 1, 1, OUTBOX_COLUMNS.length).setFontWeight("bold");
  sheet.getRange(1, snapshot).setNote(translate(language, "outbox.snapshotNote"));
  sheet.getRange(1, columnNumber("operation")).setNote(operationsNote(language));
  sheet.hideColumns(columnNumber(HIDDEN_COLUMNS[0]), HIDDEN_COLUMNS.length);
  applyFormatRules(sheet);
  // Last: the sheet is in this version's layout, dressed (hasOldOutboxLayout).
  runtime()
    .documentProperties()
    ?.setProperty(LAYOUT_KEY + sheet.getSheetId(), LAYOUT_NUMBER);
}

/**
 * Document property (per sheet id): the layout an Outbox was last laid out in, "2" once it has
 * the Company column. A sheet noted so never takes an earlier header (typed over it by anyone)
 * for one to insert the column into: its rows would all move under other headers.
 */
const LAYOUT_KEY = "outbox.layout.";
const LAYOUT_NUMBER = "2";

/** Document property: the formulas of the add-on's conditional formats on the sheet of this id. */
const FORMAT_RULES_KEY = "outbox.formatRules.";

/**
 * The add-on's conditional formats over every row, replacing its own (the formulas it wrote
 * last, or writes now) and keeping, first, every rule a user added.
 */
function applyFormatRules(sheet: Sheet): void {
  const props = runtime().documentProperties();
  const key = FORMAT_RULES_KEY + sheet.getSheetId();
  const specs = outboxFormatRules();
  const kept = othersFormatRules(sheet, specs);
  const rows = sheet.getMaxRows() - 1;
  const added = specs.map((spec) =>
    runtime()
      .newConditionalFormatRule()
      .whenFormulaSatisfied(spec.formula)
      .setBackground(spec.background)
      .setFontColor(spec.fontColor)
      .setRanges(spec.columns.map((column) => sheet.getRange(2, column, rows, 1)))
      .build(),
  );
  sheet.setConditionalFormatRules([...kept, ...added]);
  props?.setProperty(key, JSON.stringify(specs.map((spec) => spec.formula)));
}

/**
 * The sheet's conditional formats but the add-on's own (the formulas it wrote last, or `specs`),
 * in their order.
 */
function othersFormatRules(sheet: Sheet, specs: readonly { formula: string }[]) {
  const props = runtime().documentProperties();
  const key = FORMAT_RULES_KEY + sheet.getSheetId();
  // Compared without spaces or case, should Sheets give a formula back written its own way.
  const same = (formula: unknown) => String(formula).replace(/\s/g, "").toUpperCase();
  const ours = new Set(specs.map((spec) => same(spec.formula)));
  const stored = tolerate("unreadable", () => JSON.parse(props?.getProperty(key) ?? "[]") as unknown, []);
  if (Array.isArray(stored)) for (const formula of stored) ours.add(same(formula));
  return sheet.getConditionalFormatRules().filter((rule) => {
    const condition = rule.getBooleanCondition();
    return !(
      condition &&
      String(condition.getCriteriaType()) === "CUSTOM_FORMULA" &&
      ours.has(same(condition.getCriteriaValues()[0]))
    );
  });
}

/** The add-on's cells, from row `top` down: a warning on editing them. */
function protectOwnedColumns(sheet: Sheet, language: Language, top: number): void {
  // Users may not lock themselves out; a warning is the protection an add-on can give.
  for (const block of [LEADING_COLUMNS, HIDDEN_COLUMNS]) {
    sheet
      .getRange(top, columnNumber(block[0]), sheet.getMaxRows() - top + 1, block.length)
      .protect()
      .setDescription(translate(language, "outbox.col.state"))
      .setWarningOnly(true);
  }
}

/**
 * True when row 1 of `sheet` is exactly the old Outbox header and the sheet was never laid out
 * anew: a sheet made or moved in the new layout has its formats noted, and an old header typed
 * over it (by anyone) is refused by the header check, never taken for a sheet to move.
 */
export function hasOldOutboxLayout(sheet: Sheet): boolean {
  return hasOldestLayout(sheet) || hasPreviousLayout(sheet);
}

/** State and Result after the user's columns (the first layout). */
function hasOldestLayout(sheet: Sheet): boolean {
  const width = OLD_OUTBOX_COLUMNS.length;
  return (
    sheet.getMaxColumns() >= width &&
    !runtime()
      .documentProperties()
      ?.getProperty(FORMAT_RULES_KEY + sheet.getSheetId()) &&
    isOldOutboxHeader(sheet.getRange(1, 1, 1, width).getValues()[0] ?? [])
  );
}

/**
 * State and Result first, without the Company column (or with it inserted and not yet named), on
 * a sheet never noted as laid out with it.
 */
function hasPreviousLayout(sheet: Sheet): boolean {
  const width = Math.min(OUTBOX_COLUMNS.length, sheet.getMaxColumns());
  return (
    runtime()
      .documentProperties()
      ?.getProperty(LAYOUT_KEY + sheet.getSheetId()) !== LAYOUT_NUMBER &&
    isPreviousOutboxHeader(sheet.getRange(1, 1, 1, width).getValues()[0] ?? [])
  );
}

/**
 * Moves an Outbox of the old layout (State and Result after the user's columns) to the new one,
 * when row 1 is exactly the old header: one move of the two columns, so every row keeps its
 * cells, state, key and record together. The caller holds the document lock, so no run sees the
 * sheet half moved. True when it moved.
 */
export function migrateOutboxLayout(
  sheet: Sheet,
  language: Language,
  names: readonly string[] = [],
): boolean {
  if (!hasOldOutboxLayout(sheet)) return false;
  if (hasOldestLayout(sheet)) {
    const from = OLD_OUTBOX_COLUMNS.indexOf(LEADING_COLUMNS[0]) + 1;
    sheet.moveColumns(sheet.getRange(1, from, 1, LEADING_COLUMNS.length), 1);
  }
  if (hasPreviousLayout(sheet)) insertCompanyColumn(sheet, language, names);
  finishLayout(sheet, language);
  return true;
}

/**
 * The Company column inserted after Result: one column insertion, so every row keeps its cells,
 * state, key and record together, and users' columns and formulas follow. The add-on's
 * conditional formats go first (drawn again by the dress, over the new columns); a move cut off
 * after the insertion is recognised by the unnamed header and finished.
 */
function insertCompanyColumn(sheet: Sheet, language: Language, names: readonly string[]): void {
  const at = columnNumber("company");
  const headers = sheet.getRange(1, 1, 1, at).getValues()[0] ?? [];
  if (String(headers[at - 1] ?? "").trim() !== "") {
    sheet.setConditionalFormatRules(othersFormatRules(sheet, outboxFormatRules()));
    sheet.insertColumnsBefore(at, 1);
  }
  // The header in the language the sheet's Operation header is in.
  const operation = String(sheet.getRange(1, columnNumber("operation")).getValue()).trim();
  const shown = operation === translate("es", "outbox.col.operation") ? "es" : language;
  const rows = sheet.getMaxRows() - 1;
  if (rows > 0) {
    // Its own format and list, whatever the insertion copied from a neighbour.
    sheet.getRange(2, at, rows, 1).setNumberFormat(formatOf("company"));
    applyCompanyList(sheet, 2, rows, names);
  }
  sheet.getRange(1, at).setValue(translate(shown, headerKey("company")));
}

/**
 * What follows the move, in an order a killed execution can leave at any point: the add-on's
 * warning drawn again for its two ranges (the old one covered its block in one piece), then the
 * dress, whose formats note the sheet as laid out last (extendOutboxRules finishes a sheet
 * without that note).
 */
function finishLayout(sheet: Sheet, language: Language): void {
  const descriptions = [translate("en", "outbox.col.state"), translate("es", "outbox.col.state")];
  for (const protection of sheet.getProtections(SpreadsheetApp.ProtectionType.RANGE))
    if (descriptions.includes(protection.getDescription())) protection.remove();
  protectOwnedColumns(sheet, language, 1);
  dressOutboxSheet(sheet, language);
}

/** Document property: the rows of each Outbox sheet its formats, dropdowns and protection cover. */
const RULES_ROWS_KEY = "outbox.rulesRows.";

/**
 * Number formats, dropdowns and the warning protection of the add-on's columns, from `fromRow`
 * to the sheet's last row. A sheet grown since (rows added below the first 1,000) gets them on
 * its new rows at the next Preview or Run, so every row works the same.
 */
function applyOutboxRules(
  sheet: Sheet,
  language: Language,
  fromRow: number,
  names: readonly string[] = [],
): void {
  const width = OUTBOX_COLUMNS.length;
  const maxRows = sheet.getMaxRows();
  const rows = maxRows - fromRow + 1;
  if (rows > 0) {
    sheet
      .getRange(fromRow, 1, rows, width)
      .setNumberFormats(Array.from({ length: rows }, () => OUTBOX_COLUMNS.map(formatOf)));
    applyOutboxLists(sheet, language, fromRow, rows, names);
    protectOwnedColumns(sheet, language, fromRow === 2 ? 1 : fromRow);
    // The conditional formats reach the new rows too.
    if (fromRow > 2) applyFormatRules(sheet);
  }
  runtime()
    .documentProperties()
    ?.setProperty(RULES_ROWS_KEY + sheet.getName(), String(maxRows));
}

/** Document property: the operation labels each Outbox sheet's dropdowns offer (a new label set is applied again). */
const LISTS_KEY = "outbox.lists.";

function operationLabels(language: Language): string[] {
  return OUTBOX_OPERATIONS.map((op) => operationLabel(language, op));
}

/** What the lists note holds: the operation labels, and the company names once there are any. */
function listsNote(language: Language, names: readonly string[]): string {
  const labels = operationLabels(language).join("|");
  return names.length === 0 ? labels : `${labels}#${names.join("|")}`;
}

function noteLists(sheet: Sheet, language: Language, names: readonly string[]): void {
  runtime()
    .documentProperties()
    ?.setProperty(LISTS_KEY + sheet.getName(), listsNote(language, names));
}

/** The dropdowns of every row under the header, in `language`, noted as applied. */
function applyAllOutboxLists(sheet: Sheet, language: Language, names: readonly string[] = []): void {
  if (sheet.getMaxRows() > 1) applyOutboxLists(sheet, language, 2, sheet.getMaxRows() - 1, names);
  noteLists(sheet, language, names);
}

/**
 * The Company dropdown: the names of the document's companies (a name typed that is not among
 * them is allowed, and refused with its row when sent); none while the only company is unnamed.
 */
function applyCompanyList(sheet: Sheet, fromRow: number, rows: number, names: readonly string[]): void {
  const range = sheet.getRange(fromRow, columnNumber("company"), rows, 1);
  if (names.length === 0) {
    range.setDataValidation(null);
    return;
  }
  range.setDataValidation(
    runtime()
      .newDataValidation()
      .requireValueInList([...names], true)
      .setAllowInvalid(true)
      .build(),
  );
}

/** The dropdowns (company, operation, fund status, yes/no) of `rows` rows from `fromRow`, in `language`. */
function applyOutboxLists(
  sheet: Sheet,
  language: Language,
  fromRow: number,
  rows: number,
  names: readonly string[] = [],
): void {
  applyCompanyList(sheet, fromRow, rows, names);
  const list = (column: (typeof OUTBOX_COLUMNS)[number], values: string[]) => {
    // Invalid entries are allowed (with a warning) so that labels in the other language still work.
    const rule = runtime().newDataValidation().requireValueInList(values, true).setAllowInvalid(true).build();
    sheet.getRange(fromRow, columnNumber(column), rows, 1).setDataValidation(rule);
  };
  list("operation", operationLabels(language));
  list(
    "fundStatus",
    FUND_STATUSES.map((s) => fundStatusLabel(language, s)),
  );
  const yesNo = [translate(language, "outbox.yes"), translate(language, "outbox.no")];
  for (const column of ["flexible", "autoDeposit", "autoBlock"] as const) list(column, yesNo);
}

/**
 * The Outbox in the language `to` after a change of language: named `name` (its rules follow
 * it), its headers, note and dropdowns in `to`. Cells already holding a label of the other
 * language keep working: the readers accept both.
 */
export function relabelOutboxSheet(sheet: Sheet, from: Language, to: Language, name: string): void {
  const props = runtime().documentProperties();
  const covered = props?.getProperty(RULES_ROWS_KEY + sheet.getName());
  if (name !== sheet.getName() && !runtime().spreadsheet().getSheetByName(name)) {
    sheet.setName(name);
    if (covered) props?.setProperty(RULES_ROWS_KEY + name, covered);
  }
  const width = OUTBOX_COLUMNS.length;
  const header = sheet.getRange(1, 1, 1, width);
  const row = relabelledHeader(header.getValues()[0] ?? [], OUTBOX_COLUMNS.map(headerKey), from, to);
  if (row) header.setValues([row]);
  // An Outbox of an earlier layout is moved (its lists and notes with it) at its next Preview or Run.
  const now = header.getValues()[0] ?? [];
  if (isOldOutboxHeader(now) || isPreviousOutboxHeader(now)) return;
  sheet.getRange(1, columnNumber("snapshot")).setNote(translate(to, "outbox.snapshotNote"));
  sheet.getRange(1, columnNumber("operation")).setNote(operationsNote(to));
  applyAllOutboxLists(sheet, to);
}

/**
 * Extends the rules to rows added since they were last applied, and offers the current labels
 * in every dropdown of a sheet whose lists still hold older ones (or another language's).
 */
export function extendOutboxRules(sheet: Sheet, language: Language, names: readonly string[] = []): void {
  const props = runtime().documentProperties();
  // A sheet in this layout that was never dressed (a move cut off after its columns moved, a
  // copy): its warning and dress finished now, which also notes it as laid out (see
  // hasOldOutboxLayout).
  if (
    !props?.getProperty(FORMAT_RULES_KEY + sheet.getSheetId()) ||
    props?.getProperty(LAYOUT_KEY + sheet.getSheetId()) !== LAYOUT_NUMBER
  )
    finishLayout(sheet, language);
  // New labels, or the companies renamed, added or removed: every dropdown drawn again.
  if (props?.getProperty(LISTS_KEY + sheet.getName()) !== listsNote(language, names))
    applyAllOutboxLists(sheet, language, names);
  const covered = Number(props?.getProperty(RULES_ROWS_KEY + sheet.getName()));
  // A sheet from before this was kept: its first 1,000 rows were set up when it was made.
  const from = Number.isInteger(covered) && covered > 0 ? covered + 1 : 1001;
  if (sheet.getMaxRows() >= from) applyOutboxRules(sheet, language, from, names);
}

/** The data rows of the Outbox sheet. */
/** Why the Outbox's header row says its columns moved (read by position), or null. */
export function columnsMoved(sheet: Sheet, language: Language): string | null {
  const headers = sheet.getRange(1, 1, 1, OUTBOX_COLUMNS.length).getValues()[0] ?? [];
  return outboxHeaderProblem(headers as CellValue[], language);
}

/** The Outbox's cells from row 2 on, as getValues returns them. */
export function outboxValues(sheet: Sheet): CellValue[][] {
  const last = sheet.getLastRow();
  return last < 2 ? [] : (sheet.getRange(2, 1, last - 1, OUTBOX_COLUMNS.length).getValues() as CellValue[][]);
}

export function readOutboxRows(sheet: Sheet) {
  return outboxValues(sheet).map((values, i) => readOutboxRow(values, i + 2));
}

/**
 * A preview's notes into the Result cells of rows that still hold what the preview read
 * (`before`): read again just before writing, so a row edited meanwhile is not written over.
 * Only the Result cell of each row is written.
 */
export function writePreviewNotes(
  sheet: Sheet,
  before: readonly CellValue[][],
  notes: readonly RowNote[],
): void {
  if (notes.length === 0) return;
  const column = columnNumber("result");
  const fitting = notesStillFitting(notes, before, outboxValues(sheet));
  // Consecutive rows in one write. Each text starts with "Preview:" / "Vista previa:" (or is
  // empty), so the sheet never reads it as a number, a date or a formula.
  for (let i = 0; i < fitting.length; ) {
    let j = i + 1;
    while (j < fitting.length && fitting[j]?.rowNumber === (fitting[j - 1]?.rowNumber ?? 0) + 1) j += 1;
    const run = fitting.slice(i, j);
    sheet.getRange(run[0]?.rowNumber ?? 2, column, run.length, 1).setValues(run.map((n) => [n.result]));
    i = j;
  }
}

/**
 * What the Funds sheet `sheet` says of each fund (currency, balance, flexible, status), by
 * company and Id ("c1|5001"): a row's company by its Company key and Company cells, which must
 * agree; a sheet without company columns holds the first company's while the document has
 * never had several. A row whose company cannot be told says nothing (its fund is read fresh,
 * with its own company's token), and neither does a sheet that lost its Company key column
 * once the document has had several companies.
 */
export function fundFactsOnSheet(
  sheet: Sheet | null,
  directory: CompanyDirectory = ONE_COMPANY,
): Map<string, FundFacts> {
  const fromSheet = new Map<string, FundFacts>();
  const keyColumn = sheet ? columnOfKey(headerRow(sheet), "col.companyKey") : undefined;
  if (keyColumn === undefined && hasHadSeveral(directory)) return fromSheet;
  if (sheet && sheet.getLastRow() >= 2) {
    const headers = headerRow(sheet);
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
    const keyCol = columnOfKey(headers, "col.companyKey");
    const nameCol = columnOfKey(headers, "col.company");
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
        const cells = (at: number | undefined) => (at === undefined ? "" : String(row[at - 1] ?? ""));
        const found =
          keyCol === undefined ? null : companyOfCells(cells(keyCol), cells(nameCol), directory.entries);
        if (found && !found.ok) continue;
        const company = found ? found.company.key : FIRST_COMPANY_KEY;
        fromSheet.set(`${company}|${id}`, {
          currency: String(row[currencyCol - 1]),
          balance,
          flexible: yes.has(String(row[flexibleCol - 1])),
          status,
        });
      }
    }
  }
  return fromSheet;
}

const PREVIEW_SHEET_HEADERS: readonly StringKey[] = [
  "outbox.previewSheet.row",
  "outbox.previewSheet.operation",
  "outbox.previewSheet.sent",
];

/** The Outbox preview sheet's cells: its header, then one row per write, all plain text. */
function previewSheetValues(
  language: Language,
  lines: readonly (readonly [number, string, string])[],
): string[][] {
  const header = PREVIEW_SHEET_HEADERS.map((key) => translate(language, key));
  return [header, ...lines.map(([row, operation, sent]) => [String(row), operation, sent])];
}

/**
 * Whether a sheet's first row is the add-on's header of the Outbox preview (in either language).
 * An empty sheet is not: it may hold a chart or a drawing someone put there.
 */
function isOurPreviewSheet(sheet: Sheet): boolean {
  if (sheet.getLastRow() === 0) return false;
  const first = sheet.getRange(1, 1, 1, PREVIEW_SHEET_HEADERS.length).getValues()[0] ?? [];
  return (["en", "es"] as const).some((l) =>
    PREVIEW_SHEET_HEADERS.every((key, i) => String(first[i]) === translate(l, key)),
  );
}

/**
 * Writes the confirmation's full list of writes to the Outbox preview sheet, as plain text (any
 * cell may hold an editor's text: never a formula). The add-on's sheet of that name is deleted
 * and inserted afresh each time, so no hidden row, filter, format or protection anyone added
 * survives; the new sheet is protected with a warning. A sheet of that name whose first row is
 * not the add-on's header (in either language) is never deleted nor written: the message says
 * so, and nothing may be confirmed against it. Returns the new sheet's id, or that message.
 */
export function writeOutboxPreviewSheet(
  spreadsheet: Spreadsheet,
  language: Language,
  lines: readonly (readonly [number, string, string])[],
): { sheetId: number } | { message: string } {
  const name = translate(language, "outbox.previewSheet.name");
  const old = spreadsheet.getSheetByName(name);
  if (old) {
    if (!isOurPreviewSheet(old)) {
      return { message: translate(language, "outbox.previewSheet.notOurs", { sheet: name }) };
    }
    // Protected by someone else, say: the failure reaches the error boundary, nothing is sent.
    spreadsheet.deleteSheet(old);
  }
  const sheet = spreadsheet.insertSheet(name);
  const values = previewSheetValues(language, lines);
  const range = sheet.getRange(1, 1, values.length, PREVIEW_SHEET_HEADERS.length);
  range.setNumberFormat(FORMAT.text);
  range.setValues(values);
  sheet.setFrozenRows(1);
  sheet.protect().setWarningOnly(true).setDescription(translate(language, "outbox.previewSheet.protection"));
  return { sheetId: sheet.getSheetId() };
}

/**
 * Whether the Outbox preview sheet is still the one written (`sheetId`: any rewrite inserts a
 * new sheet) and holds exactly the list these lines would write (an editor may have typed in it).
 */
export function outboxPreviewSheetHolds(
  spreadsheet: Spreadsheet,
  language: Language,
  sheetId: number,
  lines: readonly (readonly [number, string, string])[],
): boolean {
  const sheet = spreadsheet.getSheetByName(translate(language, "outbox.previewSheet.name"));
  if (!sheet || sheet.getSheetId() !== sheetId) return false;
  const expected = previewSheetValues(language, lines);
  if (sheet.getLastRow() !== expected.length) return false;
  if (sheet.getLastColumn() !== PREVIEW_SHEET_HEADERS.length) return false;
  const actual = sheet.getRange(1, 1, expected.length, PREVIEW_SHEET_HEADERS.length).getDisplayValues();
  return expected.every((row, r) => row.every((cell, c) => actual[r]?.[c] === cell));
}
