/**
 * The built add-on in the Apps Script emulation against the sandbox on its own thread, for the
 * write-back tests: the Outbox run from the menu, the sidebar forms through google.script.run,
 * faults injected in the sandbox, and the ledger read back through GET /_sandbox/state.
 * The add-on is built by scripts/build.ts into a folder of its own, so a rebuild of dist/
 * elsewhere cannot change it during a run.
 */
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { privateBuild } from "../../dev/bench/build";
import {
  createEmulator,
  type DialogRecord,
  type Emulator,
  type EmulatorOptions,
  type EmulatorState,
  type RunOutcome,
} from "../../dev/emulator/index";
import { servicePrefix, storeToken } from "../../dev/emulator/settings";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { SETTINGS_FORM_KEY } from "../../src/app/refresh";
import type { ReportLine, ReportSidebarView } from "../../src/app/report-sidebar";
import { translate } from "../../src/i18n";
import { columnNumber, OUTBOX_COLUMNS, USER_COLUMNS } from "../../src/outbox/columns";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { columnLetters } from "../../src/sheets/formulas";

/**
 * The add-on built by scripts/build.ts into a folder of its own (script, manifest, every
 * sidebar unminified), so that a rebuild of dist/ elsewhere cannot change it during a run. The
 * build is made once per state of the sources and shared by every test file (sharedBuild).
 */
export function buildWriteBack(): string {
  return privateBuild("writeback-dist-");
}

export interface SandboxFund {
  id: number;
  title: string;
  currency: string;
  assignedTo: number;
  status: number;
  depositsCents: number;
  chargesCents: number;
  balanceCents: number;
  flexible?: boolean;
  transactions: { type: number; amountCents: number }[];
}

export interface WriteBack {
  emulator: Emulator;
  sandbox: RunningSandbox;
  user: string;
  /** GET /_sandbox/state of the company named `company` (the sandbox's `companies` option). */
  stateOf(company: string): Promise<{ funds: SandboxFund[] }>;
  /** GET /_sandbox/state: the ledger, amounts in cents. */
  state(): Promise<{
    funds: SandboxFund[];
    reports: Record<string, unknown>[];
    users: { Id: number; Roles: string[] }[];
  }>;
  fund(id: number): Promise<SandboxFund>;
  /** How many deposits of exactly `cents` the fund's movements hold. */
  deposits(id: number, cents: number): Promise<number>;
  faults(rules: Record<string, unknown>[]): Promise<void>;
  clearFaults(): Promise<void>;
  /**
   * Lets the calls a `hold` fault keeps go on (POST /_sandbox/faults/release), or only those of
   * `endpoint`, once there is one (a request already sent may still be on its way); how many
   * there were.
   */
  releaseHeld(endpoint?: string): Promise<number>;
  /**
   * Waits until the sandbox holds a call of `endpoint` (a `hold` fault): its request is in flight
   * (at most `timeoutMs`, 30 s by default).
   */
  heldCall(endpoint: string, timeoutMs?: number): Promise<void>;
  reset(): Promise<void>;
  /**
   * The sandbox reset (the same ledger as reset() gives) and the emulator put back to `state`
   * (emulator.saveState()): a sweep builds its starting spreadsheet once, not once per point.
   */
  resetTo(state: EmulatorState): Promise<void>;
  /** Keeps a copy of the sandbox's ledger as it is now (POST /_sandbox/snapshot), for restoreTo. */
  saveLedger(): Promise<void>;
  /**
   * The ledger saveLedger() kept (POST /_sandbox/restore, faults cleared) and the emulator put
   * back to `state`: a sweep whose start needs runs of the add-on makes them once.
   */
  restoreTo(state: EmulatorState): Promise<void>;
  settings(form: Record<string, string>): void;
  /** Runs a function from the menu; alerts are answered from `answers` (default: OK to each). */
  menu(name: string, answers?: string[], options?: Parameters<Emulator["tryRun"]>[2]): RunOutcome;
  /** Runs a server function as google.script.run does. */
  sidebar(name: string, ...args: unknown[]): unknown;
  /** Types rows into the Outbox from row 2, one object of column → value per row. */
  typeOutbox(
    rows: Partial<Record<(typeof OUTBOX_COLUMNS)[number], unknown>>[],
    firstRow?: number,
    sheet?: string,
  ): void;
  outbox(sheet?: string): Record<string, unknown>[];
  sheetValues(name: string): unknown[][];
  close(): Promise<void>;
}

