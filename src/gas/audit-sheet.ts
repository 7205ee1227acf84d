/**
 * The audit sheet and its archive over SpreadsheetApp. Rows are only ever appended (and a
 * write's own "sending" row completed); the sheet is protected with a warning so that a person
 * editing it by accident is asked first (an add-on cannot lock its users out); past a size the
 * oldest rows move to the archive, which is bounded too, so the 10-million-cell limit of a
 * spreadsheet is never reached through the audit.
 *
 * Tampering shows: every appended row carries an entry number, the last one given is kept in
 * the add-on's document properties (which no editor can reach from the sheet), and the first
 * append of each execution compares the sheet with it and reports gaps and rows out of place in
 * a row of its own (src/audit/sequence.ts). A header row that was cleared or deleted is written
 * again before anything is appended.
 */
import { AUDIT_LIMITS, type AuditSink, planRotation } from "../audit/log";
import {
  afterRotation,
  checkSequence,
  describeFindings,
  entryNumber,
  findingsKey,
  parseSequenceState,
  type SequenceFinding,
  type SequenceState,
  sequenceStateText,
  startSequence,
} from "../audit/sequence";
import { LANGUAGES, type Language, translate } from "../i18n";
import type { CellValue } from "../sheets/cells";
import {
  AUDIT_COLUMNS,
  AUDIT_SEQUENCE_KEY,
  AUDIT_TABLE,
  type AuditRowSource,
  type Column,
  headersOf,
  headerText,
  OLDER_AUDIT_LAYOUTS,
  rowOf,
} from "../sheets/columns";
import { runtime } from "./runtime";
import { ensureSize } from "./spreadsheet";

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

const WIDTH = AUDIT_COLUMNS.length;
const FORMATS = AUDIT_COLUMNS.map((c) => c.format);
/** 1-based column of the entry numbers, wherever the declaration puts it. */
const NUMBER_COLUMN = AUDIT_COLUMNS.findIndex((c) => c.key === AUDIT_SEQUENCE_KEY) + 1;
/** Document property (per sheet id) with the sheet's SequenceState. */
const SEQUENCE_KEY = "audit.sequence.";
/** How long an append waits for the document lock when its caller does not hold it. */
const LOCK_WAIT_MS = 10_000;

export interface AuditSheetOptions {
  name: string;
  archiveName: string;
  language: Language;
  limits?: { maxRows: number; maxArchiveRows: number };
}

interface OpenedSheet {
  sheet: Sheet;
  created: boolean;
  /** The header row was missing or changed (not merely shorter, as older versions wrote it). */
  headerRestored: boolean;
}

/** The sheet named `name` with the audit header, frozen and protected; created when missing. */
function auditSheet(name: string, language: Language): OpenedSheet {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  let sheet = spreadsheet.getSheetByName(name);
  let created = false;
  if (!sheet) {
    // Under the document lock, looked for again: another execution may have just made it (a
    // second insertSheet of the name would fail).
    sheet = underDocumentLock(() => {
      const made = spreadsheet.getSheetByName(name);
      if (made) return made;
      created = true;
      const inserted = spreadsheet.insertSheet(name);
      ensureSize(inserted, 2, WIDTH);
      return inserted;
    });
  } else if (restricted(sheet) && sheet.getLastRow() > 0) {
    // A sheet someone restricted (not the add-on's warning) that holds rows under another first
    // row is theirs, named in the settings by another editor: no header goes over it, no rows
    // into it, none move from it to the archive.
    const width = Math.min(WIDTH, sheet.getMaxColumns());
    const first = (sheet.getRange(1, 1, 1, width).getValues()[0] ?? []) as CellValue[];
    if (!layoutOf(first.map((c) => (typeof c === "string" ? c.trim() : c))))
      throw new Error(translate(language, "audit.foreignSheet", { sheet: name }));
  }
  const headerRestored = ensureHeader(sheet, language) === "restored";
  const protections = sheet.getProtections(SpreadsheetApp.ProtectionType.SHEET);
  if (protections.length === 0) {
    sheet.protect().setWarningOnly(true).setDescription("Written by the add-on: every call to the service.");
  }
  return { sheet, created, headerRestored };
}

/** Whether anyone restricted who may edit the sheet or a range of it (more than a warning). */
function restricted(sheet: Sheet): boolean {
  const { SHEET, RANGE } = SpreadsheetApp.ProtectionType;
  return [...sheet.getProtections(SHEET), ...sheet.getProtections(RANGE)].some((p) => !p.isWarningOnly());
}

/** The header texts of `keys` in `language`. */
function headersFor(keys: readonly string[], language: Language): string[] {
  return keys.map((k) => {
    const column = AUDIT_COLUMNS.find((c) => c.key === k);
    return column ? headerText(column as Column<unknown>, language) : k;
  });
}

