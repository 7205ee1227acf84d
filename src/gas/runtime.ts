/**
 * The Apps Script services the add-on uses, in one place: property stores, cache, locks, the
 * spreadsheet and its Ui, the user's locale and identity, dates, ids, the clock and the
 * transport. Each execution starts from a fresh global scope, so `runtime()` builds them at most
 * once per execution, each on first use (onOpen in AuthMode.NONE may touch none but the Ui).
 */

import type { Clock, Transport } from "../api";
import { activeSpreadsheet, documentProperties } from "./active";
import { type DocumentActivity, type DocumentLock, documentLockFor } from "./document-lock";
import { appsScriptClock, urlFetchTransport } from "./transport";

export interface Runtime {
  /** The document's properties; null outside a document (a standalone run). */
  documentProperties(): GoogleAppsScript.Properties.Properties;
  /** The current user's own properties (the token, the UrlFetch ledger). */
  userProperties(): GoogleAppsScript.Properties.Properties;
  /** The current user's cache. */
  userCache(): GoogleAppsScript.Cache.Cache | null;
  documentCache(): GoogleAppsScript.Cache.Cache | null;
  /**
   * The document's lock, taken for `activity` (a refused run can then name the run holding it;
   * null: not noted): one execution per document at a time; null outside a document. Every call
   * of an execution wraps the same Lock object, asked for once: whether a second
   * `getDocumentLock()` object sees the first one's hold is not documented, so whoever needs
   * the lock (the audit sheet included) asks this one whether the execution already holds it.
   */
  documentLock(activity: DocumentActivity | null): DocumentLock | null;
  /** The current user's lock (across documents). */
  userLock(): GoogleAppsScript.Lock.Lock;
  /** The active spreadsheet. */
  spreadsheet(): GoogleAppsScript.Spreadsheet.Spreadsheet;
  /** The spreadsheet's Ui; throws where there is none (a trigger). */
  ui(): GoogleAppsScript.Base.Ui;
  /** Writes pending spreadsheet changes. */
  flush(): void;
  /** A builder of a data validation rule. */
  newDataValidation(): GoogleAppsScript.Spreadsheet.DataValidationBuilder;
  newConditionalFormatRule(): GoogleAppsScript.Spreadsheet.ConditionalFormatRuleBuilder;
  /**
   * Opens the built page `page` (dist/<page>.html) as a sidebar titled `title`, on `section`
   * when given (the settings' "connection").
   */
  showSidebar(page: SidebarPage, title: string, section?: "connection"): void;
  /** The active user's locale; throws where it may not be read (AuthMode.NONE). */
  userLocale(): string;
  /** The active user's email ("" for consumer accounts and other domains). */
  activeUserEmail(): string;
  /** The effective user's email: the trigger creator's in a scheduled run. */
  effectiveUserEmail(): string;
  /** A temporary key of the active user (stands for an email Google does not reveal). */
  temporaryUserKey(): string;
  /** The script's time zone (the manifest's), for a run that has no spreadsheet. */
  scriptTimeZone(): string;
  /** Whether `mode` is AuthMode.NONE (onOpen before the add-on is used in the document). */
  isAuthModeNone(mode: GoogleAppsScript.Script.AuthMode | undefined): boolean;
  /** `date` formatted with `pattern` in `timeZone` (Utilities.formatDate). */
  formatDate(date: Date, timeZone: string, pattern: string): string;
  /** A fresh UUID. */
  uuid(): string;
  /** The SHA-256 of `text`, in base64. */
  digest(text: string): string;
  /** Date.now for now, Utilities.sleep to wait. */
  clock(): Clock;
  /** UrlFetchApp as the client's transport. */
  transport(): Transport;
}

/** The built sidebar pages, each opened by its literal name (the build test checks them). */
const PAGES = {
  settings: () => HtmlService.createHtmlOutputFromFile("settings"),
  refresh: () => HtmlService.createHtmlOutputFromFile("refresh"),
  fund: () => HtmlService.createHtmlOutputFromFile("fund"),
  report: () => HtmlService.createHtmlOutputFromFile("report"),
  close: () => HtmlService.createHtmlOutputFromFile("close"),
};

export type SidebarPage = keyof typeof PAGES;

/** A value built on first use and kept for the rest of the execution; a failure is not kept. */
function once<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}

function createRuntime(): Runtime {
  const spreadsheet = once(activeSpreadsheet);
  const documentLock = once(() => LockService.getDocumentLock());
  const ui = once(() => SpreadsheetApp.getUi());
  return {
    documentProperties: once(documentProperties),
    userProperties: once(() => PropertiesService.getUserProperties()),
    userCache: once(() => CacheService.getUserCache()),
    documentCache: once(() => CacheService.getDocumentCache()),
    documentLock: (activity) => documentLockFor(documentLock(), activity),
    userLock: () => LockService.getUserLock(),
    spreadsheet,
    ui,
    flush: () => SpreadsheetApp.flush(),
    newDataValidation: () => SpreadsheetApp.newDataValidation(),
    newConditionalFormatRule: () => SpreadsheetApp.newConditionalFormatRule(),
    showSidebar: (page, title, section) => {
      const output = PAGES[page]().setTitle(title);
      // The section to open on, read by the page once it has loaded (a fixed name, never input).
      if (section) output.append(`<meta name="open-section" content="${section}">`);
      ui().showSidebar(output);
    },
    userLocale: once(() => Session.getActiveUserLocale()),
    activeUserEmail: () => Session.getActiveUser().getEmail(),
    effectiveUserEmail: () => Session.getEffectiveUser().getEmail(),
    temporaryUserKey: () => Session.getTemporaryActiveUserKey(),
    scriptTimeZone: () => Session.getScriptTimeZone(),
    isAuthModeNone: (mode) => mode === ScriptApp.AuthMode.NONE,
    formatDate: (date, timeZone, pattern) => Utilities.formatDate(date, timeZone, pattern),
    uuid: () => Utilities.getUuid(),
    digest: (text) =>
      Utilities.base64Encode(Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, text)),
    clock: once(appsScriptClock),
    transport: once(urlFetchTransport),
  };
}

let current: Runtime | null = null;

/** This execution's services (built on first use). */
export function runtime(): Runtime {
  if (!current) current = createRuntime();
  return current;
}
