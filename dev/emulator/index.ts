/**
 * The Apps Script runtime in Node: `createEmulator(options)` loads the files that clasp would
 * push (dist/addon.js, dist/*.html, dist/appsscript.json) into a fresh node:vm context for every
 * execution (as Apps Script re-evaluates the global scope each time), with fakes of the Apps
 * Script services as globals, and runs functions synchronously in the calling thread.
 *
 *   const emulator = createEmulator({ users: ["ana@example.com", "ben@example.com"] });
 *   emulator.open();                                   // onOpen, as when the file is opened
 *   emulator.answers.push("YES");                      // the next alert's answer
 *   const result = emulator.run("saveSettings", [{ pageSize: 100 }]);   // google.script.run
 *   emulator.run("refreshAll", [], { as: "menu", user: "ben@example.com" });
 *   emulator.run("writeBack", [], { stopAt: { fetch: 2, when: "after" } }); // killed mid-call
 *
 * See README.md in this folder for every option and the faithfulness notes.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import vm from "node:vm";
import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import { CacheData, FakeCacheService } from "./cache";
import { EmulatorClock } from "./clock";
import { cloneState } from "./clone";
import { EmulatorUsageError, ExecutionStopped, MESSAGES, ServiceError } from "./errors";
import { releaseExecutionThread, takeExecutionThread } from "./exec-pool";
import type { ExecutionEnd, ExecutionReply, ExecutionRequest, ExecutionStart } from "./exec-runtime";
import type { AuthModeName, Execution, RunKind, StopAt } from "./execution";
import { formatDate } from "./format-date";
import { evaluateFormula } from "./formula";
import { escapeHtml, FakeHtmlService, templateToCode } from "./html-service";
import { checkTimeout, FakeLock, FakeLockService, LockTable } from "./lock";
import { FakeLogger, FakeMailApp, type LogEntry, makeConsole, type SentMail } from "./logging";
import { FakePropertiesService, PropertyStoreData } from "./properties";
import { Bridge, callInRealm, type Fake, restrictToAppsScriptRuntime, type ScriptRealm } from "./realm";
import { AUTH_MODE, FakeScriptApp, nextRunAfter, type TriggerData, TriggerStore } from "./script-app";
import { datePreludeIn, type ScriptZone, scriptZone } from "./script-date";
import { checkArguments, isCallableFromPage, transportResult } from "./script-run";
import { FakeSession, FakeUser } from "./session";
import { FakeSpreadsheetApp, rangeFromA1, SpreadsheetDoc, type SpreadsheetHost } from "./spreadsheet/fakes";
import type { SheetData } from "./spreadsheet/model";
import { partsInZone } from "./time-zone";
import { type DialogAnswer, type DialogRecord, FakeUi, resolveAnswer, UiState } from "./ui";
import { FakeUrlFetchApp, SyncHttp } from "./url-fetch";
import { FakeUtilities } from "./utilities";
import { type ClassInfo, FakeHandles, type Wire } from "./wire";

export type { AuthModeName, RunKind, StopAt } from "./execution";
export type { LogEntry, SentMail } from "./logging";
export type { TriggerData } from "./script-app";
export type { DialogAnswer, DialogRecord, MenuRecord, ShownHtml, Toast } from "./ui";

const DEFAULT_DIST = resolve(import.meta.dirname, "../../dist");
const SIX_MINUTES = 360_000;
const SIMPLE_TRIGGER_MS = 30_000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How often a lock wait on another thread's execution looks again (real milliseconds). */
const LOCK_POLL_MS = 5;
/** The services whose state executions share; an execution's thread reaches them by handle. */
const SHARED_SERVICES = [
  "SpreadsheetApp",
  "PropertiesService",
  "CacheService",
  "LockService",
  "ScriptApp",
  "Session",
  "MailApp",
] as const;

interface RunningExecution {
  exec: Execution;
  /** While it waits for a lock: the emulator time at which the wait may end without a release. */
  waitingUntil: number | undefined;
  /** Ends the execution at once (the emulator is closing). */
  abort(): void;
}

export interface EmulatorOptions {
  /** Folder with addon.js, *.html and appsscript.json (default: the repository's dist/). */
  distDir?: string;
  /** The service the add-on talks to, reported by GET /control/info (the emulator itself does not use them). */
  apiUrl?: string;
  token?: string;
  adminId?: number | string;
  /** Users' emails; the first is the default. "" is an anonymous consumer account. */
  users?: string[];
  /** Emails whose active-user email Apps Script hides (consumer accounts, other domains). */
  consumerUsers?: string[];
  /** The spreadsheet's time zone (default: the manifest's timeZone). */
  timeZone?: string;
  /** Session.getActiveUserLocale() and the spreadsheet's locale (default "en_US"). */
  locale?: string;
  spreadsheetName?: string;
  /** Caption of the add-on menu (createAddonMenu). */
  addonName?: string;
  /** Time budget of one execution on the emulator clock (default 360000, Apps Script's 6 minutes). */
  executionBudgetMs?: number;
  /** UrlFetch calls per user per day (default 100000, or 20000 for consumer accounts). */
  dailyUrlFetchQuota?: number;
  /**
   * Properties reads and writes per user per day, every store counted together (default
   * 500000, or 50000 for consumer accounts, as the quotas page). Past it a call throws
   * "Service invoked too many times for one day: properties."
   */
  dailyPropertiesQuota?: number;
  /**
   * Trigger total runtime per user per day, in ms of emulator time (default 6 hours, or 90
   * minutes for consumer accounts, as the quotas page). A trigger execution that starts with it
   * spent fails at once with "Service using too much computer time for one day".
   */
  dailyTriggerRuntimeMs?: number;
  /** Emulated time per cell read and written, in µs (default CELL_COST_MICROS; 0 turns it off). */
  cellCostMicros?: { read: number; write: number };
  /** How long UrlFetch waits for an answer, in real milliseconds (default 60000 as Apps Script). */
  fetchTimeoutMs?: number;
  /** See Emulator.fetchLatencyMs (default 0). */
  fetchLatencyMs?: number;
  /**
   * Extra `urlFetchWhitelist` prefixes, standing for the manifest of a local test deployment
   * (e.g. `[servicePrefix(sandbox.url)]`, "http://127.0.0.1:<port>/"); added to dist/appsscript.json's
   * list, which stays as shipped. Each must be https, or http on this machine (127.0.0.1,
   * localhost, [::1]), with a path. UrlFetch refuses every other URL once a list is in force.
   */
  urlFetchAllowlist?: string[];
  /**
   * Whether a trigger execution (the add-on's are clock triggers) gets the spreadsheet it was
   * made from as the active spreadsheet. Google's pages do not say; the default is the stricter
   * reading, false: `getActiveSpreadsheet()` gives null there. A test that relies on the other
   * reading says so with `true` (also `emulator.triggerGaps.spreadsheet`, its opposite).
   */
  triggerSeesSpreadsheet?: boolean;
  /** Add-on limits on triggers (hourly at most, one per user per document). Default true. */
  addon?: boolean;
  /**
   * Interactive mode (the playground): called when an alert or prompt has no queued answer; it
   * blocks until the person answers. Without it, an unanswered dialog fails the execution.
   */
  waitForAnswer?: (dialog: DialogRecord) => DialogAnswer;
  /** Called while the script's thread is blocked (HTTP, dialogs), to serve other requests. */
  onBlock?: () => void;
  /** The real clock under the emulator clock (tests may pin it). */
  realNow?: () => number;
  /**
   * Where the emulator clock starts (an ISO date and time); it runs on from there. Unlike
   * `realNow`, it crosses to a worker thread, so an EmulatorHost (the playground) may take it.
   */
  startAt?: string;
  /**
   * Speed of the link to the service in megabits per second: each fetch or fetchAll round also
   * waits for its bodies' bytes ÷ this (default none: bodies cost what loopback costs).
   */
  bandwidthMbit?: number;
}

