/**
 * The Apps Script calls of the Diagnostics self-check. Each probe asks Google one question and
 * returns what happened as plain data (src/diagnostics/checks.ts), a thrown message included:
 * a refusal is an answer here, not a failure of the run.
 */
import {
  type Attempt,
  attempt,
  DIAGNOSTICS_ENABLED_KEY,
  type PlainTextSeen,
  type SessionSeen,
  type TriggerListing,
  type TriggerReport,
  type TwoLocksSeen,
} from "../diagnostics/checks";
import { activeSpreadsheet, documentProperties } from "./active";
import { ensureSize } from "./spreadsheet";

/** A store of properties, or null when this run has none (or it cannot be read). */
function store(get: () => GoogleAppsScript.Properties.Properties | null) {
  const found = attempt(get);
  return found.ok ? found.value : null;
}

/** `key`'s value in each of `stores` that can be read and has it, in order. */
function readFrom(key: string, stores: Array<() => GoogleAppsScript.Properties.Properties | null>): string[] {
  const values: string[] = [];
  for (const get of stores) {
    const value = attempt(() => get()?.getProperty(key));
    if (value.ok && value.value != null) values.push(value.value);
  }
  return values;
}

/** The flag's value: the document's property, else the script's (settable in the editor's Project Settings). */
export function diagnosticsFlag(): string | null {
  return (
    readFrom(DIAGNOSTICS_ENABLED_KEY, [
      documentProperties,
      () => PropertiesService.getScriptProperties(),
    ])[0] ?? null
  );
}

/** Whether this run has the document's properties (a time trigger may get null). */
export function documentStoreAvailable(): boolean {
  return store(documentProperties) !== null;
}

/** Creates a one-off clock trigger running `handler` after `delayMs`; its unique id. */
export function createClockTriggerAfter(handler: string, delayMs: number): Attempt<string> {
  return attempt(() => ScriptApp.newTrigger(handler).timeBased().after(delayMs).create().getUniqueId());
}

/** This user's triggers of this script in the active spreadsheet, as getUserTriggers lists them. */
export function listMyTriggers(): Attempt<TriggerListing[]> {
  return attempt(() =>
    ScriptApp.getUserTriggers(activeSpreadsheet()).map((t) => ({
      uid: t.getUniqueId(),
      handler: t.getHandlerFunction(),
      eventType: String(t.getEventType()),
    })),
  );
}

/** Deletes this user's triggers in the active spreadsheet that `matches`. */
export function deleteMyTriggers(matches: (t: { uid: string; handler: string }) => boolean): void {
  for (const trigger of ScriptApp.getUserTriggers(activeSpreadsheet())) {
    if (matches({ uid: trigger.getUniqueId(), handler: trigger.getHandlerFunction() })) {
      ScriptApp.deleteTrigger(trigger);
    }
  }
}

/** A plain GET of `url`, nothing sent along: its HTTP status, or what UrlFetchApp threw. */
export function fetchStatus(url: string): Attempt<number> {
  return attempt(() =>
    UrlFetchApp.fetch(url, { muteHttpExceptions: true, followRedirects: false }).getResponseCode(),
  );
}

/**
 * Writes `rows` × `columns` numbers in one setValues on a scratch sheet, flushes, and deletes
 * the sheet again; the milliseconds the write and the flush took.
 */
export function timeCellWrite(rows: number, columns: number): Attempt<{ cells: number; ms: number }> {
  return attempt(() => {
    const spreadsheet = activeSpreadsheet();
    let name = "Diagnostics scratch";
    for (let n = 2; spreadsheet.getSheetByName(name); n++) name = `Diagnostics scratch ${n}`;
    const sheet = spreadsheet.insertSheet(name);
    try {
      ensureSize(sheet, rows, columns);
      const values = Array.from({ length: rows }, (_, r) =>
        Array.from({ length: columns }, (_, c) => r * columns + c),
      );
      const range = sheet.getRange(1, 1, rows, columns);
      const start = Date.now();
      range.setValues(values);
      SpreadsheetApp.flush();
      return { cells: rows * columns, ms: Date.now() - start };
    } finally {
      spreadsheet.deleteSheet(sheet);
    }
  });
}

/**
 * Writes "=1+1" with setValues into a cell formatted "@" (plain text) on a scratch sheet and
 * reads it back: the formula-injection defence relies on the text staying text. The sheet is
 * deleted again.
 */
