/**
 * Google's daily quotas as the emulation counts them: "Quotas are per user and reset 24 hours
 * after the first request" (Apps Script quotas page), so the UrlFetch count does not start over
 * at Pacific midnight; and the trigger total runtime (90 minutes a day for consumer accounts,
 * 6 hours for Workspace) refuses a trigger execution once spent.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../dev/emulator/index";
import { echoServerPerFile, fixtureEmulator, inScript, minutesToPacificMidnight } from "./helpers";

const echo = echoServerPerFile();
const emulators: Emulator[] = [];

afterAll(async () => {
  for (const em of emulators) await em.close();
});

function emulator(options: Parameters<typeof fixtureEmulator>[0]): Emulator {
  const em = fixtureEmulator(options);
  emulators.push(em);
  return em;
}

const HOUR = 3_600_000;
/** Moves the emulator's clock to `minutesBefore` minutes before the next midnight in Los Angeles. */
function toBeforePacificMidnight(em: Emulator, minutesBefore: number): void {
  const toMidnight = minutesToPacificMidnight(em.now().getTime()) * 60_000;
  em.advanceTime(Math.max(0, toMidnight - minutesBefore * 60_000 - 60_000));
}

const fetchOnce = `UrlFetchApp.fetch(args.url); return true;`;

describe("the UrlFetch quota window", () => {
  it("is still nearly spent right after Pacific midnight, and frees 24 hours after the first call", () => {
    const em = emulator({ dailyUrlFetchQuota: 3 });
    toBeforePacificMidnight(em, 10);
    const first = em.now().getTime();
    for (let i = 0; i < 3; i++) inScript(em, fetchOnce, { url: `${echo.base}/echo` });
    expect(em.urlFetchToday()).toBe(3);
    // Past midnight in Los Angeles: a calendar-day count would start over here; Google's does not.
    em.advanceTime(20 * 60_000);
    expect(em.urlFetchToday()).toBe(3);
    expect(() => inScript(em, fetchOnce, { url: `${echo.base}/echo` })).toThrow(
      "Service invoked too many times for one day: urlfetch.",
    );
    // 24 hours after the first call the window closes and a new one opens with the next call.
    em.advanceTime(first + 24 * HOUR - em.now().getTime() + 1_000);
    expect(em.urlFetchToday()).toBe(0);
    expect(() => inScript(em, fetchOnce, { url: `${echo.base}/echo` })).not.toThrow();
    expect(em.urlFetchToday()).toBe(1);
  });
});

const sleepMinutes = `Utilities.sleep(args.minutes * 60000); return true;`;

describe("the trigger total runtime per day", () => {
  it("refuses a trigger execution past a consumer account's 90 minutes with Google's message", () => {
    const em = emulator({ consumerUsers: ["ana@example.com"] });
    // Eighteen 5-minute trigger executions: 90 minutes.
    for (let i = 0; i < 18; i++) {
      const ok = em.tryRun("snippet", [sleepMinutes, { minutes: 5 }], { as: "trigger" });
      expect(ok.ok).toBe(true);
    }
    // The emulator's clock also runs on with real time: a few milliseconds more.
    expect(em.triggerRuntimeToday()).toBeGreaterThanOrEqual(90 * 60_000);
    expect(em.triggerRuntimeToday()).toBeLessThan(91 * 60_000);
    const refused = em.tryRun("snippet", [sleepMinutes, { minutes: 1 }], { as: "trigger" });
    expect(refused).toMatchObject({ ok: false, error: "Service using too much computer time for one day" });
    // Only trigger executions count: the same user still runs the add-on from a sidebar.
    expect(em.tryRun("snippet", [sleepMinutes, { minutes: 1 }], { as: "script.run" }).ok).toBe(true);
    // A Workspace user has 6 hours of their own.
    expect(
      em.tryRun("snippet", [sleepMinutes, { minutes: 5 }], { as: "trigger", user: "ben@example.com" }).ok,
    ).toBe(true);
    // The window closes 24 hours after the first trigger execution.
    em.advanceTime(24 * HOUR);
    expect(em.tryRun("snippet", [sleepMinutes, { minutes: 1 }], { as: "trigger" }).ok).toBe(true);
  });

  it("gives a Workspace account 6 hours", () => {
    const em = emulator({});
    for (let i = 0; i < 72; i++) em.tryRun("snippet", [sleepMinutes, { minutes: 5 }], { as: "trigger" });
    expect(em.triggerRuntimeToday()).toBeGreaterThanOrEqual(6 * HOUR);
    expect(em.triggerRuntimeToday()).toBeLessThan(6 * HOUR + 60_000);
    expect(em.tryRun("snippet", [sleepMinutes, { minutes: 1 }], { as: "trigger" })).toMatchObject({
      ok: false,
      error: "Service using too much computer time for one day",
    });
  });
});
