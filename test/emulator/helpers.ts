/** Shared set-up for the emulator's tests: an emulator over the fixture script. */
import { resolve } from "node:path";
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
