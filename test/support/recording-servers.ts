/**
 * A server on 127.0.0.1 that records every request it gets (the Authorization header
 * included), and a second one that redirects every request to it: a server another editor
 * controls, and a service that points elsewhere. Both run on a worker thread, since the
 * emulated UrlFetchApp blocks the test's thread while it waits.
 */
import { resolve } from "node:path";
import { Worker } from "node:worker_threads";

export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  authorization: string | null;
}

export interface RecordingServers {
  /** http://127.0.0.1:<port> of the recorder. */
  recorder: string;
  /** http://127.0.0.1:<port> of the redirector (to the same path on the recorder). */
  redirector: string;
  /** What reached the recorder so far. */
  records(): Promise<RecordedRequest[]>;
  clear(): Promise<void>;
  close(): Promise<void>;
}

/** Starts both servers; `status` is the redirector's (302 by default). */
export async function startRecordingServers(status = 302): Promise<RecordingServers> {
  const worker = new Worker(resolve(import.meta.dirname, "../fixtures/emulator/recording-servers.mjs"), {
    workerData: { status },
  });
  const ports = await new Promise<{ recorder: number; redirector: number }>((done, fail) => {
    worker.once("message", done);
    worker.once("error", fail);
  });
  const ask = <T>(message: string) =>
    new Promise<T>((done) => {
      worker.once("message", done);
      worker.postMessage(message);
    });
  return {
    recorder: `http://127.0.0.1:${ports.recorder}`,
    redirector: `http://127.0.0.1:${ports.redirector}`,
    records: () => ask<RecordedRequest[]>("records"),
    clear: async () => {
      await ask("clear");
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
