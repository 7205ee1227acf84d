/**
 * What every refresh started by a user shares (src/app/refresh.ts, refresh-selected.ts,
 * refresh-sidebar.ts, refresh-engine.ts): the settings and services of one execution, built
 * once; the summary the user is told; the failure shown without the token; this user's mark on
 * a position they stored. Thin: the work is in src/refresh/, src/sheets/ and src/audit/.
 */

import { plainError, plainText } from "../api/plain";
import { type Round, runRounds } from "../api/rounds";
import { type CallAudit, callAudit } from "../audit/observer";
import { redactText } from "../audit/redact";
import { FIRST_COMPANY_KEY } from "../company/model";
import type { DocumentLock } from "../gas/document-lock";
import { runtime } from "../gas/runtime";
import { auditUser } from "../gas/session";
import { refreshSheets } from "../gas/spreadsheet";
import { type Language, type StringKey, translate } from "../i18n";
import type { QuotaCheck } from "../longrun/quota";
import { loadEmployeeNames } from "../refresh/employees";
import type { EngineDeps, RefreshKind, Stage } from "../refresh/engine";
import {
  type Lane,
  type LanesResult,
  laneEntry,
  laneSheets,
  laneStore,
  lanesCursor,
  runLanes,
} from "../refresh/lanes";
import type { ListStateStore } from "../refresh/list-cursor";
import type { SheetNames } from "../refresh/options";
import { type StoredCursor, storedCursorOf } from "../refresh/paused";
import { clientReader } from "../refresh/reader";
import { otherAccountInWords, refreshOptionsIn, sheetNamesIn } from "../refresh/words";
import { companyLabel } from "../settings/companies";
import { accountMarks } from "./account-mark";
import { companyConnections, type UnusableCompany } from "./company-clients";
import {
  auditLimits,
  auditLog,
  auditSheet,
  currentLanguage,
  secrets,
  settingsStore,
  tolerate,
} from "./entry";
import { countUrlFetchCalls } from "./quota";

/** Document property: a refresh started from the menu that stopped near the time limit. */
export const MENU_CURSOR_KEY = "refresh.menuCursor";

export type RefreshSource = "menu" | "sidebar" | "schedule";

/** What the user is told at the end, and what a sidebar receives (plain data only). */
export interface RefreshSummary {
  ok: boolean;
  finished: boolean;
  records: number;
  calls: number;
  seconds: number;
  refreshed: Stage[];
  message: string;
  /** How far a refresh that stopped near the time limit got (0–100); 100 when finished. */
  percent: number;
}

interface Context {
  language: Language;
  form: Record<string, string>;
  names: SheetNames;
  timeZone: string;
}

export function readContext(): Context {
  const store = settingsStore();
  const form = store.fields();
  const language = currentLanguage();
  return {
    language,
    form,
    names: sheetNamesIn(form, language),
    timeZone: runtime().spreadsheet().getSpreadsheetTimeZone(),
  };
}

function today(timeZone: string): string {
  return runtime().formatDate(new Date(), timeZone, "yyyy-MM-dd");
}

export function toast(message: string, title: string, seconds = 5): void {
  // No one to show it to in a trigger; the summary still goes to the caller and the audit.
  tolerate("no Ui", () => runtime().spreadsheet().toast(message, title, seconds), undefined);
}

/** Everything one execution of a refresh needs, built once: a lane per company ready for this user. */
export function session(source: RefreshSource, action: StringKey) {
  const context = readContext();
  const store = settingsStore();
  const companies = store.companies();
  // A lane per company this user holds a usable token for: each token only for its company's
  // URL, read from the company's key. With one company, one unusable (a token bound to another
  // origin: another editor changed the URL) stops the refresh here, before any request, with
  // the notice. Each client's calls go to the audit opened below, before any is made.
  const observers = new Map<string, { audit: CallAudit | null }>();
  const connections = companyConnections({
    purpose: "read",
    language: context.language,
    audit: (company) => {
      const observer: { audit: CallAudit | null } = { audit: null };
      observers.set(company.key, observer);
      return { onCall: (event) => observer.audit?.onCall(event) };
    },
  });
  if (connections.ready.size === 0) throw noLane(connections.unusable, context.language);
  const options = refreshOptionsIn(context.form, today(context.timeZone), context.language);
  const log = auditLog(
    auditSheet({
      name: context.names.audit,
      archiveName: context.names.auditArchive,
      language: context.language,
      limits: auditLimits(context.form),
    }),
    source,
  );
  const audits: CallAudit[] = [];
  for (const [key, connection] of connections.ready) {
    const audit = callAudit(log, () => translate(context.language, action), connection.company);
    audits.push(audit);
    const observer = observers.get(key);
    if (observer) observer.audit = audit;
  }
  const sheetCompanies = companies.entries;
  // Each company's account mark, read in every execution: its reads are checked against it
  // before anything of it is written (src/refresh/run/account.ts); an unmarked one is not.
  const marks = accountMarks();
  const lanes: Lane[] = [...connections.ready.values()].map(({ company, client }) => {
    const mark = marks[company.key];
    return {
      key: company.key,
      entry: laneEntry(company.key, company.apiUrl),
      name: company.name,
      deps: {
        reader: clientReader(client),
        ...(mark ? { account: { company: companyLabel(company, context.language), mark } } : {}),
        // The reads behind a sheet go to the audit once the sheet is written: a run stopped later
        // still leaves the trace of what it had done.
        sheets: laneSheets(
          refreshSheets({
            names: context.names,
            language: context.language,
            missingNote: translate(context.language, "note.missing", { date: today(context.timeZone) }),
            mode: options.missingRows,
            afterWrite: () => log.flush(),
            stamp: {
              when: runtime().formatDate(new Date(), context.timeZone, "yyyy-MM-dd HH:mm"),
              who: auditUser(source),
            },
            company: company.key,
          }),
          company,
          companies.several,
          sheetCompanies,
        ),
        fingerprints: laneStore(runtime().documentProperties(), company.key),
        pageSizes: runtime().userProperties(),
        listState: listState(),
        employeeNames: laneStore(runtime().documentProperties(), company.key),
        namesMine:
          company.key === FIRST_COMPANY_KEY ? myNames() : myPosition(`${NAMES_MINE_KEY}${company.key}.`),
        // The largest page is found per service URL: each company's own.
        options: options.pageSizeProbe
          ? { ...options, pageSizeProbe: { ...options.pageSizeProbe, serviceUrl: company.apiUrl } }
          : options,
      },
    };
  });
  const audit = { requests: () => audits.reduce((total, a) => total + a.requests(), 0) };
  const send = (rounds: Round[]) => runRounds(runtime().transport(), runtime().clock(), rounds);
  return {
    context,
    options,
    log,
    audit,
    lanes,
    unusable: connections.unusable,
    several: companies.several,
    companies: sheetCompanies,
    send,
    secrets: secrets(),
  };
}

