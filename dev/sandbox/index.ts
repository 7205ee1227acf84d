/**
 * Starting the sandbox: in this thread (`startSandbox`) or on a worker thread
 * (`startSandboxThread`), for callers that block their own thread while waiting for an HTTP
 * answer, as the emulated UrlFetchApp does with Atomics.wait.
 */
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { bundledThreadFile } from "../shared/thread-file";
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

/** The worker's code, bundled once per process into one file (dev/shared/thread-file.ts). */
function workerEntry(): string {
  return bundledThreadFile(join(import.meta.dirname, "worker.ts"), "sandbox-worker");
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
