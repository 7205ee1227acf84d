/**
 * What the fund and report sidebars read from the sheets: a column found by its header (in
 * either language), the fund of the selected row, the employees seen in the sheets, and the
 * reports of the selected rows.
 */
import { FIRST_COMPANY_KEY } from "../company/model";
import type { CellValue } from "../sheets/cells";
import { COMPANY_KEY_COLUMN, FUND_COLUMNS, REPORT_COLUMNS } from "../sheets/columns";

import { columnWithHeader, headerTexts } from "../sheets/headers";
import { companyLayoutOfHeader } from "../sheets/sidebar-company";

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** Row 1 of `sheet`. */
function headerOf(sheet: GoogleAppsScript.Spreadsheet.Sheet): unknown[] {
  if (sheet.getLastColumn() === 0) return [];
  return sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] ?? [];
}

/** 1-based column of `sheet` whose header (row 1) is one of `headers`, or null. */
function columnIn(sheet: GoogleAppsScript.Spreadsheet.Sheet, headers: string[]): number | null {
  if (sheet.getLastColumn() === 0) return null;
  return columnWithHeader(sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] ?? [], headers);
}

/**
 * The active row's fund: its Id from the Funds sheet (Id) or any sheet with a fund Id column,
 * with the row's number, cells and the sheet's header (for its company), and whether the sheet
 * is one the add-on fills (`dataSheets`), whose rows without company columns are the first
 * company's while the document has never had several.
 */
export interface SelectedFund {
  id: number;
  row: number;
  cells: CellValue[];
  header: unknown[];
  dataSheet: boolean;
  /** The sheet's name. */
  sheet: string;
}

export function selectedFund(
  spreadsheet: Spreadsheet,
  fundsSheetName: string,
  dataSheets: readonly string[] = [fundsSheetName],
): SelectedFund | null {
  const sheet = spreadsheet.getActiveSheet();
  const range = spreadsheet.getActiveRange();
  if (!sheet || !range || range.getRow() < 2 || sheet.getLastColumn() === 0) return null;
  const header = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] ?? [];
  const texts =
    sheet.getName() === fundsSheetName
      ? headerTexts("id", FUND_COLUMNS)
      : headerTexts("fundId", REPORT_COLUMNS);
  const column = columnWithHeader(header, texts);
  if (column === null) return null;
  const row = range.getRow();
  const cells = (sheet.getRange(row, 1, 1, sheet.getLastColumn()).getValues()[0] ?? []) as CellValue[];
  const id = Number(cells[column - 1]);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return { id, row, cells, header, dataSheet: dataSheets.includes(sheet.getName()), sheet: sheet.getName() };
}

/**
 * Employees seen in the sheets (fund owners' IdAssignTo, reports' EmployeeId), named only from
 * `remembered`, the names this user's refreshes read from the service: a name typed into a
 * sheet beside another employee's id must not lead a fund to the wrong person.
 */