export type RefreshSession = ReturnType<typeof session>;

/** Why no company can be refreshed: with one company, today's refusal; with several, each one's. */
function noLane(unusable: readonly UnusableCompany[], language: Language): Error {
  const [only] = unusable;
  if (unusable.length <= 1) {
    if (only?.error) return only.error;
    return new Error(translate(language, "refresh.noToken"));
  }
  return new Error(
    // Each reason is a sentence of its own, ending with its own stop.
    translate(language, "refresh.lane.noneReady", { reasons: unusable.map((u) => u.message).join(" ") }),
  );
}

/**
 * Runs the session's lanes of a refresh of `kind` from `stored` (a cursor of this version or of
 * the previous one, or anything else: from the start), reads sent together.
 */
export function runSessionLanes(
  built: RefreshSession,
  kind: RefreshKind,
  stored: unknown,
  shouldStop: () => boolean,
  onStep?: EngineDeps["onStep"],
): LanesResult {
  const lanes = built.lanes.map((lane) => ({ ...lane, deps: { ...lane.deps, onStep } }));
  const result = runLanes(lanes, lanesCursor(stored, kind, lanes), shouldStop, built.send);
  const said = (error: unknown) => otherAccountInWords(error, built.context.language);
  return {
    ...result,
    lanes: result.lanes.map((lane) =>
      lane.error === undefined ? lane : { ...lane, error: said(lane.error) },
    ),
  };
}

/**
 * What the user is told of the companies that did not refresh: one line each, the service's
 * failures in plain words (tokens redacted); empty when every lane refreshed. A document of one
 * company has no such line: its failure is thrown, and told as it always was.
 */
export function laneNotes(built: RefreshSession, result: LanesResult, language: Language): string[] {
  const name = (key: string) => built.lanes.find((l) => l.key === key)?.name || key;
  const failed = result.lanes.flatMap((lane) => {
    if (lane.error === undefined) return [];
    const plain = plainError(lane.error, language, "sheets");
    const message = redactText(plain.kind ? plainText(plain, language) : plain.message, built.secrets);
    return [translate(language, "refresh.lane.failed", { company: name(lane.key), message })];
  });
  const skipped = built.unusable.map((u) =>
    translate(language, "refresh.lane.skipped", { company: u.name || u.key, message: u.message }),
  );
  return [...failed, ...skipped];
}

/** The error of a one-company refresh's lane, thrown as a refresh without lanes threw it. */
export function onlyLaneError(built: RefreshSession, result: LanesResult): unknown {
  if (built.lanes.length !== 1 || built.unusable.length > 0) return undefined;
  return result.lanes[0]?.error;
}

/**
 * Where a list read over several executions keeps the ids merged so far: the document cache
 * (every editor continues the same refresh). A value it cannot keep, or has dropped, is found
 * missing by its check, and the list is read again from page 1.
 */
function listState(): ListStateStore | undefined {
  const cache = tolerate("checked later", () => runtime().documentCache(), null);
  if (!cache) return undefined;
  return {
    get: (key) => tolerate("checked later", () => cache.get(key), null),
    put: (key, value, seconds) => tolerate("checked later", () => cache.put(key, value, seconds), undefined),
    remove: (key) => tolerate("checked later", () => cache.remove(key), undefined),
  };
}

