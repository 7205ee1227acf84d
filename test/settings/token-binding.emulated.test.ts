/**
 * Between editors, through the BUILT add-on in the Apps Script emulation: Ben keeps his token in
 * his own user properties; Ana, another editor with no token, points the document's service URL
 * at a server of her own (a recorder on 127.0.0.1 that keeps every request's Authorization
 * header). Ben's menu refresh, scheduled refresh, refresh sidebar, connection tests, Outbox and
 * fund and report sidebars stop before any request with the notice, in his language; only Ben's
 * own confirmation in Settings binds his token to the new URL. A service URL that redirects, or
 * that the manifest's allowlist does not cover, never gets the token either, and the user is
 * told which host and why.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { privateBuild } from "../../dev/bench/build";
import { createEmulator, type Emulator, type EmulatorOptions } from "../../dev/emulator/index";
import { servicePrefix } from "../../dev/emulator/settings";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { readHistory } from "../../src/schedule/history";
import { TOKEN_KEY } from "../../src/settings";
import { ACCOUNT_MARKS_KEY } from "../../src/settings/account-mark";
import type { ConfirmTokenUrlResult, SaveSettingsResult, SettingsView } from "../../src/settings/view";
import { type RecordingServers, startRecordingServers } from "../support/recording-servers";

const ANA = "ana@empresa.cl";
const BEN = "ben@empresa.cl";
const HOUR = 60 * 60 * 1000;

let dist: string;
let sandbox: RunningSandbox;
let servers: RecordingServers;
let em: Emulator;

/** Ana's server: it would keep whatever token reaches it. */
const attackerUrl = () => `${servers.recorder}/v1`;

function newEmulator(options: EmulatorOptions = {}): Emulator {
  return createEmulator({
    triggerSeesSpreadsheet: true,
    distDir: dist,
    users: [ANA, BEN],
    timeZone: "America/Santiago",
    // A deployment whose allowlist also covers Ana's host (a wildcard, a shared gateway): the
    // binding alone must keep Ben's token from it.
    urlFetchAllowlist: [servicePrefix(sandbox.url), `${servers.recorder}/`, `${servers.redirector}/`],
    ...options,
  });
}

function run<T>(name: string, args: unknown[] = [], user = BEN): T {
  const out = em.tryRun(name, args, { as: "script.run", user });
  if (!out.ok) throw new Error(`${name} as ${user} failed: ${out.error}`);
  return out.result as T;
}

/** Saves the settings form as `user` sees it, with `changes`, and a token when given. */
function saveForm(user: string, changes: Record<string, string>, token?: string): SettingsView {
  const view = run<SettingsView>("getSettingsView", [], user);
  const saved = run<SaveSettingsResult>("saveSettings", [{ ...view.form, ...changes }, token ?? ""], user);
  if (!saved.ok) throw new Error(`saveSettings as ${user}: ${JSON.stringify(saved.problems)}`);
  return saved.view;
}

/**
 * Ben enters his token for the sandbox (its save reads the account once, at the sandbox); then
 * Ana points the document at her server. Answers Ben's UrlFetch count by then.
 */
function anaRedirectsBensToken(): number {
  saveForm(BEN, { baseUrl: sandbox.url, adminId: String(sandbox.adminId) }, sandbox.token);
  saveForm(ANA, { baseUrl: attackerUrl() });
  return em.urlFetchToday(BEN);
}

function lastAlert(): string {
  const last = em.ui.dialogs[em.ui.dialogs.length - 1];
  return last ? `${last.title} ${last.prompt}` : "";
}

function history() {
  return readHistory(Object.fromEntries(em.documentPropertiesData.values)).runs;
}

const NOTICE = () =>
  `The service URL was changed by another editor to ${attackerUrl()}: confirm it in Settings to use your token there.`;

beforeAll(async () => {
  dist = privateBuild();
  sandbox = await startSandboxThread({ seed: 5, funds: 4, reports: 6, latencyMs: 0, today: "2024-06-30" });
  servers = await startRecordingServers();
}, 120_000);

afterAll(async () => {
  await em?.close();
  await sandbox?.close();
  await servers?.close();
});

beforeEach(async () => {
  await em?.close();
  await servers.clear();
  em = newEmulator();
});

