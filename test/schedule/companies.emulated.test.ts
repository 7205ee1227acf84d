/**
 * The scheduled refresh of a document of two companies in the emulation, against the
 * two-company sandbox: the owner's run refreshes each company they hold a usable token for and
 * lists the others in the history ("ok"); a company whose service is down while the other
 * refreshes fails the run, and the history, the notice and the mail name it; none of the
 * owner's tokens ever reaches them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../dev/emulator/index";
import { storeConnection } from "../../dev/emulator/settings";
import type { RunningCompany, RunningSandbox } from "../../dev/sandbox/index";
import type { RefreshSidebarView } from "../../src/app/refresh-sidebar";
import { readHistory } from "../../src/schedule/history";
import type { ScheduleSidebarView } from "../../src/schedule/view";
import { sheetOf } from "../refresh/emulation";
import { closeAll, emulatorOf, sandboxControl } from "../support/emulation";
import { startAlphaAndBeta, storeAlphaAndBeta, userStore } from "../support/two-companies";

const ANA = "ana@example.com";
const BEN = "ben@example.com";
const HOUR = 3_600_000;
const FORM = { windowMode: "range", windowFrom: "2024-01-01", windowTo: "2024-06-30" };

let sandbox: RunningSandbox;
let alpha: RunningCompany;
let beta: RunningCompany;
let em: Emulator;
let dist: string;
let betaKey = "";

beforeAll(async () => {
  ({ dist, sandbox, alpha, beta } = await startAlphaAndBeta());
}, 120_000);

afterAll(() => closeAll(em, sandbox));

beforeEach(async () => {
  await em?.close();
  em = emulatorOf(dist, [ANA, BEN], { triggerSeesSpreadsheet: true, serviceUrl: sandbox.url });
});

const storeOf = (user: string) => userStore(em, user);

/** Alpha (c0) and Beta, both on the sandbox; Ana holds Alpha's token, and Beta's when `betaToken`. */
function twoCompanies(betaToken: boolean): void {
  betaKey = storeAlphaAndBeta(em, sandbox, ANA, FORM, betaToken);
}

function run<T>(name: string, args: unknown[] = [], user = ANA): T {
  const out = em.tryRun(name, args, { as: "script.run", user });
  if (!out.ok) throw new Error(`${name} as ${user} failed: ${out.error}`);
  return out.result as T;
}

const history = () => readHistory(Object.fromEntries(em.documentPropertiesData.values)).runs;

const control = (path: string, body?: unknown, method?: string) =>
  sandboxControl(sandbox, path, body, method);

/** The company keys of the Funds sheet's rows. */
function companiesOnFunds(): Set<unknown> {
  const sheet = sheetOf(em, "Funds");
  if (!sheet) return new Set();
  const at = sheet.header.indexOf("Company key");
  return new Set(sheet.values.slice(1).map((row) => (at < 0 ? "c0" : row[at])));
}

/** Everything a user can see of the runs: the history, every user's notice, the mails. */
function everythingShown(): string {
  return JSON.stringify([
    history(),
    run<ScheduleSidebarView>("getScheduleView", [], ANA),
    run<ScheduleSidebarView>("getScheduleView", [], BEN),
    em.mails,
  ]);
}

