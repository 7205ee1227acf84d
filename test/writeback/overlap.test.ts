/**
 * Executions of the BUILT add-on overlapping in the emulation, as Google runs them: an Outbox
 * run, a Fund-sidebar deposit and a scheduled refresh on the same fund and sheets, and two
 * users' menu runs at once, each execution on its own thread against the sandbox. A `hold`
 * fault keeps the first writer inside its request, holding the document lock, until the others
 * have waited for it (or, refused, given up on the emulator clock): nothing is lost, nothing is
 * sent twice (the sandbox's own ledger says so), and every run that could not wait says so
 * plainly.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator, RunOutcome } from "../../dev/emulator/index";
import { storeToken } from "../../dev/emulator/settings";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { SETTINGS_FORM_KEY } from "../../src/app/refresh";
import { type OUTBOX_COLUMNS, USER_COLUMNS } from "../../src/outbox/columns";
import { readHistory } from "../../src/schedule/history";
import { privateBuild } from "../refresh/emulation";
import { closeAll, emulatorOf } from "../support/emulation";
import type { SandboxFund } from "./harness";

const ANA = "ana@empresa.cl";
const BEN = "ben@empresa.cl";
const SIZES = { seed: 11, funds: 6, reports: 8 };
const BUSY_OUTBOX = "A run of the Outbox is already in progress in this spreadsheet. Try again when it ends.";
const BUSY_REFRESH = "A refresh of this spreadsheet is running. Try again when it ends.";
/**
 * Each test's limit: longer than its own waits (until() gives up after 20 s, release() after
 * 45 s), so that a run that never gets there fails with what is running, not a bare timeout.
 */
const RUNS_MS = 120_000;

let dist: string;
let sandbox: RunningSandbox;
let em: Emulator;
let fund: SandboxFund;

