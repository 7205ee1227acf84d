/**
 * A scripted control API for testing the page itself (grid, menu, alerts, toasts, the sidebar
 * bridge) without the emulation: the test sets the spreadsheet, menu and UI state it wants and
 * reads back every request the page made. The end-to-end suite uses the real control server.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface ScriptedState {
  info: Record<string, unknown>;
  menu: { label: string; function: string }[];
  sheets: {
    name: string;
    values: unknown[][];
    formulas: string[][];
    numberFormats: string[][];
    frozenRows: number;
    frozenColumns?: number;
    fontColors?: string[][];
    backgrounds?: string[][];
    hiddenColumns?: number[];
    validations?: { row: number; column: number; kind: "list" | "checkbox"; values: string[] }[];
  }[];
  ui: Record<string, unknown>;
  /** What GET /control/properties answers (user, document and script properties). */
  properties?: { document: Record<string, string> };
}

export type RunHandler = (
  fn: string,
  args: unknown[],
  control: ScriptedControl,
) => Promise<{ ok: true; result: unknown } | { ok: false; error: string }>;

export interface ScriptedControl {
  url: string;
  state: ScriptedState;
  requests: RecordedRequest[];
  onRun: RunHandler;
  /** Resolves with the next answer posted to /control/answers. */
  nextAnswer(): Promise<unknown>;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
};

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolvePromise) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      try {
        resolvePromise(text ? JSON.parse(text) : null);
      } catch {
        resolvePromise(text);
      }
    });
  });
}

export function defaultState(): ScriptedState {
  return {
    info: {
      apiUrl: "http://127.0.0.1:1/v1",
      adminId: 1,
      user: "ana@example.com",
      users: ["ana@example.com", "luis@example.com"],
      timeZone: "UTC",
    },
    menu: [],
    sheets: [{ name: "Sheet1", values: [], formulas: [], numberFormats: [], frozenRows: 0 }],
    ui: { sidebar: null, dialog: null, toasts: [], waiting: null },
  };
}

/** Starts the scripted control API on a free port, serving the page from `staticDir`. */
export async function startScriptedControl(staticDir: string): Promise<ScriptedControl> {
  const answerWaiters: ((answer: unknown) => void)[] = [];
  const control: ScriptedControl = {
    url: "",
    state: defaultState(),
    requests: [],
    onRun: async (fn) => ({ ok: false, error: `No scripted result for ${fn}` }),
    nextAnswer: () => new Promise((r) => answerWaiters.push(r)),
    close: async () => {
      // A socket Chromium keeps open (idle, or opened ahead with no request yet) would hold
      // close() until it times out on its own: end them all, as the other servers here do.
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
    },
  };
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const method = req.method ?? "GET";
    if (path.startsWith("/control/") || path.startsWith("/playground/")) {
      const body = method === "GET" ? null : await readBody(req);
      control.requests.push({ method, path, body });
      const s = control.state;
      if (path === "/control/info") return json(res, 200, s.info);
      if (path === "/control/menu") return json(res, 200, s.menu);
      if (path === "/control/sheets") return json(res, 200, s.sheets);
      if (path === "/control/ui") return json(res, 200, s.ui);
      if (path === "/control/properties")
        return json(res, 200, { user: {}, script: {}, document: {}, ...s.properties });
      if (path === "/control/run") {
        const b = body as { function: string; args: unknown[]; as?: string };
        // onOpen when the page loads (the spreadsheet opened): recorded, not scripted.
        if (b.as === "simple") return json(res, 200, { ok: true, result: null });
        return json(res, 200, await control.onRun(b.function, b.args, control));
      }
      if (path === "/control/answers") {
        s.ui.waiting = null;
        const answer = (body as { answers: unknown[] }).answers[0];
        answerWaiters.shift()?.(answer);
        return json(res, 200, { ok: true });
      }
      if (path === "/control/ui/close") {
        if ((body as { kind?: string } | null)?.kind === "dialog") s.ui.dialog = null;
        else s.ui.sidebar = null;
        return json(res, 200, { ok: true });
      }
      if (["/control/cells", "/control/select", "/control/reset", "/control/triggers/fire"].includes(path)) {
        return json(res, 200, { ok: true });
      }
      if (path === "/playground/sandbox/faults" || path === "/playground/sandbox/reset") {
        return json(res, 200, { ok: true });
      }
      return json(res, 404, { error: `no route ${method} ${path}` });
    }
    const file = normalize(join(staticDir, path === "/" ? "index.html" : path));
    if (!file.startsWith(staticDir)) return json(res, 403, { error: "outside" });
    try {
      const content = readFileSync(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(content);
    } catch {
      json(res, 404, { error: "not found" });
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  control.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return control;
}
