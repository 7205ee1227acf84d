/**
 * The threads executions started with emulator.startRun run on. Starting one costs CPU (the
 * thread and the emulation's modules, bundled once per process into one JavaScript file: about
 * 0.9 s of CPU a thread when each loaded tsx and transformed the modules itself), so a thread
 * whose execution ended is kept, idle, for the next one: each execution still gets a fresh node:vm
 * realm of its own (exec-runtime.ts), as a new thread would give it, and the state it shares
 * with others (spreadsheet, properties, caches, locks) lives on the emulator's thread. A thread
 * whose execution did not end by itself (the emulator was closed meanwhile, the thread failed)
 * is ended, never kept.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { bundledThreadFile } from "../shared/thread-file";

/** Idle threads kept at most; more are ended. */
const MAX_IDLE = 4;

/**
 * exec-thread.ts and what it imports, bundled once per process into a file of the temporary
 * folder named by its content (dev/shared/thread-file.ts). `import.meta.url` stays this
 * folder's, where url-fetch.ts finds http-worker.mjs.
 */
function entry(): string {
  const file = join(import.meta.dirname, "exec-thread.ts");
  return bundledThreadFile(file, "exec-thread", {
    "import.meta.url": JSON.stringify(pathToFileURL(file).href),
  });
}

const idle: Worker[] = [];

function forget(worker: Worker): void {
  const at = idle.indexOf(worker);
  if (at >= 0) idle.splice(at, 1);
}

/** A thread ready to run one execution: an idle one, or a new one. */
export function takeExecutionThread(): Worker {
  const kept = idle.pop();
  if (kept) {
    kept.ref();
    return kept;
  }
  const worker = new Worker(entry());
  // An idle thread that fails or stops is no longer offered.
  worker.on("error", () => forget(worker));
  worker.on("exit", () => forget(worker));
  return worker;
}

/**
 * Gives back a thread whose execution ended by itself (its outcome posted): it waits, idle and
 * not keeping the process alive, for the next execution.
 */
export function releaseExecutionThread(worker: Worker): void {
  if (idle.length >= MAX_IDLE) {
    void worker.terminate();
    return;
  }
  worker.unref();
  idle.push(worker);
}

/** How many idle threads are kept (for tests). */
export function idleExecutionThreads(): number {
  return idle.length;
}