/**
 * The layout row 1 shows when it is the header of this version or of an earlier one from
 * OLDER_AUDIT_LAYOUTS[oldest] on: whole (what follows it is a user's), or only its first
 * columns followed by blanks (written by a version with fewer columns). Its language and keys.
 */
function layoutOf(
  cells: readonly CellValue[],
  oldest = 0,
): { language: Language; keys: readonly string[]; inserted?: boolean } | null {
  const current = AUDIT_COLUMNS.map((c) => c.key);
  for (const keys of [current, ...OLDER_AUDIT_LAYOUTS.slice(oldest)]) {
    for (const language of LANGUAGES) {
      const headers = headersFor(keys, language);
      let same = 0;
      while (same < headers.length && cells[same] === headers[same]) same++;
      if (same === headers.length || (same > 0 && cells.slice(same, headers.length).every((c) => c === "")))
        return { language, keys: keys.slice(0, same) };
      // An earlier header whose new columns were inserted, still blank, by an execution
      // stopped before it wrote the header: only the header is left to write.
      const all = headersFor(current, language);
      if (
        keys !== current &&
        current.every((key, i) => (cells[i] ?? "") === (keys.includes(key) ? all[i] : ""))
      )
        return { language, keys: current, inserted: true };
    }
  }
  return null;
}

/**
 * Writes the header row when it is not there: over row 1 when it is empty, above it when row 1
 * holds an entry (the header row was deleted). A header in either language stays in its
 * language; one written by an earlier version gets the columns added since inserted where they
 * go, so its rows keep every cell under the right header.
 */
function ensureHeader(sheet: Sheet, language: Language): "intact" | "completed" | "restored" {
  const { found } = headerRow(sheet);
  if (found?.keys.length === WIDTH && !found.inserted) return "intact";
  // Under the document lock, read again: two executions opening an old sheet at once must not
  // both insert its new columns (nor both write a header row).
  return underDocumentLock(() => rewriteHeader(sheet, language));
}

/** Row 1 as the header it is, if it is one (see layoutOf). */
function headerRow(sheet: Sheet, oldest = 0) {
  ensureSize(sheet, 1, WIDTH);
  const first = (sheet.getRange(1, 1, 1, WIDTH).getValues()[0] ?? []) as CellValue[];
  const cells = first.map((c) => (typeof c === "string" ? c.trim() : c));
  return { cells, found: layoutOf(cells, oldest) };
}

/**
 * Document property (per sheet id): the layout the sheet's header was last written in, as its
 * place in OLDER_AUDIT_LAYOUTS (this version's: the list's length). "1", written before the
 * Company column, is the layout without it.
 */
const LAYOUT_KEY = "audit.layout.";
/** This version's layout number in the note. */
const LAYOUT_NUMBER = OLDER_AUDIT_LAYOUTS.length;

/** The oldest earlier layout a sheet noted as `noted` may still show: none older than its note. */
function oldestAllowed(noted: string | null): number {
  if (noted === null) return 0;
  const n = Number(noted);
  return Number.isInteger(n) && n >= 0 ? Math.min(n, LAYOUT_NUMBER) : LAYOUT_NUMBER;
}

function rewriteHeader(sheet: Sheet, language: Language): "intact" | "completed" | "restored" {
  // A sheet once laid out in some version's columns never takes an older header (typed over
  // it by anyone) for one to insert columns into: its rows would all move under other headers.
  const properties = PropertiesService.getDocumentProperties();
  const mark = `${LAYOUT_KEY}${sheet.getSheetId()}`;
  const { cells, found } = headerRow(sheet, oldestAllowed(properties.getProperty(mark)));
  if (found && found.keys.length === WIDTH && !found.inserted) {
    properties.setProperty(mark, String(LAYOUT_NUMBER));
    return "intact";
  }
  const blank = cells.every((c) => c === "");
  if (found && !found.inserted) {
    // Columns the old layout lacks go in where this version has them, each run of adjacent
    // ones in one call; those past its last column need no room made.
    let used = found.keys.length;
    for (let i = 0; i < used; i++) {
      let n = 0;
      while (i + n < WIDTH && !found.keys.includes(AUDIT_COLUMNS[i + n]?.key ?? "")) n++;
      if (n === 0) continue;
      sheet.insertColumnsBefore(i + 1, n);
      used += n;
      i += n - 1;
    }
  } else if (!found && !blank) sheet.insertRowsBefore(1, 1);
  const header = sheet.getRange(1, 1, 1, WIDTH);
  header.setNumberFormats([FORMATS.map(() => "@")]);
  header.setValues([headersOf(AUDIT_TABLE, found?.language ?? language)]);
  // Noted once the header is whole: a move stopped before is recognised and finished.
  properties.setProperty(mark, String(LAYOUT_NUMBER));
  if (sheet.getFrozenRows() !== 1) sheet.setFrozenRows(1);
  // A sheet the add-on has just created is blank too; it has no rows to speak of.
  return found ? "completed" : blank && sheet.getLastRow() <= 1 ? "intact" : "restored";
}

