/**
 * One execution on a worker thread of its own (emulator.startRun), as Google runs executions
 * side by side. The script gets a fresh node:vm realm as on the calling thread; the services
 * holding shared state (SpreadsheetApp, PropertiesService, CacheService, LockService,
 * ScriptApp, Session, MailApp) are proxies whose calls go to the emulator's thread and block
 * this one until answered (Atomics.wait), so a lock wait blocks only this execution.
 * UrlFetchApp, Utilities, HtmlService and Logger run here: a slow request blocks only this
 * thread; their checks (AuthMode, scopes, budget, quota, stop points) and effects on shared
 * things (sleep on the emulator clock, log lines) still go through the emulator.
 */

import vm from "node:vm";
import { type MessagePort, receiveMessageOnPort } from "node:worker_threads";
import { sharedClockNow } from "./clock";
import { MESSAGES, ServiceError } from "./errors";
import type { RunKind } from "./execution";
import { waitForFlag } from "./flag-wait";
import { escapeHtml, FakeHtmlService, templateToCode } from "./html-service";
import { FakeLogger, type LogEntry, makeConsole } from "./logging";
import { Bridge, callInRealm, restrictToAppsScriptRuntime, type ScriptRealm } from "./realm";
import { datePreludeIn, type ScriptZone, scriptZone } from "./script-date";
import { isCallableFromPage, transportResult } from "./script-run";
import { FakeUrlFetchApp, SyncHttp } from "./url-fetch";
import { FakeUtilities } from "./utilities";
import { type ClassInfo, RemoteObjects, type Wire, type WireError } from "./wire";

export interface ExecutionStart {
  port: MessagePort;
  /** Flipped by the emulator's thread when an answer is waiting on `port`. */
  signal: SharedArrayBuffer;
  /** The emulator clock's offset (EmulatorClock.shared). */
  clock: SharedArrayBuffer;
  source: string;
  html: Record<string, string>;
  scriptTimeZone: string;
  scriptId: string;
  fetchTimeoutMs: number;
  allowlist: string[] | null;
  functionName: string;
  kind: RunKind;
  deadline: number;
  args: Wire[];
  /** The remote services' handles, by global name. */
  services: Record<string, Wire>;
  classes: Record<string, ClassInfo>;
}

/** A request to the emulator's thread. */
export type ExecutionRequest =
  | { kind: "call"; id: number; method: string; args: Wire[] }
  | { kind: "before"; service: string; method: string }
  | { kind: "beforeRequest" }
  | { kind: "afterResponse" }
  | { kind: "sendable"; count: number }
  | { kind: "sleep"; ms: number }
  | { kind: "log"; entry: Omit<LogEntry, "at" | "user"> };

export type ExecutionReply =
  | { seq: number; ok: true; value: Wire; classes: Record<string, ClassInfo> }
  | { seq: number; ok: false; error: WireError };

export type ExecutionEnd =
  | { kind: "done"; ok: true; result: Wire; classes?: undefined }
  | { kind: "done"; ok: false; name: string; message: string; code?: string };

/**
 * The bundle compiled once per thread and source: a compiled script runs in any realm, and each
 * execution evaluates it afresh in its own (its top level runs again, as on Google).
 */
let compiled: { source: string; script: vm.Script } | undefined;

function compiledBundle(source: string): vm.Script {
  if (compiled?.source !== source)
    compiled = { source, script: new vm.Script(source, { filename: "addon.js" }) };
  return compiled.script;
}

/**
 * The thread's blocking HTTP (its own thread, started on the first request), kept for the
 * executions the thread runs one after another, as the emulator's thread keeps one for `run`:
 * it holds no state of an execution (its kept-alive connections carry none, a late answer to
 * an earlier request is dropped by its number).
 */
let http: SyncHttp | undefined;

function threadHttp(): SyncHttp {
  if (!http) http = new SyncHttp();
  return http;
}