export const ACTION_OF: Record<RefreshKind, StringKey> = {
  funds: "menu.refreshFunds",
  transactions: "menu.refreshTransactions",
  reports: "menu.refreshReports",
  all: "menu.refreshAll",
};

/** Another execution holds the document (a refresh, an Outbox run): nothing was done. */
export function busy(started: number, lock: DocumentLock | null): RefreshSummary {
  const language = currentLanguage();
  return summary(
    false,
    true,
    0,
    0,
    started,
    [],
    lock?.busyMessage(language, "refresh.busy") ?? translate(language, "refresh.busy"),
  );
}

/**
 * The message that stops a refresh that would go past today's UrlFetch quota, or null; a
 * refresh that would take usage past 80% starts with a warning.
 */
export function quotaRefusal(
  quota: QuotaCheck,
  language: Language,
  title: string,
  source: RefreshSource,
): string | null {
  const params = {
    estimate: quota.estimate,
    remaining: quota.remaining,
    used: quota.used,
    limit: quota.limit,
  };
  if (quota.verdict === "refuse") {
    const message = translate(language, "refresh.quotaRefused", params);
    // From the menu the alert says it (fromMenu).
    if (source !== "menu") toast(message, title, 20);
    return message;
  }
  if (quota.verdict === "warn") toast(translate(language, "refresh.quotaWarn", params), title, 10);
  return null;
}

export function parseStoredCursor(text: string | null): StoredCursor | null {
  if (!text) return null;
  return tolerate("unreadable", () => storedCursorOf(JSON.parse(text)), null);
}

export function summary(
  ok: boolean,
  finished: boolean,
  records: number,
  calls: number,
  started: number,
  refreshed: Stage[],
  message: string,
  percent = finished ? 100 : 0,
): RefreshSummary {
  return {
    ok,
    finished,
    records,
    calls,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    refreshed,
    message,
    percent,
  };
}

/** The summary of a refresh that threw, shown in a toast; the token never reaches it. */
export function failedRefresh(
  err: unknown,
  source: RefreshSource,
  language: Language,
  built: ReturnType<typeof session> | null,
  started: number,
): RefreshSummary {
  // The service's failures in plain words first (src/api/plain.ts); the add-on's own as they are.
  const plain = plainError(err, language, "sheets");
  const text = plain.kind
    ? plainText(plain, language)
    : translate(language, "refresh.failed", { message: plain.message });
  const message = redactText(text, built ? built.secrets : secrets());
  // From the menu the alert says it (fromMenu): the same text twice would only repeat it.
  if (source !== "menu") toast(message, translate(language, "refresh.title"), 20);
  return summary(false, true, 0, built?.audit.requests() ?? 0, started, [], message);
}

/** Ends a refresh however it went: audit rows written, calls counted (the lock then flushes the sheets). */
export function endRefresh(built: ReturnType<typeof session> | null): void {
  try {
    built?.log.flush();
  } finally {
    countUrlFetchCalls(built?.audit.requests() ?? 0);
  }
}

export function fromMenu(run: () => RefreshSummary): void {
  const result = run();
  if (result.ok) return;
  // A failure must be seen: an alert where there is a Ui (the toast may go unnoticed).
  // Without a Ui, the toast and the audit carry the message.
  tolerate("no Ui", () => runtime().ui().alert(result.message), undefined);
}

export function openRefreshSidebar(language: Language): void {
  // Without a Ui (a trigger), the refresh waits for someone to continue it.
  tolerate("no Ui", () => runtime().showSidebar("refresh", translate(language, "refresh.title")), undefined);
}

/**
 * User property (followed by the spreadsheet's id): the mark of this user's own paused refresh.
 * The paused position is a document property any editor can write: only the user's own goes on.
 */
export const PAUSED_BY_ME_KEY = "refresh.pausedByMe.";

/**
 * This user's mark on a position they stored in this document: the digest of its text, in their
 * own property `key` followed by the spreadsheet's id. Another editor can rewrite the position
 * (keeping its time, naming this user), not the mark.
 */
export function myPosition(key: string): { is(text: string): boolean; keep(text: string): void } {
  const name = key + runtime().spreadsheet().getId();
  const user = runtime().userProperties();
  return {
    is: (text) => user.getProperty(name) === runtime().digest(text),
    keep: (text) => user.setProperty(name, runtime().digest(text)),
  };
}

/** This user's mark on the employees' names they stored in this document (`myPosition`). */
export const myNames = () => myPosition(NAMES_MINE_KEY);

/**
 * The employees' names this user's own refreshes of `companyKey` stored (each company's in its
 * own lane), never a list or a cell another editor wrote.
 */
export function myCompanyNames(companyKey: string): ReturnType<typeof loadEmployeeNames> {
  const store = laneStore(runtime().documentProperties(), companyKey);
  const mine = companyKey === FIRST_COMPANY_KEY ? myNames() : myPosition(`${NAMES_MINE_KEY}${companyKey}.`);
  return loadEmployeeNames(store, mine);
}

/** User property: this user's mark on the employees' names (another company's: followed by its key and "."). */
const NAMES_MINE_KEY = "refresh.namesMine.";
