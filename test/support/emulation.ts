/**
 * What the emulated test files that make a fresh emulator for each test share: the emulator of
 * the built add-on, the sandbox's control API, and the close of what a file opened.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { privateBuild } from "../../dev/bench/build";
import { createEmulator, type Emulator, type EmulatorOptions } from "../../dev/emulator/index";
import { servicePrefix } from "../../dev/emulator/settings";
import type { RunningSandbox } from "../../dev/sandbox/index";

/** Closes what a file opened, in order (the emulator, then the sandbox); what was not opened is passed over. */
export async function closeAll(...opened: ({ close(): Promise<void> } | undefined)[]): Promise<void> {
  for (const one of opened) await one?.close();
}

/**
 * A fresh emulator of the add-on built in `distDir`, used by `users`, in Santiago's time; with
 * `serviceUrl`, UrlFetch may reach that service (the sandbox) and nothing else. `options` add to
 * these or replace them.
 */
export function emulatorOf(
  distDir: string,
  users: string[],
  options: EmulatorOptions & { serviceUrl?: string } = {},
): Emulator {
  const { serviceUrl, ...rest } = options;
  return createEmulator({
    distDir,
    users,
    timeZone: "America/Santiago",
    ...(serviceUrl !== undefined ? { urlFetchAllowlist: [servicePrefix(serviceUrl)] } : {}),
    ...rest,
  });
}

/**
 * The add-on built once for the file (privateBuild) and a fresh emulator of it before each test,
 * handed to `made` (which keeps it and sets up more); the last one closed after the file.
 * `again(more)` closes the test's emulator and makes it anew with `more` options.
 */
export function emulatorPerTest(
  users: string[],
  options: EmulatorOptions & { serviceUrl?: string },
  made: (em: Emulator) => void,
): { again(more: EmulatorOptions): Promise<void> } {
  let dist: string | undefined;
  let em: Emulator | undefined;
  const renew = async (more: EmulatorOptions = {}) => {
    await em?.close();
    if (dist === undefined) throw new Error("the add-on is built in beforeAll");
    em = emulatorOf(dist, users, { ...options, ...more });
    made(em);
  };
  beforeAll(() => {
    dist = privateBuild();
  }, 120_000);
  beforeEach(() => renew());
  afterAll(() => closeAll(em));
  return { again: renew };
}

/**
 * A call to the sandbox's control API (`/_sandbox/<path>`; GET, or POST with `body`, unless
 * `method` says): its answer read as JSON (null when empty); a failure throws its status and text.
 */
export async function sandboxControl<T = unknown>(
  sandbox: RunningSandbox,
  path: string,
  body?: unknown,
  method = body === undefined ? "GET" : "POST",
): Promise<T> {
  const origin = sandbox.url.replace(/\/v1$/, "");
  const response = await fetch(`${origin}/_sandbox/${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}
