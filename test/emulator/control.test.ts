import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directTarget, type RunningControlServer, startControlServer } from "../../dev/emulator/control";
import { EmulatorHost } from "../../dev/emulator/host";
import { createEmulator, type Emulator } from "../../dev/emulator/index";
import { servicePrefix, storeConnection } from "../../dev/emulator/settings";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { FIXTURE_DIST, fixtureEmulator } from "./helpers";

const root = resolve(import.meta.dirname, "../..");

/** A private copy of the built add-on, so that a concurrent rebuild of dist/ cannot disturb the run. */
function builtAddOn(): string {
  if (!existsSync(join(root, "dist/addon.js"))) {
    const built = spawnSync(
      process.execPath,
      [join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/build.ts"],
      { cwd: root },
    );
    if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
  }
  const copy = mkdtempSync(join(tmpdir(), "emulator-dist-"));
  cpSync(join(root, "dist"), copy, { recursive: true });
  return copy;
}

async function call(server: RunningControlServer, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    text,
    body: res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text,
  };
}

describe("the built add-on end to end through the control API, against the sandbox", () => {
  let sandbox: RunningSandbox;
  let em: Emulator;
  let server: RunningControlServer;
  let dist: string;

  beforeAll(async () => {
    dist = builtAddOn();
    sandbox = await startSandboxThread({ seed: 3, funds: 6, reports: 10 });
    em = createEmulator({
      distDir: dist,
      users: ["treasurer@example.com", "accountant@example.com"],
      urlFetchAllowlist: [servicePrefix(sandbox.url)],
    });
    const connection = { apiUrl: sandbox.url, token: sandbox.token, adminId: sandbox.adminId };
    storeConnection(em, connection);
    em.open();
    server = await startControlServer({ target: directTarget(em, connection) });
  });
  afterAll(async () => {
    await server?.close();
    await em?.close();
    await sandbox?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("serves the menu that onOpen built", async () => {
    const menu = await call(server, "GET", "/control/menu");
    expect(menu.status).toBe(200);
    expect(menu.body).toContainEqual({ label: expect.any(String), function: "showConnectionSidebar" });
    const callable = em.topLevelFunctions();
    for (const item of menu.body as Array<{ function: string }>) expect(callable).toContain(item.function);
  });

  it("runs a server function against the sandbox", async () => {
    const run = await call(server, "POST", "/control/run", { function: "testSettingsConnection", args: [] });
    expect(run.status).toBe(200);
    expect(run.body.ok).toBe(true);
    expect(run.body.result).toMatchObject({ ok: true, message: expect.stringMatching(/^Connected/) });
    expect(em.counters.urlFetch["treasurer@example.com"]).toBeGreaterThan(0);
  });

  it("reports connection info, the token by its last four characters, and never shows it in properties", async () => {
    const info = await call(server, "GET", "/control/info");
    expect(info.body).toMatchObject({
      apiUrl: sandbox.url,
      token: `••••${sandbox.token.slice(-4)}`,
      adminId: sandbox.adminId,
      user: "treasurer@example.com",
    });
    expect(info.text).not.toContain(sandbox.token);
    const props = await call(server, "GET", "/control/properties");
    expect(props.text).not.toContain(sandbox.token);
    expect(JSON.stringify(em.properties().user["treasurer@example.com"])).toContain(sandbox.token);
  });

  it("types cells like a user, selects, and shows sheets with ISO dates", async () => {
    await call(server, "POST", "/control/cells", {
      sheet: "Sheet1",
      range: "A1:C1",
      values: [["00123", "2024-05-06", "'007"]],
    });
    await call(server, "POST", "/control/select", { sheet: "Sheet1", range: "A1:C1" });
    const sheets = await call(server, "GET", "/control/sheets");
    const sheet1 = (sheets.body as Array<{ name: string; values: unknown[][] }>).find(
      (s) => s.name === "Sheet1",
    );
    expect(sheet1?.values[0]).toEqual([123, "2024-05-06T04:00:00.000Z", "007"]);
    expect(em.spreadsheet.active.ranges).toEqual([{ row: 1, column: 1, numRows: 1, numColumns: 3 }]);
    const display = await call(server, "GET", "/control/display");
    expect((display.body as Array<{ name: string; display: string[][] }>)[0]?.display[0]).toEqual([
      "123",
      "2024-05-06",
      "007",
    ]);
  });

  it("answers bad requests with the field and the rule", async () => {
    const run = await call(server, "POST", "/control/run", { args: [] });
    expect(run.status).toBe(400);
    expect(run.body.error).toMatch(/^function: /);
    const cells = await call(server, "POST", "/control/cells", {
      sheet: "Nope",
      range: "A1",
      values: [["x"]],
    });
    expect(cells.status).toBe(400);
    expect(cells.body.error).toBe('No sheet named "Nope"');
    expect((await call(server, "GET", "/control/nothing")).status).toBe(404);
  });

  it("serves the sidebar's HTML once a menu item shows it, and closes it", async () => {
    expect((await call(server, "GET", "/control/sidebar")).status).toBe(404);
    const run = await call(server, "POST", "/control/run", { function: "showConnectionSidebar" });
    expect(run.body).toEqual({ ok: true, result: null });
    const ui = await call(server, "GET", "/control/ui");
    expect(ui.body.sidebar).toMatchObject({ kind: "sidebar", width: 300 });
    const html = await call(server, "GET", "/control/sidebar");
    expect(html.status).toBe(200);
    expect(html.text).toContain("<html");
    // "Connection…" opens the settings sidebar on its Connection section.
    expect(html.text).toContain('<meta name="open-section" content="connection">');
    await call(server, "POST", "/control/ui/close", { kind: "sidebar" });
    expect((await call(server, "GET", "/control/ui")).body.sidebar).toBeNull();
  });

  it("moves the emulator clock and refuses a negative move", async () => {
    const before = Date.parse((await call(server, "GET", "/control/clock")).body.now);
    const after = await call(server, "POST", "/control/clock", { advanceMs: 7_200_000 });
    expect(Date.parse(after.body.now) - before).toBeGreaterThanOrEqual(7_200_000);
    const bad = await call(server, "POST", "/control/clock", { advanceMs: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^advanceMs: /);
  });

  it("lists logs and counters, fires triggers, and resets", async () => {
    const logs = await call(server, "GET", "/control/logs");
    expect(logs.body.counters.urlFetchTotal).toBeGreaterThan(0);
    expect(logs.text).not.toContain(sandbox.token);
    expect((await call(server, "POST", "/control/triggers/fire", {})).status).toBe(200);
    await call(server, "POST", "/control/reset", {});
    const sheets = await call(server, "GET", "/control/sheets");
    expect(sheets.body).toEqual([expect.objectContaining({ name: "Sheet1", values: [] })]);
    expect((await call(server, "GET", "/control/menu")).body.length).toBeGreaterThan(0);
  });
});

describe("EmulatorHost: the emulator on a worker thread, interactive", () => {
  let host: EmulatorHost;
  let server: RunningControlServer;

  beforeAll(async () => {
    host = await EmulatorHost.start({ emulator: { distDir: FIXTURE_DIST, users: ["ana@example.com"] } });
    server = await startControlServer({ target: host });
  });
  afterAll(async () => {
    await server?.close();
    await host?.close();
  });

  it("suspends the script on an alert until the page answers, staying responsive meanwhile", async () => {
    const running = call(server, "POST", "/control/run", { function: "confirmAndWrite" });
    let waiting: unknown = null;
    for (let i = 0; i < 200 && !waiting; i++) {
      waiting = (await call(server, "GET", "/control/ui")).body.waiting;
      if (!waiting) await new Promise((r) => setTimeout(r, 10));
    }
    expect(waiting).toEqual({
      kind: "alert",
      title: "",
      message: "Write the answer?",
      buttons: ["YES", "NO"],
    });
    // Reads are answered while the script waits.
    expect((await call(server, "GET", "/control/sheets")).status).toBe(200);
    await call(server, "POST", "/control/answers", { answers: ["NO"] });
    const run = await running;
    expect(run.body).toEqual({ ok: true, result: "NO" });
    const sheets = await call(server, "GET", "/control/sheets");
    expect(sheets.body[0].values).toEqual([["NO"]]);
    expect((await call(server, "GET", "/control/ui")).body.waiting).toBeNull();
  });

  it("closes a waiting dialog when the page resets", async () => {
    const running = call(server, "POST", "/control/run", { function: "confirmAndWrite" });
    for (let i = 0; i < 200 && !(await call(server, "GET", "/control/ui")).body.waiting; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const reset = call(server, "POST", "/control/reset", {});
    expect((await running).body).toEqual({ ok: true, result: "CLOSE" });
    expect((await reset).status).toBe(200);
    expect((await call(server, "GET", "/control/sheets")).body[0].values).toEqual([]);
  });

  it("serves the static page and extra routes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "page-"));
    cpSync(join(FIXTURE_DIST, "plain.html"), join(dir, "index.html"));
    const withPage = await startControlServer({
      target: host,
      staticDir: dir,
      routes: (req, res) => {
        if (req.url !== "/extra") return false;
        res.end("extra route");
        return true;
      },
    });
    try {
      expect((await call(withPage, "GET", "/")).text).toContain("Plain page");
      expect((await call(withPage, "GET", "/extra")).text).toBe("extra route");
      expect((await call(withPage, "GET", "/../../etc/passwd")).status).toBe(404);
      // A reload asks again and keeps its copy while the file is the same; a changed file is sent.
      const first = await fetch(`${withPage.url}/index.html`);
      expect(first.headers.get("cache-control")).toBe("no-cache");
      const tag = first.headers.get("etag") ?? "";
      expect(tag).not.toBe("");
      const again = await fetch(`${withPage.url}/index.html`, { headers: { "If-None-Match": tag } });
      expect(again.status).toBe(304);
      writeFileSync(join(dir, "index.html"), "<p>Rebuilt page, longer than the plain one was</p>".repeat(50));
      const changed = await fetch(`${withPage.url}/index.html`, { headers: { "If-None-Match": tag } });
      expect(changed.status).toBe(200);
      expect(await changed.text()).toContain("Rebuilt page");
    } finally {
      await withPage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A request with exactly these headers (fetch would not let a test choose Host). */
function rawRequest(
  server: RunningControlServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string; type: string }> {
  return new Promise((done, fail) => {
    const req = request(
      { host: "127.0.0.1", port: server.port, method, path, headers, setHost: !("host" in headers) },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () =>
          done({ status: res.statusCode ?? 0, text, type: String(res.headers["content-type"] ?? "") }),
        );
      },
    );
    req.on("error", fail);
    req.end(body);
  });
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      done(false);
    });
    socket.once("error", () => done(false));
  });
}

describe("the control API answers only this machine's own page and scripts", () => {
  const TOKEN = "rg-live-7Hq2-secret-9f2c";
  let em: Emulator;
  let server: RunningControlServer;
  const json = { "content-type": "application/json" };

  beforeAll(async () => {
    em = fixtureEmulator();
    server = await startControlServer({
      target: directTarget(em, { apiUrl: "https://api.example.com/v1", token: TOKEN, adminId: 7 }),
    });
  });
  afterAll(async () => {
    await server?.close();
    await em?.close();
  });

  it("listens on 127.0.0.1 only: the machine's other addresses refuse the connection", async () => {
    expect((server.server.address() as AddressInfo).address).toBe("127.0.0.1");
    expect(await accepts("127.0.0.1", server.port)).toBe(true);
    // 127.0.0.2 is this machine too (Linux routes all of 127/8 to lo): a server on 0.0.0.0 takes it.
    const others = ["127.0.0.2"];
    for (const list of Object.values(networkInterfaces())) {
      for (const entry of list ?? [])
        if (!entry.internal && entry.family === "IPv4") others.push(entry.address);
    }
    for (const address of others)
      expect({ address, accepted: await accepts(address, server.port) }).toEqual({
        address,
        accepted: false,
      });
  });

  it("refuses to listen on any address that is not loopback", async () => {
    await expect(startControlServer({ target: directTarget(em), host: "0.0.0.0" })).rejects.toThrow(
      /host: the control API listens on this machine only/,
    );
  });

  it("refuses a Host other than localhost, 127.0.0.1 or [::1] with 403 and no token (DNS rebinding)", async () => {
    for (const host of [
      "attacker.example",
      `attacker.example:${server.port}`,
      "localhost.attacker.example",
      "",
    ]) {
      const answer = await rawRequest(server, "GET", "/control/info", { host });
      expect({ host, status: answer.status }).toEqual({ host, status: 403 });
      expect(answer.type).toMatch(/application\/json/);
      expect(JSON.parse(answer.text).error).toMatch(/^Host: /);
      expect(answer.text).not.toContain(TOKEN);
      expect(answer.text).not.toContain("9f2c");
    }
  });

  it("answers localhost, 127.0.0.1 and [::1], with or without the port", async () => {
    for (const name of ["localhost", "127.0.0.1", "[::1]", "LOCALHOST"]) {
      for (const host of [name, `${name}:${server.port}`]) {
        const answer = await rawRequest(server, "GET", "/control/info", { host });
        expect({ host, status: answer.status }).toEqual({ host, status: 200 });
      }
    }
  });

  it("never answers a token given to it in full: GET /control/info shows its last four characters", async () => {
    const answer = await rawRequest(server, "GET", "/control/info", {});
    expect(JSON.parse(answer.text).token).toBe("••••9f2c");
    expect(answer.text).not.toContain(TOKEN);
  });

  it("refuses a request from another origin with 403, and runs nothing", async () => {
    const runs = em.executions.length;
    for (const origin of [
      "http://evil.example",
      `http://evil.example:${server.port}`,
      "null",
      "http://localhost:1",
    ]) {
      const info = await rawRequest(server, "GET", "/control/info", { origin });
      expect({ origin, status: info.status }).toEqual({ origin, status: 403 });
      expect(JSON.parse(info.text).error).toMatch(/^Origin: /);
      expect(info.text).not.toContain("9f2c");
      const run = await rawRequest(
        server,
        "POST",
        "/control/run",
        { origin, ...json },
        JSON.stringify({ function: "echo", args: [1] }),
      );
      expect({ origin, status: run.status }).toEqual({ origin, status: 403 });
    }
    expect(em.executions.length).toBe(runs);
  });

  it("answers the page's own origin", async () => {
    for (const origin of [
      `http://localhost:${server.port}`,
      `http://127.0.0.1:${server.port}`,
      `http://[::1]:${server.port}`,
    ]) {
      const run = await rawRequest(
        server,
        "POST",
        "/control/run",
        { origin, ...json },
        JSON.stringify({ function: "echo", args: [origin] }),
      );
      expect({ origin, status: run.status, body: JSON.parse(run.text) }).toEqual({
        origin,
        status: 200,
        body: { ok: true, result: origin },
      });
    }
  });

  it("refuses a POST that any web page could send without asking (text/plain, a form, no type): the function is not run", async () => {
    const runs = em.executions.length;
    const body = JSON.stringify({ function: "echo", args: ["sent by a form"] });
    for (const type of [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      undefined,
    ]) {
      const headers: Record<string, string> = type === undefined ? {} : { "content-type": type };
      for (const path of ["/control/run", "/control/reset", "/control/clock"]) {
        const answer = await rawRequest(server, "POST", path, headers, body);
        expect({ type, path, status: answer.status }).toEqual({ type, path, status: 415 });
        expect(JSON.parse(answer.text).error).toMatch(/^Content-Type: a POST must send application\/json/);
      }
    }
    expect(em.executions.length).toBe(runs);
    const accepted = await rawRequest(server, "POST", "/control/run", json, body);
    expect(JSON.parse(accepted.text)).toEqual({ ok: true, result: "sent by a form" });
    expect(em.executions.length).toBe(runs + 1);
  });

  it("lists the companies, one unnamed company for a one-company connection; every token by its last four characters unless revealed", async () => {
    const companies = [
      { name: "Alpha", apiUrl: "http://127.0.0.1:1/v1", token: "alpha-secret-9f2c", adminId: 1001 },
      { name: "Beta", apiUrl: "http://127.0.0.1:1/v1", token: "beta-secret-77ab", adminId: 2001 },
    ];
    const single = JSON.parse((await rawRequest(server, "GET", "/control/info", {})).text);
    expect(single.companies).toEqual([
      { name: "", apiUrl: single.apiUrl, token: "••••9f2c", adminId: single.adminId },
    ]);
    const first = companies[0] as (typeof companies)[number];
    const connection = { apiUrl: first.apiUrl, token: first.token, adminId: first.adminId, companies };
    const masked = await startControlServer({ target: directTarget(em, connection) });
    const revealed = await startControlServer({ target: directTarget(em, connection), revealToken: true });
    try {
      const hidden = await rawRequest(masked, "GET", "/control/info", {});
      expect(JSON.parse(hidden.text)).toMatchObject({
        token: "••••9f2c",
        companies: [
          { name: "Alpha", apiUrl: first.apiUrl, token: "••••9f2c", adminId: 1001 },
          { name: "Beta", apiUrl: first.apiUrl, token: "••••77ab", adminId: 2001 },
        ],
      });
      expect(hidden.text).not.toMatch(/secret/);
      expect(JSON.parse((await rawRequest(revealed, "GET", "/control/info", {})).text).companies).toEqual(
        companies,
      );
    } finally {
      await masked.close();
      await revealed.close();
    }
  });

  it("gives the token in full only when told it is nobody's secret (revealToken)", async () => {
    const demo = await startControlServer({
      target: directTarget(em, { token: "sandbox-demo-token" }),
      revealToken: true,
    });
    try {
      expect(JSON.parse((await rawRequest(demo, "GET", "/control/info", {})).text).token).toBe(
        "sandbox-demo-token",
      );
    } finally {
      await demo.close();
    }
  });
});
