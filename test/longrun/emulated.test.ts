/**
 * A refresh larger than one execution, in the emulation against a large sandbox data set with
 * a short execution budget: it stops cleanly before the limit, stores where it was, and a
 * follow-up execution (a one-off trigger, or the next scheduled run when the add-on may not
 * have both) continues it, with no duplicate and no gap, and the sheets whole in between.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../dev/emulator/index";
import { storeToken } from "../../dev/emulator/settings";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { EXECUTION_LIMIT_KEY } from "../../src/app/entry";
import { SETTINGS_FORM_KEY } from "../../src/app/refresh";
import { CONTINUATION_KEY } from "../../src/longrun/continuation";
import { readHistory } from "../../src/schedule/history";
import { privateBuild, sheetOf } from "../refresh/emulation";
import { closeAll, emulatorOf } from "../support/emulation";

const ANA = "ana@empresa.cl";
const SIZE = { seed: 5, funds: 150, reports: 1500 };
const WINDOW = { since: "2023-07-01", until: "2024-06-30" };
/**
 * The emulator's clock stands still but for the work the script does: each round trip to the
 * service takes FETCH_MS, each cell read or written its default cost, each sleep its length. An
 * execution's time is then counted in steps of work, the same on a quiet machine and a loaded
 * one, and so is where a refresh stops.
 */
const FROZEN_NOW = Date.UTC(2024, 5, 30, 12, 0, 0);
const FETCH_MS = 150;
/**
 * What the add-on is told to plan with, and when the emulator kills an execution (Apps Script's
 * 6 minutes, shortened). Both follow how long a whole refresh takes on the emulator's clock
 * (counted once), so that the refresh needs several executions whatever the add-on's calls.
 */
let plannedLimitMs = 1000;
let budgetMs = 3000;

let dist: string;
let sandbox: RunningSandbox;
let em: Emulator;
let truth: { funds: number[]; movements: number; reports: number[] };

/** The service's answer in the spec's shapes (only the members read here). */
interface ServiceAnswer {
  Records: { Pages: number };
  Funds: { Id: number }[];
  ExpenseReports: { Id: number }[];
  Transactions: unknown[];
}

async function api(path: string): Promise<ServiceAnswer> {
  const response = await fetch(`${sandbox.url}/${path}`, {
    headers: { Authorization: `Bearer ${sandbox.token}` },
  });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return (await response.json()) as ServiceAnswer;
}

/** What the service holds, read directly: the ids each sheet must show, once each. */
async function readTruth() {
  const funds: number[] = [];
  let movements = 0;
  for (let page = 1; ; page++) {
    const body = await api(`getFunds?ResultsPerPage=100&Page=${page}`);
    funds.push(...body.Funds.map((f) => Number(f.Id)));
    if (page >= body.Records.Pages || body.Funds.length === 0) break;
  }
  for (const id of funds) movements += (await api(`getFund?Id=${id}`)).Transactions.length;
  const reports: number[] = [];
  for (let page = 1; ; page++) {
    const body = await api(
      // The add-on's default: dates on the send date (every report sent in the window).
      `getExpenseReports?Since=${WINDOW.since}&Until=${WINDOW.until}&TypeDateFilter=2&ResultsPerPage=500&Page=${page}`,
    );
    reports.push(...body.ExpenseReports.map((r) => Number(r.Id)));
    if (page >= body.Records.Pages || body.ExpenseReports.length === 0) break;
  }
  return { funds: funds.sort((a, b) => a - b), movements, reports: reports.sort((a, b) => a - b) };
}

/** The values of the column headed `header` in sheet `name` (data rows only). */
function column(name: string, header: string): unknown[] {
  const sheet = sheetOf(em, name);
  if (!sheet) return [];
  const index = sheet.header.indexOf(header);
  expect(index, `${name} has a column "${header}"`).toBeGreaterThanOrEqual(0);
  return sheet.values.slice(1).map((row) => row[index]);
}

const ids = (values: unknown[]) => values.map(Number).sort((a, b) => a - b);

function history() {
  return readHistory(Object.fromEntries(em.documentPropertiesData.values)).runs;
}

function hasContinuation(): boolean {
  return em.documentPropertiesData.values.has(CONTINUATION_KEY);
}

/**
 * The sheets hold whole lists at every moment: a list sheet shows all of its records, none of
 * this refresh, or, while a list goes on over several executions, part of it without a
 * duplicate or a stranger, its header's note saying the refresh is in progress.
 */
function expectSheetsWhole(): void {
  expectListSheet("Funds", truth.funds);
  expectListSheet("Expense reports", truth.reports);
  const movements = column("Fund transactions", "Movement");
  expect(new Set(movements).size).toBe(movements.length);
}

