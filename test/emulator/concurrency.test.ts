/**
 * Executions side by side (emulator.startRun): each on its own thread, sharing the spreadsheet,
 * properties and locks, with LockService's real waits and timeouts.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator, RunOptions, RunOutcome } from "../../dev/emulator/index";
import { fixtureEmulator } from "./helpers";

let em: Emulator;
let server: Server;
let slowUrl = "";
let holdUrl = "";
/** Requests to /hold?name= wait here until release(name). */
const held = new Map<string, () => void>();
const released = new Set<string>();

function release(name: string): void {
  released.add(name);
  held.get(name)?.();
}

beforeAll(async () => {
  // Answers after the delay asked in ?ms=, from this thread (free while the scripts wait).
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const name = url.searchParams.get("name");
    if (name !== null) {
      if (released.has(name)) res.end("released");
      else held.set(name, () => res.end("released"));
      return;
    }
    setTimeout(() => res.end("late"), Number(url.searchParams.get("ms") ?? 0));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  slowUrl = `${origin}/slow`;
  holdUrl = `${origin}/hold`;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
});
beforeEach(() => {
  em = fixtureEmulator();
});
afterEach(async () => {
  await em.close();
});

function start(source: string, options: RunOptions = {}, args: unknown = null): Promise<RunOutcome> {
  return em.startRun("snippet", [source, args], { as: "script.run", ...options });
}

/** Resolves once `test` holds (checked as the other threads run). */
async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((done) => setTimeout(done, 5));
}

const holds = (kind: string) => () => em.runningExecutions().some((r) => r.locks.includes(kind));

/** Holds a lock until the test calls release(mark), then writes `mark` to A1 and lets go. */
const HOLD = (lock: string, mark: string) => `
  var lock = LockService.${lock}();
  lock.waitLock(1000);
  UrlFetchApp.fetch("${holdUrl}?name=${mark}");
  SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange("A1").setValue("${mark}");
  SpreadsheetApp.flush();
  lock.releaseLock();
  return "held";
`;

