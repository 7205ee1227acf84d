/**
 * The connection, edited and tested in the settings sidebar's Connection section, in the BUILT
 * add-on run by the Apps Script emulation against the sandbox service: the menu's
 * "Connection…" opens the settings sidebar there; two users of one spreadsheet, each with their
 * own token; the token never reaches document or script properties or a log; the connection
 * test explains a good connection, a bad token, a wrong URL and an unreachable host.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { privateBuild } from "../../dev/bench/build";
import type { Emulator } from "../../dev/emulator/index";
import { servicePrefix } from "../../dev/emulator/settings";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { SETTINGS_KEY, TOKEN_KEY } from "../../src/settings";
import type { ConnectionCheck, SaveSettingsResult, SettingsView } from "../../src/settings/view";
import { closeAll, emulatorOf } from "../support/emulation";
import { sidebarHtml } from "../support/sidebar-page";

const ANA = "ana@empresa.cl";
const BEN = "ben@empresa.cl";

let dist: string;
let sandbox: RunningSandbox;
let em: Emulator;

/** The bundle, plus the settings sidebar's page (the bundle alone has no HTML files). */
function build(): string {
  const dir = privateBuild();
  writeFileSync(join(dir, "settings.html"), sidebarHtml("settings"));
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

afterAll(() => closeAll(em, sandbox));

beforeEach(async () => {
  await em?.close();
  em = emulatorOf(dist, [ANA, BEN], {
    // The sandbox, and a host that never answers (allowed, so that its failure is a transport one).
    urlFetchAllowlist: [servicePrefix(sandbox.url), "http://127.0.0.1:1/"],
  });
});

describe("the connection in the settings sidebar, in the emulation", () => {
  it("“Connection…” opens the settings sidebar on its Connection section; “Settings…” on its top", () => {
    expect(em.tryRun("showConnectionSidebar", [], { as: "menu", user: ANA }).ok).toBe(true);
    expect(em.ui.sidebar?.title).toBe("Settings");
    expect(em.ui.sidebar?.html).toContain("serverFunctions");
    expect(em.ui.sidebar?.html).toContain('<meta name="open-section" content="connection">');
    expect(em.tryRun("showSettingsSidebar", [], { as: "menu", user: ANA }).ok).toBe(true);
    expect(em.ui.sidebar?.html).not.toContain('<meta name="open-section"');
  });

  it("a second user sees the shared settings but must enter a token of their own", () => {
    const saved = run<SaveSettingsResult>("saveSettings", [
      { baseUrl: sandbox.url, adminId: String(sandbox.adminId) },
      sandbox.token,
    ]);
    expect(saved.ok).toBe(true);
    expect(run<ConnectionCheck>("testSettingsConnection", [{}])).toMatchObject({ ok: true });

    const benView = run<SettingsView>("getSettingsView", [], BEN);
    expect(benView.form).toMatchObject({ baseUrl: sandbox.url, adminId: String(sandbox.adminId) });
    expect(benView.token).toMatchObject({ saved: false });
    expect(run<ConnectionCheck>("testSettingsConnection", [{}], BEN).message).toBe(
      "No access token is saved for you. Enter your token and save it first.",
    );

    expect(em.userPropertiesOf(ANA).values.get(TOKEN_KEY)).toBe(sandbox.token);
    expect(em.userPropertiesOf(BEN).values.has(TOKEN_KEY)).toBe(false);
    expect(JSON.parse(em.documentPropertiesData.values.get(SETTINGS_KEY)!)).toMatchObject({
      baseUrl: sandbox.url,
    });
    expect(sharedText()).not.toContain(sandbox.token);
  });

  it("explains a bad token, a wrong URL and an unreachable host", () => {
    run("saveSettings", [{ baseUrl: sandbox.url }, sandbox.token]);
    const badToken = run<ConnectionCheck>("testSettingsConnection", [{ token: "not-the-right-token-1234" }]);
    expect(badToken.ok).toBe(false);
    expect(badToken.message).toMatch(/^The service refused the access token \(HTTP 401\)/);

    const wrongPath = run<ConnectionCheck>("testSettingsConnection", [
      { baseUrl: sandbox.url.replace(/\/v1$/, "/v9") },
    ]);
    expect(wrongPath.ok).toBe(false);
    expect(wrongPath.message).toMatch(
      /^The (service URL does not lead to the service|address answered, but not like)/,
    );

    // Another host: the saved token is bound to the sandbox's origin, so the test types it again.
    const unreachable = run<ConnectionCheck>("testSettingsConnection", [
      { baseUrl: "http://127.0.0.1:1/v1", token: sandbox.token },
    ]);
    expect(unreachable.ok).toBe(false);
    expect(unreachable.message).toMatch(/^The service URL does not lead to the service/);
    expect(sharedText()).not.toContain("not-the-right-token-1234");
  });

  it("checks what the sidebar sends: nothing is saved from a bad call", () => {
    for (const [form, token] of [
      ["junk", undefined],
      [[1, 2], undefined],
      [{ baseUrl: "ftp://x" }, sandbox.token],
      [{}, "has space"],
    ] as const) {
      const r = run<SaveSettingsResult>("saveSettings", [form, token]);
      expect(r.ok).toBe(false);
    }
    expect(run<ConnectionCheck>("testSettingsConnection", ["junk"]).ok).toBe(false);
    expect(em.documentPropertiesData.values.has(SETTINGS_KEY)).toBe(false);
    expect(em.userPropertiesOf(ANA).values.has(TOKEN_KEY)).toBe(false);
  });

  it("removes only this user's token", () => {
    run("saveSettings", [{}, sandbox.token], ANA);
    run("saveSettings", [{}, "ben-own-token-567890"], BEN);
    const r = run<SettingsView>("removeMyToken", [], BEN);
    expect(r.token.saved).toBe(false);
    expect(em.userPropertiesOf(ANA).values.get(TOKEN_KEY)).toBe(sandbox.token);
  });
});
