/**
 * The scheduled refresh of the BUILT add-on in the Apps Script emulation, against the sandbox:
 * two users of one spreadsheet, trigger churn (install, change, duplicate, disable), lock
 * contention, the failure notice and e-mail, the quota refusal, and onOpen/onInstall.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../dev/emulator/index";
import { storeToken } from "../../dev/emulator/settings";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { LEDGER_KEY } from "../../src/app/quota";
import { SETTINGS_FORM_KEY, TOKEN_KEY } from "../../src/app/refresh";
import { readHistory } from "../../src/schedule/history";
import type { ScheduleSidebarView } from "../../src/schedule/view";
import type { SettingsView } from "../../src/settings/view";
import { privateBuild } from "../refresh/emulation";
import { settingsSidebarHtml } from "../settings-sidebar/html";
import { closeAll, emulatorOf, sandboxControl } from "../support/emulation";

const ANA = "ana@empresa.cl";
const BEN = "ben@empresa.cl";
const HOUR = 3_600_000;

let dist: string;
let sandbox: RunningSandbox;
let em: Emulator;

const control = (path: string, body?: unknown, method?: string) =>
  sandboxControl(sandbox, path, body, method);

function run<T>(name: string, args: unknown[] = [], user = ANA): T {
  const out = em.tryRun(name, args, { as: "script.run", user });
  if (!out.ok) throw new Error(`${name} as ${user} failed: ${out.error}`);
  return out.result as T;
}

function refreshTriggers() {
  return em.listTriggers().filter((t) => t.handler === "runScheduledRefresh");
}

function history() {
  return readHistory(Object.fromEntries(em.documentPropertiesData.values)).runs;
}

/** Every property value of every store, to prove where the token is and is not. */
function allDocumentAndScriptValues(): string {
  return JSON.stringify([...em.documentPropertiesData.values, ...em.scriptPropertiesData.values]);
}

beforeAll(async () => {
  dist = privateBuild();
  writeFileSync(join(dist, "settings.html"), settingsSidebarHtml());
  sandbox = await startSandboxThread({ seed: 11, funds: 6, reports: 12, latencyMs: 0, today: "2024-06-30" });
}, 120_000);

afterAll(() => closeAll(em, sandbox));

beforeEach(async () => {
  await em?.close();
  await control("reset", { seed: 11, funds: 6, reports: 12 });
  em = emulatorOf(dist, [ANA, BEN], { triggerSeesSpreadsheet: true, serviceUrl: sandbox.url });
  em.documentPropertiesData.values.set(
    SETTINGS_FORM_KEY,
    JSON.stringify({
      baseUrl: sandbox.url,
      windowMode: "range",
      windowFrom: "2023-07-01",
      windowTo: "2024-06-30",
    }),
  );
  storeToken(em, ANA, sandbox.token, sandbox.url);
});

describe("opening and installing", () => {
  it("builds only the menu in AuthMode.NONE, reading no properties", () => {
    const before = em.counters.properties.reads;
    const out = em.open({ authMode: "NONE" });
    expect(out.ok).toBe(true);
    expect(em.counters.properties.reads).toBe(before);
    const items = em.ui.addonMenuItems().map((i) => i.function);
    expect(items).toContain("showSettingsSidebar");
    expect(items).not.toContain("");
  });

  it("opens the settings sidebar from the menu, titled in the user's language", () => {
    const out = em.tryRun("showSettingsSidebar", [], { as: "menu" });
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect(em.ui.sidebar).toMatchObject({ title: "Settings", width: 300 });
    expect(em.ui.sidebar?.html).toContain('id="app"');
    expect(em.ui.sidebar?.html).not.toContain(sandbox.token);
  });

  it("builds the menu from onInstall (add-on installed from the store)", () => {
    const out = em.install({ user: BEN });
    expect(out.ok).toBe(true);
    expect(em.ui.addonMenuItems().map((i) => i.function)).toContain("showSettingsSidebar");
  });
});

