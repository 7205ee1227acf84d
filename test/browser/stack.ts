/**
 * The whole playground for the end-to-end suites, as `npm start` runs it: the sandbox on a worker
 * thread with demo data for two companies (Alpha and Beta), the built add-on (dist/) in the
 * emulation on a worker thread with both companies stored (the document's list, set up by the
 * first user, and each user's own token and IdAdmin for each), the control API and the page on
 * a free port.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startControlServer } from "../../dev/emulator/control";
import { EmulatorHost } from "../../dev/emulator/host";
import { buildPlaygroundAssets } from "../../dev/playground/assets";
import { playgroundRoutes, sandboxOriginOf } from "../../dev/playground/routes";
import { startSandboxThread } from "../../dev/sandbox/index";

const dist = resolve(import.meta.dirname, "../../dist");

export const USERS = ["treasurer@example.com", "accountant@example.com"];

export interface PlaygroundStack {
  /** The page, ending in "/". */
  url: string;
  /** The sandbox's API base URL (ends in /v1) and origin (for /_sandbox routes). */
  apiUrl: string;
  sandboxOrigin: string;
  /** The first company's (Alpha's) token, admin and manager. */
  token: string;
  adminId: number;
  managerId: number;
  /** Every company of the spreadsheet, the first first, as the sandbox serves them. */
  companies: Array<{ name: string; token: string; adminId: number; managerId: number }>;
  /** A fresh spreadsheet and fresh demo data of every company, faults cleared. */
  reset(): Promise<void>;
  /** GET or POST a control route, for checks a test makes outside the page. */
  control<T = unknown>(path: string, body?: unknown): Promise<T>;
  /** GET or POST a sandbox route (/_sandbox/...) or an API read (/v1/...), as the first company. */
  sandbox<T = unknown>(path: string, body?: unknown): Promise<T>;
  /** An API read (/v1/...) with the token of the company named `company`. */
  read<T = unknown>(company: string, path: string): Promise<T>;
  close(): Promise<void>;
}

/**
 * `companies`: how many companies the sandbox serves and the user has a token for (default 2, as
 * `npm start`); `today` (YYYY-MM-DD): the sandbox's date and the emulator clock's start, so
 * that the demo data and the add-on's "now" are the same on any day (default: the real time, as
 * `npm start`).
 */
export async function startStack(
  options: { companies?: number; today?: string } = {},
): Promise<PlaygroundStack> {
  if (!existsSync(join(dist, "addon.js"))) {
    throw new Error("dist/addon.js is missing: run `npm run build` before the browser tests");
  }
  // As `npm start`: the service writes its times on the wall clock of the spreadsheet's zone.
  const manifest = JSON.parse(readFileSync(join(dist, "appsscript.json"), "utf8")) as { timeZone?: string };
  const sandbox = await startSandboxThread({
    timeZone: manifest.timeZone || "UTC",
    companies: options.companies ?? 2,
    ...(options.today ? { today: options.today } : {}),
  });
  const host = await EmulatorHost.start({
    emulator: {
      users: USERS,
      spreadsheetName: "Funds and expense reports",
      addonName: "Funds & Reports",
      // The spreadsheet's clock starts when the sandbox's does, at noon UTC of its fixed date.
      ...(options.today ? { startAt: `${options.today}T12:00:00Z` } : {}),
    },
    connection: {
      apiUrl: sandbox.url,
      token: sandbox.token,
      adminId: sandbox.adminId,
      addOnName: "Funds & Reports",
      companies: sandbox.companies.map((c) => ({
        name: c.name,
        apiUrl: sandbox.url,
        token: c.token,
        adminId: c.adminId,
      })),
    },
    storeSettings: true,
    interactive: true,
  });
  const assets = await buildPlaygroundAssets(dist);
  const sandboxOrigin = sandboxOriginOf(sandbox.url);
  const server = await startControlServer({
    target: host,
    staticDir: assets.dir,
    routes: playgroundRoutes({ sandboxOrigin }),
    revealToken: true,
  });
  const json = async <T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> => {
    const response = await fetch(url, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };
  return {
    url: `${server.url}/`,
    apiUrl: sandbox.url,
    sandboxOrigin,
    token: sandbox.token,
    adminId: sandbox.adminId,
    managerId: sandbox.managerId,
    companies: sandbox.companies.map((c) => ({ ...c })),
    async reset() {
      // The page's Reset: every company's demo data, then the spreadsheet.
      await json(`${server.url}/playground/sandbox/reset`, {});
      await json(`${server.url}/control/reset`, {});
    },
    control: (path, body) => json(`${server.url}${path}`, body),
    sandbox: (path, body) =>
      json(`${sandboxOrigin}${path}`, body, {
        authorization: `Bearer ${sandbox.token}`,
      }),
    read: (company, path) => {
      const token = sandbox.companies.find((c) => c.name === company)?.token;
      if (!token) throw new Error(`the sandbox serves no company named ${company}`);
      return json(`${sandboxOrigin}${path}`, undefined, { authorization: `Bearer ${token}` });
    },
    async close() {
      await server.close();
      await host.close();
      await sandbox.close();
      assets.dispose();
    },
  };
}
