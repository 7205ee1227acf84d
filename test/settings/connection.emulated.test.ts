/**
 * The connection sidebar's server functions in the BUILT add-on, run by the Apps Script
 * emulation against the sandbox service: two users of one spreadsheet, each with their own
 * token; the token never reaches document or script properties or a log; the connection test
 * explains a good connection, a bad token, a wrong URL and an unreachable host.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { privateBuild } from "../../dev/bench/build";
import { createEmulator, type Emulator } from "../../dev/emulator/index";
import { servicePrefix } from "../../dev/emulator/settings";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import type { ConnectionTestResult, ConnectionView, SaveConnectionResult } from "../../src/settings";
import { SETTINGS_KEY, TOKEN_KEY } from "../../src/settings";
import { sidebarHtml } from "../support/sidebar-page";

const ANA = "ana@empresa.cl";
const BEN = "ben@empresa.cl";

let dist: string;
let sandbox: RunningSandbox;
let em: Emulator;

/** The bundle, plus the connection sidebar's page (the bundle alone has no HTML files). */
function build(): string {
  const dir = privateBuild();
  writeFileSync(join(dir, "connection.html"), sidebarHtml("connection"));
  return dir;
}

function run<T>(name: string, args: unknown[] = [], user = ANA): T {
  const out = em.tryRun(name, args, { as: "script.run", user });
  if (!out.ok) throw new Error(`${name} as ${user} failed: ${out.error}`);
  return out.result as T;
}

/** Everything anyone but the token's owner could read: document and script properties, logs. */
function sharedText(): string {
  return JSON.stringify([...em.documentPropertiesData.values, ...em.scriptPropertiesData.values, em.logs]);
}

beforeAll(async () => {
  dist = build();
  sandbox = await startSandboxThread({ seed: 3, funds: 4, reports: 4, latencyMs: 0, today: "2024-06-30" });
}, 120_000);

afterAll(async () => {
  await em?.close();
  await sandbox?.close();
});

beforeEach(async () => {
  await em?.close();
  em = createEmulator({
    distDir: dist,
    users: [ANA, BEN],
    timeZone: "America/Santiago",
    // The sandbox, and a host that never answers (allowed, so that its failure is a transport one).
    urlFetchAllowlist: [servicePrefix(sandbox.url), "http://127.0.0.1:1/"],
  });
});

describe("connection sidebar in the emulation", () => {
  it("opens from the menu with its page", () => {
    const out = em.tryRun("showConnectionSidebar", [], { as: "menu", user: ANA });
    expect(out.ok).toBe(true);
    expect(em.ui.sidebar?.title).toBe("Connection");
    expect(em.ui.sidebar?.html).toContain("serverFunctions");
  });

  it("a second user sees the shared settings but must enter a token of their own", () => {
    const saved = run<SaveConnectionResult>("saveConnectionSettings", [
      { baseUrl: sandbox.url, adminId: String(sandbox.adminId), token: sandbox.token },
    ]);
    expect(saved.ok).toBe(true);
    expect(run<ConnectionTestResult>("testConnection", [])).toMatchObject({ ok: true, kind: "ok" });

    const benView = run<ConnectionView>("getConnectionSettings", [], BEN);
    expect(benView).toMatchObject({
      baseUrl: sandbox.url,
      adminId: String(sandbox.adminId),
      token: { saved: false },
    });
    expect(run<ConnectionTestResult>("testConnection", [], BEN).kind).toBe("noToken");

    expect(em.userPropertiesOf(ANA).values.get(TOKEN_KEY)).toBe(sandbox.token);
    expect(em.userPropertiesOf(BEN).values.has(TOKEN_KEY)).toBe(false);
    expect(JSON.parse(em.documentPropertiesData.values.get(SETTINGS_KEY)!)).toMatchObject({
      baseUrl: sandbox.url,
    });
    expect(sharedText()).not.toContain(sandbox.token);
  });

  it("explains a bad token, a wrong URL and an unreachable host", () => {
    run("saveConnectionSettings", [{ baseUrl: sandbox.url, token: sandbox.token }]);
    const badToken = run<ConnectionTestResult>("testConnection", [{ token: "not-the-right-token-1234" }]);
    expect(badToken).toMatchObject({ ok: false, kind: "badToken", status: 401 });

    const wrongPath = run<ConnectionTestResult>("testConnection", [
      { baseUrl: sandbox.url.replace(/\/v1$/, "/v9") },
    ]);
    expect(wrongPath.ok).toBe(false);
    expect(["badUrl", "unexpected"]).toContain(wrongPath.kind);

    // Another host: the saved token is bound to the sandbox's origin, so the test types it again.
    const unreachable = run<ConnectionTestResult>("testConnection", [
      { baseUrl: "http://127.0.0.1:1/v1", token: sandbox.token },
    ]);
    expect(unreachable).toMatchObject({ ok: false, kind: "badUrl" });
    expect(sharedText()).not.toContain("not-the-right-token-1234");
  });

  it("checks what the sidebar sends: nothing is saved from a bad call", () => {
    for (const bad of [
      "junk",
      [1, 2],
      { baseUrl: "ftp://x", token: sandbox.token },
      { removeToken: "yes" },
    ]) {
      const r = run<SaveConnectionResult>("saveConnectionSettings", [bad]);
      expect(r.ok).toBe(false);
    }
    expect(em.documentPropertiesData.values.has(SETTINGS_KEY)).toBe(false);
    expect(em.userPropertiesOf(ANA).values.has(TOKEN_KEY)).toBe(false);
  });

  it("removes only this user's token", () => {
    run("saveConnectionSettings", [{ token: sandbox.token }], ANA);
    run("saveConnectionSettings", [{ token: "ben-own-token-567890" }], BEN);
    const r = run<SaveConnectionResult>("saveConnectionSettings", [{ removeToken: true }], BEN);
    expect(r.ok && r.view.token.saved).toBe(false);
    expect(em.userPropertiesOf(ANA).values.get(TOKEN_KEY)).toBe(sandbox.token);
  });
});