describe("another editor changes the service URL", () => {
  it("Ben's menu refresh sends nothing to Ana's server and tells him why", async () => {
    const bensSave = anaRedirectsBensToken();
    em.answers.push("OK");
    const out = em.tryRun("refreshAll", [], { as: "menu", user: BEN });
    expect(out.ok).toBe(true);
    expect(lastAlert()).toContain(NOTICE());
    expect(await servers.records()).toEqual([]);
    expect(em.urlFetchToday(BEN)).toBe(bensSave);
  });

  it("Ben's scheduled refresh sends nothing to Ana's server, and the run history records the notice", async () => {
    saveForm(BEN, { baseUrl: sandbox.url, adminId: String(sandbox.adminId) }, sandbox.token);
    run("saveSchedule", [{ kind: "hours", every: 1 }]);
    saveForm(ANA, { baseUrl: attackerUrl() });
    em.advanceTime(HOUR + 60_000);
    const fired = em.fireTimeTriggers();
    expect(fired.map((f) => [f.handler, f.user])).toEqual([["runScheduledRefresh", BEN]]);
    const [last] = history();
    expect(last).toMatchObject({ source: "schedule", outcome: "failed", calls: 0 });
    expect(last?.message).toContain(NOTICE());
    expect(await servers.records()).toEqual([]);
    expect(JSON.stringify(em.documentPropertiesData.values)).not.toContain(sandbox.token);
  });

  it("every other path that uses the token stops before any request with the same notice", async () => {
    const bensSave = anaRedirectsBensToken();
    const notices: Record<string, string> = {};
    const refresh = run<{ ok: boolean; message: string }>("refreshFromSidebar", ["funds"]);
    notices.refreshSidebar = refresh.message;
    const settingsRun = run<{ runs: { message: string }[] }>("runRefreshFromSettings");
    notices.refreshFromSettings = settingsRun.runs[0]?.message ?? "";
    const form = run<SettingsView>("getSettingsView").form;
    notices.settingsTest = run<{ message: string }>("testSettingsConnection", [
      { baseUrl: form.baseUrl },
    ]).message;
    for (const fn of ["previewOutbox", "runOutbox"]) {
      const out = em.tryRun(fn, [], { as: "menu", user: BEN });
      notices[fn] = out.ok ? lastAlert() : out.error;
    }
    for (const fn of ["getFundSidebarView", "getReportSidebarView"]) {
      const out = em.tryRun(fn, [{ fundId: 1 }], { as: "script.run", user: BEN });
      notices[fn] = out.ok ? JSON.stringify(out.result) : out.error;
    }
    const deposit = em.tryRun("depositToFund", [{ requestId: "r-1", Id: 1, DepositAmount: "1.00" }], {
      as: "script.run",
      user: BEN,
    });
    notices.depositForm = deposit.ok ? JSON.stringify(deposit.result) : deposit.error;
    for (const [path, text] of Object.entries(notices)) expect(text, path).toContain(NOTICE());
    expect(await servers.records()).toEqual([]);
    expect(em.urlFetchToday(BEN)).toBe(bensSave);
  });

  it("the notice is in the user's language", async () => {
    await em.close();
    em = newEmulator({ locale: "es_CL" });
    saveForm(BEN, { baseUrl: sandbox.url, adminId: String(sandbox.adminId), language: "" }, sandbox.token);
    saveForm(ANA, { baseUrl: attackerUrl(), language: "" });
    em.answers.push("OK");
    em.tryRun("refreshFunds", [], { as: "menu", user: BEN });
    expect(lastAlert()).toContain(
      `Otro editor cambió la URL del servicio a ${attackerUrl()}: confírmela en Configuración para usar su token allí.`,
    );
    expect(await servers.records()).toEqual([]);
  });

  it("only Ben's own confirmation in Settings binds his token to the new URL", async () => {
    anaRedirectsBensToken();
    const view = run<SettingsView>("getSettingsView");
    expect(view.token).toMatchObject({
      saved: true,
      host: new URL(sandbox.url).host,
      confirmUrl: attackerUrl(),
    });
    // Ana cannot confirm for Ben (she has no token; hers is the only store her execution reaches).
    expect(run<ConfirmTokenUrlResult>("confirmMyTokenUrl", [attackerUrl()], ANA).ok).toBe(false);
    // A confirmation of a URL the document no longer has binds nothing.
    expect(run<ConfirmTokenUrlResult>("confirmMyTokenUrl", [sandbox.url]).ok).toBe(false);
    expect(await servers.records()).toEqual([]);
    // Ben's save marked the first company's account: his confirmation binds the token only if it
    // opens that account at the new URL, which the recorder cannot show. Refused, nothing bound.
    const unchecked = run<ConfirmTokenUrlResult>("confirmMyTokenUrl", [attackerUrl()]);
    expect(unchecked.ok).toBe(false);
    if (!unchecked.ok) expect(unchecked.message).toMatch(/^This token could not be checked against /);
    expect(unchecked.view.token).toMatchObject({
      host: new URL(sandbox.url).host,
      confirmUrl: attackerUrl(),
    });
    // Unmarked (a document from before marks were taken), his confirmation binds it as before.
    em.documentPropertiesData.values.delete(ACCOUNT_MARKS_KEY);
    const confirmed = run<ConfirmTokenUrlResult>("confirmMyTokenUrl", [attackerUrl()]);
    expect(confirmed.ok).toBe(true);
    expect(confirmed.view.token).toMatchObject({ host: new URL(attackerUrl()).host, confirmUrl: "" });
    em.answers.push("OK");
    em.tryRun("refreshFunds", [], { as: "menu", user: BEN });
    const records = await servers.records();
    expect(records.length).toBeGreaterThan(0);
    expect(records[0]?.authorization).toBe(`Bearer ${sandbox.token}`);
  });

  it("the settings Ben opens say that the IdAdmin is another editor's, until his save makes it his", () => {
    saveForm(BEN, { baseUrl: sandbox.url, adminId: "7" }, sandbox.token);
    expect(run<SettingsView>("getSettingsView").adminIssue).toBe("");
    saveForm(ANA, { adminId: "8" });
    expect(run<SettingsView>("getSettingsView").adminIssue).toBe(
      "IdAdmin 8 is not the one you saved (7): save it in Settings to write as 8.",
    );
    expect(saveForm(BEN, {}).adminIssue).toBe("");
  });

  it("a token saved before tokens were bound goes nowhere until its owner confirms the URL", async () => {
    saveForm(BEN, { baseUrl: sandbox.url, adminId: String(sandbox.adminId) });
    em.userPropertiesOf(BEN).values.set(TOKEN_KEY, sandbox.token);
    em.answers.push("OK");
    em.tryRun("refreshFunds", [], { as: "menu", user: BEN });
    expect(lastAlert()).toContain(
      `The service URL is ${sandbox.url}: confirm it in Settings to use your token there.`,
    );
    expect(em.urlFetchToday(BEN)).toBe(0);
    expect(run<SettingsView>("getSettingsView").token).toMatchObject({ host: "", confirmUrl: sandbox.url });
    expect(run<ConfirmTokenUrlResult>("confirmMyTokenUrl", [sandbox.url]).ok).toBe(true);
    expect(run<{ ok: boolean }>("refreshFromSidebar", ["funds"]).ok).toBe(true);
    expect(em.urlFetchToday(BEN)).toBeGreaterThan(0);
  });
});

