/**
 * The control API: one emulated spreadsheet served over local HTTP, for tests, the playground
 * and outside checks. Routes (JSON in and out; errors as { "error": "<field>: <rule>" } with 400):
 *
 *   GET  /control/info            {apiUrl, token, adminId, user, users, timeZone, addOnName, spreadsheetName,
 *                                 companies: [{name, apiUrl, token, adminId}]} (apiUrl, token, adminId: the
 *                                 first company's; every token as ••••last4 unless `revealToken`)
 *   GET  /control/menu            the add-on menu built by onOpen: [{label, function}]
 *   POST /control/run             {function, args?, user?, as?} → {ok: true, result} | {ok: false, error}
 *   GET  /control/sheets          [{name, values, formulas, numberFormats, frozenRows, notes, charts, …}] (dates as ISO)
 *   GET  /control/display         [{name, display}]: the text each cell shows through its number format
 *   POST /control/cells           {sheet, range, values, user?}: typed like a user (strings parsed as
 *                                 typed input); runs the script's onEdit simple trigger if it has one
 *   POST /control/select          {sheet, range} ("A2:C2" or several: "A2:C2,A5:C7")
 *   POST /control/answers         {answers: ["YES", {button: "OK", text: "…"}]} for the next alerts and prompts
 *                                 (in interactive mode the first one answers the dialog the script waits on)
 *   POST /control/triggers/fire   {user?, due?}: fires the installed time-driven triggers (all, or only due ones)
 *   GET  /control/properties      user, document and script properties (secret-looking keys masked)
 *   GET  /control/logs            {logs, counters, executions, mails, triggers}
 *   GET  /control/ui              {menus, addonMenu, sidebar, dialog, toasts, dialogs, waiting}
 *   GET  /control/sidebar         the current sidebar's HTML (text/html), 404 when none
 *   GET  /control/dialog          the current dialog's HTML
 *   POST /control/ui/close        {kind?: "sidebar" | "dialog"}: google.script.host.close()
 *   GET  /control/clock           {now}: the emulator clock (ISO)
 *   POST /control/clock           {advanceMs}: moves it forward (trigger schedules, cache expiry)
 *   POST /control/reset           a new spreadsheet and empty stores; onOpen runs again
 *
 * `startControlServer({ target, staticDir, routes })`: `target` is an EmulatorHost (the
 * emulator on a worker thread, as the playground uses) or `directTarget(emulator)` (same
 * thread: fine for tests whose servers run elsewhere); `staticDir` serves a page for other
 * paths ("/" → index.html); `routes` handles extra paths first. Every request first passes
 * local-only.ts (Host, Origin, JSON bodies): the server is a tool of this machine only.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve, sep } from "node:path";
import { z } from "zod";
import { EmulatorUsageError, ServiceError } from "./errors";
import type { DialogAnswer, Emulator, RunKind, RunOutcome } from "./index";
import { isLoopbackHost, refusalOf } from "./local-only";
import {
  displaySnapshot,
  logsSnapshot,
  maskSecret,
  propertiesSnapshot,
  type SheetSnapshot,
  sheetsSnapshot,
  uiSnapshot,
} from "./snapshots";

/** One company the spreadsheet was set up with, and the default user's token and IdAdmin for it. */
export interface CompanyInfo {
  /** Its name in the spreadsheet; "" for the unnamed company of a one-company spreadsheet. */
  name: string;
  apiUrl: string;
  token: string;
  adminId: number | string | null;
}

export interface ControlInfo {
  apiUrl: string;
  token: string;
  adminId: number | string | null;
  user: string;
  users: string[];
  timeZone: string;
  addOnName: string;
  spreadsheetName: string;
  /** Every company, the first first (its apiUrl, token and adminId are the fields above). */
  companies: CompanyInfo[];
}