export interface RunOptions {
  /** Which user runs it (default: the first user). */
  user?: string;
  /**
   * How it is started: "script.run" (a sidebar's google.script.run: argument rules apply, the
   * result comes back JSON-like), "menu" (a menu item), "trigger" (an installable trigger: no Ui),
   * "simple" (a simple trigger such as onOpen: LIMITED, 30 s). Default "script.run".
   */
  as?: RunKind;
  authMode?: AuthModeName;
  /** Time budget of this execution (default: executionBudgetMs, or 30 s for simple triggers). */
  budgetMs?: number;
  stopAt?: StopAt;
  /** The trigger being fired (its id reaches the event object and Session's effective user). */
  triggerUid?: string;
}

export type RunOutcome = { ok: true; result: unknown } | { ok: false; error: string; name: string };

export interface ExecutionRecord {
  id: number;
  functionName: string;
  user: string;
  kind: RunKind;
  authMode: AuthModeName;
  startedAt: string;
  durationMs: number;
  ok: boolean;
  error?: string;
}

/** An error thrown by the script (or by Apps Script into it), seen from the test. */
export class ScriptError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export interface SheetCounters {
  reads: number;
  writes: number;
  /** Cells touched by those calls (a range of R rows × C columns counts R × C). */
  cellsRead: number;
  cellsWritten: number;
}

/**
 * What one cell costs in emulated time, in microseconds: a read of a range charges
 * `read` per cell, a write `write` per cell, so that the execution limit bites on sheet work
 * as on Google. Chosen from published figures for Sheets (setValues of 100,000 cells in the
 * order of a second, reads several times faster); `docs/real-apps-script.md` compares them
 * with what Diagnostics measures on Google.
 */
export const CELL_COST_MICROS = { read: 2, write: 10 };

export interface Counters {
  /** UrlFetch requests per user (all days). */
  urlFetch: Record<string, number>;
  urlFetchTotal: number;
  /** Spreadsheet reads and writes (getValues, setValues, setNumberFormat… calls) per sheet name. */
  sheets: Record<string, SheetCounters>;
  properties: { reads: number; writes: number };
  executions: number;
  /**
   * UrlFetch rounds (one per fetch or fetchAll), the real time spent blocked on them, and the
   * bytes of the bodies received.
   */
  http: { batches: number; blockedMs: number; bytes: number };
}

/** Locks held by "another execution", as set up by holdLock(). */
export interface HeldLock {
  release(): void;
}

interface Manifest {
  timeZone?: string;
  oauthScopes?: string[];
  urlFetchWhitelist?: string[];
}

/**
 * Why an allowlist prefix is unusable, or null. The manifest's follow Apps Script's rules
 * (https, a full domain, a non-empty path); a local test deployment's may also be http on
 * this machine.
 */
function prefixProblem(prefix: unknown, local: boolean): string | null {
  if (typeof prefix !== "string") return "must be text";
  let url: URL;
  try {
    url = new URL(prefix.replace("://*.", "://"));
  } catch {
    return "is not a valid URL";
  }
  const loopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/i.test(url.hostname);
  if (url.protocol !== "https:" && !(local && url.protocol === "http:" && loopback))
    return local
      ? "must use https:// (or http:// on 127.0.0.1, localhost or [::1])"
      : "URLs must use the HTTPS scheme";
  if (!/^[a-z]+:\/\/[^/]+\/./i.test(`${prefix}.`)) return "must have a non-empty path, such as https://host/";
  return null;
}

const SCOPE = {
  fetch: "https://www.googleapis.com/auth/script.external_request",
  mail: "https://www.googleapis.com/auth/script.send_mail",
  triggers: "https://www.googleapis.com/auth/script.scriptapp",
  ui: "https://www.googleapis.com/auth/script.container.ui",
  sheets: "https://www.googleapis.com/auth/spreadsheets.currentonly",
  email: "https://www.googleapis.com/auth/userinfo.email",
};

const SHEET_SERVICES = new Set([
  "SpreadsheetApp",
  "Spreadsheet",
  "Sheet",
  "Range",
  "RangeList",
  "Selection",
  "Protection",
  "DataValidation",
  "DataValidationBuilder",
]);
/** The Properties calls the daily quota counts: each read or write of a store. */
const PROPERTY_CALLS = new Set([
  "getProperty",
  "getProperties",
  "getKeys",
  "setProperty",
  "setProperties",
  "deleteProperty",
  "deleteAllProperties",
]);
const TRIGGER_METHODS = new Set(["newTrigger", "getUserTriggers", "getProjectTriggers", "deleteTrigger"]);

/** The scope a call needs, if any. */
function scopeFor(service: string, method: string): string | undefined {
  if (service === "UrlFetchApp") return SCOPE.fetch;
  if (service === "MailApp") return SCOPE.mail;
  // Google's Session reference lists userinfo.email as the scope of both users' getters.
  if (service === "Session" && (method === "getActiveUser" || method === "getEffectiveUser"))
    return SCOPE.email;
  if (service === "ScriptApp" && TRIGGER_METHODS.has(method)) return SCOPE.triggers;
  if (service.endsWith("TriggerBuilder")) return SCOPE.triggers;
  if (service === "Ui" && method.startsWith("show")) return SCOPE.ui;
  if (SHEET_SERVICES.has(service) && !(service === "SpreadsheetApp" && method === "getUi"))
    return SCOPE.sheets;
  return undefined;
}

function allowedInNone(service: string, method: string): boolean {
  if (service === "SpreadsheetApp" && method === "getUi") return true;
  if (service === "Ui") return method === "createMenu" || method === "createAddonMenu";
  if (service === "Session") return method === "getActiveUserLocale" || method === "getScriptTimeZone";
  return service === "Menu" || service === "Logger" || service === "Utilities";
}

function needsFullAuth(service: string, method: string): boolean {
  if (service === "UrlFetchApp" || service === "MailApp") return true;
  if (service === "ScriptApp" && TRIGGER_METHODS.has(method)) return true;
  return service === "Ui" && method.startsWith("show");
}

/** What saveState() copies; opaque to callers (restoreState() takes it back). */
export interface EmulatorState {
  readonly __emulatorState: unique symbol;
}

interface SavedState {
  spreadsheet: SpreadsheetDoc;
  userProperties: Map<string, PropertyStoreData>;
  documentProperties: PropertyStoreData;
  scriptProperties: PropertyStoreData;
  caches: Map<string, CacheData>;
  fetchDaily: Map<string, { since: number; count: number }>;
  propertiesDaily: Map<string, { since: number; count: number }>;
  triggerRuntime: Map<string, { since: number; ms: number }>;
  triggers: { list: TriggerData[]; store: TriggerStore };
  ui: Pick<UiState, "menus" | "sidebar" | "dialog" | "toasts" | "dialogs">;
  logs: LogEntry[];
  mails: SentMail[];
  executions: ExecutionRecord[];
  executionSeq: number;
}

export class Emulator {
  readonly clock: EmulatorClock;
  /**
   * A slow service without the wait: each UrlFetch round trip (a fetch, or a fetchAll's batch)
   * moves the emulator clock on by this many milliseconds when its answers arrive, besides the
   * real time it took. A script measuring its own time (Date, the execution's budget) sees a
   * service this slow; the test does not wait for it.
   */
  fetchLatencyMs: number;
  /**
   * What a time-driven trigger may find missing on Google: set one to true and the next trigger
   * runs get null from getActiveSpreadsheet(), getDocumentLock() or getDocumentProperties().
   * `spreadsheet` starts true (no active spreadsheet) unless `triggerSeesSpreadsheet` is set.
   */
  readonly triggerGaps: { spreadsheet: boolean; documentLock: boolean; documentProperties: boolean };
  readonly ui = new UiState();
  /** Answers for the next alerts and prompts: "YES", "OK", "CLOSE", or { button, text } for prompts. */
  readonly answers: DialogAnswer[] = this.ui.answers;
  readonly logs: LogEntry[] = [];
  readonly mails: SentMail[] = [];
  readonly executions: ExecutionRecord[] = [];
  readonly triggers = new TriggerStore();
  readonly users: string[];
  readonly scriptId = "1EmulatedScriptIdForTheFundsAddOn";
  spreadsheet!: SpreadsheetDoc;
  private userProperties = new Map<string, PropertyStoreData>();
  private documentProperties = new PropertyStoreData();
  private scriptProperties = new PropertyStoreData();
  private caches = new Map<string, CacheData>();
  private locks = new LockTable();
  private sheetCounters = new WeakMap<SheetData, SheetCounters>();
  private fetchCounts = new Map<string, number>();
  /** Each user's UrlFetch quota window: when its first request was, and the requests since. */
  private fetchDaily = new Map<string, { since: number; count: number }>();
  /** Each user's Properties quota window, counted as the UrlFetch one. */
  private propertiesDaily = new Map<string, { since: number; count: number }>();
  /** Each user's trigger runtime window: when its first trigger execution started, and ms used. */
  private triggerRuntime = new Map<string, { since: number; ms: number }>();
  private executionSeq = 0;
  private current: Execution | undefined;
  /**
   * The execution that ended last: how many service calls it reached (a stopped one counts the
   * call it was stopped at), the last one it made before, as "Service.method", and all it made,
   * in order (a kill sweep kills a run at each of them).
   */
  lastEnded: { serviceCalls: number; lastCall: string | undefined; calls: readonly string[] } | undefined;
  private readonly http: SyncHttp;
  private readonly distDir: string;
  private files!: {
    code: vm.Script;
    source: string;
    html: Map<string, string>;
    manifest: Manifest;
    declared: Set<string>;
  };
  private services!: Record<string, object>;