describe("two users of one spreadsheet", () => {
  it("shares the settings but never the token: the second user must enter their own", () => {
    const saved = run<{ ok: boolean; view: SettingsView }>("saveSettings", [
      { ...run<SettingsView>("getSettingsView").form, pageSize: "50" },
      "ana-token-123456",
    ]);
    expect(saved.ok).toBe(true);
    expect(em.userPropertiesOf(ANA).values.get(TOKEN_KEY)).toBe("ana-token-123456");

    const benView = run<SettingsView>("getSettingsView", [], BEN);
    expect(benView.form.pageSize).toBe("50");
    expect(benView.form.baseUrl).toBe(sandbox.url);
    expect(benView.token.saved).toBe(false);
    expect(JSON.stringify(benView)).not.toContain("ana-token");
    expect(run<{ ok: boolean; message: string }>("testSettingsConnection", [], BEN)).toEqual({
      ok: false,
      message: "No access token is saved for you. Enter your token and save it first.",
    });

    run("saveSettings", [benView.form, sandbox.token], BEN);
    expect(em.userPropertiesOf(BEN).values.get(TOKEN_KEY)).toBe(sandbox.token);
    expect(em.userPropertiesOf(ANA).values.get(TOKEN_KEY)).toBe("ana-token-123456");
    expect(run<{ ok: boolean; message: string }>("testSettingsConnection", [], BEN)).toMatchObject({
      ok: true,
    });
    expect(run<{ ok: boolean; message: string }>("testSettingsConnection", [], ANA)).toEqual({
      ok: false,
      message: expect.stringMatching(/^The service refused the access token \(HTTP 401\)\./),
    });
    expect(allDocumentAndScriptValues()).not.toContain("ana-token-123456");
    expect(allDocumentAndScriptValues()).not.toContain(sandbox.token);

    run("removeMyToken", [], BEN);
    expect(em.userPropertiesOf(BEN).values.has(TOKEN_KEY)).toBe(false);
    expect(em.userPropertiesOf(ANA).values.get(TOKEN_KEY)).toBe("ana-token-123456");
  });

  it("tests the connection from what the form shows and says plainly what is wrong", async () => {
    type Check = { ok: boolean; message: string };
    const test = (input: Record<string, string>, user = ANA) =>
      run<Check>("testSettingsConnection", [input], user);
    expect(test({ baseUrl: sandbox.url })).toEqual({
      ok: true,
      message: expect.stringMatching(/^Connected: the service answered and lists \d+ funds\.$/),
    });
    // Before saving anything: Ben tries the token he typed.
    expect(test({ baseUrl: sandbox.url, token: sandbox.token }, BEN).ok).toBe(true);
    expect(em.userPropertiesOf(BEN).values.has(TOKEN_KEY)).toBe(false);
    expect(test({ baseUrl: sandbox.url, token: "wrong-token-123" }, BEN).message).toMatch(
      /^The service refused the access token \(HTTP 401\)\./,
    );
    expect(test({ baseUrl: "http://evil.example/v1" }).message).toBe(
      'The settings are not valid: baseUrl must start with https:// so that the token travels encrypted (got "http://evil.example/v1").',
    );
    expect(test({ baseUrl: `${sandbox.url}/nope` }).message).toMatch(
      /^The service URL does not lead to the service \(HTTP 404\)/,
    );
    await control("faults", { rules: [{ endpoint: "*", fault: "status", status: 503, times: 1 }] });
    expect(test({ baseUrl: sandbox.url }).message).toBe(
      "The service is down or unreachable (HTTP 503). Try again later.",
    );
    await control("faults", { rules: [{ endpoint: "*", fault: "error-in-200", times: 1 }] });
    expect(test({ baseUrl: sandbox.url }).message).toMatch(
      /^The service reported an error inside a successful answer: /,
    );
    await control("faults", undefined, "DELETE");
    expect(JSON.stringify(em.logs)).not.toContain(sandbox.token);
  });

  it("the connection test, in the settings sidebar only, tries what the form shows", async () => {
    type Check = { ok: boolean; message: string };
    const both = (input: Record<string, string>, user = ANA) =>
      run<Check>("testSettingsConnection", [input], user);
    // The connection sidebar's own functions are gone: one place edits and tests the connection.
    expect(em.tryRun("testConnection", [{}], { as: "script.run", user: ANA }).ok).toBe(false);
    expect(both({ baseUrl: sandbox.url }).ok).toBe(true);
    expect(both({ baseUrl: sandbox.url, token: "wrong-token-123" }).ok).toBe(false);
    expect(both({ baseUrl: "http://evil.example/v1" }).ok).toBe(false);
    expect(both({ baseUrl: `${sandbox.url}/nope` }).ok).toBe(false);
    expect(both({ baseUrl: sandbox.url }, BEN).ok).toBe(false);
    await control("faults", { rules: [{ endpoint: "*", fault: "status", status: 503, times: 2 }] });
    expect(both({ baseUrl: sandbox.url }).message).toMatch(/^The service is down or unreachable/);
    await control("faults", undefined, "DELETE");
  });

  it("refuses a bad save whole, naming the field, and keeps what was there", () => {
    const form = run<SettingsView>("getSettingsView").form;
    const out = run<{ ok: false; problems: { field: string; message: string }[] }>("saveSettings", [
      { ...form, pageSize: "5000", baseUrl: "ftp://x" },
      "new-token-abcdef",
    ]);
    expect(out.ok).toBe(false);
    expect(out.problems.map((p) => p.field)).toEqual(["baseUrl", "pageSize"]);
    expect(run<SettingsView>("getSettingsView").form.baseUrl).toBe(sandbox.url);
    expect(em.userPropertiesOf(ANA).values.get(TOKEN_KEY)).toBe(sandbox.token);
  });
});

