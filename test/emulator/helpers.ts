/** Shared set-up for the emulator's tests: an emulator over the fixture script. */
import { resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll } from "vitest";
import {
  createEmulator,
  type Emulator,
  type EmulatorOptions,
  type RunOptions,
} from "../../dev/emulator/index";

export const FIXTURE_DIST = resolve(import.meta.dirname, "../fixtures/emulator/dist");

export function fixtureEmulator(options: EmulatorOptions = {}): Emulator {
  return createEmulator({
    distDir: FIXTURE_DIST,
    users: ["ana@example.com", "ben@example.com", ""],
    ...options,
  });
}

/** Runs `source` (a function body; `args` is its argument) inside the script, as google.script.run would. */
export function inScript(
  emulator: Emulator,
  source: string,
  args: unknown = null,
  options: RunOptions = {},
): unknown {
  return emulator.run("snippet", [source, args], { as: "script.run", ...options });
}

/**
 * The echo server of a test file (fixtures/emulator/echo-server.mjs), on a thread of its own:
 * started before the file's first test, ended after its last. Its `base` URL is there once the
 * tests run.
 */
export function echoServerPerFile(): { base: string } {
  const echo = { base: "" };
  let server: Worker | undefined;
  beforeAll(async () => {
    server = new Worker(resolve(import.meta.dirname, "../fixtures/emulator/echo-server.mjs"));
    const { port } = await new Promise<{ port: number }>((done) => server?.once("message", done));
    echo.base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await server?.terminate();
  });
  return echo;
}

/** How many minutes it is, at `epochMs`, until the next midnight in Los Angeles (whatever the season). */
export function minutesToPacificMidnight(epochMs: number): number {
  const [h, m] = new Intl.DateTimeFormat("en-GB", {
    timeZone: "America/Los_Angeles",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  })
    .format(epochMs)
    .split(":")
    .map(Number) as [number, number];
  return 24 * 60 - (h * 60 + m);
}
