/**
 * UrlFetchApp: real HTTP, synchronous as in Apps Script. A dedicated worker thread
 * (http-worker.mjs) sends the requests while the script's thread waits with Atomics.wait, so the
 * server a script calls must run on another thread or process.
 *
 * Transport failures are thrown with Apps Script's messages, which `muteHttpExceptions` does not
 * suppress. Node's error codes map as follows:
 * - ENOTFOUND, EAI_AGAIN (name resolution) → "DNS error: <url>";
 * - ECONNREFUSED, EADDRNOTAVAIL, EHOSTUNREACH, ENETUNREACH, and ECONNRESET / EPIPE / a socket
 *   closed before the answer (a dropped connection) → "Address unavailable: <url>", the message
 *   Google's fetch gateway gives when it got no HTTP answer from the address; for a write this
 *   means "outcome unknown": the request may have reached the server;
 * - no answer within the fetch timeout (60 s, as Apps Script; settable for tests) → "Timeout: <url>".
 *
 * Redirects are followed here, hop by hop (up to 10), when `followRedirects` is not false, as
 * Apps Script does: the request's headers (Authorization included) go along; 307/308 keep the
 * method and body, other 3xx become a GET. With `followRedirects: false` the 3xx is the answer.
 *
 * The manifest's allowlist (`urlFetchWhitelist`, plus a local test deployment's extra prefixes)
 * is enforced before anything is sent, and again for every redirect hop: a URL outside it
 * throws Apps Script's "Request to <url> failed because the URL has not been whitelisted in
 * the script manifest." (README.md: the assumptions behind this).
 */
import { fileURLToPath } from "node:url";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { ServiceError } from "./errors";
import { waitForFlag } from "./flag-wait";
import { Fake } from "./realm";
import type { Implements } from "./typed";
import { FakeBlob, fromBytesOrString, toSignedBytes } from "./utilities";

export interface WireRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** base64 */
  body: string | undefined;
  followRedirects: boolean;
  validateHttpsCertificates: boolean;
  timeoutMs: number;
}

export type WireResult =
  | { ok: true; status: number; rawHeaders: string[]; body: ArrayBuffer }
  | { ok: false; code: string; message: string };

/** Blocking HTTP over a worker thread. */
export class SyncHttp {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private flag: Int32Array | undefined;
  private seq = 0;
  /**
   * fetchAll rounds sent, the real time the script's thread spent waiting on them, and the bytes
   * of the bodies received.
   */
  readonly waited = { batches: 0, blockedMs: 0, bytes: 0 };

  /**
   * `bandwidthMbit`: the speed of the link between the service and the script (none: loopback).
   * Each round then waits, after its answers arrived, for as long as moving its bodies over
   * that link takes: a round costs its latency plus its bytes ÷ bandwidth, as on a real network
   * where the bodies of one round share the link.
   */
  constructor(
    private readonly onBlock: () => void = () => {},
    private readonly bandwidthMbit?: number,
  ) {}

  private start(): void {
    if (this.worker) return;
    const { port1, port2 } = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    this.flag = new Int32Array(signal);
    this.port = port1;
    this.worker = new Worker(fileURLToPath(new URL("./http-worker.mjs", import.meta.url)), {
      workerData: { replyPort: port2, signal },
      transferList: [port2],
    });
    this.worker.unref();
    port1.unref();
  }

  /** Sends the requests concurrently and returns their results in request order. */
  send(requests: WireRequest[]): WireResult[] {
    const started = performance.now();
    try {
      const results = this.sendAndWait(requests);
      let bytes = 0;
      for (const result of results) if (result.ok) bytes += result.body.byteLength;
      this.waited.bytes += bytes;
      if (this.bandwidthMbit) this.transfer(bytes, this.bandwidthMbit);
      return results;
    } finally {
      this.waited.batches++;
      this.waited.blockedMs += performance.now() - started;
    }
  }

