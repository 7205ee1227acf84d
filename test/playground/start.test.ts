/**
 * `npm start` as a person runs it: dev/playground/start.ts as a child process, driven over HTTP
 * as the playground page and the outside checkers do (GET /, /control/info, /control/menu,
 * POST /control/run, GET /control/sheets); then against another service given by flags; then
 * bad flags, which must stop it with a message naming the flag.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { ENTRY_POINTS } from "../../scripts/build";
import { tsxArgs } from "../support/tsx";

const root = resolve(import.meta.dirname, "../..");
const READY = /Playground: (http:\/\/localhost:(\d+))\/\s*$/m;

interface Info {
  apiUrl: string;
  token: string;
  adminId: number | string;
  user: string;
  companies: Array<{ name: string; apiUrl: string; token: string; adminId: number | string }>;
}

interface Properties {
  document: Record<string, string>;
  user: Record<string, Record<string, string>>;
}

interface Outcome {
  ok: boolean;
  error?: string;
}

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

const children: ChildProcess[] = [];

function launch(args: string[]): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  // A process group of its own: the playground starts its threads and children under it, and all
  // must go at the end.
  const child = spawn(process.execPath, tsxArgs("dev/playground/start.ts", args), {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  children.push(child);
  let out = "";
  child.stdout?.on("data", (chunk) => {
    out += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    out += String(chunk);
  });
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  return { child, output: () => out, exited };
}

/** Starts the playground and waits for its "Playground: URL" line (or its early exit). */
async function start(args: string[]): Promise<Started> {
  const { child, output, exited } = launch(args);
  const url = await new Promise<string>((done, fail) => {
    const timer = setInterval(() => {
      const ready = READY.exec(output());
      if (ready) {
        clearInterval(timer);
        done(ready[1] as string);
      }
    }, 50);
    exited.then((code) => {
      clearInterval(timer);
      fail(new Error(`npm start exited with ${code} before it was ready:\n${output()}`));
    });
  });
  return { child, url, output };
}

function stop(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch (_err) {
    // Already gone.
  }
}

afterAll(() => {
  for (const child of children) stop(child);
});

async function json<T>(url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, url).toBe(200);
  return (await response.json()) as T;
}

