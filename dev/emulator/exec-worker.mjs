// Entry of an execution thread (emulator.startRun, exec-pool.ts). Plain JavaScript: it registers
// the TypeScript loader (tsx) for this thread, whatever started the process, then runs the
// executions it is sent, one after another, each in a fresh realm of its own (runExecution).
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { runExecution } = await import("./exec-runtime.ts");
parentPort.on("message", (start) => runExecution(start));