  /** Blocks for the time `bytes` take at `mbit` megabits per second. */
  private transfer(bytes: number, mbit: number): void {
    const until = performance.now() + (bytes * 8) / (mbit * 1000);
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let left = until - performance.now(); left > 0; left = until - performance.now()) {
      Atomics.wait(pause, 0, 0, Math.min(left, 50));
      this.onBlock();
    }
  }

  private sendAndWait(requests: WireRequest[]): WireResult[] {
    this.start();
    const flag = this.flag as Int32Array;
    this.seq++;
    const seq = this.seq;
    // When the batch left: Google's fetchAll sends its requests side by side, so each of them
    // left then, not when the HTTP thread got round to it (the sandbox's latency counts from it).
    this.worker?.postMessage({ seq, requests, sentAt: performance.timeOrigin + performance.now() });
    // A safety net: should the HTTP thread die, the script gets timeouts instead of hanging.
    const giveUpAt = Date.now() + Math.max(0, ...requests.map((r) => r.timeoutMs)) * 10 + 5_000;
    for (;;) {
      // Short waits let the host answer other things (the playground's reads) meanwhile.
      const answered = waitForFlag(flag, seq, {
        sliceMs: 50,
        onSlice: () => {
          this.onBlock();
          return Date.now() <= giveUpAt;
        },
      });
      if (!answered) {
        return requests.map(() => ({
          ok: false as const,
          code: "ETIMEDOUT",
          message: "no answer from the HTTP thread",
        }));
      }
      const received = receiveMessageOnPort(this.port as MessagePort);
      if (!received) continue;
      const reply = received.message as { seq: number; results: WireResult[] };
      // Answers of an execution stopped while waiting arrive late: they are dropped.
      if (reply.seq === seq) return reply.results;
    }
  }

  async close(): Promise<void> {
    this.port?.close();
    await this.worker?.terminate();
    this.worker = undefined;
  }
}

export interface FetchParams {
  method?: string;
  headers?: Record<string, string>;
  payload?: unknown;
  contentType?: string;
  muteHttpExceptions?: boolean;
  followRedirects?: boolean;
  validateHttpsCertificates?: boolean;
  escaping?: boolean;
}

export interface UrlFetchHost {
  http: SyncHttp;
  timeoutMs: number;
  /** Counts one request against the daily quota and the stop points; may stop the execution. */
  beforeRequest(url: string): void;
  /** Called once a request was answered, before the script sees the answer. */
  afterResponse(): void;
  /** How many of `count` requests may be sent before a stop point (count if none). */
  sendableCount(count: number): number;
  scriptId: string;
  /** The allowlist prefixes in force, or null when there is none (a manifest without one). */
  allowlist(): readonly string[] | null;
}

const MAX_REDIRECTS = 10;

/** A prefix of the allowlist as Apps Script reads it: URL, scheme, host ("*." for subdomains), port, path. */
function prefixParts(prefix: string): { url: URL; wildcard: boolean } | null {
  const wildcard = /^[a-z]+:\/\/\*\./i.test(prefix);
  try {
    return { url: new URL(wildcard ? prefix.replace("://*.", "://") : prefix), wildcard };
  } catch {
    return null;
  }
}

/**
 * Whether `url` falls under one of `prefixes`: same scheme, host (a "*." prefix matches
 * subdomains), port, and a path equal to the prefix's or below it ("/foo" covers "/foo",
 * "/foo/bar", "/foo?x", not "/foobar"); path matching is case-sensitive. A URL with user info
 * matches nothing.
 */
export function manifestAllows(url: string, prefixes: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.username !== "" || u.password !== "") return false;
  return prefixes.some((prefix) => {
    const p = prefixParts(prefix);
    if (!p) return false;
    if (p.url.username !== "" || p.url.protocol !== u.protocol || p.url.port !== u.port) return false;
    const host = p.url.hostname;
    if (p.wildcard ? !u.hostname.endsWith(`.${host}`) : u.hostname !== host) return false;
    const base = p.url.pathname;
    if (u.pathname === base) return true;
    return u.pathname.startsWith(base) && (base.endsWith("/") || u.pathname.charAt(base.length) === "/");
  });
}

/** Apps Script's refusal of a URL outside the allowlist (the query shows as a bare "?"). */
export function notAllowedMessage(url: string): string {
  const q = url.search(/[?#]/);
  const shown = q < 0 ? url : `${url.slice(0, q)}${url.charAt(q) === "?" ? "?" : ""}`;
  return `Request to ${shown} failed because the URL has not been whitelisted in the script manifest.`;
}

/**
 * The longest URL UrlFetch sends, in bytes: Google's quotas page gives "URL Fetch URL length"
 * as 2 KB; public reports give 2,082 characters. The emulation takes the stricter, 2,048 bytes
 * (docs/real-apps-script.md).
 */
export const MAX_URL_BYTES = 2048;

function transportMessage(code: string, url: string): string {
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `DNS error: ${url}`;
  if (code === "ETIMEDOUT") return `Timeout: ${url}`;
  return `Address unavailable: ${url}`;
}

function originOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return url;
  }
}

const TRUNCATE_AT = 100;