function expectListSheet(name: string, all: readonly number[]): void {
  const got = ids(column(name, "Id"));
  if (got.length === 0 || JSON.stringify(got) === JSON.stringify(all)) return;
  expect(new Set(got).size, `${name}: no row twice`).toBe(got.length);
  const known = new Set(all);
  expect(
    got.filter((id) => !known.has(id)),
    `${name}: no row the service does not return`,
  ).toEqual([]);
  expect(String(em.spreadsheet.sheetByName(name)?.cell(1, 1)?.note ?? "")).toMatch(/^Refresh in progress /);
}

function expectComplete(): void {
  expect(ids(column("Funds", "Id"))).toEqual(truth.funds);
  expect(ids(column("Expense reports", "Id"))).toEqual(truth.reports);
  const movements = column("Fund transactions", "Movement");
  expect(movements.length).toBe(truth.movements);
  expect(new Set(movements).size).toBe(truth.movements);
  const known = new Set(truth.funds);
  expect(column("Fund transactions", "Fund id").every((id) => known.has(Number(id)))).toBe(true);
}

function newEmulator(executionBudgetMs?: number): Emulator {
  const emulator = emulatorOf(dist, [ANA], {
    triggerSeesSpreadsheet: true,
    serviceUrl: sandbox.url,
    executionBudgetMs,
    realNow: () => FROZEN_NOW,
    fetchLatencyMs: FETCH_MS,
  });
  emulator.documentPropertiesData.values.set(
    SETTINGS_FORM_KEY,
    JSON.stringify({
      baseUrl: sandbox.url,
      pageSize: "50",
      windowMode: "range",
      windowFrom: WINDOW.since,
      windowTo: WINDOW.until,
    }),
  );
  storeToken(emulator, ANA, sandbox.token, sandbox.url);
  return emulator;
}

beforeAll(async () => {
  dist = privateBuild();
  sandbox = await startSandboxThread({ ...SIZE, today: "2024-06-30" });
  truth = await readTruth();
  // A large data set: most of the time goes to the movements of each fund (stoppable between
  // batches), and the lists are a few pages.
  expect(truth.funds.length).toBeGreaterThanOrEqual(100);
  expect(truth.reports.length).toBeGreaterThanOrEqual(300);
  const probe = newEmulator();
  expect(probe.tryRun("runRefreshFromSettings", []).ok).toBe(true);
  const wholeMs = probe.executions.at(-1)?.durationMs ?? 0;
  await probe.close();
  // Many round trips (fetchAll batches), long enough to stop several times.
  expect(wholeMs).toBeGreaterThan(10 * FETCH_MS);
  plannedLimitMs = Math.round(wholeMs / 3);
  // Room for what cannot stop half-way (a list fetched whole, a sheet written whole).
  budgetMs = plannedLimitMs * 5;
}, 180_000);

afterAll(() => closeAll(em, sandbox));

beforeEach(async () => {
  await em?.close();
  em = newEmulator(budgetMs);
  em.documentPropertiesData.values.set(EXECUTION_LIMIT_KEY, String(plannedLimitMs));
});