describe("trigger churn", () => {
  it("keeps exactly one refresh trigger whatever is clicked: install, change, repeat, remove", () => {
    run("saveSchedule", [{ kind: "hours", every: 4 }]);
    expect(refreshTriggers()).toHaveLength(1);
    const first = refreshTriggers()[0].uid;
    run("saveSchedule", [{ kind: "daily", hour: 9 }]);
    run("saveSchedule", [{ kind: "daily", hour: 9 }]);
    run("saveSchedule", [{ kind: "hours", every: 1 }]);
    expect(refreshTriggers()).toHaveLength(1);
    expect(refreshTriggers()[0].uid).not.toBe(first);
    expect(refreshTriggers()[0].schedule).toMatchObject({ kind: "hours", every: 1 });
    const view = run<ScheduleSidebarView>("getScheduleView");
    expect(view).toMatchObject({ label: "Every hour", owner: ANA, mine: true });
    expect(view.nextRun).not.toBeNull();
    run("saveSchedule", [{ kind: "off" }]);
    expect(refreshTriggers()).toHaveLength(0);
    expect(() => run("saveSchedule", [{ kind: "hours", every: 3 }])).toThrow(
      "every: must be one of 1, 2, 4, 6, 8, 12 hours",
    );
  });

  it("when a second user takes the schedule over, the first user's trigger removes itself instead of refreshing", () => {
    storeToken(em, BEN, sandbox.token, sandbox.url);
    run("saveSchedule", [{ kind: "hours", every: 2 }], ANA);
    run("saveSchedule", [{ kind: "hours", every: 2 }], BEN);
    // Nobody sees another user's triggers: Ana's is still there until it fires.
    expect(
      refreshTriggers()
        .map((t) => t.creator)
        .sort(),
    ).toEqual([ANA, BEN]);
    em.advanceTime(2 * HOUR + 60_000);
    const fired = em.fireTimeTriggers();
    expect(fired.every((f) => f.ok)).toBe(true);
    expect(refreshTriggers().map((t) => t.creator)).toEqual([BEN]);
    const runs = history();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ source: "schedule", outcome: "ok", user: BEN });
  });

  it("removes a duplicate trigger it did not record", () => {
    run("saveSchedule", [{ kind: "hours", every: 4 }]);
    const kept = refreshTriggers()[0];
    // A trigger left behind by an older version of the add-on (the add-on limit would refuse to make one now).
    em.triggers.triggers.push({ ...kept, uid: "left-behind", runs: 0 });
    expect(refreshTriggers()).toHaveLength(2);
    run("getScheduleView");
    expect(refreshTriggers().map((t) => t.uid)).toEqual([kept.uid]);
  });

  it("re-creates a disabled trigger once runs are missing for longer than the schedule allows", () => {
    run("saveSchedule", [{ kind: "hours", every: 1 }]);
    const old = refreshTriggers()[0].uid;
    em.disableTrigger(old);
    em.advanceTime(90 * 60_000);
    expect(em.fireTimeTriggers()).toEqual([]);
    expect(run<ScheduleSidebarView>("getScheduleView").repaired).toBe(false);
    em.advanceTime(60 * 60_000);
    // Anyone opening the sheet sees that the schedule stopped; only its owner can re-create it.
    em.open({ user: BEN });
    expect(em.ui.addonMenuItems()[0]).toEqual({
      label: "⚠ Scheduled refresh has stopped",
      function: "showSettingsSidebar",
    });
    const view = run<ScheduleSidebarView>("getScheduleView", [], ANA);
    expect(view.repaired).toBe(true);
    expect(refreshTriggers()).toHaveLength(1);
    expect(refreshTriggers()[0].uid).not.toBe(old);
    em.advanceTime(HOUR + 60_000);
    const fired = em.fireTimeTriggers();
    expect(fired.map((f) => f.ok)).toEqual([true]);
    expect(history()[0]).toMatchObject({ source: "schedule", outcome: "ok" });
  });
});