describe("the scheduled refresh of two companies", () => {
  it("refreshes the company the owner holds a token for and lists the other as skipped, ok", () => {
    twoCompanies(false);
    run("saveSchedule", [{ kind: "hours", every: 1 }]);
    em.advanceTime(HOUR + 60_000);
    expect(em.fireTimeTriggers().map((f) => f.ok)).toEqual([true]);
    const [last] = history();
    expect(last).toMatchObject({ source: "schedule", outcome: "ok" });
    expect(last?.records).toBeGreaterThan(0);
    expect(last?.message).toMatch(/^Beta was not refreshed: /);
    expect(last?.message).not.toMatch(/Alpha/);
    expect(companiesOnFunds()).toEqual(new Set(["c0"]));
    // An ok run with a company left out is no failure to warn about.
    expect(run<ScheduleSidebarView>("getScheduleView", [], BEN).notice).toBeNull();
    expect(everythingShown()).not.toContain(alpha.token);

    // The Refresh sidebar: each company's last refresh and whether Ana can refresh it.
    const view = run<RefreshSidebarView>("getRefreshSidebarView");
    expect(view.companies?.map((c) => [c.name, c.status])).toEqual([
      ["Alpha", "ready"],
      ["Beta", "noToken"],
    ]);
    expect(view.companies?.[0]?.fresh).toEqual([
      expect.stringMatching(
        /^Funds: refreshed \d{4}-\d\d-\d\d \d\d:\d\d by schedule \(ana@example\.com\)\.$/,
      ),
      expect.stringMatching(/^Fund transactions: refreshed /),
      expect.stringMatching(/^Expense reports: refreshed /),
    ]);
    expect(view.companies?.[1]?.fresh).toEqual(["Not refreshed yet."]);
    // Ben holds no token: neither is ready for him.
    expect(run<RefreshSidebarView>("getRefreshSidebarView", [], BEN).companies?.map((c) => c.status)).toEqual(
      ["noToken", "noToken"],
    );
  }, 120_000);

  it("lists a company another editor renamed as skipped until the owner confirms it, then refreshes it", () => {
    twoCompanies(true);
    run("saveSchedule", [{ kind: "hours", every: 1 }]);
    const ben = storeOf(BEN);
    const renamed = ben.changeCompanies(
      { kind: "rename", rev: ben.companies().rev, key: betaKey, name: "Beta SA" },
      { newKey: () => "unused", now: 2000 },
    );
    expect(renamed.ok).toBe(true);
    em.advanceTime(HOUR + 60_000);
    em.fireTimeTriggers();
    expect(history()[0]).toMatchObject({ outcome: "ok" });
    expect(history()[0]?.message).toMatch(/^Beta SA was not refreshed: /);
    expect(companiesOnFunds()).toEqual(new Set(["c0"]));
    expect(run<RefreshSidebarView>("getRefreshSidebarView").companies?.map((c) => c.status)).toEqual([
      "ready",
      "confirm",
    ]);

    expect(storeOf(ANA).confirmCompany(betaKey, { name: "Beta SA", apiUrl: sandbox.url }).ok).toBe(true);
    em.advanceTime(HOUR);
    em.fireTimeTriggers();
    expect(history()[0]).toMatchObject({ outcome: "ok", message: "" });
    expect(companiesOnFunds()).toEqual(new Set(["c0", betaKey]));
  }, 120_000);

  it("keeps the Refresh sidebar of a one-company document as it was", () => {
    storeConnection(em, { apiUrl: sandbox.url, token: alpha.token, adminId: alpha.adminId }, ANA);
    expect(run<RefreshSidebarView>("getRefreshSidebarView")).not.toHaveProperty("companies");
  });

  it("refreshes the other company when one is down, and names the failed one in the history, notice and mail", async () => {
    twoCompanies(true);
    run("saveSchedule", [{ kind: "hours", every: 1 }]);
    run("saveSchedulePreferences", [{ mailOnFailure: true }]);
    await control("faults?company=Beta", {
      rules: [{ endpoint: "*", fault: "status", status: 503, times: 500 }],
    });
    try {
      em.advanceTime(HOUR + 60_000);
      expect(em.fireTimeTriggers().map((f) => f.ok)).toEqual([true]);
    } finally {
      await control("faults?company=Beta", undefined, "DELETE");
    }
    const [last] = history();
    expect(last).toMatchObject({ source: "schedule", outcome: "failed" });
    expect(last?.message).toMatch(/Beta was not refreshed; its rows were left as they were: .*HTTP 503/s);
    expect(last?.message).not.toMatch(/Alpha was not refreshed/);
    // Alpha's rows were written all the same.
    expect(companiesOnFunds()).toEqual(new Set(["c0"]));
    const notice = run<ScheduleSidebarView>("getScheduleView", [], BEN).notice;
    expect(notice?.kind).toBe("failed");
    expect(notice?.text).toMatch(/Beta was not refreshed/);
    expect(em.mails).toHaveLength(1);
    expect(em.mails[0]?.body).toMatch(/Beta was not refreshed/);

    // Both back: the next run refreshes both, ok, and the notice goes.
    em.advanceTime(HOUR);
    em.fireTimeTriggers();
    expect(history()[0]).toMatchObject({ outcome: "ok", message: "" });
    expect(companiesOnFunds()).toEqual(new Set(["c0", betaKey]));
    expect(run<ScheduleSidebarView>("getScheduleView", [], BEN).notice).toBeNull();
  }, 120_000);

  it("shows neither of the owner's two tokens in any history, notice or mail, even when a setting holds them", () => {
    twoCompanies(true);
    run("saveSchedule", [{ kind: "hours", every: 1 }]);
    run("saveSchedulePreferences", [{ mailOnFailure: true }]);
    // An editor pasted both tokens into the Funds sheet's name, a sheet of someone else's has
    // that name: the refresh refuses to write it, naming the sheet, in every company.
    const name = `F ${alpha.token} ${beta.token}`.slice(0, 99);
    const values = em.documentPropertiesData.values;
    values.set(
      "settings.form",
      JSON.stringify({ ...JSON.parse(values.get("settings.form") ?? "{}"), sheetFunds: name }),
    );
    const foreign = em.spreadsheet.addSheet(name);
    foreign.cellForWrite(1, 1).value = "Not the add-on's";
    em.advanceTime(HOUR + 60_000);
    em.fireTimeTriggers();
    const [last] = history();
    expect(last).toMatchObject({ outcome: "failed" });
    expect(last?.message).toMatch(/Alpha was not refreshed/);
    expect(last?.message).toMatch(/Beta was not refreshed/);
    expect(em.mails).toHaveLength(1);
    const shown = everythingShown();
    expect(shown).toMatch(/\[(hidden|redacted)\]/);
    expect(shown).not.toContain(alpha.token);
    expect(shown).not.toContain(beta.token);
  }, 120_000);
});