describe("npm start with the bundled sandbox", () => {
  let app: Started;

  beforeAll(async () => {
    app = await start(["--port", "0"]);
  }, 120_000);

  afterAll(() => stop(app?.child));

  it("prints the service and the page's address on a free port", () => {
    expect(app.output()).toMatch(/Service: http:\/\/\S+\/v1 \(bundled sandbox, demo data\)/);
    expect(Number(READY.exec(app.output())?.[2])).toBeGreaterThan(0);
  });

  it("serves the page at /", async () => {
    const response = await fetch(`${app.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    expect(await response.text()).toMatch(/<html[\s>]/i);
  });

  it("GET /control/info answers the service, a token, the admin id and the user", async () => {
    const info = await json<Info>(`${app.url}/control/info`);
    expect(info.apiUrl).toMatch(/^http:\/\/\S+\/v1$/);
    expect(typeof info.token).toBe("string");
    expect(info.token.length).toBeGreaterThan(0);
    expect(Number(info.adminId)).toBeGreaterThan(0);
    expect(info.user).toBe("treasurer@example.com");
  });

  it("sets up two demo companies for the demo user: GET /control/info lists both, tokens in full", async () => {
    expect(app.output()).toMatch(/^Companies: Alpha, Beta \(one token each, saved for you\)$/m);
    const info = await json<Info>(`${app.url}/control/info`);
    expect(info.companies.map((c) => c.name)).toEqual(["Alpha", "Beta"]);
    const [alpha, beta] = info.companies;
    expect(alpha).toEqual({ name: "Alpha", apiUrl: info.apiUrl, token: info.token, adminId: info.adminId });
    expect(beta).toMatchObject({ apiUrl: info.apiUrl, adminId: 2001 });
    expect(beta?.token).not.toBe(info.token);
    expect(beta?.token).not.toMatch(/•/);
    // Each token reaches its own company's ledger: the same fund Id, each company's own record.
    const read = async (token: string) => {
      const response = await fetch(`${info.apiUrl}/getFund?Id=5001`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { Title: string };
    };
    expect((await read(alpha?.token ?? "")).Title).not.toBe((await read(beta?.token ?? "")).Title);
    // Stored as the add-on stores them: the document lists both, the tokens are the user's own.
    const properties = await json<Properties>(`${app.url}/control/properties`);
    const listed = JSON.parse(properties.document["settings.companies"] ?? "{}") as {
      several?: boolean;
      entries?: Array<{ name: string; apiUrl: string }>;
    };
    expect(listed.several).toBe(true);
    expect(listed.entries?.map((e) => [e.name, e.apiUrl])).toEqual([
      ["Alpha", info.apiUrl],
      ["Beta", info.apiUrl],
    ]);
    // Both demo users have their own token for each company, as the one-company demo gives
    // both theirs: either can act on both companies.
    for (const user of ["treasurer@example.com", "accountant@example.com"])
      expect(
        Object.keys(properties.user[user] ?? {}).filter(
          (k) => k === "settings.token" || k.startsWith("settings.token."),
        ),
        user,
      ).toHaveLength(2);
    const view = await json<{ ok: boolean; result: { companies: { entries: { status: string }[] } } }>(
      `${app.url}/control/run`,
      { function: "getSettingsView", user: "accountant@example.com" },
    );
    expect(view.result.companies.entries.map((e) => e.status)).toEqual(["ready", "ready"]);
  });

  it("GET /control/menu lists the add-on's items as {label, function}", async () => {
    const menu: Array<{ label: string; function: string }> = await json(`${app.url}/control/menu`);
    expect(menu.length).toBeGreaterThan(3);
    for (const item of menu) {
      expect(Object.keys(item).sort()).toEqual(["function", "label"]);
      expect(item.label.length).toBeGreaterThan(0);
      expect(ENTRY_POINTS as readonly string[]).toContain(item.function);
    }
    expect(menu.map((i) => i.function)).toContain("refreshFunds");
  });

  it("POST /control/run refreshes the funds, and GET /control/sheets then shows them", async () => {
    const before: Array<{ name: string }> = await json(`${app.url}/control/sheets`);
    expect(before.map((s) => s.name)).not.toContain("Funds");
    const outcome = await json<Outcome>(`${app.url}/control/run`, { function: "refreshFunds" });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    const sheets: Array<{ name: string; values: unknown[][] }> = await json(`${app.url}/control/sheets`);
    const funds = sheets.find((s) => s.name === "Funds");
    expect(funds).toBeDefined();
    // Two demo companies: each row says whose it is, and both companies' funds are there.
    expect(funds?.values[0]?.slice(0, 4)).toEqual(["Id", "Company", "Company key", "Title"]);
    const rows = funds?.values.slice(1) ?? [];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Number(row[0])).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row[1]))).toEqual(new Set(["Alpha", "Beta"]));
  });

  it("POST /control/run of an unknown function answers ok: false with the reason", async () => {
    const outcome = await json<Outcome>(`${app.url}/control/run`, { function: "noSuchFunction" });
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/noSuchFunction/);
  });
});

describe("npm start -- --companies 1: the one-company demo", () => {
  let app: Started;

  beforeAll(async () => {
    app = await start(["--port", "0", "--companies", "1"]);
  }, 120_000);

  afterAll(() => stop(app?.child));

  it("lists one unnamed company, writes no list of companies, and refreshes as before", async () => {
    expect(app.output()).not.toMatch(/^Companies:/m);
    const info = await json<Info>(`${app.url}/control/info`);
    expect(info.companies).toEqual([
      { name: "", apiUrl: info.apiUrl, token: info.token, adminId: info.adminId },
    ]);
    const properties = await json<Properties>(`${app.url}/control/properties`);
    expect(properties.document["settings.companies"]).toBeUndefined();
    const outcome = await json<Outcome>(`${app.url}/control/run`, { function: "refreshFunds" });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    const sheets: Array<{ name: string; values: unknown[][] }> = await json(`${app.url}/control/sheets`);
    expect(sheets.find((s) => s.name === "Funds")?.values[0]?.slice(0, 2)).toEqual(["Id", "Title"]);
    // The other demo user has a token of their own too, and refreshes as well.
    expect(Object.keys(properties.user["accountant@example.com"] ?? {})).toContain("settings.token");
    const theirs = await json<Outcome>(`${app.url}/control/run`, {
      function: "refreshFunds",
      user: "accountant@example.com",
    });
    expect(theirs, JSON.stringify(theirs)).toMatchObject({ ok: true });
  });
});

describe("npm start against another service", () => {
  let sandbox: RunningSandbox;
  let app: Started;

  beforeAll(async () => {
    sandbox = await startSandboxThread({ seed: 3, funds: 4, reports: 5 });
    app = await start([
      "--port",
      "0",
      "--api-url",
      sandbox.url,
      "--token",
      sandbox.token,
      "--admin-id",
      String(sandbox.adminId),
      "--user",
      "ana@example.com",
    ]);
  }, 120_000);

  afterAll(async () => {
    stop(app?.child);
    await sandbox?.close();
  });

  it("reports that service in GET /control/info and refreshes from it", async () => {
    expect(app.output()).toContain(`Service: ${sandbox.url}\n`);
    expect(app.output()).not.toContain("bundled sandbox");
    const info = await json<Info>(`${app.url}/control/info`);
    expect(info).toMatchObject({ apiUrl: sandbox.url, user: "ana@example.com" });
    expect(Number(info.adminId)).toBe(sandbox.adminId);
    // One company, the first: the one --token reaches, its token masked as the top-level one.
    expect(info.companies).toEqual([
      { name: "", apiUrl: sandbox.url, token: `••••${sandbox.token.slice(-4)}`, adminId: sandbox.adminId },
    ]);
    const outcome = await json<Outcome>(`${app.url}/control/run`, { function: "refreshFunds" });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    const sheets: Array<{ name: string; values: unknown[][] }> = await json(`${app.url}/control/sheets`);
    expect(sheets.find((s) => s.name === "Funds")?.values.length).toBe(4 + 1);
  });
});

describe.concurrent("npm start with bad flags", () => {
  const cases: Array<[string, string[], RegExp]> = [
    [
      "a port out of range",
      ["--port", "70000"],
      /--port: must be a whole number from 0 to 65535, got "70000"/,
    ],
    [
      "half of an external service",
      ["--port", "0", "--api-url", "http://x/v1"],
      /--api-url, --token and --admin-id go together/,
    ],
    [
      "an admin id that is not a positive number",
      ["--port", "0", "--api-url", "http://x/v1", "--token", "T", "--admin-id", "zero"],
      /--admin-id: must be a positive whole number, got "zero"/,
    ],
    ["an unknown flag", ["--colour", "blue"], /Unknown option '--colour'.*Options: --port/],
    [
      "a number of companies out of range",
      ["--port", "0", "--companies", "11"],
      /--companies: must be a whole number from 1 to 10, got "11"/,
    ],
    [
      "several companies of another service",
      ["--port", "0", "--api-url", "http://x/v1", "--token", "T", "--admin-id", "1", "--companies", "2"],
      /--companies: another service \(--api-url\) is one company/,
    ],
  ];
  for (const [what, args, message] of cases) {
    it(`stops on ${what}, non-zero, naming the flag`, async () => {
      const run = launch(args);
      const code = await run.exited;
      // Exit code 2 and one plain line: a usage mistake, not a crash with a stack trace.
      expect(code).toBe(2);
      expect(run.output()).not.toMatch(/^\s+at /m);
      expect(run.output()).toMatch(message);
      expect(run.output()).not.toMatch(READY);
    }, 60_000);
  }
});