export class FakeHTTPResponse
  extends Fake
  implements
    Implements<
      GoogleAppsScript.URL_Fetch.HTTPResponse,
      "getResponseCode" | "getContentText" | "getContent" | "getHeaders" | "getAllHeaders" | "getBlob"
    >
{
  static override readonly service = "HTTPResponse";
  constructor(
    private readonly status: number,
    private readonly rawHeaders: string[],
    private readonly body: Buffer,
  ) {
    super();
  }
  getResponseCode(): number {
    return this.status;
  }
  getContentText(charset?: string): string {
    return this.body.toString(charset && /ascii|iso-8859-1|latin/i.test(charset) ? "latin1" : "utf8");
  }
  getContent(): number[] {
    return toSignedBytes(this.body);
  }
  /** Header names as the server sent them; a repeated header keeps its last value. */
  getHeaders(): object {
    const out: Record<string, string> = {};
    for (let i = 0; i < this.rawHeaders.length; i += 2)
      out[this.rawHeaders[i] as string] = this.rawHeaders[i + 1] as string;
    return out;
  }
  /** Like getHeaders, but a repeated header gives an array of its values. */
  getAllHeaders(): object {
    const out: Record<string, string | string[]> = {};
    for (let i = 0; i < this.rawHeaders.length; i += 2) {
      const name = this.rawHeaders[i] as string;
      const value = this.rawHeaders[i + 1] as string;
      const prev = out[name];
      out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    }
    return out;
  }
  getBlob(): FakeBlob {
    const type = Object.entries(this.getHeaders()).find(([k]) => k.toLowerCase() === "content-type")?.[1] as
      | string
      | undefined;
    return new FakeBlob(Buffer.from(this.body), type ?? null);
  }
}

function headerOf(raw: string[], name: string): string | undefined {
  for (let i = 0; i < raw.length; i += 2) if (raw[i]?.toLowerCase() === name) return raw[i + 1];
  return undefined;
}

function formEncode(payload: Record<string, unknown>): string {
  return Object.entries(payload)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join("&");
}

