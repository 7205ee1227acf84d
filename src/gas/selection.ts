/**
 * What the fund and report sidebars read from the sheets: a column found by its header (in
 * either language), the fund of the selected row, the employees seen in the sheets, and the
 * reports of the selected rows.
 */
import { FUND_COLUMNS, REPORT_COLUMNS } from "../sheets/columns";
import { columnWithHeader, headerTexts } from "../sheets/headers";

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** 1-based column of `sheet` whose header (row 1) is one of `headers`, or null. */
function columnIn(sheet: GoogleAppsScript.Spreadsheet.Sheet, headers: string[]): number | null {
  if (sheet.getLastColumn() === 0) return null;
  return columnWithHeader(sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] ?? [], headers);
}

/** The fund id of the active row, from the Funds sheet (Id) or any sheet with a fund Id column. */
export function selectedFundId(spreadsheet: Spreadsheet, fundsSheetName: string): number | null {
  const sheet = spreadsheet.getActiveSheet();
  const range = spreadsheet.getActiveRange();
  if (!sheet || !range || range.getRow() < 2) return null;
  const headers =
    sheet.getName() === fundsSheetName
      ? headerTexts("id", FUND_COLUMNS)
      : headerTexts("fundId", REPORT_COLUMNS);
  const column = columnIn(sheet, headers);
  if (column === null) return null;
  const id = Number(sheet.getRange(range.getRow(), column).getValue());
  return Number.isSafeInteger(id) && id > 0 ? id : null;
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
    // Only the one column: a reports sheet may hold tens of thousands of wide rows.
    for (const [cell] of sheet.getRange(2, idCol, sheet.getLastRow() - 1, 1).getValues()) {
      const id = Number(cell);
      if (Number.isSafeInteger(id) && id > 0 && !byId.has(id)) byId.set(id, "");
    }
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
        const values = sheet.getRange(r, 1, 1, sheet.getLastColumn()).getValues()[0] ?? [];
        const id = Number(values[idCol - 1]);
        if (!Number.isSafeInteger(id) || id <= 0) continue;
        reports.push({ id, reportNumber: numberCol ? String(values[numberCol - 1] ?? "") : "" });
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
