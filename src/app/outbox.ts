/**
 * The Outbox sheet in Apps Script: menu entry points (create the sheet, preview, run) and the
 * write session shared with the sidebar forms (client, audit, settings, sheets updated from
 * each response). The decisions live in src/outbox/; this file only hands them the services.
 */

import type { Client } from "../api";
import { plainError, plainText } from "../api/plain";
import type { Fund } from "../api/types";
import {
  type CompanyDirectory,
  type CompanyKey,
  FIRST_COMPANY_KEY,
  isRemoved,
  liveCompanies,
} from "../company/model";
import {
  applyResultToSheets,
  columnsMoved,
  dateFormatter,
  extendOutboxRules,
  fundFactsOnSheet,
  hasOldOutboxLayout,
  lazyAuditSink,
  migrateOutboxLayout,
  outboxPreviewSheetHolds,
  outboxSheet,
  outboxSheetPort,
  outboxValues,
  readOutboxRows,
  setUpOutboxSheet,
  writeOutboxPreviewSheet,
  writePreviewNotes,
} from "../gas/outbox-sheet";
import { documentWriteRecords, scriptProperty } from "../gas/properties";
import { runtime } from "../gas/runtime";
import { type Language, type StringKey, translate } from "../i18n";
import { type WriteAudit, writeAudit } from "../outbox/audit";
import type { DateFormatter } from "../outbox/cells";
import {
  type FundFacts,
  listedOnSheet,
  type OutboxPreview,
  previewOutbox as planPreview,
} from "../outbox/preview";
import { previewNotes, previewText, sheetLine } from "../outbox/preview/words";
import type { RecordStore } from "../outbox/records";
import { type OutboxRow, readOutboxRow } from "../outbox/rows";
import {
  type CompanyPort,
  companyPort,
  outboxBudgetMs,
  type RunSummary,
  runOutbox as runRows,
  type UnusableCompanyPort,
} from "../outbox/run";
import { auditWords, runWords } from "../outbox/run/words";
import { servicePort } from "../outbox/service";
import type { WriteContext, WriteResult } from "../outbox/write";
import { sheetNamesIn } from "../refresh/words";
import {
  ACCOUNT_MARKS_KEY,
  accountMarksFrom,
  checkAccount,
  MARK_QUERY,
  markedFundText,
} from "../settings/account-mark";
import { type CompanyEntry, companyByKey, companyLabel } from "../settings/companies";
import { IN_FLIGHT_WINDOW_KEY, inFlightWindowMs } from "../settings/tuning";
import { settingsWords } from "../settings/words";
import {
  type ConnectionPurpose,
  companyConnections,
  tokenlessClient,
  type UnusableCompany,
} from "./company-clients";
import {
  auditLog,
  currentLanguage,
  entry,
  executionLimitMs,
  firstCompany,
  settingsStore,
  tolerate,
  withDocumentLock,
} from "./entry";
import { countUrlFetchCalls } from "./quota";

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

// ---------------------------------------------------------------------------------------------
// Settings as the write paths need them.

export interface WriteSettings {
  baseUrl: string;
  language: Language;
  sheetNames: { funds: string; reports: string; audit: string; auditArchive: string; outbox: string };
}