export function seePlainTextFormula(): Attempt<PlainTextSeen> {
  return attempt(() => {
    const spreadsheet = activeSpreadsheet();
    let name = "Diagnostics plain text";
    for (let n = 2; spreadsheet.getSheetByName(name); n++) name = `Diagnostics plain text ${n}`;
    const sheet = spreadsheet.insertSheet(name);
    try {
      const cell = sheet.getRange(1, 1, 1, 1);
      cell.setNumberFormat("@");
      cell.setValues([["=1+1"]]);
      SpreadsheetApp.flush();
      return {
        formula: String(cell.getFormulas()[0]?.[0] ?? ""),
        value: String(cell.getValues()[0]?.[0] ?? ""),
      };
    } finally {
      spreadsheet.deleteSheet(sheet);
    }
  });
}

/**
 * Whether two getDocumentLock() objects of one execution share state: the first takes the lock,
 * then the second is asked whether it has it and tries to take it. Only observed and reported;
 * the add-on takes its lock once and passes it down, whatever the answer. Both are released.
 */
export function seeTwoDocumentLocks(): Attempt<TwoLocksSeen> {
  return attempt(() => {
    const first = LockService.getDocumentLock();
    const second = LockService.getDocumentLock();
    if (!first || !second) throw new Error("getDocumentLock() returned null");
    const firstAcquired = first.tryLock(1000);
    try {
      const secondHasLock = second.hasLock();
      const secondAcquired = secondHasLock ? false : second.tryLock(100);
      if (secondAcquired) second.releaseLock();
      return { firstAcquired, secondHasLock, secondAcquired };
    } finally {
      if (firstAcquired && first.hasLock()) first.releaseLock();
    }
  });
}

/** What Session says about the user in the current run. */
export function seeSession(authMode: string): SessionSeen {
  return {
    at: Date.now(),
    authMode,
    active: attempt(() => Session.getActiveUser().getEmail()),
    effective: attempt(() => Session.getEffectiveUser().getEmail()),
  };
}

/** The active spreadsheet's id, or null when there is none. */
const spreadsheetId = () => attempt(() => activeSpreadsheet()?.getId() ?? null);

/** What a time trigger gets: the active spreadsheet, the document lock, document properties. */
export function seeFromTrigger(authMode: string): TriggerReport {
  const session = seeSession(authMode);
  const documentLock = attempt((): "acquired" | "busy" | "null" => {
    const lock = LockService.getDocumentLock();
    if (!lock) return "null";
    if (!lock.tryLock(1000)) return "busy";
    SpreadsheetApp.flush();
    lock.releaseLock();
    return "acquired";
  });
  const properties = attempt(() => (documentProperties() ? "available" : "null"));
  return {
    at: session.at,
    session,
    spreadsheet: spreadsheetId(),
    documentLock,
    documentProperties: properties,
  };
}

/** The active spreadsheet's id, or null when there is none (or it cannot be read). */
export function activeSpreadsheetId(): string | null {
  const id = spreadsheetId();
  return id.ok ? id.value : null;
}

const userProperties = () => PropertiesService.getUserProperties();

/**
 * Keeps `text` under `key` in the document's properties, or the user's when a trigger gets no
 * document store (the trigger runs as the user who will read it).
 */
export function saveSeen(key: string, text: string): void {
  (store(documentProperties) ?? userProperties()).setProperty(key, text);
}

/** What was kept under `key`: the document's and the user's value, where not empty. */
export function readSeen(key: string): string[] {
  return readFrom(key, [documentProperties, userProperties]).filter((value) => value !== "");
}

/** Replaces the content of the sheet `name` (created when missing) with `values`, all as text. */
export function writeResultsSheet(name: string, values: string[][]): void {
  const spreadsheet = activeSpreadsheet();
  const sheet = spreadsheet.getSheetByName(name) ?? spreadsheet.insertSheet(name);
  sheet.clearContents();
  const width = values[0]?.length ?? 0;
  if (values.length === 0 || width === 0) return;
  const range = sheet.getRange(1, 1, values.length, width);
  // Plain text: a message from Google is shown as it is, never parsed or run as a formula.
  range.setNumberFormat("@");
  range.setValues(values);
  sheet.setFrozenRows(1);
  spreadsheet.setActiveSheet(sheet);
}

/** `ms` as a date and time in the spreadsheet's time zone. */
export function formatWhen(ms: number): string {
  const zone = attempt(() => activeSpreadsheet().getSpreadsheetTimeZone());
  return Utilities.formatDate(
    new Date(ms),
    zone.ok ? zone.value : Session.getScriptTimeZone(),
    "yyyy-MM-dd HH:mm",
  );
}

export function toast(message: string, title: string): void {
  attempt(() => activeSpreadsheet().toast(message, title, 10));
}