describe("executions side by side", () => {
  it("a tryLock waits for the holder's release and then sees what it wrote", async () => {
    const first = start(HOLD("getDocumentLock", "first"));
    await until(holds("document"));
    const second = start(`
      var lock = LockService.getDocumentLock();
      var got = lock.tryLock(10000);
      var seen = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange("A1").getValue();
      return [got, lock.hasLock(), seen];
    `);
    await until(() => em.runningExecutions().some((r) => r.waitingForLock));
    release("first");
    expect(await first).toEqual({ ok: true, result: "held" });
    expect(await second).toEqual({ ok: true, result: [true, true, "first"] });
  });

  it("tryLock gives false and waitLock throws Google's message once the timeout has passed", async () => {
    const holder = start(HOLD("getDocumentLock", "holder"));
    await until(holds("document"));
    const outcomes = await Promise.all([
      start(`return LockService.getDocumentLock().tryLock(100);`),
      start(`
        try { LockService.getDocumentLock().waitLock(100); return "got it"; }
        catch (e) { return [e.name, e.message, e instanceof Error]; }
      `),
      start(`LockService.getDocumentLock().waitLock(100);`),
    ]);
    expect(outcomes[0]).toEqual({ ok: true, result: false });
    expect(outcomes[1]).toEqual({
      ok: true,
      result: ["Exception", "Lock timeout: another process was holding the lock for too long.", true],
    });
    expect(outcomes[2]).toEqual({
      ok: false,
      name: "Exception",
      error: "Lock timeout: another process was holding the lock for too long.",
    });
    // The holder was still running when all three gave up.
    expect(em.runningExecutions().map((r) => r.locks)).toEqual([["document"]]);
    release("holder");
    expect(await holder).toEqual({ ok: true, result: "held" });
  });

  it("keeps user locks per user and one script lock for all users", async () => {
    const ana = start(HOLD("getUserLock", "ana"), { user: "ana@example.com" });
    await until(holds("user:ana@example.com"));
    const script = start(HOLD("getScriptLock", "script"), { user: "ben@example.com" });
    await until(holds("script"));
    const [benUser, anaUser, anaScript, anaDocument] = await Promise.all([
      start(`return LockService.getUserLock().tryLock(0);`, { user: "ben@example.com" }),
      start(`return LockService.getUserLock().tryLock(0);`, { user: "ana@example.com" }),
      start(`return LockService.getScriptLock().tryLock(0);`, { user: "ana@example.com" }),
      start(`return LockService.getDocumentLock().tryLock(0);`, { user: "ana@example.com" }),
    ]);
    expect([benUser, anaUser, anaScript, anaDocument]).toEqual([
      { ok: true, result: true },
      { ok: true, result: false },
      { ok: true, result: false },
      { ok: true, result: true },
    ]);
    release("ana");
    release("script");
    expect(await Promise.all([ana, script])).toEqual([
      { ok: true, result: "held" },
      { ok: true, result: "held" },
    ]);
  });

  it("lets emulator time pass when every running execution waits for a lock", async () => {
    const held = em.holdLock("document");
    const before = em.now().getTime();
    const outcomes = await em.runConcurrently([
      { fn: "snippet", args: [`return LockService.getDocumentLock().tryLock(60000);`] },
      { fn: "snippet", args: [`return LockService.getDocumentLock().tryLock(120000);`] },
    ]);
    expect(outcomes).toEqual([
      { ok: true, result: false },
      { ok: true, result: false },
    ]);
    expect(em.now().getTime() - before).toBeGreaterThanOrEqual(120_000);
    held.release();
  });

  it("a waiter gets a lock held elsewhere once its holder's time is up", async () => {
    em.holdLock("script", undefined, 5_000);
    const before = em.now().getTime();
    expect(await start(`return LockService.getScriptLock().tryLock(10000);`)).toEqual({
      ok: true,
      result: true,
    });
    const waited = em.now().getTime() - before;
    expect(waited).toBeGreaterThanOrEqual(5_000);
    expect(waited).toBeLessThan(10_000);
  });

  it("a slow UrlFetch blocks only its own execution", async () => {
    const order: string[] = [];
    const slow = em
      .startRun("snippet", [`return UrlFetchApp.fetch(args).getContentText();`, `${slowUrl}?ms=1500`])
      .then((o) => {
        order.push("slow");
        return o;
      });
    await until(() => em.urlFetchToday() === 1);
    const quick = start(`
      var range = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange("B2");
      range.setValue("00123");
      return [range.getValue(), new Date(2024, 0, 31).getHours(), Utilities.formatDate(new Date(0), "UTC", "yyyy")];
    `).then((o) => {
      order.push("quick");
      return o;
    });
    expect(await quick).toEqual({ ok: true, result: [123, 0, "1970"] });
    expect(await slow).toEqual({ ok: true, result: "late" });
    expect(order).toEqual(["quick", "slow"]);
  });

  it("keeps each execution's budget, errors and stop points its own", async () => {
    const [stopped, failing, counted] = await em.runConcurrently([
      {
        fn: "snippet",
        args: [`while (true) {}`],
        options: { budgetMs: 300 },
      },
      {
        fn: "snippet",
        args: [
          `try { SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange(0, 1); } catch (e) { return [e.name, e.message]; }`,
        ],
      },
      {
        fn: "snippet",
        args: [
          `PropertiesService.getScriptProperties().setProperty("a", "1");
           PropertiesService.getScriptProperties().setProperty("b", "2");
           PropertiesService.getScriptProperties().setProperty("c", "3");`,
        ],
        options: { stopAt: { serviceCall: 4 } },
      },
    ]);
    expect(stopped).toEqual({ ok: false, name: "Exception", error: "Exceeded maximum execution time" });
    expect(failing).toEqual({
      ok: true,
      result: ["Exception", "The starting row of the range is too small."],
    });
    expect(counted).toEqual({ ok: false, name: "Exception", error: "Exceeded maximum execution time" });
    expect(em.properties().script).toEqual({ a: "1" });
    expect([...em.executions].sort((a, b) => a.id - b.id).map((e) => e.ok)).toEqual([false, true, false]);
  });

  it("refuses a run on the calling thread while others run on theirs", async () => {
    const running = start(HOLD("getScriptLock", "x"));
    expect(() => em.run("snippet", ["return 1;"])).toThrow(/runs on its own thread: use startRun/);
    release("x");
    await running;
    expect(em.run("snippet", ["return 1;"])).toBe(1);
  });

  it("closing the emulator ends the executions still running, and resetState waits for them", async () => {
    const running = start(HOLD("getScriptLock", "never"));
    await until(holds("script"));
    expect(() => em.resetState()).toThrow(/while executions started with startRun are running/);
    await em.close();
    expect(await running).toEqual({
      ok: false,
      name: "Error",
      error: "The emulator was closed during the execution",
    });
    expect(em.runningExecutions()).toEqual([]);
  });
});
