// The thread that does UrlFetchApp's HTTP. The script's thread posts a batch and blocks on
// Atomics.wait; this thread sends the requests concurrently, posts the results (in request
// order) on the reply port, then flips the shared flag. One request each: redirects are
// followed by the script's side (url-fetch.ts), which checks every hop against the allowlist.
// Plain JavaScript, so it loads without any TypeScript loader in every runner (tsx, vitest,
// plain node).
import http from "node:http";
import https from "node:https";
import { parentPort, workerData } from "node:worker_threads";
import { isLoopbackHost } from "./loopback.mjs";

const { replyPort, signal } = workerData;
const flag = new Int32Array(signal);

// Connections are kept open between requests, as Google's fetchers keep theirs: a batch of 25
// reads then costs 25 requests, not 25 connections made one after another (the later ones
// reaching the service later, which lengthened every round). A socket the server dropped, or
// that a request's time limit destroyed, leaves the pool and is never used again. An idle one is
// given up after IDLE_MS: a server closes an idle connection after its own keep-alive time (the
// sandbox's is 2 s, Node's default 5 s), and a request written into a connection the server is
// closing fails as if dropped. Node 20's agent reads a server's "Keep-Alive: timeout=" hint only
// to shorten a time it was given, so it is given one.
const IDLE_MS = 1_000;
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, timeout: IDLE_MS }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, timeout: IDLE_MS }),
};

function once(request, sentAt) {
  return new Promise((resolve) => {
    let settled = false;
    const done = (result) => {
      if (!settled) {
        settled = true;
        resolve(result);
      }
    };
    let url;
    try {
      url = new URL(request.url);
    } catch {
      done({ ok: false, code: "EINVALIDURL", message: "invalid url" });
      return;
    }
    const lib = url.protocol === "https:" ? https : http;
    const body = request.body === undefined ? undefined : Buffer.from(request.body, "base64");
    const headers = { ...request.headers };
    if (body !== undefined) headers["Content-Length"] = String(body.length);
    // When the call left (its batch, from the script's thread), for the sandbox: its latency
    // counts from then, as a real call's does (SENT_AT_HEADER in dev/sandbox/server.ts). Only
    // to a server on this machine, where the sandbox runs: a service elsewhere gets the
    // headers Google would send, nothing more.
    if (isLoopbackHost(url.hostname)) headers["X-Sandbox-Sent-At"] = sentAt.toFixed(3);
    const req = lib.request(
      url,
      {
        method: request.method,
        headers,
        rejectUnauthorized: request.validateHttpsCertificates !== false,
        // A request that skips certificate checks gets a connection of its own: a pooled
        // connection made without the check must not carry a request that asks for it.
        agent: request.validateHttpsCertificates === false ? false : agents[url.protocol],
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          // An ArrayBuffer of its own, moved to the script's thread rather than copied.
          const whole = Buffer.concat(chunks);
          const body = whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength);
          done({ ok: true, status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body });
        });
        res.on("error", (err) => done({ ok: false, code: err.code ?? "ECONNRESET", message: err.message }));
        res.on("aborted", () => done({ ok: false, code: "ECONNRESET", message: "response aborted" }));
      },
    );
    req.setTimeout(request.timeoutMs, () => {
      done({ ok: false, code: "ETIMEDOUT", message: "timeout" });
      req.destroy();
    });
    req.on("error", (err) => done({ ok: false, code: err.code ?? "ECONNRESET", message: err.message }));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

parentPort.on("message", async (message) => {
  const sentAt = message.sentAt ?? performance.timeOrigin + performance.now();
  const results = await Promise.all(message.requests.map((request) => once(request, sentAt)));
  const bodies = results.flatMap((r) => (r.ok ? [r.body] : []));
  replyPort.postMessage({ seq: message.seq, results }, bodies);
  // The flag only grows: the late answer of a request its thread gave up on (a stopped
  // execution's) must not set it back under the number a newer answer already stored.
  for (let seen = Atomics.load(flag, 0); seen < message.seq; ) {
    const was = Atomics.compareExchange(flag, 0, seen, message.seq);
    if (was === seen) break;
    seen = was;
  }
  Atomics.notify(flag, 0);
});