async function control(path: string, body?: unknown, method = body === undefined ? "GET" : "POST") {
  const origin = sandbox.url.replace(/\/v1$/, "");
  const response = await fetch(`${origin}/_sandbox/${path}`, {
    method,
    headers: { Authorization: `Bearer ${sandbox.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function fundNow(id: number): Promise<SandboxFund> {
  const state = (await control("state")) as { funds: SandboxFund[] };
  return state.funds.find((f) => f.id === id) as SandboxFund;
}

/**
 * The next request to `endpoint` is held by the sandbox, unanswered, until release(): its writer
 * keeps the document lock meanwhile, for as long as the test needs and no longer.
 */
const holdOnce = (endpoint: string) =>
  control("faults", { latencyMs: 0, rules: [{ endpoint, fault: "hold", times: 1 }] });

/**
 * Once the holder is inside its held request, moves the emulator clock on by `stepMs` at a
 * time until every one of `runs` has ended: each waits for the spreadsheet in turn (to
 * start, then to write its audit row), and none can have it before its time is up.
 */
async function passTimeUntilEnded(runs: Promise<unknown>[], stepMs: number): Promise<void> {
  let ended = 0;
  for (const run of runs) void run.finally(() => ended++);
  // The holder must be inside its held request first: time passed before would be its own too.
  const giveUp = Date.now() + 20_000;
  while (((await control("faults")) as { held: number }).held === 0) {
    if (Date.now() > giveUp) throw new Error("no request was held");
    await new Promise((done) => setTimeout(done, 5));
  }
  while (ended < runs.length) {
    if (Date.now() > giveUp) throw new Error(`still running: ${JSON.stringify(em.runningExecutions())}`);
    // Only as far as the furthest wait still ahead: never more (the holder's own time counts).
    const now = em.now().getTime();
    const ahead = em
      .runningExecutions()
      .map((r) => r.waitingUntil ?? 0)
      .filter((until) => until >= now);
    if (ahead.length > 0) em.advanceTime(Math.min(stepMs, Math.max(...ahead) - now + 1));
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** Lets the held request go on (it must be there: the holder is inside it). */
async function release(): Promise<void> {
  // Real time, not the emulator's: on a loaded machine the holder may take long to get there.
  const giveUp = Date.now() + 45_000;
  while (((await control("faults")) as { held: number }).held === 0) {
    if (Date.now() > giveUp) throw new Error("no request was held");
    await new Promise((done) => setTimeout(done, 5));
  }
  await control("faults/release", {});
}

/**
 * Resolves once `test` holds (checked while the executions' threads run); fails with what is
 * running if it never does (a run that started too late to overlap).
 */
async function until(test: () => boolean, what = "the awaited state"): Promise<void> {
  const giveUp = Date.now() + 20_000;
  while (!test()) {
    if (Date.now() > giveUp)
      throw new Error(`never reached ${what}: running ${JSON.stringify(em.runningExecutions())}`);
    await new Promise((done) => setTimeout(done, 5));
  }
}

const holder = (fn: string) => () =>
  em.runningExecutions().some((r) => r.functionName === fn && r.locks.includes("document"));
const waitingIn = (fn: string) => () =>
  em.runningExecutions().some((r) => r.functionName === fn && r.waitingForLock);
const waiting = (count: number) => () =>
  em.runningExecutions().filter((r) => r.waitingForLock).length >= count;
function values(name: string): unknown[][] {
  const sheet = em.spreadsheet.sheetByName(name);
  if (!sheet) return [];
  const out: unknown[][] = [];
  for (let r = 1; r <= sheet.lastRow(); r += 1) {
    const row: unknown[] = [];
    for (let c = 1; c <= sheet.lastColumn(); c += 1) row.push(sheet.cell(r, c)?.value ?? "");
    out.push(row);
  }
  return out;
}

function rowsOf(name: string): Record<string, unknown>[] {
  const [header = [], ...rows] = values(name);
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [String(h), row[i]])));
}

function typeOutbox(rows: Partial<Record<(typeof OUTBOX_COLUMNS)[number], unknown>>[]): void {
  const grid = rows.map((r) => USER_COLUMNS.map((c) => (r[c] === undefined ? "" : r[c])));
  em.typeCells("Outbox", `C2:T${rows.length + 1}`, grid);
}

function history() {
  return readHistory(Object.fromEntries(em.documentPropertiesData.values)).runs;
}

const ok = (outcome: RunOutcome): unknown => {
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.result;
};

/** Entry numbers of the Audit sheet (its last column): one per row, none given twice. */
function auditNumbers(): number[] {
  return values("Audit")
    .slice(1)
    .map((row) => Number(row[row.length - 1]));
}

beforeAll(async () => {
  dist = privateBuild();
  sandbox = await startSandboxThread({ ...SIZES, latencyMs: 0, today: "2024-06-30" });
}, 120_000);

afterAll(() => closeAll(em, sandbox));

beforeEach(async () => {
  await em?.close();
  await control("reset", SIZES);
  await control("faults", undefined, "DELETE");
  em = emulatorOf(dist, [ANA, BEN], { triggerSeesSpreadsheet: true, serviceUrl: sandbox.url });
  em.documentPropertiesData.values.set(
    SETTINGS_FORM_KEY,
    JSON.stringify({
      baseUrl: sandbox.url,
      adminId: String(sandbox.adminId),
      windowMode: "range",
      windowFrom: "2023-07-01",
      windowTo: "2024-06-30",
    }),
  );
  storeToken(em, ANA, sandbox.token, sandbox.url, sandbox.adminId);
  storeToken(em, BEN, sandbox.token, sandbox.url, sandbox.adminId);
  const state = (await control("state")) as { funds: SandboxFund[] };
  fund = state.funds.find((f) => f.status === 1) as SandboxFund;
  em.answers.push("OK");
  ok(em.tryRun("createOutboxSheet", [], { as: "menu", user: ANA }));
  ok(em.tryRun("saveSchedule", [{ kind: "hours", every: 1 }], { as: "script.run", user: ANA }));
});

describe("an Outbox run, a sidebar deposit and a scheduled refresh at once, on one fund", () => {
  /**
   * Ana's Outbox run of a deposit of 100, held inside that deposit with the document lock;
   * then Ben's sidebar deposit of 10.50 (`requestId`) and the scheduled refresh, both waiting
   * for the Outbox.
   */
  async function threeAtOnce(requestId: string) {
    typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "100" }]);
    await holdOnce("depositMoneyToFund");
    em.answers.push("YES", "OK");
    const outbox = em.startRun("runOutbox", [], { as: "menu", user: ANA });
    await until(holder("runOutbox"));
    const deposit = em.startRun(
      "depositToFund",
      [{ requestId, fields: { Id: fund.id, DepositAmount: "10.50" } }],
      { as: "script.run", user: BEN },
    );
    const scheduled = em.startTimeTriggers({ all: true });
    // Both wait for the Outbox, which is still inside its held deposit.
    await until(waiting(2));
    return { outbox, deposit, scheduled };
  }

  it("each waits for the document lock in turn: both deposits land once, the sheets end right", {
    timeout: RUNS_MS,
  }, async () => {
    const { outbox, deposit, scheduled } = await threeAtOnce("overlap-deposit-0001");
    expect(em.runningExecutions().find((r) => r.locks.includes("document"))?.functionName).toBe("runOutbox");
    await release();

    expect(ok(await outbox)).toMatchObject({ done: 1, refused: 0, unknown: 0 });
    expect(ok(await deposit)).toMatchObject({ kind: "done", fund: { id: fund.id } });
    const [fired] = await scheduled;
    expect(fired).toMatchObject({ ok: true, handler: "runScheduledRefresh", user: ANA });

    // The sandbox's ledger: exactly the two deposits, each once.
    const after = await fundNow(fund.id);
    const added = after.transactions.slice(fund.transactions.length).map((t) => t.amountCents);
    expect([...added].sort((a, b) => a - b)).toEqual([1_050, 10_000]);
    expect(after.balanceCents).toBe(fund.balanceCents + 11_050);

    expect(rowsOf("Outbox").map((r) => r.State)).toEqual(["Done"]);
    expect(history()[0]).toMatchObject({ source: "schedule", outcome: "ok" });
    // Whichever of the deposit and the refresh went last, the Funds sheet shows the ledger.
    const row = rowsOf("Funds").filter((r) => r.Id === fund.id);
    expect(row).toHaveLength(1);
    expect(row[0]?.Balance).toBe(after.balanceCents / 100);
    const numbers = auditNumbers();
    expect(numbers.length).toBeGreaterThan(0);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it("a run that cannot wait any longer says so, and sends nothing", { timeout: RUNS_MS }, async () => {
    const { outbox, deposit, scheduled } = await threeAtOnce("overlap-deposit-0002");
    // The Outbox's request takes longer than anyone waits (10 s for the deposit, 30 s for the
    // scheduled refresh): on the emulator clock, that time passes now; then its answer comes.
    await passTimeUntilEnded([deposit, scheduled], 31_000);
    await release();

    expect(ok(await deposit)).toEqual({ kind: "refused", message: BUSY_OUTBOX });
    const [fired] = await scheduled;
    expect(fired?.ok).toBe(true);
    expect(history()[0]).toMatchObject({
      source: "schedule",
      outcome: "skipped",
      message: "An Outbox run was using the spreadsheet; this refresh was skipped.",
    });
    expect(ok(await outbox)).toMatchObject({ done: 1 });

    const after = await fundNow(fund.id);
    expect(after.transactions.slice(fund.transactions.length).map((t) => t.amountCents)).toEqual([10_000]);
    expect(em.executions.every((e) => e.ok)).toBe(true);
  });
});

describe("an Audit sheet made by one run while another writes in it", () => {
  it("keeps the other's entry numbers: no number given twice, no row reported as not the add-on's", {
    timeout: RUNS_MS,
  }, async () => {
    // Ben's deposit holds the document lock, kept in its read of the fund before it writes any
    // audit row, while the scheduled refresh opens the missing Audit sheet and waits. (The sheet
    // was once made there and then, outside the lock, and its numbering started over once the
    // refresh had the lock: after Ben's rows, which the refresh's check then reported.)
    await holdOnce("getFund");
    const deposit = em.startRun(
      "depositToFund",
      [{ requestId: "overlap-audit-made-0001", fields: { Id: fund.id, DepositAmount: "4.05" } }],
      { as: "script.run", user: BEN },
    );
    await until(holder("depositToFund"));
    const scheduled = em.startTimeTriggers({ all: true });
    await until(waiting(1), "the scheduled refresh waiting");
    await release();
    expect(ok(await deposit)).toMatchObject({ kind: "done" });
    const [fired] = await scheduled;
    expect(fired).toMatchObject({ ok: true });
    expect(history()[0]).toMatchObject({ source: "schedule", outcome: "ok" });

    const rows = rowsOf("Audit");
    expect(rows.map((r) => r.Outcome)).not.toContain("irregular");
    expect(rows.filter((r) => String(r.Action).startsWith("Deposit"))).toHaveLength(1);
    const numbers = auditNumbers();
    expect([...numbers].sort((a, b) => a - b)).toEqual(numbers.map((_, i) => i + 1));
  });
});

describe("one form sent twice at once", () => {
  it("the second call, made while the first is sending, moves no money", { timeout: RUNS_MS }, async () => {
    await holdOnce("depositMoneyToFund");
    const form = { requestId: "overlap-deposit-twice", fields: { Id: fund.id, DepositAmount: "7" } };
    const first = em.startRun("depositToFund", [form], { as: "script.run", user: ANA });
    await until(holder("depositToFund"));
    const second = ok(await em.startRun("depositToFund", [form], { as: "script.run", user: ANA }));
    expect(second).toMatchObject({ kind: "unknown", repeated: true });
    await release();
    expect(ok(await first)).toMatchObject({ kind: "done" });
    const after = await fundNow(fund.id);
    expect(after.transactions.slice(fund.transactions.length).map((t) => t.amountCents)).toEqual([700]);
  });
});

describe("two editors' Fund sidebar deposits at once on one fund", () => {
  it("the second waits for the first and is sent once it is done: both land, each once", {
    timeout: RUNS_MS,
  }, async () => {
    await holdOnce("depositMoneyToFund");
    const form = (id: string, amount: string) => ({
      requestId: id,
      fields: { Id: fund.id, DepositAmount: amount },
    });
    const ana = em.startRun("depositToFund", [form("overlap-ana-deposit", "3.01")], {
      as: "script.run",
      user: ANA,
    });
    await until(holder("depositToFund"));
    const ben = em.startRun("depositToFund", [form("overlap-ben-deposit", "3.02")], {
      as: "script.run",
      user: BEN,
    });
    await until(waiting(1), "Ben's deposit waiting");
    await release();
    expect(ok(await ana)).toMatchObject({ kind: "done" });
    expect(ok(await ben)).toMatchObject({ kind: "done" });
    const after = await fundNow(fund.id);
    expect(after.transactions.slice(fund.transactions.length).map((t) => t.amountCents)).toEqual([301, 302]);
  });
});

describe("two users' menu runs at once", () => {
  it("two Outbox runs: one sends each row once, the other says another run is in progress", {
    timeout: RUNS_MS,
  }, async () => {
    const state = (await control("state")) as { funds: SandboxFund[] };
    const other = state.funds.find((f) => f.status === 1 && f.id !== fund.id) as SandboxFund;
    typeOutbox([
      { operation: "Deposit", targetId: fund.id, amount: "5" },
      { operation: "Withdraw", targetId: other.id, amount: "1" },
    ]);
    await holdOnce("depositMoneyToFund");
    em.answers.push("YES");
    const ana = em.startRun("runOutbox", [], { as: "menu", user: ANA });
    await until(holder("runOutbox"));
    // Ben confirms, then reads the refusal; Ana reads her summary last.
    em.answers.push("YES", "OK", "OK");
    const ben = em.startRun("runOutbox", [], { as: "menu", user: BEN });
    await until(waitingIn("runOutbox"), "Ben's Outbox waiting");
    await passTimeUntilEnded([ben], 1_500);
    await release();
    expect(await ben).toEqual({ ok: true, result: null });
    expect(ok(await ana)).toMatchObject({ done: 2 });
    expect(em.ui.dialogs.filter((d) => d.prompt === BUSY_OUTBOX)).toHaveLength(1);

    expect(rowsOf("Outbox").map((r) => r.State)).toEqual(["Done", "Done"]);
    expect((await fundNow(fund.id)).balanceCents).toBe(fund.balanceCents + 500);
    expect((await fundNow(other.id)).balanceCents).toBe(other.balanceCents - 100);
    // A later run by Ben finds nothing left to send.
    em.answers.push("OK");
    ok(em.tryRun("runOutbox", [], { as: "menu", user: BEN }));
    expect((await fundNow(fund.id)).balanceCents).toBe(fund.balanceCents + 500);
  });

  it("two menu refreshes: the second waits for the first, and the sheets hold each record once", {
    timeout: RUNS_MS,
  }, async () => {
    await holdOnce("getFunds");
    const ana = em.startRun("refreshAll", [], { as: "menu", user: ANA });
    await until(holder("refreshAll"));
    const ben = em.startRun("refreshAll", [], { as: "menu", user: BEN });
    await until(waiting(1));
    await release();
    expect(await ana).toMatchObject({ ok: true });
    expect(await ben).toMatchObject({ ok: true });
    const state = (await control("state")) as { funds: SandboxFund[] };
    const ids = rowsOf("Funds").map((r) => r.Id);
    expect([...ids].sort()).toEqual(state.funds.map((f) => f.id).sort());
    const toasts = em.ui.toasts.map((t) => t.message);
    expect(toasts.filter((m) => m.startsWith("Another refresh"))).toEqual([]);
  });
});

describe("a refusal names the run that holds the spreadsheet", () => {
  it("a deposit and an Outbox run refused during a refresh say a refresh is running", {
    timeout: RUNS_MS,
  }, async () => {
    typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "3" }]);
    await holdOnce("getFunds");
    const refresh = em.startRun("refreshAll", [], { as: "menu", user: ANA });
    await until(holder("refreshAll"));
    const deposit = em.startRun(
      "depositToFund",
      [{ requestId: "overlap-deposit-0003", fields: { Id: fund.id, DepositAmount: "2" } }],
      { as: "script.run", user: BEN },
    );
    await until(waitingIn("depositToFund"), "the deposit waiting");
    // The Outbox waits one second only: the time passes as soon as it waits.
    em.answers.push("YES", "OK");
    const outbox = em.startRun("runOutbox", [], { as: "menu", user: BEN });
    await until(waitingIn("runOutbox"), "the Outbox waiting");
    await passTimeUntilEnded([deposit, outbox], 11_000);
    await release();
    expect(ok(await deposit)).toEqual({ kind: "refused", message: BUSY_REFRESH });
    expect(await outbox).toEqual({ ok: true, result: null });
    expect(em.ui.dialogs.at(-1)?.prompt).toBe(BUSY_REFRESH);
    expect(await refresh).toMatchObject({ ok: true });
    expect((await fundNow(fund.id)).balanceCents).toBe(fund.balanceCents);
    expect(rowsOf("Outbox").map((r) => r.State)).toEqual([""]);
  });

  it("a refresh refused during an Outbox run says the Outbox is running", { timeout: RUNS_MS }, async () => {
    typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "3" }]);
    await holdOnce("depositMoneyToFund");
    // Ana confirms; Ben reads the refusal and Ana her summary.
    em.answers.push("YES", "OK", "OK");
    const outbox = em.startRun("runOutbox", [], { as: "menu", user: ANA });
    await until(holder("runOutbox"));
    const refresh = em.startRun("refreshAll", [], { as: "menu", user: BEN });
    const scheduled = em.startTimeTriggers({ all: true });
    await until(waiting(2));
    await passTimeUntilEnded([refresh, scheduled], 31_000);
    await release();
    expect(await refresh).toMatchObject({ ok: true });
    expect(em.ui.dialogs.map((d) => d.prompt)).toContain(BUSY_OUTBOX);
    await scheduled;
    expect(history()[0]).toMatchObject({
      outcome: "skipped",
      message: "An Outbox run was using the spreadsheet; this refresh was skipped.",
    });
    expect(ok(await outbox)).toMatchObject({ done: 1 });
  });
});
