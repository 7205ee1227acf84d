/**
 * What the emulated test files of two companies share: the built add-on in an emulator, against
 * the sandbox serving Alpha and Beta (the same fund ids, other data), and the sandbox's control
 * API for one of them.
 */
import type { Emulator } from "../../dev/emulator/index";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { buildWriteBack } from "../writeback/harness";
import { emulatorOf } from "./emulation";

/** The sandbox's sizes: its seed, and how many funds and reports each company holds. */
export interface Sizes {
  seed: number;
  funds: number;
  reports: number;
}

/**
 * The sandbox of two companies (`sizes`, today 2024-06-30) and an emulator of the write-back's
 * build used by `users`, whose UrlFetch may reach that sandbox and nothing else.
 */
export async function startTwoCompanies(
  users: string[],
  sizes: Sizes,
): Promise<{ sandbox: RunningSandbox; em: Emulator }> {
  const distDir = buildWriteBack();
  const sandbox = await startSandboxThread({ ...sizes, today: "2024-06-30", companies: 2 });
  return { sandbox, em: emulatorOf(distDir, users, { serviceUrl: sandbox.url }) };
}

/** The sandbox's control API for `company` (GET, or POST with `body`): its answer, read as JSON. */
export async function companyControl<T>(
  sandbox: RunningSandbox,
  path: string,
  company: "Alpha" | "Beta",
  body?: unknown,
): Promise<T> {
  const origin = sandbox.url.replace(/\/v1$/, "");
  const response = await fetch(`${origin}/_sandbox/${path}?company=${company}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}
