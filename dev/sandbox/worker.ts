/** Entry of the sandbox's worker thread (see startSandboxThread in index.ts). */
import { parentPort, workerData } from "node:worker_threads";
import { startSandbox } from "./listen";
import type { SandboxOptions } from "./server";

const port = parentPort;
if (!port) throw new Error("worker.ts runs only as a worker thread");

startSandbox(workerData as SandboxOptions).then(
  (running) => {
    port.on("message", (message) => {
      if (message === "close") void running.close().then(() => port.postMessage({ type: "closed" }));
    });
    const { url, origin, token, adminId, managerId, companies } = running;
    port.postMessage({ type: "ready", url, origin, token, adminId, managerId, companies });
  },
  (err: unknown) =>
    port.postMessage({ type: "failed", message: err instanceof Error ? err.message : String(err) }),
);