describe("scheduled runs", () => {
  it("records what each run did and shows it in the sidebar", () => {
    run("saveSchedule", [{ kind: "hours", every: 4 }]);
    em.advanceTime(4 * HOUR + 60_000);
    const fired = em.fireTimeTriggers();
    expect(fired).toHaveLength(1);
    expect(fired[0].ok).toBe(true);
    const [last] = history();
    expect(last).toMatchObject({ source: "schedule", outcome: "ok", user: ANA });
    expect(last.refreshed).toEqual(["funds", "transactions", "reports"]);
    expect(last.records).toBeGreaterThan(0);
    expect(last.calls).toBe(em.urlFetchToday(ANA));
    expect(JSON.parse(em.userPropertiesOf(ANA).values.get(LEDGER_KEY) ?? "{}").calls).toBe(last.calls);
    const view = run<ScheduleSidebarView>("getScheduleView");
    expect(view.runs[0]).toMatchObject({ outcome: "ok", calls: last.calls, records: last.records });
  });

  it("records a run that cannot get the document lock as skipped, and never refreshes twice", () => {
    run("saveSchedule", [{ kind: "hours", every: 1 }]);
    const held = em.holdLock("document");
    em.advanceTime(HOUR + 60_000);
    em.resetCounters();
    expect(em.fireTimeTriggers().map((f) => f.ok)).toEqual([true]);
    expect(em.counters.urlFetchTotal).toBe(0);
    expect(history().map((r) => r.outcome)).toEqual(["skipped"]);
    held.release();
    em.advanceTime(HOUR);
    em.fireTimeTriggers();
    expect(history().map((r) => r.outcome)).toEqual(["ok", "skipped"]);
  });

  it("shows a failed scheduled run to everyone who opens the sheet and e-mails the owner who asked", async () => {
    run("saveSchedule", [{ kind: "hours", every: 1 }]);
    run("saveSchedulePreferences", [{ mailOnFailure: true }]);
    await control("faults", { rules: [{ endpoint: "*", fault: "status", status: 500, times: 50 }] });
    em.advanceTime(HOUR + 60_000);
    expect(em.fireTimeTriggers().map((f) => f.ok)).toEqual([true]);
    expect(history()[0]).toMatchObject({ outcome: "failed" });

    const toastsBefore = em.ui.toasts.length;
    em.open({ user: BEN });
    expect(em.ui.addonMenuItems()[0]).toEqual({
      label: "⚠ Last scheduled refresh failed",
      function: "showSettingsSidebar",
    });
    // Opening the spreadsheet also says so in the corner, with what was kept and what to do.
    expect(em.ui.toasts.slice(toastsBefore).map((t) => t.message)).toEqual([
      "The last scheduled refresh failed; the sheets keep the data of the refresh before it. Open Settings from the add-on's menu to see why.",
    ]);
    const benView = run<ScheduleSidebarView>("getScheduleView", [], BEN);
    expect(benView.notice?.kind).toBe("failed");
    expect(benView.notice?.text).toContain("HTTP 500");

    expect(em.mails).toHaveLength(1);
    expect(em.mails[0]).toMatchObject({ to: ANA });
    expect(em.mails[0].subject).toMatch(/^Scheduled refresh failed: /);
    expect(em.mails[0].body).toContain("HTTP 500");
    expect(JSON.stringify(em.mails)).not.toContain(sandbox.token);

    await control("faults", undefined, "DELETE");
    em.advanceTime(HOUR);
    em.fireTimeTriggers();
    const toastsAfterFix = em.ui.toasts.length;
    em.open({ user: BEN });
    expect(em.ui.addonMenuItems().map((i) => i.label)).not.toContain("⚠ Last scheduled refresh failed");
    expect(em.ui.toasts.length).toBe(toastsAfterFix);
    expect(em.mails).toHaveLength(1);
  });

  it("sends no e-mail to an owner who did not ask, and lets anyone dismiss the notice", async () => {
    run("saveSchedule", [{ kind: "hours", every: 1 }]);
    await control("faults", { rules: [{ endpoint: "*", fault: "status", status: 500, times: 50 }] });
    em.advanceTime(HOUR + 60_000);
    em.fireTimeTriggers();
    expect(em.mails).toHaveLength(0);
    const view = run<ScheduleSidebarView>("getScheduleView", [], BEN);
    const dismissed = run<ScheduleSidebarView>("dismissScheduleNotice", [view.notice?.runId], BEN);
    expect(dismissed.notice).toBeNull();
    em.open({ user: ANA });
    expect(em.ui.addonMenuItems()[0].function).not.toBe("showSettingsSidebar");
  });

  it("refuses to start a run that cannot finish within today's UrlFetch quota", () => {
    run("saveSchedule", [{ kind: "hours", every: 1 }]);
    // The account kind is the user's word (never guessed from the address): Workspace here.
    run("saveSchedulePreferences", [{ mailOnFailure: true, accountKind: "workspace" }]);
    em.advanceTime(HOUR + 60_000);
    em.fireTimeTriggers();
    const needed = history()[0].calls;
    expect(needed).toBeGreaterThan(0);
    // Today's count as the add-on keeps it, a few calls short of what the refresh needs.
    const ledger = JSON.parse(em.userPropertiesOf(ANA).values.get(LEDGER_KEY) ?? "{}");
    em.userPropertiesOf(ANA).values.set(LEDGER_KEY, JSON.stringify({ ...ledger, calls: 100_000 - needed }));
    const before = em.urlFetchToday(ANA);
    em.advanceTime(HOUR);
    em.fireTimeTriggers();
    expect(em.urlFetchToday(ANA)).toBe(before);
    expect(history()[0]).toMatchObject({ outcome: "refused" });
    expect(history()[0].message).toMatch(
      /^Not started: this refresh needs about \d+ calls and only \d+ of the 100000 UrlFetch calls allowed in 24 hours are left\.$/,
    );
    expect(em.mails.map((m) => m.subject)).toHaveLength(1);
    expect(run<ScheduleSidebarView>("getScheduleView").quota.verdict).toBe("refuse");
  });
});