function cells(rows: readonly AuditRowSource[], language: Language) {
  return rows.map((r) => rowOf(AUDIT_TABLE, r, language));
}

/** Each row's number formats: an amount shows its currency's decimals. */
function formatsOf(rows: readonly AuditRowSource[]): string[][] {
  return rows.map((r) => AUDIT_COLUMNS.map((c) => (c.formatOf ? c.formatOf(r) : c.format)));
}

/** The sheet's SequenceState in the add-on's document properties. */
function sequenceStore(sheet: Sheet) {
  const properties = PropertiesService.getDocumentProperties();
  const key = `${SEQUENCE_KEY}${sheet.getSheetId()}`;
  return {
    load: () => parseSequenceState(properties.getProperty(key)),
    save: (state: SequenceState) => {
      properties.setProperty(key, sequenceStateText(state));
    },
  };
}

/** The entry-number cells of the data rows (row 2 on). */
function numberCells(sheet: Sheet): CellValue[] {
  const rows = sheet.getLastRow() - 1;
  if (rows <= 0) return [];
  return sheet
    .getRange(2, NUMBER_COLUMN, rows, 1)
    .getValues()
    .map((r) => r[0] as CellValue);
}

/**
 * Runs `work` holding the document lock, so that two executions never give the same entry
 * number: the caller's lock when it holds it (a refresh, the Outbox, a form's movement: the
 * execution's one Lock object, runtime().documentLock, never a second one), else taken for the
 * moment; when it cannot be had in time the row is written anyway (losing an audit row would be
 * worse than a number the next check reports).
 */
function underDocumentLock<T>(work: () => T): T {
  const lock = runtime().documentLock(null);
  if (!lock || lock.hasLock()) return work();
  const got = lock.tryLock(LOCK_WAIT_MS);
  try {
    return work();
  } finally {
    if (got) {
      SpreadsheetApp.flush();
      lock.releaseLock();
    }
  }
}