describe("a refresh longer than one execution", () => {
  it("stops before the limit; the settings sidebar calls again, piece after piece, until done; no trigger", () => {
    const first = em.tryRun("runRefreshFromSettings", []);
    expect(first.ok, JSON.stringify(first)).toBe(true);
    expect((first as { result: { continues?: boolean } }).result.continues).toBe(true);
    expect(history()[0], `planned ${plannedLimitMs} ms, budget ${budgetMs} ms`).toMatchObject({
      source: "sidebar",
      outcome: "continued",
      message:
        "Stopped near the time limit; the sidebar continues it piece by piece (or the next scheduled run does).",
    });
    expect(hasContinuation()).toBe(true);
    expectSheetsWhole();
    // No trigger: add-on clock triggers run at most once an hour; the page continues instead.
    expect(em.listTriggers()).toEqual([]);

    let executions = 1;
    for (; executions < 30 && hasContinuation(); executions++) {
      const next = em.tryRun("runRefreshFromSettings", []);
      expect(next.ok, JSON.stringify(next)).toBe(true);
      expect(em.listTriggers()).toEqual([]);
      expectSheetsWhole();
    }
    expect(hasContinuation()).toBe(false);
    expect(executions).toBeGreaterThan(1);
    // No execution was killed: every one ended by itself.
    expect(em.executions.filter((e) => !e.ok || e.durationMs >= budgetMs)).toEqual([]);
    const runs = history();
    expect(runs[0]).toMatchObject({
      source: "sidebar",
      outcome: "ok",
      message: `Finished in ${executions} executions.`,
    });
    expect(runs.slice(1).every((r) => r.outcome === "continued")).toBe(true);
    expectComplete();
    // The calls recorded over the executions are the calls made.
    expect(runs.reduce((sum, r) => sum + r.calls, 0)).toBe(em.urlFetchToday(ANA));
  });

  it("a refresh from the menu that pauses says so and opens the Refresh sidebar, which continues it piece by piece; no trigger", () => {
    const first = em.tryRun("refreshAll", [], { as: "menu", user: ANA });
    expect(first.ok, JSON.stringify(first)).toBe(true);
    const paused = em.ui.toasts.at(-1)?.message ?? "";
    expect(paused, `planned ${plannedLimitMs} ms, budget ${budgetMs} ms`).toMatch(
      /^Paused near the time limit after [\d,]+ calls?: [\d,]+ rows? written so far \(.+\)\./,
    );
    expect(paused).toContain("The Refresh sidebar continues it piece by piece");
    expect(paused).not.toContain("scheduled");
    expect(em.listTriggers()).toEqual([]);
    expectSheetsWhole();
    // The menu opened the sidebar; its page sees the paused refresh and goes on at once.
    expect(em.ui.sidebar?.title).toBe("Refresh");
    const view = em.tryRun("getRefreshSidebarView", [], { user: ANA });
    expect(view).toMatchObject({
      ok: true,
      result: { paused: { kind: "all", action: "Refresh all", continueNow: true } },
    });
    let executions = 1;
    let last: { finished: boolean; percent: number } = { finished: false, percent: 0 };
    const percents: number[] = [];
    for (; executions < 30 && !last.finished; executions++) {
      const piece = em.tryRun("refreshFromSidebar", ["all"], { user: ANA });
      expect(piece.ok, JSON.stringify(piece)).toBe(true);
      last = (piece as { result: typeof last }).result;
      percents.push(last.percent);
      expectSheetsWhole();
    }
    expect(executions).toBeGreaterThan(1);
    expect(last.percent).toBe(100);
    // The progress only grows.
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
    expect(em.listTriggers()).toEqual([]);
    expect(em.tryRun("getRefreshSidebarView", [], { user: ANA })).toMatchObject({ result: { paused: null } });
    expectComplete();
  });

  it("a paused menu refresh mentions the schedule when there is one", () => {
    expect(em.tryRun("saveSchedule", [{ kind: "hours", every: 4 }], { user: ANA }).ok).toBe(true);
    expect(em.tryRun("refreshAll", [], { as: "menu", user: ANA }).ok).toBe(true);
    expect(em.ui.toasts.at(-1)?.message).toContain(
      "The next scheduled refresh also brings every sheet up to date.",
    );
    expect(em.listTriggers().map((t) => t.handler)).toEqual(["runScheduledRefresh"]);
  });

  it("with a schedule installed, the next scheduled run continues it (no second time trigger allowed)", () => {
    em.tryRun("saveSchedule", [{ kind: "hours", every: 1 }]);
    em.advanceTime(3_600_000 + 60_000);
    const fired = em.fireTimeTriggers();
    expect(fired.map((f) => f.ok)).toEqual([true]);
    expect(history()[0]).toMatchObject({
      source: "schedule",
      outcome: "continued",
      message:
        "Stopped near the time limit; the next scheduled run continues where it stopped (an add-on may not add a sooner trigger).",
    });
    expect(em.listTriggers().map((t) => t.handler)).toEqual(["runScheduledRefresh"]);
    for (let i = 0; i < 30 && hasContinuation(); i++) {
      em.advanceTime(3_600_000);
      expect(em.fireTimeTriggers().map((f) => f.ok)).toEqual([true]);
      expectSheetsWhole();
    }
    expect(hasContinuation()).toBe(false);
    expect(history()[0]).toMatchObject({ source: "schedule", outcome: "ok" });
    expectComplete();
  });

  it("a refresh from the settings that paused is continued by a schedule saved afterwards; never a one-off trigger", () => {
    expect(em.tryRun("runRefreshFromSettings", []).ok).toBe(true);
    expect(em.listTriggers()).toEqual([]);
    expect(em.tryRun("saveSchedule", [{ kind: "hours", every: 2 }]).ok).toBe(true);
    expect(em.listTriggers().map((t) => t.handler)).toEqual(["runScheduledRefresh"]);
    expect(hasContinuation()).toBe(true);
    for (let i = 0; i < 30 && hasContinuation(); i++) {
      em.advanceTime(2 * 3_600_000 + 60_000);
      expect(em.fireTimeTriggers().map((f) => f.ok)).toEqual([true]);
      expect(em.listTriggers().map((t) => t.handler)).toEqual(["runScheduledRefresh"]);
    }
    expect(history()[0]).toMatchObject({ source: "schedule", outcome: "ok" });
    expectComplete();
  });
});
