/**
 * A long refresh keeps the person informed: progress toasts while it runs ("<stage>: N calls so
 * far…", at most one every 5 seconds) and a summary at the end with records, calls and seconds.
 * A run from a trigger has no Ui: it touches none and still succeeds.
 *
 * The emulator's clock stands on a fake real clock that moves forward a little at every read,
 * so the run lasts minutes on the script's clock and milliseconds in fact.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../../dev/emulator/index";
import { servicePrefix, storeToken } from "../../dev/emulator/settings";
import { SETTINGS_FORM_KEY, TOKEN_KEY } from "../../src/app/refresh";
import { privateBuild, type Setup, setUp, sheetOf } from "./emulation";

const USER = "ana@example.com";
/** Milliseconds the fake real clock moves at each read. */
const STEP_MS = 40;
const FORM = {
  pageSize: "5",
  fetchBatchSize: "2",
  windowMode: "range",
  windowFrom: "2023-01-01",
  windowTo: "2024-06-30",
};

let dist: string;
let s: Setup;
let em: Emulator;
let fakeNow = Date.UTC(2024, 5, 30, 15, 0, 0);
let uiCalls = 0;

beforeAll(async () => {
  dist = privateBuild();
  s = await setUp({ distDir: dist, funds: 30, reports: 60, triggerSeesSpreadsheet: true });
  em = createEmulator({
    triggerSeesSpreadsheet: true,
    distDir: dist,
    users: [USER],
    timeZone: "America/Santiago",
    urlFetchAllowlist: [servicePrefix(s.sandbox.url)],
    realNow: () => {
      fakeNow += STEP_MS;
      return fakeNow;
    },
  });
}, 120_000);

afterAll(async () => {
  await em?.close();
  await s?.close();
});

beforeEach(() => {
  em.resetState();
  storeToken(em, USER, s.sandbox.token, s.sandbox.url);
  em.documentPropertiesData.values.set(
    SETTINGS_FORM_KEY,
    JSON.stringify({ baseUrl: s.sandbox.url, ...FORM }),
  );
  em.resetCounters();
  // Counts every SpreadsheetApp.getUi() of the script (the fakes share this host object).
  uiCalls = 0;
  const host = em.spreadsheetHost;
  const getUi = host.getUi.bind(host);
  host.getUi = () => {
    uiCalls++;
    return getUi();
  };
});

const PROGRESS = /^(Funds|Fund transactions|Expense reports|[^:]+): (\d+) calls so far…$/;
const SUMMARY = /^([\d,]+) records? refreshed with ([\d,]+) calls? in ([\d.]+) s\.$/;

function rowsOf(name: string): number {
  return Math.max(0, (sheetOf(em, name)?.values.length ?? 1) - 1);
}

describe("progress of a long refresh", () => {
  it("shows progress toasts during the run, 5 s apart, then a summary with records, calls and seconds", () => {
    const started = em.clock.now();
    const out = em.tryRun("refreshAll", [], { as: "menu" });
    expect(out).toMatchObject({ ok: true });
    const ended = em.clock.now();
    const toasts = em.ui.toasts;
    const progress = toasts.filter((t) => PROGRESS.test(t.message));
    expect(progress.length).toBeGreaterThanOrEqual(2);
    // Calls so far only grow, and the toasts are at least 5 s apart on the script's clock.
    const counts = progress.map((t) => Number(PROGRESS.exec(t.message)?.[2]));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts[0]).toBeGreaterThan(0);
    for (let i = 1; i < progress.length; i++) {
      expect((progress[i]?.at ?? 0) - (progress[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(5_000);
    }
    for (const t of progress) expect(t.at).toBeLessThan(ended);

    const last = toasts.at(-1);
    const summary = SUMMARY.exec(last?.message ?? "");
    expect(summary, last?.message).not.toBeNull();
    const [records, calls, seconds] = (summary as RegExpExecArray)
      .slice(1)
      .map((n) => Number(n.replace(/,/g, ""))) as [number, number, number];
    expect(calls).toBe(em.counters.urlFetchTotal);
    // The last toast may come after the last call (report pages ride in the movements' batches).
    expect(calls).toBeGreaterThanOrEqual(counts.at(-1) ?? 0);
    const rows = rowsOf("Funds") + rowsOf("Fund transactions") + rowsOf("Expense reports");
    expect(rows).toBeGreaterThan(30);
    expect(records).toBe(rows);
    expect(seconds).toBeGreaterThan(5 * progress.length - 0.1);
    expect(seconds).toBeLessThanOrEqual((ended - started) / 1000 + 0.1);
    // Every toast of the run belongs to the refresh; no dialog was needed.
    expect(toasts.every((t) => t.title === last?.title)).toBe(true);
    expect(em.ui.dialogs).toEqual([]);
  });

  it("in a trigger run touches no Ui (no getUi, no dialog, no sidebar) and still succeeds", () => {
    const out = em.tryRun("refreshAll", [], { as: "trigger" });
    expect(out).toMatchObject({ ok: true });
    expect(uiCalls).toBe(0);
    expect(em.ui.dialogs).toEqual([]);
    expect(em.ui.sidebar).toBeFalsy();
    expect(em.ui.dialog).toBeFalsy();
    expect(em.executions.at(-1)).toMatchObject({ kind: "trigger", ok: true });
    expect(rowsOf("Funds")).toBe(30);
    expect(rowsOf("Expense reports")).toBeGreaterThan(0);
  });

  it("the counter of Ui calls sees a menu run's alert (so its zero above means something)", () => {
    em.userPropertiesOf(USER).values.set(TOKEN_KEY, `${s.sandbox.token}x`);
    em.answers.push("OK");
    const out = em.tryRun("refreshFunds", [], { as: "menu" });
    expect(out).toMatchObject({ ok: true });
    expect(uiCalls).toBeGreaterThan(0);
    expect(em.ui.dialogs.length).toBe(1);
  });
});
