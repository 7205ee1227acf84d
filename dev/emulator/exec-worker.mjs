// Entry of one execution's worker thread (emulator.startRun). Plain JavaScript: it registers the
// TypeScript loader (tsx) for this thread, whatever started the process, then runs the execution.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { runExecution } = await import("./exec-runtime.ts");
runExecution(workerData);
