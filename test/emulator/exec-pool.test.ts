/**
 * The threads of emulator.startRun are kept for the next execution (starting one costs about
 * half a second), yet each execution starts from a clean realm, as on a new thread: nothing an
 * earlier execution left in its globals or built-ins is seen by the next.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { idleExecutionThreads } from "../../dev/emulator/exec-pool";
import type { Emulator, RunOptions, RunOutcome } from "../../dev/emulator/index";
import { fixtureEmulator } from "./helpers";

let em: Emulator;
beforeEach(() => {
  em = fixtureEmulator();
});
afterEach(async () => {
  await em.close();
});

function start(source: string, options: RunOptions = {}): Promise<RunOutcome> {
  return em.startRun("snippet", [source, null], { as: "script.run", ...options });
}

/** What the script sees of what an earlier execution may have left behind. */
const LOOK = `return {
  global: typeof leftBehind,
  onObject: ({}).polluted === undefined ? "clean" : "polluted",
  json: JSON.stringify([1]),
  property: PropertiesService.getScriptProperties().getProperty("k"),
}`;

const LEAVE = `globalThis.leftBehind = 1;
Object.prototype.polluted = true;
JSON.stringify = function () { return "replaced"; };
PropertiesService.getScriptProperties().setProperty("k", "kept");`;

describe("the threads of startRun", () => {
  it("run the next execution on the thread an ended one gave back", async () => {
    const before = idleExecutionThreads();
    expect(await start("return 1")).toMatchObject({ ok: true, result: 1 });
    expect(idleExecutionThreads()).toBe(Math.max(before, 1));
    const second = start("return 2");
    expect(idleExecutionThreads(), "the kept thread is taken").toBe(Math.max(before, 1) - 1);
    expect(await second).toMatchObject({ ok: true, result: 2 });
  });

  it("start each execution from a clean realm: globals and built-ins as new, shared state kept", async () => {
    expect(await start(LEAVE)).toMatchObject({ ok: true });
    expect(await start(LOOK)).toEqual({
      ok: true,
      result: { global: "undefined", onObject: "clean", json: "[1]", property: "kept" },
    });
  });

  it("start clean after an execution stopped in the middle", async () => {
    const stopped = await start(`${LEAVE}\nPropertiesService.getScriptProperties().getProperty("k");`, {
      stopAt: { serviceCall: 3 },
    });
    expect(stopped).toMatchObject({ ok: false, error: "Exceeded maximum execution time" });
    expect(await start(LOOK)).toMatchObject({
      ok: true,
      result: { global: "undefined", onObject: "clean", json: "[1]" },
    });
  });

  it("never keep a thread whose execution the emulator's close() cut short", async () => {
    const endless = start("while (true) {}");
    await new Promise((done) => setTimeout(done, 50));
    const during = idleExecutionThreads();
    await em.close();
    expect(await endless).toMatchObject({ ok: false, error: "The emulator was closed during the execution" });
    expect(idleExecutionThreads(), "its thread was ended, not given back").toBe(during);
  });
});