/** The audit sheet as the audit log's sink; rotates it first when it has grown past its bound. */
export function auditSheetSink(options: AuditSheetOptions): AuditSink {
  let checked = false;
  /** Entry numbers given in this execution, by the row they were written to. */
  const given = new Map<number, number>();
  let opened: OpenedSheet;
  let sheet: Sheet;
  let numbers: ReturnType<typeof sequenceStore>;
  let id = -1;
  /** Opens the sheet, again when an editor deleted or renamed it meanwhile: the audit goes on in one of its own. */
  const reopen = () => {
    if (SpreadsheetApp.getActiveSpreadsheet().getSheetByName(options.name)?.getSheetId() === id) return;
    opened = auditSheet(options.name, options.language);
    sheet = opened.sheet;
    id = sheet.getSheetId();
    numbers = sequenceStore(sheet);
    // A new sheet's numbering starts at 1, unless another execution has numbered rows in it
    // since: read and set under the document lock, never over another's entries.
    if (opened.created) {
      const store = numbers;
      underDocumentLock(() => {
        if (store.load() === null) store.save(startSequence());
      });
    }
    checked = false;
    given.clear();
  };
  reopen();
  // Both set by reopen().
  rotate(sheet!, options, numbers!);

  /** The first append's check: what differs from what the add-on wrote, as a report row. */
  function check(
    state: SequenceState | null,
    about: AuditRowSource,
  ): {
    state: SequenceState;
    report: AuditRowSource[];
  } {
    const findings: SequenceFinding[] = [];
    if (opened.headerRestored) findings.push({ kind: "headerRestored" });
    let current = state;
    if (!current) {
      // Numbering begins in a sheet that already has rows: they stay as they are, unnumbered.
      const rows = Math.max(0, sheet.getLastRow() - 1);
      current = startSequence(rows);
      if (rows > 0) findings.push({ kind: "unnumberedBefore", rows });
    }
    const found = checkSequence(numberCells(sheet), current);
    const key = findingsKey(found);
    if (key !== current.reported) findings.push(...found);
    current = { ...current, reported: key };
    if (findings.length === 0) return { state: current, report: [] };
    const row: AuditRowSource = {
      timestamp: new Date(),
      user: about.user,
      source: about.source,
      action: translate(options.language, "audit.check.action"),
      method: "",
      endpoint: "",
      parameters: "",
      httpStatus: null,
      outcome: "irregular",
      message: describeFindings(findings, options.language).slice(0, 5000),
      durationMs: null,
      recordId: "",
    };
    return { state: current, report: [row] };
  }

  function write(first: number, rows: readonly AuditRowSource[]): void {
    ensureSize(sheet, first + rows.length - 1, WIDTH);
    const range = sheet.getRange(first, 1, rows.length, WIDTH);
    range.setNumberFormats(formatsOf(rows));
    range.setValues(cells(rows, options.language));
  }

  const sink: AuditSink = {
    append(rows) {
      reopen();
      if (rows.length === 0) return sheet.getLastRow() + 1;
      return underDocumentLock(() => {
        let state = numbers.load();
        let report: AuditRowSource[] = [];
        if (!checked) {
          checked = true;
          ({ state, report } = check(state, rows[0] as AuditRowSource));
        }
        const start = state ?? startSequence();
        const all = [...report, ...rows].map((r, i) => ({ ...r, sequence: start.last + 1 + i }));
        // The numbers are taken before the rows are written: a run stopped in between leaves a
        // gap that the next check reports, never a row whose number nobody gave.
        numbers.save({ ...start, last: start.last + all.length });
        const first = Math.max(sheet.getLastRow(), 1) + 1;
        write(first, all);
        all.forEach((r, i) => {
          given.set(first + i, r.sequence);
        });
        return first + report.length;
      });
    },
    update(rowNumber, row) {
      reopen();
      const number = given.get(rowNumber);
      if (number === undefined) {
        // Appended to a sheet since deleted: the outcome gets an entry of its own.
        sink.append([row]);
        return;
      }
      // Rows deleted or inserted above since it was appended move it: find it by its number.
      let target = rowNumber;
      if (entryNumber(sheet.getRange(rowNumber, NUMBER_COLUMN).getValue() as CellValue) !== number) {
        const at = numberCells(sheet).findIndex((c) => entryNumber(c) === number);
        if (at < 0) {
          // Its row is gone (the next check reports the gap): the outcome gets an entry of its own.
          sink.append([row]);
          return;
        }
        target = at + 2;
      }
      write(target, [{ ...row, sequence: number }]);
    },
    flush() {
      SpreadsheetApp.flush();
    },
  };
  return sink;
}

/**
 * Moves the oldest rows to the archive when the audit is past its bound; trims the archive.
 * Under the document lock, the rows counted again: two executions must not move the same rows.
 */
function rotate(sheet: Sheet, options: AuditSheetOptions, numbers: ReturnType<typeof sequenceStore>): void {
  const limits = options.limits ?? AUDIT_LIMITS;
  const rowsNow = () => Math.max(0, sheet.getLastRow() - 1);
  if (rowsNow() <= limits.maxRows) return;
  underDocumentLock(() => moveOldest(sheet, rowsNow(), options, numbers));
}

function moveOldest(
  sheet: Sheet,
  rows: number,
  options: AuditSheetOptions,
  numbers: ReturnType<typeof sequenceStore>,
): void {
  const limits = options.limits ?? AUDIT_LIMITS;
  if (rows <= limits.maxRows) return;
  const archive = auditSheet(options.archiveName, options.language).sheet;
  const archived = Math.max(0, archive.getLastRow() - 1);
  const plan = planRotation(rows, archived, limits);
  if (plan.moveToArchive === 0) return;
  if (plan.dropFromArchive > 0) deleteOldest(archive, plan.dropFromArchive);
  const moving = sheet.getRange(2, 1, plan.moveToArchive, WIDTH);
  const values = moving.getValues();
  const first = Math.max(archive.getLastRow(), 1) + 1;
  ensureSize(archive, first + values.length - 1, WIDTH);
  const target = archive.getRange(first, 1, values.length, WIDTH);
  target.setNumberFormats(moving.getNumberFormats());
  target.setValues(values);
  deleteOldest(sheet, plan.moveToArchive);
  // The sheet now starts after the moved entries: they are in the archive, not missing.
  const state = numbers.load();
  if (state)
    numbers.save(
      afterRotation(
        state,
        values.map((r) => r[NUMBER_COLUMN - 1] as CellValue),
      ),
    );
}

/** Deletes data rows 2…n+1; Sheets refuses to delete every unfrozen row, so one is kept spare. */
function deleteOldest(sheet: Sheet, count: number): void {
  const maxRows = sheet.getMaxRows();
  if (maxRows - 1 <= count) sheet.insertRowsAfter(maxRows, 1);
  sheet.deleteRows(2, count);
}