/** What the control server drives: an emulator in this thread or on a worker. */
export interface ControlTarget {
  info(): Promise<ControlInfo>;
  menu(): Promise<Array<{ label: string; function: string }>>;
  run(functionName: string, args: unknown[], user?: string, as?: RunKind): Promise<RunOutcome>;
  sheets(): Promise<SheetSnapshot[]>;
  display(): Promise<Array<{ name: string; display: string[][] }>>;
  setCells(sheet: string, range: string, values: unknown[][], user?: string): Promise<void>;
  select(sheet: string, range: string): Promise<void>;
  answers(answers: DialogAnswer[]): Promise<void>;
  fireTriggers(options: { user?: string; due?: boolean }): Promise<unknown[]>;
  properties(): Promise<unknown>;
  logs(): Promise<unknown>;
  ui(): Promise<ReturnType<typeof uiSnapshot>>;
  closeUi(kind: "sidebar" | "dialog" | undefined): Promise<void>;
  reset(): Promise<void>;
  /** Moves the emulator clock forward (schedules, cache expiry); resolves to the new time. */
  advanceTime(ms: number): Promise<string>;
}

/** Connection details reported by /control/info. */
export interface ConnectionInfo {
  /** The first company's service, token and IdAdmin. */
  apiUrl?: string;
  token?: string;
  adminId?: number | string;
  addOnName?: string;
  /**
   * Every company, the first first (its details as above), when the spreadsheet has several;
   * absent: one unnamed company at `apiUrl`, or none without one.
   */
  companies?: Array<{ name: string; apiUrl: string; token: string; adminId: number | string }>;
}

/** The companies /control/info lists for a connection. */
export function companiesOf(connection: ConnectionInfo): CompanyInfo[] {
  if (connection.companies && connection.companies.length > 0)
    return connection.companies.map((c) => ({
      name: c.name,
      apiUrl: c.apiUrl,
      token: c.token,
      adminId: c.adminId,
    }));
  if (!connection.apiUrl) return [];
  return [
    {
      name: "",
      apiUrl: connection.apiUrl,
      token: connection.token ?? "",
      adminId: connection.adminId ?? null,
    },
  ];
}

/** How a run of `functionName` is started: menu items run as menu clicks, the rest as google.script.run. */
export function runKindFor(em: Emulator, functionName: string, as?: RunKind): RunKind {
  if (as) return as;
  return em.ui.addonMenuItems().some((item) => item.function === functionName) ? "menu" : "script.run";
}

/** Drives an emulator of this thread; what POST /control/reset should also do is `afterReset`. */
export function directTarget(
  em: Emulator,
  connection: ConnectionInfo = {},
  afterReset: (em: Emulator) => void = (e) => {
    e.open();
  },
): ControlTarget {
  return {
    info: async () => ({
      apiUrl: connection.apiUrl ?? "",
      token: connection.token ?? "",
      adminId: connection.adminId ?? null,
      user: em.defaultUser,
      users: em.users,
      timeZone: em.spreadsheet.timeZone,
      addOnName: connection.addOnName ?? "Add-on",
      spreadsheetName: em.spreadsheet.name,
      companies: companiesOf(connection),
    }),
    menu: async () => em.ui.addonMenuItems(),
    run: async (functionName, args, user, as) =>
      em.tryRun(functionName, args, { user, as: runKindFor(em, functionName, as) }),
    sheets: async () => sheetsSnapshot(em),
    display: async () => displaySnapshot(em),
    setCells: async (sheet, range, values, user) => {
      em.typeCells(sheet, range, values, user);
    },
    select: async (sheet, range) => em.select(sheet, range),
    answers: async (answers) => {
      em.answers.push(...answers);
    },
    fireTriggers: async ({ user, due }) =>
      em.fireTimeTriggers({ all: !due, ...(user !== undefined ? { user } : {}) }),
    properties: async () => propertiesSnapshot(em),
    logs: async () => logsSnapshot(em),
    ui: async () => uiSnapshot(em),
    closeUi: async (kind) => em.closeUi(kind),
    reset: async () => {
      em.loadFiles();
      em.resetState();
      afterReset(em);
    },
    advanceTime: async (ms) => {
      em.advanceTime(ms);
      return em.now().toISOString();
    },
  };
}

export class BadRequest extends Error {}