describe("what a time trigger really gets", () => {
  const cases = [
    {
      gap: "spreadsheet" as const,
      message:
        /^Google started the scheduled run without the spreadsheet \(getActiveSpreadsheet gave nothing\)/,
    },
    {
      gap: "documentLock" as const,
      message: /^Google started the scheduled run without the document lock \(getDocumentLock gave nothing\)/,
    },
    {
      gap: "documentProperties" as const,
      message: /^Google started the scheduled run without the document's properties/,
    },
  ];
  for (const { gap, message } of cases) {
    it(`a trigger given no ${gap} records a history entry saying so, never a TypeError`, () => {
      expect(em.tryRun("saveSchedule", [{ kind: "hours", every: 1 }], { user: ANA }).ok).toBe(true);
      em.triggerGaps[gap] = true;
      em.advanceTime(3_600_000 + 60_000);
      const fired = em.fireTimeTriggers();
      expect(fired.map((f) => [f.handler, f.ok, f.ok ? "" : f.error])).toEqual([
        ["runScheduledRefresh", true, ""],
      ]);
      em.triggerGaps[gap] = false;
      // The settings sidebar (not a trigger) reads the history: the entry is there, with its reason.
      const view = run<ScheduleSidebarView>("getScheduleView", [], ANA);
      expect(view.runs[0]).toMatchObject({ outcome: "failed" });
      expect(view.runs[0]?.message).toMatch(message);
      expect(em.urlFetchToday(ANA)).toBe(0);
    });
  }
});