const SIZES = { seed: 11, funds: 8, reports: 12 };

export interface WriteBackOptions {
  fetchTimeoutMs?: number;
  waitForAnswer?: EmulatorOptions["waitForAnswer"];
  /** More users of the document after the first (each with no settings of their own). */
  otherUsers?: string[];
  /** Companies the sandbox serves (its `companies` option); the add-on is set up for the first. */
  companies?: number;
  /** Each gives another origin the sandbox is reached under (a company re-pointed to it), allowed too. */
  otherOrigins?: ((sandboxUrl: string) => string)[];
}

export async function startWriteBack(distDir: string, options: WriteBackOptions = {}): Promise<WriteBack> {
  const sandbox = await startSandboxThread({
    ...SIZES,
    today: "2024-06-30",
    ...(options.companies !== undefined ? { companies: options.companies } : {}),
  });
  const user = "ana@example.com";
  const emulator = createEmulator({
    distDir,
    timeZone: "America/Santiago",
    urlFetchAllowlist: [
      servicePrefix(sandbox.url),
      ...(options.otherOrigins ?? []).map((other) => servicePrefix(other(sandbox.url))),
    ],
    ...(options.fetchTimeoutMs !== undefined ? { fetchTimeoutMs: options.fetchTimeoutMs } : {}),
    ...(options.waitForAnswer !== undefined ? { waitForAnswer: options.waitForAnswer } : {}),
    users: [user, ...(options.otherUsers ?? [])],
  });
  const origin = sandbox.url.replace(/\/v1$/, "");
  const control = async (path: string, body?: unknown, method?: string) => {
    const response = await fetch(`${origin}/_sandbox/${path}`, {
      method: method ?? (body === undefined ? "GET" : "POST"),
      headers: { Authorization: `Bearer ${sandbox.token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  let form: Record<string, string> = {};
  const applySettings = () => {
    // As if this user saved the form: the IdAdmin shown is the one their writes may carry.
    storeToken(emulator, user, sandbox.token, sandbox.url, form.adminId ?? sandbox.adminId);
    emulator.documentPropertiesData.values.set(
      SETTINGS_FORM_KEY,
      JSON.stringify({ baseUrl: sandbox.url, adminId: String(sandbox.adminId), ...form }),
    );
  };
  applySettings();
  const valuesOf = (name: string): unknown[][] => {
    const sheet = emulator.spreadsheet.sheetByName(name);
    if (!sheet) return [];
    const rows = sheet.lastRow();
    const columns = sheet.lastColumn();
    const out: unknown[][] = [];
    for (let r = 1; r <= rows; r += 1) {
      const row: unknown[] = [];
      for (let c = 1; c <= columns; c += 1) row.push(sheet.cell(r, c)?.value ?? "");
      out.push(row);
    }
    return out;
  };
  const wb: WriteBack = {
    emulator,
    sandbox,
    user,
    state: () => control("state"),
    stateOf: (company) => control(`state?company=${encodeURIComponent(company)}`),
    async fund(id) {
      const state = await control("state");
      const fund = state.funds.find((f: SandboxFund) => f.id === id);
      if (!fund) throw new Error(`no fund ${id} in the sandbox`);
      return fund;
    },
    async deposits(id, cents) {
      return (await this.fund(id)).transactions.filter((t) => t.type === 1 && t.amountCents === cents).length;
    },
    faults: (rules) => control("faults", { latencyMs: 0, rules }),
    clearFaults: () => control("faults", undefined, "DELETE"),
    async releaseHeld(endpoint) {
      if (endpoint === undefined) {
        const giveUp = Date.now() + 20_000;
        while ((await control("faults")).held === 0) {
          if (Date.now() > giveUp) throw new Error("no call was held by the sandbox");
          await new Promise((done) => setTimeout(done, 5));
        }
      } else await this.heldCall(endpoint);
      return (await control("faults/release", endpoint === undefined ? {} : { endpoint })).released;
    },
    async heldCall(endpoint, timeoutMs = 30_000) {
      const giveUp = Date.now() + timeoutMs;
      while (!((await control("faults")).heldEndpoints ?? []).includes(endpoint)) {
        if (Date.now() > giveUp) throw new Error(`no ${endpoint} call was held by the sandbox`);
        await new Promise((done) => setTimeout(done, 5));
      }
    },
    async reset() {
      await control("reset", SIZES);
      await control("faults", undefined, "DELETE");
      emulator.resetState();
      form = {};
      applySettings();
      emulator.resetCounters();
    },
    async resetTo(state) {
      // A reset clears the faults too.
      await control("reset", SIZES);
      emulator.restoreState(state);
      emulator.resetCounters();
    },
    async saveLedger() {
      await control("snapshot", {});
    },
    async restoreTo(state) {
      await control("restore", {});
      emulator.restoreState(state);
      emulator.resetCounters();
    },
    settings(next) {
      form = next;
      applySettings();
    },
    menu(name, answers, options = {}) {
      emulator.answers.length = 0;
      for (const a of answers ?? ["OK", "OK", "OK"]) emulator.answers.push(a as never);
      return emulator.tryRun(name, [], { as: "menu", ...options });
    },
    sidebar(name, ...args) {
      const out = emulator.tryRun(name, args, { as: "script.run" });
      if (!out.ok) throw new Error(`${name} failed: ${out.error}`);
      return out.result;
    },
    typeOutbox(rows, firstRow = 2, sheet = "Outbox") {
      // The user's columns, wherever the layout puts them.
      const grid = rows.map((r) => USER_COLUMNS.map((c) => (r[c] === undefined ? "" : r[c])));
      const last = firstRow + rows.length - 1;
      const first = columnLetters(columnNumber(USER_COLUMNS[0]));
      const end = columnLetters(columnNumber(USER_COLUMNS[USER_COLUMNS.length - 1]));
      emulator.typeCells(sheet, `${first}${firstRow}:${end}${last}`, grid);
    },
    outbox(sheet = "Outbox") {
      const values = valuesOf(sheet);
      return values.slice(1).map((row) => Object.fromEntries(OUTBOX_COLUMNS.map((c, i) => [c, row[i]])));
    },
    sheetValues: valuesOf,
    async close() {
      await emulator.close();
      await sandbox.close();
    },
  };
  return wb;
}

/**
 * The write-back of a test file whose tests share one: the add-on built and started before its
 * first test (with `options`), closed after its last; with `reset`, reset() before each test
 * (before the file's own beforeEach). Its members are there once the tests run.
 */
export function writeBackPerFile(options: WriteBackOptions & { reset?: boolean } = {}): WriteBack {
  const { reset, ...start } = options;
  const wb = {} as WriteBack;
  beforeAll(async () => {
    Object.assign(wb, await startWriteBack(buildWriteBack(), start));
  }, 120_000);
  if (reset) beforeEach(() => wb.reset());
  afterAll(async () => {
    await wb.close?.();
  });
  return wb;
}

/** The outcome of a menu run that succeeded; a failed one throws its error. */
export function ok(outcome: RunOutcome): { ok: true; result: unknown } {
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome;
}

/** The Audit sheet's rows, each as its header → cell. */
export function auditRows(wb: WriteBack): Record<string, unknown>[] {
  const values = wb.sheetValues("Audit");
  const header = (values[0] ?? []) as string[];
  return values.slice(1).map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]])));
}

/** Creates the Outbox sheet from the menu (throws if that failed). */
export function createOutbox(wb: WriteBack): void {
  ok(wb.menu("createOutboxSheet"));
}

/** The sandbox's first open fund. */
export async function openFund(wb: WriteBack): Promise<SandboxFund> {
  const [fund] = await openFundsOf(wb);
  return fund as SandboxFund;
}

/** The sandbox's first open flexible fund (any movement may be sent to it). */
export async function flexibleFund(wb: WriteBack): Promise<SandboxFund> {
  const fund = (await wb.state()).funds.find((f) => f.status === 1 && f.flexible);
  if (!fund) throw new Error("the sandbox has no open flexible fund");
  return fund;
}

/** The sandbox's open funds, at least `atLeast` of them. */
export async function openFundsOf(wb: WriteBack, atLeast = 1): Promise<SandboxFund[]> {
  const open = (await wb.state()).funds.filter((f) => f.status === 1);
  if (open.length < atLeast) throw new Error(`${open.length} open funds, not ${atLeast}`);
  return open;
}

/**
 * The dialogs of Run Outbox's confirmation, answered for a test file (startWriteBack's
 * waitForAnswer): each Yes/No question is kept in `asked`, `whileAsked` runs while it is open,
 * then it is answered Yes; every other dialog is kept in `told` and answered OK.
 */
export interface Confirmations {
  readonly asked: string[];
  readonly told: string[];
  whileAsked: (() => void) | null;
  readonly waitForAnswer: (dialog: DialogRecord) => "YES" | "OK";
  /** Forgets what was asked and told, and what was to happen (each test's start). */
  clear(): void;
}

export function confirmations(): Confirmations {
  const c: Confirmations = {
    asked: [],
    told: [],
    whileAsked: null,
    waitForAnswer: (dialog) => {
      if (!dialog.buttons.includes("YES")) {
        c.told.push(dialog.prompt);
        return "OK";
      }
      c.asked.push(dialog.prompt);
      c.whileAsked?.();
      return "YES";
    },
    clear: () => {
      c.asked.length = 0;
      c.told.length = 0;
      c.whileAsked = null;
    },
  };
  return c;
}

/**
 * Runs the Outbox again, each time once the in-flight window is over (a kill sweep's rerun),
 * until a run finds no pending row, at most three times. A run that found none changed nothing
 * and the window had already passed, so a further run would find the same.
 */
export function runOutboxAgain(wb: WriteBack): void {
  const nothingPending = translate("en", "outbox.preview.nothing");
  for (let again = 0; again < 3; again++) {
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    const run = wb.menu("runOutbox", ["YES", "OK", "OK"]);
    // With nothing pending the run only says so, in an alert with OK alone: the YES queued for
    // the question does not fit it, and the emulator stops the run there, naming the alert.
    if (!run.ok && run.error.includes(nothingPending)) return;
  }
}

/**
 * Whether service call `name` ("Range.getValues", "Properties.getProperty") only reads: its
 * method starts with get, is or has, and it is not a fetch. A run stopped just after such a call
 * leaves the documents as a stop one call earlier did: the same spreadsheet, properties, cache
 * and ledger, up to times and random ids (which differ between any two points anyway).
 */
export function onlyReads(name: string): boolean {
  const [service, method = ""] = name.split(".");
  return service !== "UrlFetchApp" && /^(get|is|has)[A-Z]/.test(method);
}

/**
 * A kill sweep: the run killed at every service call in turn, each point checked.
 *
 * The whole run goes first, not killed, from what `restore` puts back; it is checked, and the
 * calls it made, in order, name the points: a kill at call k stops the run just before its k-th
 * call. A point whose call before it only read (onlyReads) leaves the documents as the point
 * before it, which is checked, so it is not run again. Every other point starts from what
 * `restore` puts back, is killed, and is checked; its run must have made the same calls as the
 * whole run up to its point (a run repeats itself from the same start: were it not so, a skipped
 * point could hide a write, and the sweep fails saying so).
 */
export interface KillSweep {
  /** Puts back what each point starts from (the spreadsheet, and the ledger where it counts). */
  restore(): Promise<void> | void;
  /** The run, killed at service call `call` (one that ends before it succeeds). */
  kill(call: number): RunOutcome;
  /** Checks the point `where` names, once the run killed there gave `killed`. */
  check(where: string, killed: RunOutcome): Promise<void> | void;
  /** How many calls the run ends within. */
  within: number;
}

export async function sweepKills(emulator: Emulator, sweep: KillSweep): Promise<void> {
  await sweep.restore();
  const whole = sweep.kill(Number.MAX_SAFE_INTEGER);
  const calls = [...(emulator.lastEnded?.calls ?? [])];
  expect(whole, "the run, not killed, ends by itself").toMatchObject({ ok: true });
  expect(calls.length, `the run ends within ${sweep.within} calls`).toBeLessThan(sweep.within);
  await sweep.check(`not killed (${calls.length} calls)`, whole);
  for (let call = 1; call <= calls.length; call++) {
    if (call > 1 && onlyReads(calls[call - 2] as string)) continue;
    await sweep.restore();
    const killed = sweep.kill(call);
    expect(
      emulator.lastEnded?.calls,
      `killed at call ${call}: the run made the whole run's calls up to its point`,
    ).toEqual(calls.slice(0, call - 1));
    await sweep.check(`killed at call ${call}`, killed);
  }
}

/** Run Outbox from the menu, answered Yes then OK, killed at service call `call`. */
export function outboxRunKilledAt(wb: WriteBack, call: number): RunOutcome {
  return wb.menu("runOutbox", ["YES", "OK"], { stopAt: { serviceCall: call } });
}

/**
 * After a killed run: the Outbox run again until it finds nothing pending (runOutboxAgain), then
 * every one of its `rows` rows is Done.
 */
export function rerunUntilDone(wb: WriteBack, where: string, rows: number): void {
  runOutboxAgain(wb);
  expect(
    wb.outbox().map((r) => r.state),
    where,
  ).toEqual(Array(rows).fill("Done"));
}

/**
 * The kill sweep of an Outbox run: Run Outbox killed at every call in turn from what `restore`
 * puts back, then, at each point checked, run again until it finds nothing pending, every one of
 * its `rows` rows Done; `check` then checks what the service holds.
 */
export function sweepOutboxRun(
  wb: WriteBack,
  restore: KillSweep["restore"],
  rows: number,
  check: (where: string) => Promise<void>,
  within = 2_000,
): Promise<void> {
  return sweepKills(wb.emulator, {
    restore,
    kill: (call) => outboxRunKilledAt(wb, call),
    async check(where) {
      rerunUntilDone(wb, where, rows);
      await check(where);
    },
    within,
  });
}

/** What the Report sidebar's page sends with a mark for the reports `view` showed. */
export function sentFor(view: { reports: ReportLine[] }): {
  reportIds: number[];
  reportNumbers: Record<string, string>;
} {
  return {
    reportIds: view.reports.map((r) => r.id),
    reportNumbers: Object.fromEntries(view.reports.map((r) => [r.id, r.reportNumber ?? ""])),
  };
}

/**
 * The Report sidebar opened on rows holding `ids` (an Expense reports sheet with only the Id
 * column filled is made when missing, the rows typed from row 2): its view, and what its page
 * sends for what it showed.
 */
export function openReports(
  wb: WriteBack,
  ids: number[],
): { view: ReportSidebarView; sent: ReturnType<typeof sentFor> } {
  const name = "Expense reports";
  if (!wb.emulator.spreadsheet.sheetByName(name)) {
    wb.emulator.spreadsheet.addSheet(name).maxColumns = 40;
    wb.emulator.typeCells(name, "A1", [[translate("en", "col.id")]]);
  }
  wb.emulator.typeCells(
    name,
    `A2:A${ids.length + 1}`,
    ids.map((id) => [id]),
  );
  wb.emulator.select(name, `A2:A${ids.length + 1}`);
  const view = wb.sidebar("getReportSidebarView") as ReportSidebarView;
  return { view, sent: sentFor(view) };
}