const RunBody = z.object({
  function: z.string().min(1),
  args: z.array(z.unknown()).optional(),
  user: z.string().optional(),
  as: z.enum(["script.run", "menu", "trigger", "simple", "direct"]).optional(),
});
const CellsBody = z.object({
  sheet: z.string().min(1),
  range: z.string().min(1),
  values: z.array(z.array(z.unknown())),
  user: z.string().optional(),
});
const SelectBody = z.object({
  sheet: z.string().min(1),
  range: z.string().min(1),
  user: z.string().optional(),
});
const AnswersBody = z.object({
  answers: z.array(
    z.union([z.string(), z.object({ button: z.string().optional(), text: z.string().optional() })]),
  ),
});
const FireBody = z.object({ user: z.string().optional(), due: z.boolean().optional() });
const CloseBody = z.object({ kind: z.enum(["sidebar", "dialog"]).optional() });
const ClockBody = z.object({
  advanceMs: z
    .number()
    .int()
    .min(0)
    .max(366 * 86_400_000),
});

/** Reads a body against a schema; a failure names the field and the rule. */
function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join(".") || "body";
  throw new BadRequest(`${field}: ${issue?.message ?? "invalid"}`);
}

const MAX_BODY = 5 * 1024 * 1024;

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((done, fail) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        fail(new BadRequest("body: larger than 5 MB"));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      if (text.trim() === "") return done({});
      try {
        done(JSON.parse(text));
      } catch {
        fail(new BadRequest("body: not JSON"));
      }
    });
    req.on("error", fail);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

function sendHtml(res: ServerResponse, html: string): void {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(html);
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
};

function serveStatic(dir: string, pathname: string, res: ServerResponse, ifNoneMatch?: string): boolean {
  const root = resolve(dir);
  const relative = normalize(decodeURIComponent(pathname)).replace(/^[/\\]+/, "");
  const file = resolve(root, relative === "" ? "index.html" : relative);
  if (file !== root && !file.startsWith(root + sep)) return false;
  const target = existsSync(file) && statSync(file).isDirectory() ? join(file, "index.html") : file;
  if (!existsSync(target)) return false;
  // Asked again at every use (no-cache), answered 304 while the file is the same: a reload keeps
  // the browser's copy, and the code it compiled from it, instead of fetching and compiling the
  // page's script again. A rebuilt file gets a new tag.
  const stat = statSync(target);
  const tag = `"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"`;
  const headers = {
    "content-type": TYPES[extname(target)] ?? "application/octet-stream",
    "cache-control": "no-cache",
    etag: tag,
  };
  if (ifNoneMatch === tag) {
    res.writeHead(304, headers);
    res.end();
    return true;
  }
  res.writeHead(200, headers);
  res.end(readFileSync(target));
  return true;
}

export interface ControlServerOptions {
  target: ControlTarget;
  /** 0 (default) picks a free port. */
  port?: number;
  /** A loopback address (127.0.0.1, the default; ::1, localhost): any other is refused. */
  host?: string;
  /** GET /control/info answers the tokens in full only when true (for tokens that are nobody's
   * secret, such as the bundled sandbox's demo tokens); otherwise their last four characters. */
  revealToken?: boolean;
  /** A page to serve for paths outside /control ("/" → index.html). */
  staticDir?: string;
  /** Extra routes, tried first; resolve true when the request was handled. */
  routes?: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
}

