/**
 * A synchronous HTTP transport for the add-on's client in Node tests: a helper thread does the
 * fetches while the calling thread waits on Atomics.wait, the way the emulated UrlFetchApp
 * blocks. The server it calls must run on yet another thread (startSandboxThread).
 */
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { TransportError } from "../../src/api/errors";
import type { HttpRequest, HttpResponse, Transport } from "../../src/api/transport";

const FETCHER = `
const { workerData } = require("node:worker_threads");
const { port, flag } = workerData;
port.on("message", async (requests) => {
  const answers = await Promise.all(requests.map(async (r) => {
    try {
      const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body });
      return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
    } catch (err) {
      return { failed: String(err && err.cause ? err.cause.message || err.cause.code : err) };
    }
  }));
  port.postMessage(answers);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});`;

export interface SyncTransport extends Transport {
  close(): Promise<void>;
}

export function syncTransport(timeoutMs = 20_000): SyncTransport {
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(FETCHER, {
    eval: true,
    workerData: { port: port2, flag },
    transferList: [port2],
  });
  worker.unref();
  const sendAll = (requests: readonly HttpRequest[]): HttpResponse[] => {
    Atomics.store(flag, 0, 0);
    port1.postMessage(requests);
    if (Atomics.wait(flag, 0, 0, timeoutMs) === "timed-out") {
      throw new TransportError(`Timeout: ${requests[0]?.url ?? ""}`);
    }
    const answers = receiveMessageOnPort(port1)?.message as Array<HttpResponse | { failed: string }>;
    return answers.map((a, i) => {
      if ("failed" in a) throw new TransportError(`no answer from ${requests[i]?.url}: ${a.failed}`);
      return a;
    });
  };
  return {
    send: (request) => sendAll([request])[0] as HttpResponse,
    sendAll,
    async close() {
      port1.close();
      await worker.terminate();
    },
  };
}