export class FakeUrlFetchApp
  extends Fake
  implements Implements<GoogleAppsScript.URL_Fetch.UrlFetchApp, "fetch" | "fetchAll" | "getRequest">
{
  static override readonly service = "UrlFetchApp";
  constructor(private readonly host: UrlFetchHost) {
    super();
  }

  private toWire(url: unknown, params: FetchParams | undefined): WireRequest & { mute: boolean } {
    const text = String(url);
    if (!/^https?:\/\/[^/\s]+/i.test(text)) throw new ServiceError(`Invalid argument: ${text}`);
    if (Buffer.byteLength(text, "utf8") > MAX_URL_BYTES) throw new ServiceError("URL Length Exceeded");
    const p = params ?? {};
    const method = String(p.method ?? "get").toUpperCase();
    const headers: Record<string, string> = {
      "User-Agent": `Mozilla/5.0 (compatible; Google-Apps-Script; beanserver; +https://script.google.com; id: ${this.host.scriptId})`,
    };
    const given = p.headers ?? {};
    if (Object.keys(given).length > 100) throw new ServiceError("Too many headers: at most 100 are allowed.");
    for (const [k, v] of Object.entries(given)) headers[k] = String(v);
    let body: Buffer | undefined;
    if (p.payload !== undefined && p.payload !== null && method !== "GET") {
      const payload = p.payload;
      if (typeof payload === "string" || Array.isArray(payload) || payload instanceof FakeBlob) {
        body = fromBytesOrString(payload);
      } else if (typeof payload === "object" && typeof (payload as FakeBlob).getBytes === "function") {
        body = fromBytesOrString(payload);
      } else {
        body = Buffer.from(formEncode(payload as Record<string, unknown>), "utf8");
      }
      const hasType = Object.keys(headers).some((k) => k.toLowerCase() === "content-type");
      if (!hasType) headers["Content-Type"] = p.contentType ?? "application/x-www-form-urlencoded";
    } else if (p.contentType) {
      headers["Content-Type"] = p.contentType;
    }
    return {
      url: text,
      method,
      headers,
      body: body?.toString("base64"),
      followRedirects: p.followRedirects !== false,
      validateHttpsCertificates: p.validateHttpsCertificates !== false,
      timeoutMs: this.host.timeoutMs,
      mute: p.muteHttpExceptions === true,
    };
  }

  private answer(request: WireRequest & { mute: boolean }, result: WireResult): FakeHTTPResponse {
    if (!result.ok && result.code === "ENOTALLOWED") throw new ServiceError(result.message);
    if (!result.ok) throw new ServiceError(transportMessage(result.code, request.url));
    const body = Buffer.from(result.body);
    if (result.status >= 400 && !request.mute) {
      const text = body.toString("utf8");
      const truncated = text.length > TRUNCATE_AT ? `${text.slice(0, TRUNCATE_AT)}...` : text;
      throw new ServiceError(
        `Request failed for ${originOf(request.url)} returned code ${result.status}. Truncated server response: ${truncated} (use muteHttpExceptions option to examine full response)`,
      );
    }
    return new FakeHTTPResponse(result.status, result.rawHeaders, body);
  }

  /** Throws Apps Script's refusal when `url` is outside the allowlist in force. */
  private checkAllowed(url: string): void {
    const list = this.host.allowlist();
    if (list && !manifestAllows(url, list)) throw new ServiceError(notAllowedMessage(url));
  }

  /**
   * Sends a batch and follows the redirects of those that ask for it, hop by hop; a hop
   * outside the allowlist ends that request with Apps Script's refusal, sending nothing there.
   */
  private sendFollowing(batch: WireRequest[]): WireResult[] {
    const current = [...batch];
    const results = this.host.http.send(current);
    for (let hop = 0; ; hop++) {
      const next: { index: number; request: WireRequest }[] = [];
      results.forEach((result, index) => {
        const request = current[index] as WireRequest;
        if (!result.ok || !request.followRedirects || result.status < 300 || result.status > 399) return;
        const location = headerOf(result.rawHeaders, "location");
        if (!location) return;
        if (hop >= MAX_REDIRECTS) {
          results[index] = { ok: false, code: "ETOOMANYREDIRECTS", message: "too many redirects" };
          return;
        }
        let url: string;
        try {
          url = new URL(location, request.url).toString();
        } catch {
          // A Location that is no URL: nothing to follow, the 3xx is the answer.
          return;
        }
        const list = this.host.allowlist();
        if (list && !manifestAllows(url, list)) {
          results[index] = { ok: false, code: "ENOTALLOWED", message: notAllowedMessage(url) };
          return;
        }
        const keepBody = result.status === 307 || result.status === 308;
        next.push({
          index,
          request: {
            ...request,
            url,
            method: keepBody ? request.method : "GET",
            body: keepBody ? request.body : undefined,
          },
        });
      });
      if (next.length === 0) return results;
      const answers = this.host.http.send(next.map((n) => n.request));
      next.forEach((n, k) => {
        current[n.index] = n.request;
        results[n.index] = answers[k] as WireResult;
      });
    }
  }

  private sendAll(requests: Array<WireRequest & { mute: boolean }>): FakeHTTPResponse[] {
    // Apps Script refuses a URL outside the allowlist before anything of the batch is sent.
    for (const r of requests) this.checkAllowed(r.url);
    const sendable = this.host.sendableCount(requests.length);
    const batch = requests.slice(0, sendable);
    for (const r of batch) this.host.beforeRequest(r.url);
    const results = batch.length > 0 ? this.sendFollowing(batch.map(({ mute: _m, ...wire }) => wire)) : [];
    this.host.afterResponse();
    if (sendable < requests.length) this.host.beforeRequest(requests[sendable]?.url ?? "");
    // One transport failure throws for the whole batch, as fetchAll does.
    const failed = results.findIndex((r) => !r.ok);
    if (failed >= 0)
      this.answer(requests[failed] as WireRequest & { mute: boolean }, results[failed] as WireResult);
    return results.map((result, i) => this.answer(requests[i] as WireRequest & { mute: boolean }, result));
  }

  fetch(url: string, params?: GoogleAppsScript.URL_Fetch.URLFetchRequestOptions): FakeHTTPResponse {
    return this.sendAll([this.toWire(url, params as FetchParams)])[0] as FakeHTTPResponse;
  }

  fetchAll(requests: Array<string | GoogleAppsScript.URL_Fetch.URLFetchRequest>): FakeHTTPResponse[] {
    if (!Array.isArray(requests)) throw new ServiceError("Invalid argument: requests");
    return this.sendAll(
      requests.map((r) =>
        typeof r === "string" ? this.toWire(r, undefined) : this.toWire(r.url, r as unknown as FetchParams),
      ),
    );
  }

  getRequest(url: string, params?: GoogleAppsScript.URL_Fetch.URLFetchRequestOptions): object {
    const wire = this.toWire(url, params as FetchParams);
    return {
      url: wire.url,
      method: wire.method.toLowerCase(),
      headers: wire.headers,
      payload: wire.body === undefined ? "" : Buffer.from(wire.body, "base64").toString("utf8"),
      contentType: wire.headers["Content-Type"] ?? null,
      followRedirects: wire.followRedirects,
      validateHttpsCertificates: wire.validateHttpsCertificates,
      muteHttpExceptions: wire.mute,
    };
  }
}