export function knownEmployees(
  spreadsheet: Spreadsheet,
  names: { funds: string; reports: string },
  remembered: ReadonlyMap<number, string> = new Map(),
  companyKey: string = FIRST_COMPANY_KEY,
  /** Whether the document has had several companies: a sheet without company columns is then none's. */
  several = false,
): { id: number; name: string }[] {
  const byId = new Map<number, string>(remembered);
  const collect = (
    sheetName: string,
    idKey: string,
    columns: readonly { key: string; header: unknown }[],
  ) => {
    const sheet = spreadsheet.getSheetByName(sheetName);
    if (!sheet || sheet.getLastRow() < 2) return;
    const idCol = columnIn(sheet, headerTexts(idKey, columns));
    if (idCol === null) return;
    // Only this company's rows: an employee Id of one company is another person in the next.
    // A sheet without company columns holds the first company's rows alone, in a document that
    // never had several; once it has had several, such a sheet lost its column: none's.
    const keyAt = companyLayoutOfHeader(headerOf(sheet)).indexOf(COMPANY_KEY_COLUMN);
    if (keyAt < 0 && (companyKey !== FIRST_COMPANY_KEY || several)) return;
    const rows = sheet.getLastRow() - 1;
    // Only the one column (and the key's): a reports sheet may hold tens of thousands of wide rows.
    const keys = keyAt < 0 ? null : sheet.getRange(2, keyAt + 1, rows, 1).getValues();
    sheet
      .getRange(2, idCol, rows, 1)
      .getValues()
      .forEach(([cell], i) => {
        if (keys && String(keys[i]?.[0] ?? "").trim() !== companyKey) return;
        const id = Number(cell);
        if (Number.isSafeInteger(id) && id > 0 && !byId.has(id)) byId.set(id, "");
      });
  };
  collect(names.reports, "employeeId", REPORT_COLUMNS);
  collect(names.funds, "assignedTo", FUND_COLUMNS);
  return (
    [...byId.entries()]
      .map(([id, name]) => ({ id, name }))
      // Named first, by name; the ids no name is known for after them.
      .sort((a, b) => +!a.name - +!b.name || a.name.localeCompare(b.name) || a.id - b.id)
      .slice(0, 500)
  );
}

/** A selected row of the Expense reports sheet: its Id cell and its report number cell. */
export interface SelectedReport {
  id: number;
  reportNumber: string;
  /** The row's number, its cells and the sheet's header: what its company is read from. */
  row: number;
  cells: CellValue[];
  header: unknown[];
}

/**
 * The report Ids of the selected rows of the Expense reports sheet (at most 200), each with the
 * row's report number; nothing else is read from the cells, which any editor may have changed.
 */
export function selectedReports(spreadsheet: Spreadsheet, reportsSheetName: string): SelectedReport[] {
  const sheet = spreadsheet.getActiveSheet();
  const reports: SelectedReport[] = [];
  if (sheet && sheet.getName() === reportsSheetName && sheet.getLastColumn() > 0) {
    const header = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] ?? [];
    const [idCol, numberCol] = ["id", "reportNumber"].map((key) =>
      columnWithHeader(header, headerTexts(key, REPORT_COLUMNS)),
    );
    const rows = new Set<number>();
    for (const range of spreadsheet.getActiveRangeList()?.getRanges() ?? []) {
      for (let r = Math.max(2, range.getRow()); r <= range.getLastRow(); r += 1) rows.add(r);
    }
    if (idCol) {
      for (const r of [...rows].sort((a, b) => a - b).slice(0, 200)) {
        const values = (sheet.getRange(r, 1, 1, sheet.getLastColumn()).getValues()[0] ?? []) as CellValue[];
        const id = Number(values[idCol - 1]);
        if (!Number.isSafeInteger(id) || id <= 0) continue;
        const reportNumber = numberCol ? String(values[numberCol - 1] ?? "") : "";
        reports.push({ id, reportNumber, row: r, cells: values, header });
      }
    }
  }
  return reports;
}

/**
 * Each row's (policy id, custom status) on the Expense reports sheet, as the last refresh wrote
 * them (two columns read whole); none when the sheet or either column is missing.
 */
export function policyCustomStatuses(
  spreadsheet: Spreadsheet,
  reportsSheetName: string,
): (readonly [unknown, unknown])[] {
  const sheet = spreadsheet.getSheetByName(reportsSheetName);
  if (!sheet || sheet.getLastColumn() === 0 || sheet.getLastRow() < 2) return [];
  const header = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] ?? [];
  const [policyCol, statusCol] = ["policyId", "customStatus"].map((key) =>
    columnWithHeader(header, headerTexts(key, REPORT_COLUMNS)),
  );
  if (!policyCol || !statusCol) return [];
  const rows = sheet.getLastRow() - 1;
  const policies = sheet.getRange(2, policyCol, rows, 1).getValues();
  const statuses = sheet.getRange(2, statusCol, rows, 1).getValues();
  return policies.map((p, i) => [p[0], statuses[i]?.[0]] as const);
}