describe("where a request may go", () => {
  it("a service URL that redirects: the token never reaches the new host, and the user is told which host", async () => {
    saveForm(BEN, { baseUrl: `${servers.redirector}/v1`, adminId: "7" }, "ben-token-0123456789");
    em.answers.push("OK");
    em.tryRun("refreshFunds", [], { as: "menu", user: BEN });
    const recorderHost = new URL(servers.recorder).host;
    expect(lastAlert()).toContain(`a redirect to host ${recorderHost}`);
    const test = run<{ ok: boolean; message: string }>("testSettingsConnection", [{}]);
    expect(test.ok).toBe(false);
    expect(test.message).toMatch(
      new RegExp(`answered with a redirect \\(HTTP \\d+\\) to host ${recorderHost}`),
    );
    expect(await servers.records()).toEqual([]);
  });

  it("a service URL outside the manifest's allowlist reaches the user as that reason, and nothing is sent", async () => {
    await em.close();
    // This deployment's allowlist covers the sandbox only.
    em = newEmulator({ urlFetchAllowlist: [servicePrefix(sandbox.url)] });
    const view = saveForm(BEN, { baseUrl: attackerUrl(), adminId: "7" }, "ben-token-0123456789");
    // The built manifest's list reaches the form, which warns about this URL.
    expect(view.allowlist).toEqual(["https://api.rindegastos.com/"]);
    em.answers.push("OK");
    em.tryRun("refreshFunds", [], { as: "menu", user: BEN });
    expect(lastAlert()).toContain("failed because the URL has not been whitelisted in the script manifest");
    const test = run<{ ok: boolean; message: string }>("testSettingsConnection", [{}]);
    expect(test.message).toMatch(/^Apps Script refused to call this address, sending nothing/);
    expect(test.message).not.toContain("does not lead to the service");
    expect(await servers.records()).toEqual([]);
    expect(em.urlFetchToday(BEN)).toBe(0);
  });
});
