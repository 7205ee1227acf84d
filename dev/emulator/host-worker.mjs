// Entry of the EmulatorHost's worker thread. Plain JavaScript: it registers the TypeScript
// loader (tsx) for this thread, whatever started the process (tsx, vitest, plain node), then
// loads the runtime.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { runHost } = await import("./host-runtime.ts");
runHost(workerData);
