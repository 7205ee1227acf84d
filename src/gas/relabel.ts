/**
 * The add-on's sheets after the document's language changed: each one still named by the old
 * language's default takes the new one (a name a user chose stays), and the add-on's headers
 * take the new language in place, users' columns untouched. The stored layouts name columns by
 * key, so they describe the sheets as before.
 */
import { tolerate } from "../api/errors";
import { type Language, type StringKey, translate } from "../i18n";
import type { SheetNames } from "../refresh/options";
import { loadLayout } from "../refresh/stored-text";
import { FORMAT } from "../sheets/cells";
import {
  AUDIT_COLUMNS,
  type Column,
  FILE_COLUMNS,
  fundColumns,
  REPORT_COLUMNS,
  TRANSACTION_COLUMNS,
} from "../sheets/columns";
import { relabelledCells, relabelledHeader, relabelledLinks } from "../sheets/headers";
import { outboxSheet, relabelOutboxSheet } from "./outbox-sheet";
import { runtime } from "./runtime";
import { redrawSummarySheet } from "./summary-sheet";

const keysOf = (columns: readonly { header: unknown }[]) =>
  columns.flatMap((c) => (typeof c.header === "string" ? [c.header as StringKey] : []));

/** Renames and relabels the add-on's sheets from `before` (in `from`) to `after` (in `to`). */
export function relabelSheets(before: SheetNames, after: SheetNames, from: Language, to: Language): void {
  const spreadsheet = runtime().spreadsheet();
  const rename = (old: string, name: string) => {
    const sheet = spreadsheet.getSheetByName(old);
    if (sheet && old !== name && !spreadsheet.getSheetByName(name)) sheet.setName(name);
    return spreadsheet.getSheetByName(name) ?? sheet;
  };
  // A document of several companies gives every data sheet its Company and Company key columns
  // (withCompany in src/sheets/columns.ts), which the tables' own lists do not hold.
  const company: StringKey[] = ["col.company", "col.companyKey"];
  const headers: [keyof SheetNames, StringKey[]][] = [
    ["funds", [...company, ...keysOf(fundColumns(new Map()))]],
    ["transactions", [...company, ...keysOf(TRANSACTION_COLUMNS)]],
    ["reports", [...company, ...keysOf(REPORT_COLUMNS)]],
    ["audit", keysOf(AUDIT_COLUMNS)],
    ["auditArchive", keysOf(AUDIT_COLUMNS)],
    ["files", [...company, ...keysOf(FILE_COLUMNS)]],
  ];
  for (const [kind, keys] of headers) {
    const sheet = rename(before[kind], after[kind]);
    const width = sheet?.getLastColumn() ?? 0;
    if (!sheet || width === 0) continue;
    const range = sheet.getRange(1, 1, 1, width);
    const row = relabelledHeader(range.getValues()[0] ?? [], keys, from, to);
    if (row) range.setValues([row]);
    // The note on the first header cell: when and by whom the sheet was refreshed (a scheduled
    // run's "who" relabelled too; one written before it was translated stays as it was).
    const corner = sheet.getRange(1, 1);
    const note = relabelledCells(
      [[corner.getNote()]],
      ["note.refreshed", "note.inProgress", "who.schedule"],
      from,
      to,
    );
    if (note) corner.setNote(String(note[0]?.[0]));
    const columns = DATA_COLUMNS[kind];
    if (columns) relabelRows(sheet, kind, columns, from, to);
  }
  const outbox = outboxSheet(spreadsheet, before.outbox);
  if (outbox) relabelOutboxSheet(outbox, from, to, after.outbox);
  // The Summary: renamed, then written again in `to` from what it showed (found by its id).
  rename(translate(from, "summary.sheet"), translate(to, "summary.sheet"));
  tolerate("derived only", () => redrawSummarySheet(to), undefined);
}

const DATA_COLUMNS: Partial<Record<keyof SheetNames, readonly Column<never>[]>> = {
  funds: fundColumns(new Map()),
  transactions: TRANSACTION_COLUMNS,
  reports: REPORT_COLUMNS,
  files: FILE_COLUMNS,
};

/**
 * The label cells of a data sheet's rows (statuses, types, yes/no, the notes of rows no longer
 * returned), found by the stored layout: one read and at most one write per column, only the
 * add-on's columns, only cells that still hold the old language's label.
 */
function relabelRows(
  sheet: GoogleAppsScript.Spreadsheet.Sheet,
  kind: keyof SheetNames,
  columns: readonly Column<never>[],
  from: Language,
  to: Language,
): void {
  const rows = sheet.getLastRow() - 1;
  if (rows < 1) return;
  // No layout stored yet: the sheet has the default columns.
  const keys = loadLayout(runtime().documentProperties(), kind) ?? columns.map((c) => c.key);
  for (const column of columns) {
    const at = keys.indexOf(column.key);
    if (!column.labels || at < 0) continue;
    const range = sheet.getRange(2, at + 1, rows, 1);
    // A column of links (General): the label inside each HYPERLINK formula.
    const cells =
      column.format === FORMAT.general
        ? relabelledLinks(range.getValues(), range.getFormulas(), column.labels, from, to)
        : relabelledCells(range.getValues(), column.labels, from, to);
    if (cells) range.setValues(cells);
  }
}
