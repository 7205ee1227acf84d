/**
 * Starting the sandbox: in this thread (`startSandbox`) or on a worker thread
 * (`startSandboxThread`), for callers that block their own thread while waiting for an HTTP
 * answer, as the emulated UrlFetchApp does with Atomics.wait.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { buildSync } from "esbuild";
import { createSandboxServer, type SandboxOptions, type SandboxServer } from "./server";

export type { SandboxOptions } from "./server";
export { DEFAULT_TOKEN } from "./server";

export interface RunningSandbox {
  /** Base URL of the API, ending in /v1 (what the add-on's base-URL setting takes). */
  url: string;
  /** Scheme, host and port, no path: /_sandbox routes hang from here. */
  origin: string;
  token: string;
  /** A user who may administer funds and manage reports. */
  adminId: number;
  /** A user with the management role only (custom statuses yes, fund writes no). */
  managerId: number;
  close(): Promise<void>;
}

/** The sandbox in this thread; `sandbox` gives direct access to the ledger and faults for checks. */
export async function startSandbox(
  options: SandboxOptions = {},
): Promise<RunningSandbox & { sandbox: SandboxServer }> {
  const sandbox = createSandboxServer(options);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    sandbox.server.once("error", reject);
    sandbox.server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = sandbox.server.address() as AddressInfo;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/v1`,
    origin,
    token: sandbox.token,
    adminId: sandbox.service.adminId,
    managerId: sandbox.service.managerId,
    sandbox,
    close() {
      closing ??= new Promise<void>((resolve) => {
        sandbox.server.close(() => resolve());
        sandbox.server.closeAllConnections();
      });
      return closing;
    },
  };
}

type WorkerMessage =
  | { type: "ready"; url: string; origin: string; token: string; adminId: number; managerId: number }
  | { type: "failed"; message: string }
  | { type: "closed" };

let workerFile: string | undefined;

/**
 * The worker's code bundled once per process with esbuild, so the worker needs no TypeScript
 * loader whatever runs the caller (tsx, vitest, plain node over built files).
 */
function workerEntry(): string {
  if (workerFile) return workerFile;
  const result = buildSync({
    entryPoints: [join(import.meta.dirname, "worker.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    logLevel: "silent",
  });
  const file = join(mkdtempSync(join(tmpdir(), "sandbox-worker-")), "worker.mjs");
  writeFileSync(file, result.outputFiles[0]?.text ?? "");
  workerFile = file;
  return file;
}

/** The same sandbox on a worker thread. `now` cannot cross threads: use `today` instead. */
export function startSandboxThread(options: Omit<SandboxOptions, "now"> = {}): Promise<RunningSandbox> {
  const worker = new Worker(workerEntry(), { workerData: options });
  return new Promise<RunningSandbox>((resolve, reject) => {
    const onExit = (code: number) =>
      reject(new Error(`sandbox worker exited with code ${code} before listening`));
    worker.once("error", reject);
    worker.once("exit", onExit);
    worker.once("message", (message: WorkerMessage) => {
      worker.off("exit", onExit);
      worker.off("error", reject);
      if (message.type === "failed") {
        void worker.terminate();
        reject(new Error(message.message));
        return;
      }
      if (message.type !== "ready") return;
      let closing: Promise<void> | undefined;
      const { type: _type, ...info } = message;
      resolve({
        ...info,
        close() {
          closing ??= new Promise<void>((done) => {
            worker.once("message", () => {
              void worker.terminate().then(() => done());
            });
            worker.once("exit", () => done());
            worker.postMessage("close");
          });
          return closing;
        },
      });
    });
  });
}