  constructor(private readonly options: EmulatorOptions = {}) {
    this.clock = new EmulatorClock(options.realNow);
    if (options.startAt !== undefined) {
      const start = Date.parse(options.startAt);
      if (Number.isNaN(start))
        throw new EmulatorUsageError(`startAt must be an ISO date and time, got "${options.startAt}"`);
      this.clock.set(start);
    }
    this.fetchLatencyMs = options.fetchLatencyMs ?? 0;
    this.triggerGaps = {
      spreadsheet: options.triggerSeesSpreadsheet !== true,
      documentLock: false,
      documentProperties: false,
    };
    this.users = options.users && options.users.length > 0 ? [...options.users] : ["user@example.com"];
    this.distDir = resolve(options.distDir ?? DEFAULT_DIST);
    this.http = new SyncHttp(() => options.onBlock?.(), options.bandwidthMbit);
    for (const prefix of options.urlFetchAllowlist ?? []) {
      const problem = prefixProblem(prefix, true);
      if (problem) throw new EmulatorUsageError(`urlFetchAllowlist "${prefix}": ${problem}.`);
    }
    this.loadFiles();
    this.resetState();
  }

  // ---------------------------------------------------------------- files and state

  /** Reads dist/ again (after a rebuild). */
  loadFiles(): void {
    const addon = join(this.distDir, "addon.js");
    if (!existsSync(addon)) {
      throw new EmulatorUsageError(`${addon} not found: run \`npm run build\` first.`);
    }
    const html = new Map<string, string>();
    for (const f of readdirSync(this.distDir)) {
      if (f.endsWith(".html")) html.set(f.slice(0, -5), readFileSync(join(this.distDir, f), "utf8"));
    }
    const manifestPath = join(this.distDir, "appsscript.json");
    const manifest = existsSync(manifestPath)
      ? (JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest)
      : {};
    for (const prefix of manifest.urlFetchWhitelist ?? []) {
      const problem = prefixProblem(prefix, false);
      if (problem)
        throw new EmulatorUsageError(
          `appsscript.json has errors: urlFetchWhitelist "${prefix}": ${problem}.`,
        );
    }
    const source = readFileSync(addon, "utf8");
    // Top-level declarations start a line; the bundle's own functions are indented.
    const declared = new Set(
      [...source.matchAll(/^function\s+([A-Za-z_$][\w$]*)\s*\(/gm)].map((m) => m[1] as string),
    );
    this.files = { code: new vm.Script(source, { filename: "addon.js" }), source, html, manifest, declared };
  }

  /** Forgets everything: a new spreadsheet, empty properties, caches, locks, triggers, logs. */
  resetState(): void {
    if (this.running.size > 0)
      throw new EmulatorUsageError("resetState() while executions started with startRun are running");
    const timeZone = this.options.timeZone ?? this.files.manifest.timeZone ?? "America/New_York";
    this.spreadsheet = new SpreadsheetDoc(
      "1EmulatedSpreadsheet0000000000000000000000000",
      this.options.spreadsheetName ?? "Untitled spreadsheet",
      timeZone,
      this.options.locale ?? "en_US",
    );
    this.userProperties = new Map();
    this.documentProperties = new PropertyStoreData();
    this.scriptProperties = new PropertyStoreData();
    this.caches = new Map();
    this.locks = new LockTable();
    this.sheetCounters = new WeakMap();
    this.fetchCounts = new Map();
    this.fetchDaily = new Map();
    this.propertiesDaily = new Map();
    this.triggerRuntime = new Map();
    this.triggers.triggers.length = 0;
    this.logs.length = 0;
    this.mails.length = 0;
    this.executions.length = 0;
    this.ui.menus = [];
    this.ui.sidebar = null;
    this.ui.dialog = null;
    this.ui.toasts = [];
    this.ui.dialogs = [];
    this.ui.answers.length = 0;
    this.services = this.makeServices();
  }

  /**
   * A copy of the state resetState() forgets (spreadsheet, properties, caches, triggers, the
   * quota windows, Ui, logs, mails, executions), to go back to with restoreState() as many times
   * as wanted: a test that plays one scenario from many starting points builds the start once.
   * The clock is not part of it (it only moves forward) and no lock may be held.
   */
  saveState(): EmulatorState {
    if (this.running.size > 0 || this.current)
      throw new EmulatorUsageError("saveState() while an execution is running");
    return cloneState({
      spreadsheet: this.spreadsheet,
      userProperties: this.userProperties,
      documentProperties: this.documentProperties,
      scriptProperties: this.scriptProperties,
      caches: this.caches,
      fetchDaily: this.fetchDaily,
      propertiesDaily: this.propertiesDaily,
      triggerRuntime: this.triggerRuntime,
      triggers: { list: this.triggers.triggers, store: this.triggers },
      ui: {
        menus: this.ui.menus,
        sidebar: this.ui.sidebar,
        dialog: this.ui.dialog,
        toasts: this.ui.toasts,
        dialogs: this.ui.dialogs,
      },
      logs: this.logs,
      mails: this.mails,
      executions: this.executions,
      executionSeq: this.executionSeq,
    } satisfies SavedState) as unknown as EmulatorState;
  }

  /** Puts back the state saveState() copied (a copy of it: `state` can be restored again). */
  restoreState(state: EmulatorState): void {
    if (this.running.size > 0 || this.current)
      throw new EmulatorUsageError("restoreState() while an execution is running");
    const s = cloneState(state) as unknown as SavedState;
    this.spreadsheet = s.spreadsheet;
    this.userProperties = s.userProperties;
    this.documentProperties = s.documentProperties;
    this.scriptProperties = s.scriptProperties;
    this.caches = s.caches;
    this.locks = new LockTable();
    this.sheetCounters = new WeakMap();
    this.fetchCounts = new Map();
    this.fetchDaily = s.fetchDaily;
    this.propertiesDaily = s.propertiesDaily;
    this.triggerRuntime = s.triggerRuntime;
    this.triggers.triggers.splice(0, this.triggers.triggers.length, ...s.triggers.list);
    Object.assign(this.triggers, { seq: (s.triggers.store as unknown as { seq: number }).seq });
    this.ui.menus = s.ui.menus;
    this.ui.sidebar = s.ui.sidebar;
    this.ui.dialog = s.ui.dialog;
    this.ui.toasts = s.ui.toasts;
    this.ui.dialogs = s.ui.dialogs;
    this.ui.answers.length = 0;
    this.logs.splice(0, this.logs.length, ...s.logs);
    this.mails.splice(0, this.mails.length, ...s.mails);
    this.executions.splice(0, this.executions.length, ...s.executions);
    this.executionSeq = s.executionSeq;
    this.services = this.makeServices();
  }

  // ---------------------------------------------------------------- users and stores

  get defaultUser(): string {
    return this.users[0] as string;
  }

  private checkUser(user: string | undefined): string {
    const u = user ?? this.defaultUser;
    if (!this.users.includes(u)) {
      throw new EmulatorUsageError(`Unknown user "${u}": list it in createEmulator({ users: [...] }).`);
    }
    return u;
  }

  private isConsumer(user: string): boolean {
    return user === "" || (this.options.consumerUsers ?? []).includes(user);
  }

  /** A user's properties store (created empty on first use). */
  userPropertiesOf(user: string = this.defaultUser): PropertyStoreData {
    let store = this.userProperties.get(user);
    if (!store) {
      store = new PropertyStoreData();
      this.userProperties.set(user, store);
    }
    return store;
  }

  get documentPropertiesData(): PropertyStoreData {
    return this.documentProperties;
  }

  get scriptPropertiesData(): PropertyStoreData {
    return this.scriptProperties;
  }

  /** Every store as plain objects: { user: { email: {...} }, document: {...}, script: {...} }. */
  properties(): {
    user: Record<string, Record<string, string>>;
    document: Record<string, string>;
    script: Record<string, string>;
  } {
    const user: Record<string, Record<string, string>> = {};
    for (const [email, store] of this.userProperties) user[email] = store.toObject();
    return { user, document: this.documentProperties.toObject(), script: this.scriptProperties.toObject() };
  }

  private userOfExecution(): string {
    return this.current?.user ?? this.defaultUser;
  }

  // ---------------------------------------------------------------- time

  /** Moves the emulator clock forward (trigger schedules, cache expiry, quotas follow it). */
  advanceTime(ms: number): void {
    this.clock.advance(ms);
  }

  now(): Date {
    return new Date(this.clock.now());
  }

  // ---------------------------------------------------------------- locks held elsewhere

  /**
   * Stands for another execution holding a lock ("document", "script", or "user" of `user`),
   * until `release()` or, if given, until `forMs` of emulator time have passed.
   */
  holdLock(kind: "document" | "script" | "user", user?: string, forMs?: number): HeldLock {
    const key = kind === "user" ? `user:${this.checkUser(user)}` : kind;
    const until = forMs === undefined ? Number.POSITIVE_INFINITY : this.clock.now() + forMs;
    this.locks.holders.set(key, { execution: "other", until });
    return {
      release: () => {
        if (this.locks.holders.get(key)?.execution === "other") this.locks.holders.delete(key);
      },
    };
  }

  /**
   * Each time a Lock object waited for a lock that another Lock object of its own execution held
   * (the emulation keeps Lock objects independent: see dev/emulator/lock.ts); empty when every
   * execution asked for each lock once and passed it down.
   */
  ownLockWaits(): { key: string; execution: number }[] {
    return [...this.locks.ownWaits];
  }

  // ---------------------------------------------------------------- counters

  get counters(): Counters {
    const sheets: Record<string, SheetCounters> = {};
    for (const sheet of this.spreadsheet.sheets) {
      const c = this.sheetCounters.get(sheet);
      sheets[sheet.name] = c ? { ...c } : { reads: 0, writes: 0, cellsRead: 0, cellsWritten: 0 };
    }
    let reads = this.documentProperties.reads + this.scriptProperties.reads;
    let writes = this.documentProperties.writes + this.scriptProperties.writes;
    for (const store of this.userProperties.values()) {
      reads += store.reads;
      writes += store.writes;
    }
    const urlFetch = Object.fromEntries(this.fetchCounts);
    return {
      urlFetch,
      urlFetchTotal: [...this.fetchCounts.values()].reduce((a, b) => a + b, 0),
      sheets,
      properties: { reads, writes },
      executions: this.executions.length,
      http: { ...this.http.waited },
    };
  }

  /** Sets the spreadsheet and UrlFetch counters back to zero (daily quotas are kept). */
  resetCounters(): void {
    this.sheetCounters = new WeakMap();
    this.fetchCounts = new Map();
    this.http.waited.batches = 0;
    this.http.waited.blockedMs = 0;
    this.http.waited.bytes = 0;
  }

  private sheetCounter(sheet: SheetData): SheetCounters {
    let c = this.sheetCounters.get(sheet);
    if (!c) {
      c = { reads: 0, writes: 0, cellsRead: 0, cellsWritten: 0 };
      this.sheetCounters.set(sheet, c);
    }
    return c;
  }

  // ---------------------------------------------------------------- services

  /** What the spreadsheet fakes use of the emulator (also used to show sheets outside runs). */
  spreadsheetHost!: SpreadsheetHost;

  private makeServices(): Record<string, object> {
    const emulator = this;
    const spreadsheetHost: SpreadsheetHost = {
      countRead: (sheet, cells = 0) => {
        const c = this.sheetCounter(sheet);
        c.reads++;
        c.cellsRead += cells;
        this.chargeCells(cells, this.options.cellCostMicros?.read ?? CELL_COST_MICROS.read);
      },
      countWrite: (sheet, cells = 0) => {
        const c = this.sheetCounter(sheet);
        c.writes++;
        c.cellsWritten += cells;
        this.chargeCells(cells, this.options.cellCostMicros?.write ?? CELL_COST_MICROS.write);
      },
      getUi: () => {
        if (this.current?.kind === "trigger") throw new ServiceError(MESSAGES.noUi);
        return ui;
      },
      toast: (message, title, seconds) => {
        this.ui.serial++;
        this.ui.toasts.push({ id: this.ui.serial, message, title, seconds, at: this.clock.now() });
      },
      formulaValue: (doc, sheet, formula) => evaluateFormula(doc, sheet, formula),
      hasActive: () => !(this.current?.kind === "trigger" && this.triggerGaps.spreadsheet),
    };
    this.spreadsheetHost = spreadsheetHost;
    const ui = new FakeUi(
      this.ui,
      {
        answer: (dialog) => this.answerDialog(dialog),
        now: () => this.clock.now(),
      },
      this.options.addonName ?? "Add-on",
    );
    const lockHost = {
      now: () => this.clock.now(),
      wait: (ms: number) => this.clock.advance(ms),
      executionId: () => this.current?.id ?? 0,
      held: () => this.current?.heldLocks ?? new Set<string>(),
      get table() {
        return emulator.locks;
      },
      userKey: () => this.userOfExecution(),
      hasDocument: () => !(this.current?.kind === "trigger" && this.triggerGaps.documentLock),
    };
    const triggerHost = {
      get store() {
        return emulator.triggers;
      },
      user: () => this.userOfExecution(),
      documentId: this.spreadsheet.id,
      now: () => this.clock.now(),
      scriptTimeZone: () => this.scriptTimeZone(),
      scriptId: this.scriptId,
      addon: this.options.addon !== false,
    };
    return {
      SpreadsheetApp: new FakeSpreadsheetApp(this.spreadsheet, spreadsheetHost),
      PropertiesService: new FakePropertiesService({
        userStore: () => this.userPropertiesOf(this.userOfExecution()),
        documentStore: () => this.documentProperties,
        scriptStore: () => this.scriptProperties,
        hasDocument: () => !(this.current?.kind === "trigger" && this.triggerGaps.documentProperties),
      }),
      CacheService: new FakeCacheService({
        now: () => this.clock.now(),
        cache: (kind) => {
          const key = kind === "user" ? `user:${this.userOfExecution()}` : kind;
          let c = this.caches.get(key);
          if (!c) {
            c = new CacheData();
            this.caches.set(key, c);
          }
          return c;
        },
      }),
      LockService: new FakeLockService(lockHost),
      ScriptApp: new FakeScriptApp(triggerHost),
      Session: new FakeSession({
        activeUserEmail: () => {
          const exec = this.current;
          const user = this.userOfExecution();
          if (exec?.kind === "simple" || this.isConsumer(user)) return "";
          return user;
        },
        effectiveUserEmail: () => this.userOfExecution(),
        userId: () => this.userOfExecution(),
        locale: () => this.options.locale ?? "en_US",
        scriptTimeZone: () => this.scriptTimeZone(),
        scriptId: this.scriptId,
      }),
      Utilities: new FakeUtilities({ sleep: (ms) => this.sleep(ms) }),
      HtmlService: new FakeHtmlService({
        readHtmlFile: (name) => this.files.html.get(name),
        compileTemplate: (source) => this.compileTemplate(source),
      }),
      MailApp: new FakeMailApp({
        send: (mail) => {
          this.mails.push({
            ...mail,
            at: new Date(this.clock.now()).toISOString(),
            from: this.userOfExecution(),
          });
        },
      }),
      Logger: new FakeLogger({ record: (entry) => this.log(entry) }),
      UrlFetchApp: new FakeUrlFetchApp({
        http: this.http,
        timeoutMs: this.options.fetchTimeoutMs ?? 60_000,
        scriptId: this.scriptId,
        beforeRequest: () => this.beforeFetch(),
        afterResponse: () => this.afterFetch(),
        sendableCount: (count) => this.sendableFetches(count),
        allowlist: () => this.urlFetchAllowlist(),
      }),
    };
  }

  /**
   * The allowlist UrlFetch enforces: the manifest's urlFetchWhitelist plus the test
   * deployment's extra prefixes; null (everything allowed) when neither gives one.
   */
  urlFetchAllowlist(): readonly string[] | null {
    const manifest = this.files.manifest.urlFetchWhitelist;
    const extra = this.options.urlFetchAllowlist ?? [];
    return manifest === undefined && extra.length === 0 ? null : [...(manifest ?? []), ...extra];
  }

  scriptTimeZone(): string {
    return this.files.manifest.timeZone ?? "America/New_York";
  }

  private log(entry: Omit<LogEntry, "at" | "user">): void {
    this.logs.push({ ...entry, at: new Date(this.clock.now()).toISOString(), user: this.userOfExecution() });
  }

  /** Sheet work takes time on Google: `cells` × `micros` µs on the emulator clock, within the budget. */
  private chargeCells(cells: number, micros: number): void {
    if (!this.current || cells <= 0 || micros <= 0) return;
    this.clock.advance((cells * micros) / 1000);
    this.checkBudget();
  }

  private sleep(ms: number): void {
    this.clock.advance(ms);
    // A sleeping script lets the host answer other requests meanwhile (the playground's reads).
    this.options.onBlock?.();
    this.checkBudget();
  }

  private compileTemplate(source: string): (data: object) => string {
    const context = this.currentContext;
    if (!context) throw new ServiceError("Templates can only be evaluated during an execution.");
    const fn = vm.runInContext(templateToCode(source), context) as (
      data: object,
      escapeText: (s: unknown) => string,
    ) => string;
    return (data) => fn(data, (s) => escapeHtml(String(s)));
  }

  // ---------------------------------------------------------------- dialogs

  private answerDialog(dialog: DialogRecord): {
    button: "CLOSE" | "OK" | "CANCEL" | "YES" | "NO";
    text: string;
  } {
    // The script is suspended while the dialog is open, and locks do not survive that.
    this.releaseLocks(this.current);
    let answer = this.ui.answers.shift();
    if (answer === undefined && this.options.waitForAnswer) answer = this.options.waitForAnswer(dialog);
    if (answer === undefined) {
      this.stop(
        `Ui.${dialog.kind}(${JSON.stringify(dialog.prompt)}) was shown but no answer was queued: push one with emulator.answers.push("${dialog.buttons[0]}") or POST /control/answers.`,
      );
    }
    try {
      return resolveAnswer(dialog, answer as DialogAnswer);
    } catch (err) {
      this.stop((err as Error).message);
    }
  }

  // ---------------------------------------------------------------- execution checks

  private stop(message: string): never {
    if (this.current && this.current.stopped === undefined) this.current.stopped = message;
    throw new ExecutionStopped(this.current?.stopped ?? message);
  }

  private checkBudget(): void {
    const exec = this.current;
    if (!exec) return;
    if (exec.stopped !== undefined) throw new ExecutionStopped(exec.stopped);
    if (this.clock.now() > exec.deadline) this.stop(MESSAGES.timeout);
  }

  private beforeServiceCall(service: string, method: string): void {
    const exec = this.current;
    if (!exec) return;
    this.checkBudget();
    exec.serviceCalls++;
    if (exec.stopAt && "serviceCall" in exec.stopAt && exec.serviceCalls >= exec.stopAt.serviceCall) {
      this.stop(MESSAGES.timeout);
    }
    const name = `${service}.${method}`;
    exec.calls.push(name);
    if (exec.authMode === "NONE" && !allowedInNone(service, method)) {
      throw new ServiceError(
        `You do not have permission to call ${name} in AuthMode.NONE (onOpen before the add-on is used in this document).`,
      );
    }
    if (exec.authMode === "LIMITED" && needsFullAuth(service, method)) {
      throw new ServiceError(
        `You do not have permission to call ${name}. Required permissions: ${scopeFor(service, method)}`,
      );
    }
    const scope = scopeFor(service, method);
    const scopes = this.files.manifest.oauthScopes;
    if (
      scope &&
      scopes &&
      !scopes.includes(scope) &&
      !(scope === SCOPE.sheets && scopes.includes("https://www.googleapis.com/auth/spreadsheets"))
    ) {
      throw new ServiceError(`You do not have permission to call ${name}. Required permissions: ${scope}`);
    }
    if (service === "Properties" && PROPERTY_CALLS.has(method)) this.countPropertiesCall(exec.user);
  }

  /** One Properties read or write of `user`, refused once their daily quota is spent. */
  private countPropertiesCall(user: string): void {
    const quota = this.options.dailyPropertiesQuota ?? (this.isConsumer(user) ? 50_000 : 500_000);
    const used = this.propertiesToday(user);
    if (used >= quota) throw new ServiceError(MESSAGES.propertiesQuota);
    const since = used === 0 ? this.clock.now() : (this.propertiesDaily.get(user)?.since ?? this.clock.now());
    this.propertiesDaily.set(user, { since, count: used + 1 });
  }

  /** How many Properties reads and writes `user` has made in their 24-hour quota window. */
  propertiesToday(user: string = this.defaultUser): number {
    const window = this.propertiesDaily.get(user);
    return window && this.clock.now() < window.since + DAY_MS ? window.count : 0;
  }

  private beforeFetch(): void {
    const exec = this.current;
    if (!exec) return;
    if (
      exec.stopAt &&
      "fetch" in exec.stopAt &&
      exec.stopAt.when === "before" &&
      exec.fetchCount + 1 >= exec.stopAt.fetch
    ) {
      this.stop(MESSAGES.timeout);
    }
    const user = exec.user;
    const quota = this.options.dailyUrlFetchQuota ?? (this.isConsumer(user) ? 20_000 : 100_000);
    const used = this.urlFetchToday(user);
    if (used >= quota) throw new ServiceError(MESSAGES.urlFetchQuota);
    // "Quotas are per user and reset 24 hours after the first request": a window that opens
    // with the first request after the previous one closed, not a calendar day.
    const since = used === 0 ? this.clock.now() : (this.fetchDaily.get(user)?.since ?? this.clock.now());
    this.fetchDaily.set(user, { since, count: used + 1 });
    this.fetchCounts.set(user, (this.fetchCounts.get(user) ?? 0) + 1);
    exec.fetchCount++;
  }

  private afterFetch(): void {
    const exec = this.current;
    if (!exec) return;
    if (this.fetchLatencyMs > 0) this.clock.advance(this.fetchLatencyMs);
    if (
      exec.stopAt &&
      "fetch" in exec.stopAt &&
      exec.stopAt.when === "after" &&
      exec.fetchCount >= exec.stopAt.fetch
    ) {
      this.stop(MESSAGES.timeout);
    }
    this.checkBudget();
  }

  private sendableFetches(count: number): number {
    const exec = this.current;
    if (!exec?.stopAt || !("fetch" in exec.stopAt)) return count;
    const limit = exec.stopAt.when === "before" ? exec.stopAt.fetch - 1 : exec.stopAt.fetch;
    return Math.max(0, Math.min(count, limit - exec.fetchCount));
  }

  /**
   * How many UrlFetch requests `user` has made in their quota window: the 24 hours from the
   * first request after the previous window closed (Google: "reset 24 hours after the first
   * request"), so Pacific midnight changes nothing.
   */
  urlFetchToday(user: string = this.defaultUser): number {
    const window = this.fetchDaily.get(user);
    return window && this.clock.now() < window.since + DAY_MS ? window.count : 0;
  }

  private releaseLocks(exec: Execution | undefined): void {
    if (!exec) return;
    for (const key of exec.heldLocks) {
      if (this.locks.holders.get(key)?.execution === exec.id) this.locks.holders.delete(key);
    }
    exec.heldLocks.clear();
  }

  // ---------------------------------------------------------------- contexts

  private currentContext: vm.Context | undefined;

  /** A fresh global scope with the fakes, the clock-driven Date and the script's console. */
  private newContext(): { context: vm.Context; bridge: Bridge; functions: Set<string> } {
    // Promise jobs run before the call returns, as Apps Script drains them within the execution.
    const context = vm.createContext({}, { name: "Apps Script", microtaskMode: "afterEvaluate" });
    // Only what Apps Script's V8 has: a script using a newer built-in fails here as there.
    restrictToAppsScriptRuntime(context);
    const prelude = datePreludeIn(context) as (zone: ScriptZone) => ScriptRealm;
    const realm = prelude(scriptZone(this.scriptTimeZone(), () => this.clock.now()));
    const bridge = new Bridge(realm, {
      beforeCall: (service, method) => this.beforeServiceCall(service, method),
      onError: (error) => error,
    });
    const globals = context as Record<string, unknown>;
    for (const [name, service] of Object.entries(this.services)) globals[name] = bridge.wrap(service);
    globals.console = makeConsole({ record: (entry) => this.log(entry) });
    const before = new Set(Object.getOwnPropertyNames(context));
    this.currentContext = context;
    this.files.code.runInContext(context, { timeout: this.remainingRealMs() });
    const functions = new Set<string>();
    for (const name of Object.getOwnPropertyNames(context)) {
      if (!before.has(name) && typeof globals[name] === "function") functions.add(name);
    }
    return { context, bridge, functions };
  }

  private remainingRealMs(): number {
    const exec = this.current;
    if (!exec) return SIX_MINUTES;
    return Math.max(1, exec.deadline - this.clock.now());
  }

  /** Names of the top-level functions of dist/addon.js (what Google could call). */
  topLevelFunctions(): string[] {
    const previous = this.current;
    try {
      this.current = undefined;
      return [...this.newContext().functions].sort();
    } finally {
      this.current = previous;
      this.currentContext = undefined;
    }
  }

  // ---------------------------------------------------------------- running

  /** Runs a function; returns its result or throws a ScriptError with Apps Script's message. */
  run(functionName: string, args: unknown[] = [], options: RunOptions = {}): unknown {
    const outcome = this.tryRun(functionName, args, options);
    if (!outcome.ok) throw new ScriptError(outcome.name, outcome.error);
    return outcome.result;
  }

  /** Like run(), but reports the outcome instead of throwing. */
  tryRun(functionName: string, args: unknown[] = [], options: RunOptions = {}): RunOutcome {
    if (this.current)
      throw new EmulatorUsageError(`run("${functionName}") while "${this.current.functionName}" is running`);
    const other = this.running.values().next().value;
    if (other)
      throw new EmulatorUsageError(
        `run("${functionName}") while "${other.exec.functionName}" runs on its own thread: use startRun`,
      );
    const exec = this.beginExecution(functionName, options);
    const refused = this.triggerRuntimeRefusal(exec);
    if (refused) return this.endExecution(exec, refused);
    let outcome: RunOutcome;
    this.current = exec;
    try {
      outcome = { ok: true, result: this.execute(exec, functionName, args) };
    } catch (err) {
      outcome = this.failure(exec, err);
    } finally {
      this.releaseLocks(exec);
      this.current = undefined;
      this.currentContext = undefined;
    }
    return this.endExecution(exec, outcome);
  }

  private beginExecution(functionName: string, options: RunOptions): Execution {
    const user = this.checkUser(options.user);
    const kind = options.as ?? "script.run";
    const authMode: AuthModeName = options.authMode ?? (kind === "simple" ? "LIMITED" : "FULL");
    const budget =
      options.budgetMs ??
      (kind === "simple" ? SIMPLE_TRIGGER_MS : (this.options.executionBudgetMs ?? SIX_MINUTES));
    const startedAt = this.clock.now();
    this.executionSeq++;
    return {
      id: this.executionSeq,
      functionName,
      user,
      kind,
      authMode,
      startedAt,
      deadline: startedAt + budget,
      stopAt: options.stopAt,
      triggerUid: options.triggerUid,
      stopped: undefined,
      fetchCount: 0,
      serviceCalls: 0,
      calls: [],
      heldLocks: new Set(),
    };
  }

  /** A user's trigger runtime limit per day: 90 minutes for consumer accounts, 6 hours otherwise. */
  private triggerAllowanceMs(user: string): number {
    return this.options.dailyTriggerRuntimeMs ?? (this.isConsumer(user) ? 90 * 60_000 : 6 * 3_600_000);
  }

  /**
   * Trigger runtime `user` has used in their quota window (24 hours from the first trigger
   * execution after the previous window closed, like every quota: "reset 24 hours after the
   * first request").
   */
  triggerRuntimeToday(user: string = this.defaultUser): number {
    const window = this.triggerRuntime.get(user);
    return window && this.clock.now() < window.since + DAY_MS ? window.ms : 0;
  }

  /**
   * A trigger execution that starts with the day's trigger runtime spent is refused with
   * Google's message (assumption: refused at its start; one already running is not cut short).
   */
  private triggerRuntimeRefusal(exec: Execution): RunOutcome | null {
    if (exec.kind !== "trigger") return null;
    if (this.triggerRuntimeToday(exec.user) < this.triggerAllowanceMs(exec.user)) return null;
    return { ok: false, error: MESSAGES.triggerRuntime, name: "Exception" };
  }

  private countTriggerRuntime(exec: Execution): void {
    if (exec.kind !== "trigger") return;
    const used = this.triggerRuntimeToday(exec.user);
    const since = used === 0 ? exec.startedAt : (this.triggerRuntime.get(exec.user)?.since ?? exec.startedAt);
    this.triggerRuntime.set(exec.user, { since, ms: used + (this.clock.now() - exec.startedAt) });
  }

  /** The outcome once an execution is over (a stop overrides what the script returned), recorded. */
  private endExecution(exec: Execution, result: RunOutcome): RunOutcome {
    this.countTriggerRuntime(exec);
    const outcome: RunOutcome =
      exec.stopped !== undefined ? { ok: false, error: exec.stopped, name: "Exception" } : result;
    const record: ExecutionRecord = {
      id: exec.id,
      functionName: exec.functionName,
      user: exec.user,
      kind: exec.kind,
      authMode: exec.authMode,
      startedAt: new Date(exec.startedAt).toISOString(),
      durationMs: this.clock.now() - exec.startedAt,
      ok: outcome.ok,
    };
    if (!outcome.ok) {
      record.error = outcome.error;
      // exceptionLogging: STACKDRIVER records uncaught errors.
      this.logs.push({
        at: new Date(this.clock.now()).toISOString(),
        level: "error",
        source: "console",
        user: exec.user,
        message: `${exec.functionName}: ${outcome.error}`,
      });
    }
    this.executions.push(record);
    this.lastEnded = {
      serviceCalls: exec.serviceCalls,
      lastCall: exec.calls[exec.calls.length - 1],
      calls: exec.calls,
    };
    return outcome;
  }

  // ---------------------------------------------------------------- executions side by side

  private readonly running = new Map<number, RunningExecution>();

  /**
   * Starts an execution on a worker thread of its own and resolves to its outcome, as tryRun
   * gives it. Executions started this way run at the same time, as on Google, sharing the
   * spreadsheet, properties, caches, triggers and locks; a lock wait really waits for the other
   * execution (or, when every running execution waits for a lock, lets emulator time pass).
   */
  startRun(functionName: string, args: unknown[] = [], options: RunOptions = {}): Promise<RunOutcome> {
    if (this.current)
      throw new EmulatorUsageError(
        `startRun("${functionName}") while "${this.current.functionName}" is running`,
      );
    if (!this.clock.realTime)
      throw new EmulatorUsageError("startRun needs the real clock: create the emulator without realNow");
    const exec = this.beginExecution(functionName, options);
    const refused = this.triggerRuntimeRefusal(exec);
    if (refused) return Promise.resolve(this.endExecution(exec, refused));
    let sendArgs: unknown[];
    try {
      sendArgs = exec.kind === "script.run" ? checkArguments(args) : args;
    } catch (err) {
      return Promise.resolve(this.endExecution(exec, this.failure(exec, err)));
    }
    const entry: RunningExecution = { exec, waitingUntil: undefined, abort: () => {} };
    this.running.set(exec.id, entry);
    const handles = new FakeHandles();
    const classes: Record<string, ClassInfo> = {};
    const services: Record<string, Wire> = {};
    for (const name of SHARED_SERVICES) services[name] = handles.encode(this.services[name], classes);
    const { port1, port2 } = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const flag = new Int32Array(signal);
    const start: Omit<ExecutionStart, "port"> = {
      signal,
      clock: this.clock.shared,
      source: this.files.source,
      html: Object.fromEntries(this.files.html),
      scriptTimeZone: this.scriptTimeZone(),
      scriptId: this.scriptId,
      fetchTimeoutMs: this.options.fetchTimeoutMs ?? 60_000,
      allowlist: this.urlFetchAllowlist() as string[] | null,
      functionName,
      kind: exec.kind,
      deadline: exec.deadline,
      args: sendArgs.map((a) => handles.encode(a, classes)),
      services,
      classes,
    };
    const worker = takeExecutionThread();
    worker.postMessage({ ...start, port: port2 }, [port2]);
    return new Promise((resolve) => {
      let ended = false;
      /** Whether the thread posted its outcome: its execution is over and it may run another. */
      let finished = false;
      /** Whether the thread is still there (it neither failed nor stopped). */
      let alive = true;
      const end = (result: RunOutcome) => {
        if (ended) return;
        ended = true;
        this.releaseLocks(exec);
        this.running.delete(exec.id);
        port1.close();
        worker.off("error", onError);
        worker.off("exit", onExit);
        if (finished && alive) releaseExecutionThread(worker);
        else void worker.terminate();
        resolve(this.endExecution(exec, result));
      };
      entry.abort = () =>
        end({ ok: false, error: "The emulator was closed during the execution", name: "Error" });
      const onMessage = (message: ({ seq: number } & ExecutionRequest) | ExecutionEnd) => {
        if (message.kind === "done") {
          finished = true;
          if (!message.ok) {
            end(this.failure(exec, message));
            return;
          }
          try {
            this.withExecution(exec, () => this.checkBudget());
            end({ ok: true, result: handles.decode(message.result) });
          } catch (err) {
            end(this.failure(exec, err));
          }
          return;
        }
        void this.serve(exec, entry, handles, message).then((reply) => {
          if (ended) return;
          port1.postMessage(reply);
          Atomics.store(flag, 0, message.seq);
          Atomics.notify(flag, 0);
        });
      };
      const onError = (err: Error) => {
        alive = false;
        end({ ok: false, error: `The execution's thread failed: ${err.message}`, name: "Error" });
      };
      const onExit = (code: number) => {
        alive = false;
        // An outcome posted just before the thread stopped may still wait on the port.
        for (let left = receiveMessageOnPort(port1); left && !ended; left = receiveMessageOnPort(port1))
          onMessage(left.message);
        end({ ok: false, error: `The execution's thread stopped (exit code ${code})`, name: "Error" });
      };
      port1.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
    });
  }

  /** Starts every run at once (each on its own thread) and resolves to their outcomes, in order. */
  runConcurrently(
    runs: Array<{ fn: string; args?: unknown[]; options?: RunOptions }>,
  ): Promise<RunOutcome[]> {
    return Promise.all(runs.map((r) => this.startRun(r.fn, r.args ?? [], r.options ?? {})));
  }

  /** The executions started with startRun that are still running, with the locks they hold. */
  runningExecutions(): Array<{
    id: number;
    functionName: string;
    user: string;
    kind: RunKind;
    locks: string[];
    waitingForLock: boolean;
    /** While it waits for a lock: the emulator time at which its wait ends unless the lock frees. */
    waitingUntil: number | undefined;
  }> {
    return [...this.running.values()].map(({ exec, waitingUntil }) => ({
      id: exec.id,
      functionName: exec.functionName,
      user: exec.user,
      kind: exec.kind,
      locks: [...exec.heldLocks],
      waitingForLock: waitingUntil !== undefined,
      waitingUntil,
    }));
  }

  private withExecution<T>(exec: Execution, work: () => T): T {
    const previous = this.current;
    this.current = exec;
    try {
      return work();
    } finally {
      this.current = previous;
    }
  }

  /** Answers one request of an execution's thread. */
  private async serve(
    exec: Execution,
    entry: RunningExecution,
    handles: FakeHandles,
    request: { seq: number } & ExecutionRequest,
  ): Promise<ExecutionReply> {
    const classes: Record<string, ClassInfo> = {};
    const within = <T>(work: () => T): T => this.withExecution(exec, work);
    try {
      let value: unknown;
      switch (request.kind) {
        case "call": {
          const target = handles.get(request.id) as Record<string, unknown>;
          const args = request.args.map((a) => handles.decode(a));
          const service = (target.constructor as typeof Fake).service ?? "Object";
          within(() => this.beforeServiceCall(service, request.method));
          if (target instanceof FakeLock && (request.method === "tryLock" || request.method === "waitLock")) {
            checkTimeout(args[0]);
            const got = await this.waitForLock(exec, entry, target, args[0]);
            within(() => this.checkBudget());
            if (request.method === "waitLock" && !got) throw new ServiceError(MESSAGES.lockTimeout);
            value = request.method === "tryLock" ? got : undefined;
          } else {
            const fn = target[request.method];
            if (typeof fn !== "function") throw new TypeError(`${request.method} is not a function`);
            value = within(() => fn.apply(target, args));
          }
          break;
        }
        case "before":
          within(() => this.beforeServiceCall(request.service, request.method));
          break;
        case "beforeRequest":
          within(() => this.beforeFetch());
          break;
        case "afterResponse":
          within(() => this.afterFetch());
          break;
        case "sendable":
          value = within(() => this.sendableFetches(request.count));
          break;
        case "sleep":
          within(() => this.sleep(request.ms));
          break;
        case "log":
          within(() => this.log(request.entry));
          break;
      }
      return { seq: request.seq, ok: true, value: handles.encode(value, classes), classes };
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      return {
        seq: request.seq,
        ok: false,
        error: {
          name: e instanceof ServiceError ? "Exception" : e.name,
          message: e.message,
          stopped: e instanceof ExecutionStopped,
        },
      };
    }
  }

  /**
   * Waits until `lock` is free for `exec`, or `ms` of emulator time have passed. While another
   * execution runs, the wait is real; when every running execution waits for a lock, nothing but
   * time can free one, so the emulator clock jumps to the nearest timeout or holdLock() expiry.
   */
  private async waitForLock(
    exec: Execution,
    entry: RunningExecution,
    lock: FakeLock,
    ms: number,
  ): Promise<boolean> {
    const deadline = this.clock.now() + ms;
    try {
      for (;;) {
        if (this.withExecution(exec, () => lock.attempt())) return true;
        const now = this.clock.now();
        if (now >= deadline) return false;
        const holder = this.locks.holder(lock.key, now);
        entry.waitingUntil = Math.min(deadline, holder?.until ?? deadline);
        const all = [...this.running.values()];
        if (all.every((r) => r.waitingUntil !== undefined)) {
          const next = Math.min(...all.map((r) => r.waitingUntil as number));
          if (next > now) this.clock.advance(next - now);
        }
        await new Promise((done) => setTimeout(done, LOCK_POLL_MS));
      }
    } finally {
      entry.waitingUntil = undefined;
    }
  }

  private execute(exec: Execution, functionName: string, args: unknown[]): unknown {
    let sendArgs = args;
    if (exec.kind === "script.run") {
      sendArgs = checkArguments(args);
    }
    const { context, bridge, functions } = this.newContext();
    if (!functions.has(functionName) || (exec.kind === "script.run" && !isCallableFromPage(functionName))) {
      if (exec.kind === "script.run")
        throw new TypeError(`google.script.run.${functionName} is not a function`);
      throw new ServiceError(`Script function not found: ${functionName}`);
    }
    const globals = context as Record<string, unknown>;
    Object.defineProperty(globals, "__emulatorCall", {
      value: { name: functionName, args: bridge.toScript(sendArgs) },
      configurable: true,
      enumerable: false,
      writable: true,
    });
    const result = callInRealm(context, this.remainingRealMs());
    this.checkBudget();
    return exec.kind === "script.run" ? transportResult(result) : result;
  }

  private failure(exec: Execution, err: unknown): RunOutcome {
    const e = err as { name?: unknown; message?: unknown; code?: unknown } | undefined;
    if (e && e.code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      exec.stopped ??= MESSAGES.timeout;
      return { ok: false, error: MESSAGES.timeout, name: "Exception" };
    }
    if (e && typeof e === "object" && "message" in e) {
      return { ok: false, error: String(e.message), name: String(e.name ?? "Error") };
    }
    return { ok: false, error: String(err), name: "Error" };
  }

  /**
   * Opens the spreadsheet: runs onOpen as a simple trigger. `authMode` NONE is the add-on not yet
   * used in this document (menu only), LIMITED (default) once it is.
   */
  open(options: { user?: string; authMode?: "NONE" | "LIMITED" } = {}): RunOutcome {
    const authMode = options.authMode ?? "LIMITED";
    const user = this.checkUser(options.user);
    const event = {
      authMode: AUTH_MODE[authMode],
      source: (this.services.SpreadsheetApp as FakeSpreadsheetApp).getActiveSpreadsheet(),
      user: new FakeUser(this.isConsumer(user) ? "" : user),
    };
    return this.tryRun("onOpen", [event], { as: "simple", authMode, user });
  }

  /** Installs the add-on for a user: runs onInstall in AuthMode.FULL. */
  install(options: { user?: string } = {}): RunOutcome {
    const event = { authMode: AUTH_MODE.FULL };
    return this.tryRun("onInstall", [event], {
      as: "menu",
      authMode: "FULL",
      user: this.checkUser(options.user),
    });
  }

  // ---------------------------------------------------------------- triggers

  /** Every user's triggers (tests see them all; a script sees only its user's). */
  listTriggers(): TriggerData[] {
    return this.triggers.triggers.map((t) => ({ ...t }));
  }

  /** The trigger stays listed but never fires again, as when Google disables it. */
  disableTrigger(uid: string): void {
    const t = this.triggers.triggers.find((x) => x.uid === uid);
    if (!t) throw new EmulatorUsageError(`No trigger with id ${uid}`);
    t.disabled = true;
  }

  /**
   * Fires time-driven triggers: those due on the emulator clock (default), or all of them with
   * `{ all: true }`. Each runs as its creator with Apps Script's event object. One-off triggers
   * (after/at) are removed once fired.
   */
  fireTimeTriggers(
    options: { all?: boolean; user?: string } = {},
  ): Array<{ uid: string; handler: string; user: string } & RunOutcome> {
    const results: Array<{ uid: string; handler: string; user: string } & RunOutcome> = [];
    for (const t of this.dueTriggers(options)) {
      const fired = this.fireTrigger(t);
      const outcome = this.users.includes(t.creator)
        ? this.tryRun(t.handler, [fired.event], fired.options)
        : ({ ok: false, error: `Unknown user ${t.creator}`, name: "Error" } as RunOutcome);
      results.push({ uid: t.uid, handler: t.handler, user: t.creator, ...outcome });
    }
    return results;
  }

  /**
   * Like fireTimeTriggers, but each trigger's execution runs on its own thread (startRun), at the
   * same time as the others and as executions started meanwhile.
   */
  startTimeTriggers(
    options: { all?: boolean; user?: string } = {},
  ): Promise<Array<{ uid: string; handler: string; user: string } & RunOutcome>> {
    return Promise.all(
      this.dueTriggers(options).map(async (t) => {
        const fired = this.fireTrigger(t);
        const outcome = this.users.includes(t.creator)
          ? await this.startRun(t.handler, [fired.event], fired.options)
          : ({ ok: false, error: `Unknown user ${t.creator}`, name: "Error" } as RunOutcome);
        return { uid: t.uid, handler: t.handler, user: t.creator, ...outcome };
      }),
    );
  }

  private dueTriggers(options: { all?: boolean; user?: string }): TriggerData[] {
    const now = this.clock.now();
    return this.triggers.triggers.filter(
      (t) =>
        t.eventType === "CLOCK" &&
        !t.disabled &&
        (options.user === undefined || t.creator === options.user) &&
        (options.all || t.nextRun <= now),
    );
  }

  /** Counts a firing, moves the schedule on, and gives the event and run options of the execution. */
  private fireTrigger(t: TriggerData): { event: Record<string, unknown>; options: RunOptions } {
    const at = this.clock.now();
    const utc = partsInZone(at, "UTC");
    const event = {
      authMode: AUTH_MODE.FULL,
      triggerUid: t.uid,
      year: utc.year,
      month: utc.month,
      "day-of-month": utc.day,
      "day-of-week": utc.weekday === 0 ? 7 : utc.weekday,
      hour: utc.hour,
      minute: utc.minute,
      second: utc.second,
      timezone: "UTC",
      "week-of-year": Math.ceil(Number(formatDate(at, "UTC", "D")) / 7),
    };
    t.runs++;
    if (t.schedule?.kind === "once") {
      const i = this.triggers.triggers.indexOf(t);
      if (i >= 0) this.triggers.triggers.splice(i, 1);
    } else if (t.schedule && t.nextRun <= at) {
      // Fired early with { all: true }, the schedule stays as it was.
      t.nextRun = nextRunAfter(t.schedule, at, t.timeZone);
    }
    return { event, options: { as: "trigger", authMode: "FULL", user: t.creator, triggerUid: t.uid } };
  }

  // ---------------------------------------------------------------- the user at the sheet

  /** Types values into cells as a user would (strings parsed as typed input). */
  typeCells(sheetName: string, a1: string, values: unknown[][], user?: string): RunOutcome | undefined {
    const app = this.services.SpreadsheetApp as FakeSpreadsheetApp;
    const sheet = app.getActiveSpreadsheet().getSheetByName(sheetName);
    if (!sheet) throw new EmulatorUsageError(`No sheet named "${sheetName}"`);
    const range = sheet.getRange(a1);
    if (!Array.isArray(values) || values.some((row) => !Array.isArray(row))) {
      throw new EmulatorUsageError("values must be an array of rows (arrays)");
    }
    const rows = range.getNumRows();
    const cols = range.getNumColumns();
    // A single value typed into a larger selection fills it, like a paste.
    const grid =
      values.length === 1 && values[0]?.length === 1 && (rows > 1 || cols > 1)
        ? Array.from({ length: rows }, () => Array.from({ length: cols }, () => values[0]?.[0]))
        : values;
    const editor = this.checkUser(user);
    const single = rows === 1 && cols === 1;
    const oldValue = single ? range.getValue() : undefined;
    range.setValues(grid.map((row) => row.map((v) => (v === null || v === undefined ? "" : v))));
    // A user's edit runs the simple trigger onEdit(e), when the script has one.
    if (!this.files.declared.has("onEdit")) return undefined;
    const event: Record<string, unknown> = {
      authMode: AUTH_MODE.LIMITED,
      range,
      source: app.getActiveSpreadsheet(),
      user: new FakeUser(this.isConsumer(editor) ? "" : editor),
    };
    if (single) {
      event.value = typeof grid[0]?.[0] === "string" ? grid[0]?.[0] : String(grid[0]?.[0] ?? "");
      if (oldValue !== "" && oldValue !== undefined) event.oldValue = oldValue;
    }
    return this.tryRun("onEdit", [event], { as: "simple", user: editor });
  }

  /** Selects one or more ranges (comma-separated A1, e.g. "A2:C2,A5:C7") on a sheet. */
  select(sheetName: string, a1: string): void {
    const sheet = this.spreadsheet.sheetByName(sheetName);
    if (!sheet) throw new EmulatorUsageError(`No sheet named "${sheetName}"`);
    const ranges = a1.split(",").map((part) => rangeFromA1(sheet, part.trim()));
    this.spreadsheet.active = { sheet, ranges };
  }

  /** google.script.host.close(): closes the sidebar or the dialog (both when kind is omitted). */
  closeUi(kind?: "sidebar" | "dialog"): void {
    if (kind !== "dialog") this.ui.sidebar = null;
    if (kind !== "sidebar") this.ui.dialog = null;
  }

  /** Stops the HTTP thread. */
  async close(): Promise<void> {
    for (const running of [...this.running.values()]) running.abort();
    await this.http.close();
  }
}

/** Creates an emulator over dist/ (see EmulatorOptions). */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  return new Emulator(options);
}