/** The settings of this document and user (src/settings/ reads them), with defaults. */
export function loadWriteSettings(): WriteSettings {
  const store = settingsStore();
  const form = store.fields();
  const language = currentLanguage();
  // A stored value that breaks its rule falls back to its default here; the settings sidebar
  // shows the problem.
  const { settings } = store.load();
  const names = sheetNamesIn(form, language);
  return {
    baseUrl: settings.baseUrl,
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

export interface WriteSession extends Omit<WriteContext, "words"> {
  settings: WriteSettings;
  language: Language;
  adminId: number | null;
  adminIssue: string | null;
  format: DateFormatter;
  /**
   * Brings the Funds or Expense reports sheet in line with a write's response; answers why
   * not when the sheet cannot tell the company's row (null when done or nothing to change).
   */
  applyResult(result: WriteResult): string | null;
  /** The add-on's records of writes (document properties), shared by the Outbox and the forms. */
  records: RecordStore;
  /** The session's client, for reads in batches (audited and counted as the session's). */
  client: Client;
  /** False when the user has no usable token for any company: every request is then refused. */
  hasToken: boolean;
  /** The document's companies, as the Outbox resolves each row's Company cell against them. */
  directory: CompanyDirectory;
  /** The names the Company dropdown offers (none while the only company is unnamed). */
  companyNames: string[];
  /** Each company's port (this user's token for it, its audit, IdAdmin), or why not. */
  companies(key: string): CompanyPort | UnusableCompanyPort;
  /** The company the session's requests go to (its key chose the client). */
  companyKey: CompanyKey;
  /** Why this user may not send requests to that company now; null when they may. */
  unusable: UnusableCompany | null;
  /** Appends the reads recorded during the session to the audit (one batch). */
  finish(): void;
}

/**
 * Why this user's token for `company` may not be used by the Outbox: the account it opens is
 * not the one the company is marked with (its oldest funds, read once per session with
 * MARK_QUERY, are not as marked), or it could not be read while there is a mark to check it
 * against. Null when it may: the account is the marked one, the company has no mark yet, or
 * the service refuses the token itself (it opens no account; its refusal shows at its use).
 */
function accountIssue(company: CompanyEntry, client: Client, language: Language): string | null {
  const mark = accountMarksFrom(runtime().documentProperties().getProperty(ACCOUNT_MARKS_KEY))[company.key];
  if (!mark) return null;
  const name = companyLabel(company, language);
  let funds: Fund[];
  try {
    funds = client.getFunds({ ...MARK_QUERY }).funds;
  } catch (err) {
    const plain = plainError(err, language);
    if (plain.kind === "notAuthorised") return null;
    return translate(language, "outbox.company.accountUnchecked", {
      company: name,
      reason: plainText(plain, language),
    });
  }
  const check = checkAccount(mark, funds);
  return check.kind === "other"
    ? translate(language, "outbox.company.otherAccount", {
        company: name,
        fund: markedFundText(check.missing),
      })
    : null;
}

/**
 * Opens a write session for `source`, its requests going to the company `key` (the first by
 * default); throws a plain message when the first company's connection is not set.
 */
export function openWriteSession(
  source: "outbox" | "sidebar" | "menu" | "schedule",
  key: CompanyKey = FIRST_COMPANY_KEY,
  purpose: ConnectionPurpose = "write",
): WriteSession {
  const spreadsheet = runtime().spreadsheet();
  const settings = loadWriteSettings();
  const language = settings.language;
  const log = auditLog(
    lazyAuditSink(spreadsheet, {
      name: settings.sheetNames.audit,
      archiveName: settings.sheetNames.auditArchive,
      language,
    }),
    source,
  );
  const company = companyByKey(settingsStore().companies(), key) ?? null;
  // Each company's calls are audited under its name; the first company's as it always was.
  const audit = writeAudit(log, auditWords(language), key === FIRST_COMPANY_KEY ? firstCompany() : company);
  const audits = new Map<string, WriteAudit>([[key, audit]]);
  const auditOf = (entry: CompanyEntry): WriteAudit => {
    const found = audits.get(entry.key) ?? writeAudit(log, auditWords(language), entry);
    audits.set(entry.key, found);
    return found;
  };
  let counted = 0;
  // Every company's connection, each client with this user's token for that company only. The
  // session's own company (a sidebar's: the selected row's) gives its client; the Outbox takes
  // each row's company's port. A first-company token bound to another origin than the service
  // URL stops the path here with the notice (the Outbox only when no company is usable); with
  // none saved the session opens, every request refused, and each path says so.
  const connections = companyConnections({ purpose, language, audit: auditOf });
  const connection = connections.ready.get(key);
  const refusal = connections.unusable.find((u) => u.key === key) ?? null;
  if (
    !connection &&
    refusal?.error &&
    key === FIRST_COMPANY_KEY &&
    (source !== "outbox" || connections.ready.size === 0)
  )
    throw refusal.error;
  const registry = settingsStore().companies();
  // The registry is the directory: its entries are companies (src/company/model.ts).
  const directory: CompanyDirectory = registry;
  // Each company's port, made by companyPort (src/outbox/run/ports.ts); a run keeps the ones
  // it asked for in its own state, the one cache of them. A token's account is checked once per
  // session (a run or a preview).
  const accountChecked = new Map<string, string | null>();
  const checkedAccount = (companyKey: string, ready: { company: CompanyEntry; client: Client }) => {
    if (!accountChecked.has(companyKey))
      accountChecked.set(companyKey, accountIssue(ready.company, ready.client, language));
    return accountChecked.get(companyKey) ?? null;
  };
  // A sidebar's or the close's own company: its token is checked against the company's mark
  // before anything is read or written with it, as the Outbox's ports are.
  const ownAccount = connection && source !== "outbox" ? checkedAccount(key, connection) : null;
  const companies = (companyKey: string): CompanyPort | UnusableCompanyPort => {
    const ready = connections.ready.get(companyKey);
    if (!ready) {
      const why = connections.unusable.find((u) => u.key === companyKey);
      return {
        unusable: why?.message ?? translate(language, "outbox.company.noConnection", { company: companyKey }),
      };
    }
    // A token that opens another account than the company's mark sends and settles nothing.
    const otherAccount = checkedAccount(companyKey, ready);
    if (otherAccount) return { unusable: otherAccount };
    // Reads need no IdAdmin; writes without one are refused by the contract's check first.
    const service = servicePort(ready.client, ready.adminId ?? 0);
    return companyPort(service, auditOf(ready.company).port, ready.adminId, ready.adminIssue);
  };
  const client =
    connection?.client ??
    tokenlessClient(company ?? { key, name: "", apiUrl: settings.baseUrl, formerNames: [] }, audit);
  const adminId = connection ? connection.adminId : settingsStore().load().settings.adminId;
  const adminWords = connection ? null : settingsStore().adminIdIssue();
  const adminIssue = connection ? connection.adminIssue : adminWords && settingsWords(adminWords, language);
  const format = dateFormatter(spreadsheet);
  return {
    settings,
    language,
    adminId,
    adminIssue,
    format,
    client,
    hasToken: source === "outbox" ? connections.ready.size > 0 : connection !== undefined && !ownAccount,
    directory,
    companyNames: liveCompanies(directory.entries)
      .map((e) => e.name)
      .filter((name) => name !== ""),
    companies,
    companyKey: key,
    unusable: ownAccount
      ? {
          key,
          name: connection?.company.name ?? "",
          reason: "otherAccount",
          message: ownAccount,
          error: null,
        }
      : connection
        ? null
        : (refusal ?? unlisted(key, language)),
    // Reads need no IdAdmin; writes without one are refused by the contract's check first.
    service: servicePort(client, adminId ?? 0),
    audit: audit.port,
    now: () => new Date(),
    // The deployer's window, never below its floor: a value under it stops every write, named.
    inFlightWindowMs: inFlightWindowMs(scriptProperty(IN_FLIGHT_WINDOW_KEY)),
    applyResult: (result, resultCompany = key) =>
      applyResultToSheets(spreadsheet, settings.sheetNames, language, result, resultCompany, directory),
    records: documentWriteRecords(),
    finish: () => {
      audit.flushReads();
      // The calls since the last finish go to today's UrlFetch count.
      const requests = [...audits.values()].reduce((sum, a) => sum + a.requests(), 0);
      countUrlFetchCalls(requests - counted);
      counted = requests;
    },
  };
}

/** A key the document does not list (removed, or never added): unusable, never sent to. */
function unlisted(key: CompanyKey, language: Language): UnusableCompany {
  const message = translate(language, "company.sidebar.unlisted", { key: key.slice(0, 40) });
  return { key, name: "", reason: "removed", message, error: null };
}

function settingsOrNull(): WriteSettings | null {
  return tolerate("unreadable", loadWriteSettings, null);
}

/** Menu: creates the Outbox sheet with its headers, dropdowns and formats (or says it exists). */
export function createOutboxSheet(): void {
  entry("menu", createSheet);
}

function createSheet(): void {
  const spreadsheet = runtime().spreadsheet();
  const settings = settingsOrNull();
  const language = settings?.language ?? currentLanguage();
  const ui = runtime().ui();
  const name = settings?.sheetNames.outbox ?? translate(language, "outbox.sheetName");
  const existing = spreadsheet.getSheetByName(name);
  if (existing) {
    const busy = moveOldLayout(existing, language, companyNames());
    ui.alert(busy ?? translate(language, "outbox.exists"));
    return;
  }
  const sheet = spreadsheet.insertSheet(name);
  setUpOutboxSheet(sheet, language, companyNames());
  ui.alert(translate(language, "outbox.created"));
}

/**
 * An Outbox of the old layout moved to the new one under the document lock, so that a run in
 * flight never sees it half moved: null when nothing stands in the way, else why not (another
 * run holds the lock; the next Preview or Run moves it).
 */
/** The names of the document's live companies, for the Company dropdown. */
function companyNames(): string[] {
  return tolerate(
    "unreadable",
    () =>
      settingsStore()
        .companies()
        .entries.filter((e) => !isRemoved(e) && e.name !== "")
        .map((e) => e.name),
    [] as string[],
  );
}

function moveOldLayout(sheet: Sheet, language: Language, names: readonly string[]): string | null {
  if (!hasOldOutboxLayout(sheet)) return null;
  return withDocumentLock<string | null>(
    "outbox",
    1000,
    (lock) => lock?.busyMessage(language, "outbox.run.busy") ?? translate(language, "outbox.run.busy"),
    () => {
      if (migrateOutboxLayout(sheet, language, names))
        runtime()
          .spreadsheet()
          .toast(translate(language, "outbox.migrated"), translate(language, "outbox.sheetName"), 10);
      return null;
    },
  );
}

/**
 * What the preview knows of each fund of a company: its row of the Funds sheet, else a fresh
 * read through that company's port (none when this user cannot reach it).
 */
function fundFactsSource(
  spreadsheet: Spreadsheet,
  session: WriteSession,
): (id: number, company: string) => FundFacts | null {
  const fromSheet = fundFactsOnSheet(
    spreadsheet.getSheetByName(session.settings.sheetNames.funds),
    session.directory,
  );
  return (id, company) => {
    const known = fromSheet.get(`${company}|${id}`);
    if (known) return known;
    const port = session.companies(company);
    if ("unusable" in port) return null;
    // A fund that cannot be read shows in the preview as unknown.
    return tolerate(
      "shown only",
      () => {
        const fund = port.service.getFund(id);
        const facts: FundFacts = {
          currency: fund.currency,
          balance: fund.balance,
          flexible: fund.flexible,
          status: fund.status,
        };
        fromSheet.set(`${company}|${id}`, facts);
        return facts;
      },
      null,
    );
  };
}

function previewOf(session: WriteSession, rows: readonly OutboxRow[]) {
  const spreadsheet = runtime().spreadsheet();
  return planPreview(
    rows,
    fundFactsSource(spreadsheet, session),
    {
      format: session.format,
      now: new Date(),
      adminId: session.adminId,
      adminIssue: session.adminIssue,
    },
    session.records.all(),
    session.directory,
    (company) => {
      const port = session.companies(company);
      return "unusable" in port ? port : { adminId: port.adminId, adminIssue: port.adminIssue ?? null };
    },
  );
}

/** The lines of the Outbox preview sheet: row, operation, and the row as the dialog would show it. */
function sheetLines(language: Language, preview: OutboxPreview): [number, string, string][] {
  return preview.operations.map((item) => sheetLine(language, item));
}

/** Where this user keeps the digest of the list they last wrote to this spreadsheet's preview sheet. */
const listedKey = () => `outbox:previewSheet:${runtime().spreadsheet().getId()}`;

/** Digest of exactly what a run would send and how each row is shown on the preview sheet. */
function listDigest(language: Language, preview: OutboxPreview): string {
  return runtime().digest(
    JSON.stringify({
      language,
      lines: sheetLines(language, preview),
      requests: preview.operations.map((item) => [item.rowNumber, item.request]),
      confirmed: preview.confirmed,
      currencies: preview.currencies,
      statuses: preview.statuses,
    }),
  );
}

/**
 * When the dialog cannot hold every write a run may send, the full list goes to a fresh Outbox
 * preview sheet and its digest to this user's own properties (per spreadsheet); a message when
 * that sheet cannot be written.
 */
function listOnSheet(language: Language, preview: OutboxPreview): string | null {
  if (!listedOnSheet(preview)) return null;
  const written = writeOutboxPreviewSheet(runtime().spreadsheet(), language, sheetLines(language, preview));
  if ("message" in written) return written.message;
  runtime()
    .userProperties()
    .setProperty(listedKey(), `${written.sheetId} ${listDigest(language, preview)}`);
  return null;
}

/**
 * Whether this user already wrote exactly this list to the preview sheet, and the sheet still
 * holds it: only then may a run ask to confirm more writes than its dialog can name. The mark is
 * used once: the next list is written afresh.
 */
function listedAlready(language: Language, preview: OutboxPreview): boolean {
  const store = runtime().userProperties();
  const mark = store.getProperty(listedKey());
  if (!mark) return false;
  store.deleteProperty(listedKey());
  const [sheetId, digest] = mark.split(" ");
  return (
    digest === listDigest(language, preview) &&
    outboxPreviewSheetHolds(runtime().spreadsheet(), language, Number(sheetId), sheetLines(language, preview))
  );
}

/** Menu: shows what a run would send (totals, warnings, invalid rows), sending nothing. */
export function previewOutbox(): string {
  return entry("menu", preview);
}

function preview(): string {
  const session = openWriteSession("outbox");
  const t = (key: StringKey) => translate(session.language, key);
  if (!session.hasToken) {
    runtime().ui().alert(t("outbox.noToken"));
    return t("outbox.noToken");
  }
  const sheet = outboxSheet(runtime().spreadsheet(), session.settings.sheetNames.outbox);
  const ui = runtime().ui();
  if (!sheet) {
    ui.alert(t("outbox.run.noSheet"));
    return t("outbox.run.noSheet");
  }
  const moved =
    moveOldLayout(sheet, session.language, session.companyNames) ?? columnsMoved(sheet, session.language);
  if (moved) {
    ui.alert(moved);
    return moved;
  }
  extendOutboxRules(sheet, session.language, session.companyNames);
  const values = outboxValues(sheet);
  const rows = values.map((cells, i) => readOutboxRow(cells, i + 2));
  const planned = previewOf(session, rows);
  const notListed = listOnSheet(session.language, planned);
  if (notListed) {
    session.finish();
    ui.alert(notListed);
    return notListed;
  }
  const text = previewText(session.language, planned);
  const notes = previewNotes(session.language, planned, rows);
  // Written between runs only (a run writes these cells itself), and only on rows unchanged since read.
  withDocumentLock(
    "outbox",
    1000,
    () => undefined,
    () => {
      if (!columnsMoved(sheet, session.language)) writePreviewNotes(sheet, values, notes);
    },
  );
  session.finish();
  ui.alert(t("outbox.preview.title"), text, ui.ButtonSet.OK);
  return text;
}

/**
 * Menu: asks for confirmation with the preview's totals, then runs the Outbox under the
 * document lock. The question comes first: a lock does not survive an alert's suspension.
 */
export function runOutbox(): RunSummary | null {
  return entry("menu", run);
}

function run(): RunSummary | null {
  // The time limit counts the whole execution: the preview's reads and the question too.
  const startedAt = Date.now();
  const session = openWriteSession("outbox");
  const t = (key: StringKey, params: Record<string, string | number> = {}) =>
    translate(session.language, key, params);
  const spreadsheet = runtime().spreadsheet();
  const sheet = outboxSheet(spreadsheet, session.settings.sheetNames.outbox);
  const ui = runtime().ui();
  if (!session.hasToken) {
    ui.alert(t("outbox.noToken"));
    return null;
  }
  if (!sheet) {
    ui.alert(t("outbox.run.noSheet"));
    return null;
  }
  const moved =
    moveOldLayout(sheet, session.language, session.companyNames) ?? columnsMoved(sheet, session.language);
  if (moved) {
    ui.alert(moved);
    return null;
  }
  extendOutboxRules(sheet, session.language, session.companyNames);
  const preview = previewOf(session, readOutboxRows(sheet));
  const text = previewText(session.language, preview);
  // More writes than the dialog can name: a modal question cannot be checked against a sheet.
  // The first Run writes the list and stops; the next asks only if the list is still the same.
  const listed = listedOnSheet(preview);
  if (listed && !listedAlready(session.language, preview)) {
    const notListed = listOnSheet(session.language, preview);
    session.finish();
    ui.alert(
      t("outbox.preview.title"),
      notListed ?? `${text}\n\n${t("outbox.previewSheet.written", { sheet: t("outbox.previewSheet.name") })}`,
      ui.ButtonSet.OK,
    );
    return null;
  }
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
    `${text}\n\n${listed ? `${t("outbox.previewSheet.confirmListed", { sheet: t("outbox.previewSheet.name") })} ` : ""}${t("outbox.run.confirm")}`,
    ui.ButtonSet.YES_NO,
  );
  if (answer !== ui.Button.YES) {
    session.finish();
    ui.alert(t("outbox.run.cancelled"));
    return null;
  }
  const refused = { message: "" };
  const summary = withDocumentLock<RunSummary | null>(
    "outbox",
    1000,
    (lock) => {
      // Named before finish(), which may wait for the holder to write its audit rows.
      refused.message = lock?.busyMessage(session.language, "outbox.run.busy") ?? t("outbox.run.busy");
      session.finish();
      return null;
    },
    () => {
      const movedSince = columnsMoved(sheet, session.language); // while the question was open
      if (movedSince) {
        refused.message = movedSince;
        session.finish();
        return null;
      }
      const done = runRows({
        ...session,
        words: runWords(session.language),
        sheet: outboxSheetPort(sheet),
        records: session.records,
        newKey: () => runtime().uuid(),
        budgetMs: outboxBudgetMs(executionLimitMs()),
        startedAt,
        confirmed: preview.confirmed,
        currencies: preview.currencies,
        statuses: preview.statuses,
      });
      session.finish();
      return done;
    },
  );
  if (!summary) {
    if (refused.message) ui.alert(refused.message);
    return null;
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
  if (summary.sheetsNotUpdated > 0)
    lines.push(t("outbox.run.sheetsNotUpdated", { count: summary.sheetsNotUpdated }));
  // Why a sheet could not tell a company's row: the sheet and column, or the row.
  lines.push(...[...new Set(summary.sheetsRefused ?? [])].slice(0, 3));
  spreadsheet.toast(lines.join(" "), t("menu.outbox.run"), 10);
  return summary;
}