describe("the emulation's default: a clock trigger without its spreadsheet", () => {
  /** The same document and users, in an emulator left at its default (the stricter reading). */
  function strictEmulator(): Emulator {
    const strict = emulatorOf(dist, [ANA, BEN], { serviceUrl: sandbox.url });
    for (const [key, value] of em.documentPropertiesData.values)
      strict.documentPropertiesData.values.set(key, value);
    storeToken(strict, ANA, sandbox.token, sandbox.url);
    return strict;
  }

  it("fails visibly: history, a notice at the next open, the e-mail, each naming the Diagnostics check to run", async () => {
    await em.close();
    em = strictEmulator();
    expect(em.triggerGaps.spreadsheet).toBe(true);
    run("saveSchedule", [{ kind: "hours", every: 1 }]);
    run("saveSchedulePreferences", [{ mailOnFailure: true }]);
    em.advanceTime(HOUR + 60_000);
    expect(em.fireTimeTriggers().map((f) => [f.handler, f.ok])).toEqual([["runScheduledRefresh", true]]);
    expect(em.urlFetchToday(ANA)).toBe(0);
    expect(history()[0]).toMatchObject({ outcome: "failed", source: "schedule" });
    expect(history()[0]?.message).toContain("Time trigger: active spreadsheet");

    const toastsBefore = em.ui.toasts.length;
    em.open({ user: BEN });
    expect(em.ui.addonMenuItems()[0]?.label).toBe("⚠ Last scheduled refresh failed");
    expect(em.ui.toasts.length).toBe(toastsBefore + 1);
    const view = run<ScheduleSidebarView>("getScheduleView", [], BEN);
    expect(view.notice?.kind).toBe("failed");
    expect(view.notice?.text).toContain("Diagnostics' “Time trigger: active spreadsheet” check");

    expect(em.mails).toHaveLength(1);
    expect(em.mails[0]).toMatchObject({ to: ANA });
    expect(em.mails[0]?.subject).toBe("Scheduled refresh failed: the spreadsheet of this schedule");
    expect(em.mails[0]?.body).toContain("Time trigger: active spreadsheet");
    expect(JSON.stringify(em.mails)).not.toContain(sandbox.token);
  });

  it("under the other reading (triggerSeesSpreadsheet) the same schedule refreshes as before", () => {
    run("saveSchedule", [{ kind: "hours", every: 1 }]);
    em.advanceTime(HOUR + 60_000);
    expect(em.fireTimeTriggers().map((f) => f.ok)).toEqual([true]);
    expect(history()[0]).toMatchObject({ outcome: "ok" });
    expect(em.urlFetchToday(ANA)).toBeGreaterThan(0);
  });
});

describe("the deployment's default account kind", () => {
  it("a script property settings.defaultAccountKind = workspace plans every user who has not chosen with Workspace's quota", () => {
    expect(run<ScheduleSidebarView>("getScheduleView").quota.limit).toBe(20_000);
    em.scriptPropertiesData.values.set("settings.defaultAccountKind", "workspace");
    const view = run<ScheduleSidebarView>("getScheduleView");
    expect(view.quota.limit).toBe(100_000);
    expect(view.accountKind).toBe("auto");
    expect(view.accountKindSource).toBe("deployment");
    // A user's own word stands over the deployment's.
    const chosen = run<ScheduleSidebarView>("saveSchedulePreferences", [{ accountKind: "consumer" }]);
    expect(chosen.quota.limit).toBe(20_000);
    expect(chosen.accountKindSource).toBe("setting");
  });
});

