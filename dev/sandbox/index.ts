/**
 * Starting the sandbox: in this thread (`startSandbox`) or on a worker thread
 * (`startSandboxThread`), for callers that block their own thread while waiting for an HTTP
 * answer, as the emulated UrlFetchApp does with Atomics.wait.
 */
import { createHash } from "node:crypto";
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { threadId, Worker } from "node:worker_threads";
import { buildSync } from "esbuild";
import type { RunningCompany, RunningSandbox } from "./listen";
import type { SandboxOptions } from "./server";

export type { CompanyOptions } from "./companies";
export { type RunningCompany, type RunningSandbox, startSandbox } from "./listen";
export type { SandboxOptions } from "./server";
export { DEFAULT_TOKEN } from "./server";

type WorkerMessage =
  | {
      type: "ready";
      url: string;
      origin: string;
      token: string;
      adminId: number;
      managerId: number;
      companies: RunningCompany[];
    }
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
  const code = result.outputFiles[0]?.text ?? "";
  // Named by content: processes share one file, and a changed sandbox gets a new one.
  const file = join(
    tmpdir(),
    `sandbox-worker-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`,
  );
  if (!existsSync(file)) {
    // Written aside and renamed: a process starting a sandbox meanwhile (test files run side by
    // side) never loads half a file.
    const partial = `${file}.${process.pid}.${threadId}.partial`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  workerFile = file;
  return file;
}

/** The same sandbox on a worker thread. `now` cannot cross threads: use `today` instead. */
export function startSandboxThread(options: Omit<SandboxOptions, "now"> = {}): Promise<RunningSandbox> {
  const worker = new Worker(workerEntry(), { workerData: options });
  // A forgotten close() must not keep the caller's process alive.
  worker.unref();
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