export interface RunningControlServer {
  /** e.g. http://localhost:8080 (no trailing slash). */
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/** The token as GET /control/info shows it: "" stays "", any other only by its last four characters. */
function shownToken(token: string, reveal: boolean): string {
  return reveal || token === "" ? token : maskSecret(token);
}

async function handleControl(
  options: ControlServerOptions,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const target = options.target;
  const method = req.method ?? "GET";
  const route = `${method} ${path}`;
  switch (route) {
    case "GET /control/info": {
      const info = await target.info();
      const reveal = options.revealToken === true;
      return send(res, 200, {
        ...info,
        token: shownToken(info.token, reveal),
        companies: (info.companies ?? []).map((c) => ({ ...c, token: shownToken(c.token, reveal) })),
      });
    }
    case "GET /control/menu":
      return send(res, 200, await target.menu());
    case "POST /control/run": {
      const body = parseBody(RunBody, await readJson(req));
      const outcome = await target.run(body.function, body.args ?? [], body.user, body.as);
      return send(
        res,
        200,
        outcome.ok ? { ok: true, result: outcome.result ?? null } : { ok: false, error: outcome.error },
      );
    }
    case "GET /control/sheets":
      return send(res, 200, await target.sheets());
    case "GET /control/display":
      return send(res, 200, await target.display());
    case "POST /control/cells": {
      const body = parseBody(CellsBody, await readJson(req));
      await target.setCells(body.sheet, body.range, body.values, body.user);
      return send(res, 200, { ok: true });
    }
    case "POST /control/select": {
      const body = parseBody(SelectBody, await readJson(req));
      await target.select(body.sheet, body.range);
      return send(res, 200, { ok: true });
    }
    case "POST /control/answers": {
      const body = parseBody(AnswersBody, await readJson(req));
      await target.answers(body.answers as DialogAnswer[]);
      return send(res, 200, { ok: true });
    }
    case "POST /control/triggers/fire": {
      const body = parseBody(FireBody, await readJson(req));
      return send(res, 200, await target.fireTriggers(body));
    }
    case "GET /control/properties":
      return send(res, 200, await target.properties());
    case "GET /control/logs":
      return send(res, 200, await target.logs());
    case "GET /control/ui":
      return send(res, 200, await target.ui());
    case "GET /control/sidebar":
    case "GET /control/dialog": {
      const ui = await target.ui();
      const shown = path.endsWith("sidebar") ? ui.sidebar : ui.dialog;
      if (!shown) return send(res, 404, { error: `no ${path.slice("/control/".length)} is open` });
      return sendHtml(res, shown.html);
    }
    case "POST /control/ui/close": {
      const body = parseBody(CloseBody, await readJson(req));
      await target.closeUi(body.kind);
      return send(res, 200, { ok: true });
    }
    case "GET /control/clock":
      return send(res, 200, { now: await target.advanceTime(0) });
    case "POST /control/clock": {
      const body = parseBody(ClockBody, await readJson(req));
      return send(res, 200, { now: await target.advanceTime(body.advanceMs) });
    }
    case "POST /control/reset":
      await target.reset();
      return send(res, 200, { ok: true });
    default:
      return send(res, 404, { error: `no route ${route}` });
  }
}

/** Starts the control server (and the page, if `staticDir` is given). */
export function startControlServer(options: ControlServerOptions): Promise<RunningControlServer> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackHost(host)) {
    return Promise.reject(
      new Error(
        `host: the control API listens on this machine only (127.0.0.1, ::1 or localhost), not ${host}`,
      ),
    );
  }
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const refusal = refusalOf(req, (server.address() as AddressInfo).port);
    if (refusal) {
      // Unread request bodies are dropped with the connection.
      res.setHeader("connection", "close");
      return send(res, refusal.status, { error: refusal.error });
    }
    void (async () => {
      try {
        if (options.routes && (await options.routes(req, res))) return;
        if (path.startsWith("/control/")) return await handleControl(options, req, res, path);
        if (
          options.staticDir &&
          (req.method === "GET" || req.method === "HEAD") &&
          serveStatic(options.staticDir, path, res, req.headers["if-none-match"])
        )
          return;
        send(res, 404, { error: `no route ${req.method} ${path}` });
      } catch (err) {
        if (res.headersSent) return res.end();
        if (err instanceof BadRequest || err instanceof EmulatorUsageError || err instanceof ServiceError) {
          return send(res, 400, { error: err.message });
        }
        send(res, 500, { error: err instanceof Error ? err.message : String(err) });
      }
    })();
  });
  return new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(options.port ?? 0, host, () => {
      const { port } = server.address() as AddressInfo;
      done({
        url: `http://localhost:${port}`,
        port,
        server,
        close: () =>
          new Promise<void>((closed) => {
            server.closeAllConnections();
            server.close(() => closed());
          }),
      });
    });
  });
}