describe("the 20 triggers a person may own", () => {
  it("saving a schedule past them says so plainly and leaves the schedule as it was", () => {
    // Ana already holds 20 triggers of the add-on, in other spreadsheets.
    for (let i = 0; i < 20; i += 1) {
      em.triggers.triggers.push({
        uid: `other-${i}`,
        handler: "runScheduledRefresh",
        creator: ANA,
        documentId: `other-spreadsheet-${i}`,
        eventType: "CLOCK",
        schedule: { kind: "hours", every: 4 },
        timeZone: "America/Santiago",
        createdAt: 0,
        nextRun: Number.POSITIVE_INFINITY,
        disabled: false,
        runs: 0,
      });
    }
    const out = em.tryRun("saveSchedule", [{ kind: "hours", every: 1 }], { user: ANA });
    expect(out).toMatchObject({ ok: false });
    expect(out.ok ? "" : out.error).toBe(
      "The schedule was not saved: your Google account already holds 20 triggers of this add-on, the most Google allows one person. Turn off a schedule you set in another spreadsheet (Settings → Schedule → Off), then save again.",
    );
    const view = run<ScheduleSidebarView>("getScheduleView", [], ANA);
    expect(view.schedule).toEqual({ kind: "off" });
  });
});

describe("a schedule written by another editor", () => {
  const STATE = "schedule.state";
  /** What an editor with a script bound to the document can do: write the state as they like. */
  function writeState(change: (state: Record<string, unknown>) => Record<string, unknown>) {
    const text = em.documentPropertiesData.values.get(STATE);
    em.documentPropertiesData.values.set(STATE, JSON.stringify(change(JSON.parse(text ?? "{}"))));
  }

  it("never makes a trigger for a user the state names when they did not save that schedule", () => {
    run("saveSchedule", [{ kind: "hours", every: 4 }], ANA);
    run("saveSchedule", [{ kind: "off" }], ANA);
    expect(refreshTriggers()).toHaveLength(0);
    // Ana's key stays readable in the document: Ben names her owner of an hourly schedule.
    writeState((s) => ({ ...s, schedule: { kind: "hours", every: 1 }, triggerUid: null }));
    // Shown as not hers: saving it is what would make it run as her.
    const view = run<ScheduleSidebarView>("getScheduleView", [], ANA);
    expect(view.mine).toBe(false);
    run("getSettingsView", [], ANA);
    expect(refreshTriggers()).toHaveLength(0);
    em.advanceTime(3 * HOUR);
    expect(em.fireTimeTriggers()).toEqual([]);
    expect(em.urlFetchToday(ANA)).toBe(0);
  });

  it("an owner's trigger does not run a schedule another editor changed, and says why", () => {
    run("saveSchedule", [{ kind: "daily", hour: 9 }], ANA);
    const [trigger] = refreshTriggers();
    writeState((s) => ({ ...s, schedule: { kind: "hours", every: 1 }, triggerUid: null }));
    run("getScheduleView", [], ANA);
    // Neither replaced by an hourly one nor removed.
    expect(refreshTriggers().map((t) => [t.uid, t.schedule])).toEqual([[trigger?.uid, trigger?.schedule]]);
    em.advanceTime(24 * HOUR);
    em.resetCounters();
    expect(em.fireTimeTriggers().map((f) => f.ok)).toEqual([true]);
    expect(em.counters.urlFetchTotal).toBe(0);
    expect(refreshTriggers().map((t) => t.uid)).toEqual([trigger?.uid]);
    expect(history()[0]).toMatchObject({ source: "schedule", outcome: "failed", user: ANA });
    expect(history()[0]?.message).toMatch(
      /^This schedule is not the one you saved here \(another editor changed it/,
    );
    // Saving it again is her own act: the next run refreshes.
    run("saveSchedule", [{ kind: "hours", every: 1 }], ANA);
    em.advanceTime(HOUR + 60_000);
    expect(em.fireTimeTriggers().map((f) => f.ok)).toEqual([true]);
    expect(history()[0]).toMatchObject({ source: "schedule", outcome: "ok", user: ANA });
  });

  it("a schedule taken over and then written back does not bring the first owner's trigger back", () => {
    storeToken(em, BEN, sandbox.token, sandbox.url);
    run("saveSchedule", [{ kind: "hours", every: 2 }], ANA);
    const anas = em.documentPropertiesData.values.get(STATE) as string;
    run("saveSchedule", [{ kind: "hours", every: 2 }], BEN);
    em.advanceTime(2 * HOUR + 60_000);
    em.fireTimeTriggers();
    expect(refreshTriggers().map((t) => t.creator)).toEqual([BEN]);
    em.documentPropertiesData.values.set(STATE, anas);
    run("getScheduleView", [], ANA);
    expect(refreshTriggers().map((t) => t.creator)).toEqual([BEN]);
  });
});