export function runExecution(start: ExecutionStart): void {
  const { port } = start;
  const flag = new Int32Array(start.signal);
  const now = sharedClockNow(start.clock);
  let seq = 0;
  let objects: RemoteObjects | undefined;
  let realm: ScriptRealm | undefined;

  const ask = (request: ExecutionRequest): Wire => {
    seq++;
    port.postMessage({ seq, ...request });
    for (;;) {
      waitForFlag(flag, seq);
      const received = receiveMessageOnPort(port);
      if (!received) continue;
      const reply = received.message as ExecutionReply;
      if (reply.seq !== seq) continue;
      if (reply.ok) {
        objects?.learn(reply.classes);
        return reply.value;
      }
      // A service error as the script sees it: an Error of its realm named as on Google.
      const error = realm ? new realm.Error(reply.error.message) : new Error(reply.error.message);
      error.name = reply.error.name;
      throw error;
    }
  };

  const finish = (end: ExecutionEnd): void => {
    port.postMessage(end);
  };

  try {
    const context = vm.createContext({}, { name: "Apps Script", microtaskMode: "afterEvaluate" });
    restrictToAppsScriptRuntime(context);
    const prelude = datePreludeIn(context) as (zone: ScriptZone) => ScriptRealm;
    realm = prelude(scriptZone(start.scriptTimeZone, now));
    const record = (entry: Omit<LogEntry, "at" | "user">) => {
      ask({ kind: "log", entry });
    };
    const bridge = new Bridge(realm, {
      beforeCall: (service, method) => {
        ask({ kind: "before", service, method });
      },
      onError: (error) => error,
    });
    objects = new RemoteObjects(
      realm,
      (id, method, args) => ask({ kind: "call", id, method, args }),
      (v) => bridge.fakeOf(v),
    );
    objects.learn(start.classes);
    const local: Record<string, object> = {
      Utilities: new FakeUtilities({ sleep: (ms) => ask({ kind: "sleep", ms }) }),
      HtmlService: new FakeHtmlService({
        readHtmlFile: (name) => start.html[name],
        compileTemplate: (source) => {
          const fn = vm.runInContext(templateToCode(source), context) as (
            data: object,
            escapeText: (s: unknown) => string,
          ) => string;
          return (data) => fn(data, (s) => escapeHtml(String(s)));
        },
      }),
      Logger: new FakeLogger({ record }),
      UrlFetchApp: new FakeUrlFetchApp({
        http: threadHttp(),
        timeoutMs: start.fetchTimeoutMs,
        scriptId: start.scriptId,
        beforeRequest: () => {
          ask({ kind: "beforeRequest" });
        },
        afterResponse: () => {
          ask({ kind: "afterResponse" });
        },
        sendableCount: (count) => ask({ kind: "sendable", count }) as number,
        allowlist: () => start.allowlist,
      }),
    };
    const globals = context as Record<string, unknown>;
    for (const [name, handle] of Object.entries(start.services)) globals[name] = objects.decode(handle);
    for (const [name, service] of Object.entries(local)) globals[name] = bridge.wrap(service);
    globals.console = makeConsole({ record });
    const remaining = () => Math.max(1, Math.ceil(start.deadline - now()));
    const before = new Set(Object.getOwnPropertyNames(context));
    compiledBundle(start.source).runInContext(context, { timeout: remaining() });
    const callable =
      !before.has(start.functionName) &&
      typeof globals[start.functionName] === "function" &&
      (start.kind !== "script.run" || isCallableFromPage(start.functionName));
    if (!callable) {
      if (start.kind === "script.run")
        throw new TypeError(`google.script.run.${start.functionName} is not a function`);
      throw new ServiceError(`Script function not found: ${start.functionName}`);
    }
    Object.defineProperty(globals, "__emulatorCall", {
      value: { name: start.functionName, args: objects.decode(start.args) },
      configurable: true,
      enumerable: false,
      writable: true,
    });
    const result = callInRealm(context, remaining());
    const value = start.kind === "script.run" ? transportResult(result) : result;
    finish({ kind: "done", ok: true, result: objects.encode(value) });
  } catch (err) {
    const e = err as { name?: unknown; message?: unknown; code?: unknown } | undefined;
    if (e && e.code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      finish({ kind: "done", ok: false, name: "Exception", message: MESSAGES.timeout, code: String(e.code) });
    } else if (e && typeof e === "object" && "message" in e) {
      finish({ kind: "done", ok: false, name: String(e.name ?? "Error"), message: String(e.message) });
    } else {
      finish({ kind: "done", ok: false, name: "Error", message: String(err) });
    }
  }
}
