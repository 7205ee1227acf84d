/**
 * The settings sidebar's page in Chromium at the sidebar's 300 px, with google.script.run
 * answered by a scripted fake: labels, keyboard, escaping, the write-only token, the schedule.
 */

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { RunRecord } from "../../src/schedule/history";
import { triggerTimePlan } from "../../src/schedule/trigger-time";
import type { ScheduleSidebarView } from "../../src/schedule/view";
import type { SettingsView } from "../../src/settings/view";
import { screenshot } from "../browser/browser";
import { scriptRunCalls as calls, loadSidebar } from "../support/sidebar-page";
import { settingsSidebarInBrowser } from "./html";
import { scheduleView, settingsForm, settingsView } from "./view";

const HOSTILE = '<img src=x onerror="window.__pwned=1">';

function schedule(patch: Partial<ScheduleSidebarView> = {}): ScheduleSidebarView {
  return scheduleView({
    schedule: { kind: "hours", every: 4 },
    label: "Every 4 hours",
    owner: "ana@example.com",
    mine: true,
    nextRun: "2026-01-10T12:00:00.000Z",
    runs: [
      {
        id: "r1",
        startedAt: "2026-01-10T08:00:00.000Z",
        seconds: 12,
        source: "schedule",
        outcome: "failed",
        outcomeLabel: "failed",
        refreshed: ["funds"],
        records: 0,
        calls: 3,
        message: `Service said ${HOSTILE}`,
      },
    ],
    notice: { kind: "failed", text: `The scheduled refresh failed: ${HOSTILE}`, runId: "r1" },
    mailOnFailure: false,
    quota: { verdict: "ok", used: 120, limit: 20000, estimate: 30, remaining: 19880 },
    ...patch,
  });
}

/** A run of the history as the server keeps it (for triggerTimePlan). */
function runRecord(startedAt: number, ms: number): RunRecord {
  return {
    id: String(startedAt),
    source: "schedule",
    user: "ana",
    startedAt,
    endedAt: startedAt + ms,
    refreshed: [],
    records: 0,
    calls: 0,
    outcome: "ok",
    message: "",
  };
}

function view(patch: Partial<SettingsView> = {}): SettingsView {
  return settingsView({
    form: settingsForm({
      baseUrl: "https://api.rindegastos.com/v1",
      pageSize: "100",
      reportTypeDateFilter: "1",
      sheetFunds: `Funds ${HOSTILE}`,
    }),
    token: { saved: true, last4: "9f3a" },
    schedule: schedule(),
    allowlist: undefined,
    ...patch,
  });
}

/** Opens the sidebar; answers[name] is a value, or {error} for a failure. */
async function open(page: Page, html: string, answers: Record<string, unknown>): Promise<void> {
  await loadSidebar(page, html, answers, { failureKey: "error" });
}

describe("settings sidebar", () => {
  const opened = settingsSidebarInBrowser();
  let page: Page;

  it("labels every field, fits 300 px, and shows hostile text as text", async () => {
    page = await opened.browser.context.newPage();
    await page.setViewportSize({ width: 300, height: 900 });
    await open(page, opened.html, { getSettingsView: view() });
    const unlabeled = await page.evaluate(() =>
      Array.from(document.querySelectorAll("input, select"))
        .filter((c) => !c.id || !document.querySelector(`label[for="${c.id}"]`))
        .map((c) => c.outerHTML),
    );
    expect(unlabeled).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(300);
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator("#notice").textContent()).toContain(HOSTILE);
    expect(await page.locator("#f-sheetFunds").inputValue()).toBe(`Funds ${HOSTILE}`);
    await screenshot(page, "settings-sidebar");
    await page.close();
  });

  it("shows a failed run's notice in plain words, its technical text folded behind Details", async () => {
    page = await opened.browser.context.newPage();
    const text =
      "The scheduled refresh of 2026-01-10 08:00 failed: The service is not answering right now.\n\nDetails: getFunds: the service answered HTTP 503.";
    await open(page, opened.html, {
      getSettingsView: view({ schedule: schedule({ notice: { kind: "failed", text, runId: "r1" } }) }),
    });
    const details = page.locator("#notice details");
    expect(await details.evaluate((node) => (node as HTMLDetailsElement).open)).toBe(false);
    expect(await page.locator("#notice p").first().innerText()).not.toContain("HTTP 503");
    await details.locator("summary").click();
    expect(await details.textContent()).toContain("getFunds: the service answered HTTP 503.");
    await page.close();
  });

  it("says what the report dates choice leaves out, and follows the choice", async () => {
    page = await opened.browser.context.newPage();
    await open(page, opened.html, {
      getSettingsView: view({ form: { ...view().form, reportTypeDateFilter: "" } }),
    });
    // The default is the send date: every report sent in the window, open or closed.
    expect(await page.locator("#f-reportTypeDateFilter").inputValue()).toBe("2");
    expect(await page.locator("#f-reportTypeDateFilter-hint").textContent()).toBe(
      "Every report sent in the window, open or closed.",
    );
    await page.locator("#f-reportTypeDateFilter").selectOption("1");
    expect(await page.locator("#f-reportTypeDateFilter-hint").textContent()).toMatch(
      /open reports are left out/,
    );
    await page.close();
  });

  it("keeps the token write-only: masked status, empty password field, sent only when typed", async () => {
    page = await opened.browser.context.newPage();
    await open(page, opened.html, {
      getSettingsView: view(),
      saveSettings: { ok: true, view: view({ token: { saved: true, last4: "wxyz" } }) },
    });
    expect(await page.locator("#token-status").textContent()).toBe("A token is saved for you (••••9f3a).");
    expect(await page.locator("#f-token").getAttribute("type")).toBe("password");
    expect(await page.locator("#f-token").inputValue()).toBe("");
    await page.locator("#f-token").fill("new-token-wxyz");
    // Keyboard only: Enter in a field submits the form.
    await page.locator("#f-pageSize").focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector("#settings-feedback.ok");
    const save = (await calls(page)).find((c) => c.name === "saveSettings");
    expect(save?.args[1]).toBe("new-token-wxyz");
    expect(save?.args[0]).toMatchObject({ pageSize: "100" });
    expect(await page.locator("#token-status").textContent()).toContain("••••wxyz");
    expect(await page.locator("#f-token").inputValue()).toBe("");
    await page.close();
  });

  it("says beside IdAdmin when another editor changed it, before a save makes it the user's", async () => {
    page = await opened.browser.context.newPage();
    const issue = `IdAdmin 8 is not the one you saved (7): save it in Settings to write as 8. ${HOSTILE}`;
    await open(page, opened.html, {
      getSettingsView: view({ form: { ...view().form, adminId: "8" }, adminIssue: issue }),
    });
    expect(await page.locator("#f-adminId-mine").textContent()).toBe(issue);
    expect(await page.locator("#f-adminId-mine").getAttribute("role")).toBe("alert");
    expect(await page.locator("img").count()).toBe(0);
    await page.close();
    page = await opened.browser.context.newPage();
    await open(page, opened.html, { getSettingsView: view({ adminIssue: "" }) });
    expect(await page.locator("#f-adminId-mine").count()).toBe(0);
    await page.close();
  });

  it("shows each problem beside its field and moves the focus there", async () => {
    page = await opened.browser.context.newPage();
    await open(page, opened.html, {
      getSettingsView: view(),
      saveSettings: {
        ok: false,
        problems: [{ field: "pageSize", message: "pageSize: must be a whole number from 1 to 1000" }],
      },
    });
    await page.locator("#settings-save").click();
    await page.waitForSelector("#settings-feedback.error");
    expect(await page.locator("#f-pageSize-problem").textContent()).toBe(
      "pageSize: must be a whole number from 1 to 1000",
    );
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("f-pageSize");
    await page.close();
  });

  it("sends the chosen schedule and shows the new one; the hour only for a daily schedule", async () => {
    page = await opened.browser.context.newPage();
    const daily = schedule({
      schedule: { kind: "daily", hour: 9 },
      label: "Every day between 9:00 and 10:00",
      notice: null,
    });
    await open(page, opened.html, {
      getSettingsView: view(),
      saveSchedule: daily,
      dismissScheduleNotice: schedule({ notice: null }),
    });
    expect(await page.locator("#f-schedule-hour").isVisible()).toBe(false);
    await page.locator("#f-schedule").selectOption("daily");
    expect(await page.locator("#f-schedule-hour").isVisible()).toBe(true);
    await page.locator("#f-schedule-hour").selectOption("9");
    await page.locator("#schedule-apply").click();
    await page.waitForSelector("#schedule-feedback.ok");
    expect((await calls(page)).find((c) => c.name === "saveSchedule")?.args).toEqual([
      { kind: "daily", hour: 9 },
    ]);
    expect(await page.locator("#schedule-summary").textContent()).toContain(
      "Every day between 9:00 and 10:00",
    );
    expect(await page.locator("#notice").count()).toBe(0);
    await page.close();
  });

  it("warns before a refresh that would go past today's UrlFetch quota", async () => {
    page = await opened.browser.context.newPage();
    await open(page, opened.html, {
      getSettingsView: view({
        schedule: schedule({
          quota: { verdict: "refuse", used: 19_990, limit: 20_000, estimate: 300, remaining: 10 },
        }),
      }),
    });
    expect(await page.locator("#quota-warning").textContent()).toBe(
      "Not started: this refresh needs about 300 calls and only 10 of the 20000 UrlFetch calls allowed in 24 hours are left.",
    );
    await page.close();
    page = await opened.browser.context.newPage();
    await open(page, opened.html, { getSettingsView: view() });
    expect(await page.locator("#quota-warning").count()).toBe(0);
    await page.close();
  });

  it("says plainly what the connection test found", async () => {
    page = await opened.browser.context.newPage();
    await open(page, opened.html, {
      getSettingsView: view(),
      testSettingsConnection: {
        ok: false,
        message: "The service refused the token (HTTP 401): enter a valid access token.",
      },
    });
    // What the form shows is tested, saved or not.
    await page.locator("#f-baseUrl").fill("https://other.example/v1");
    await page.locator("#settings-test").click();
    // Said in the Connection section, beside the button.
    await page.waitForSelector("#connection #connection-status.error");
    expect((await calls(page)).find((c) => c.name === "testSettingsConnection")?.args).toEqual([
      { baseUrl: "https://other.example/v1", token: "" },
    ]);
    expect(await page.locator("#connection-status").textContent()).toBe(
      "The service refused the token (HTTP 401): enter a valid access token.",
    );
    await page.close();
  });

  it("Refresh now goes on piece after piece while the refresh continues, then shows how it ended", async () => {
    page = await opened.browser.context.newPage();
    const ok = schedule({
      runs: [
        {
          ...(schedule().runs[0] as ScheduleSidebarView["runs"][number]),
          outcome: "ok",
          outcomeLabel: "done",
          message: "Finished in 3 executions.",
        },
      ],
      notice: null,
    });
    await loadSidebar(
      page,
      opened.html,
      {
        getSettingsView: [view()],
        runRefreshFromSettings: [
          { ...ok, continues: true },
          { ...ok, continues: true },
          { ...ok, continues: false },
        ],
      },
      { failureKey: "error", listsInTurn: true, delayMs: 20 },
    );
    await page.locator("#schedule-refresh-now").click();
    await expect
      .poll(() => page.locator("#schedule-feedback").textContent())
      .toBe("done: Finished in 3 executions.");
    expect((await calls(page)).filter((c) => c.name === "runRefreshFromSettings")).toHaveLength(3);
    await page.close();
  });

  it("ticking the failure e-mail keeps the schedule just chosen, and Apply saves that choice", async () => {
    page = await opened.browser.context.newPage();
    await loadSidebar(
      page,
      opened.html,
      {
        getSettingsView: view(),
        saveSchedulePreferences: schedule({ mailOnFailure: true }),
        saveSchedule: schedule({
          schedule: { kind: "daily", hour: 7 },
          label: "Every day between 7:00 and 8:00",
        }),
      },
      { failureKey: "error" },
    );
    await page.locator("#f-schedule").selectOption("daily");
    await page.locator("#f-schedule-hour").selectOption("7");
    await page.locator("#f-mail").check();
    await expect
      .poll(() => page.locator("#schedule-feedback").textContent())
      .toBe("Your preference is saved.");
    expect(await page.locator("#f-schedule").inputValue()).toBe("daily");
    expect(await page.locator("#f-schedule-hour").inputValue()).toBe("7");
    await page.locator("#schedule-apply").click();
    await expect
      .poll(async () => (await calls(page)).find((c) => c.name === "saveSchedule")?.args)
      .toEqual([{ kind: "daily", hour: 7 }]);
    await page.close();
  });

  it("says before saving how much of the day's trigger time a frequency uses, and warns when too much", async () => {
    page = await opened.browser.context.newPage();
    const minute = 60_000;
    // The last complete refresh: 6 minutes, continued in a second execution of 2.
    const runs = [
      { ...runRecord(0, 6 * minute), outcome: "continued" as const },
      { ...runRecord(10 * minute, 2 * minute), outcome: "ok" as const },
    ];
    await loadSidebar(
      page,
      opened.html,
      { getSettingsView: view({ schedule: schedule({ triggerTime: triggerTimePlan(runs, "consumer") }) }) },
      { failureKey: "error" },
    );
    // The token's guarantees name the deployment they hold on.
    expect(await page.locator("#token-deployment").textContent()).toMatch(
      /^Installed from your domain's Marketplace, no other editor can use or redirect your token\. In a copy of the add-on bound to this spreadsheet .* every editor can change its code/,
    );
    const line = page.locator("#schedule-trigger-time");
    expect(await line.textContent()).toBe(
      "6 runs a day of about 8 min each (the last complete refresh): about 48 of the 90 minutes of trigger time a personal account has a day.",
    );
    expect(await line.getAttribute("class")).toBe("hint");
    await page.locator("#f-schedule").selectOption("hours:1");
    await expect
      .poll(() => line.textContent())
      .toMatch(
        /^Too often for refreshes this long: 24 runs a day of about 8 min need 192 minutes, more than the 90 minutes/,
      );
    expect(await line.getAttribute("class")).toBe("status error");
    expect((await calls(page)).map((c) => c.name)).not.toContain("saveSchedule");
    await page.close();
  });

  it("choosing the account type shows that day's quota at once, and the warning it brings", async () => {
    page = await opened.browser.context.newPage();
    await loadSidebar(
      page,
      opened.html,
      {
        getSettingsView: view(),
        saveSchedulePreferences: schedule({
          accountKind: "workspace",
          accountKindSource: "setting",
          quotaResetsText: "2026-01-11 09:30",
          quota: { verdict: "warn", used: 95_000, limit: 100_000, estimate: 6_000, remaining: 5_000 },
        }),
      },
      { failureKey: "error" },
    );
    expect(await page.locator("#quota-today").textContent()).toBe(
      "In the 24 hours since the first call: 120 of 20,000 calls used.",
    );
    // Not chosen: the personal quota is assumed, and the line says why.
    expect(await page.locator("#quota-kind").textContent()).toMatch(
      /^Personal account assumed: no account type is chosen above, and the e-mail address cannot tell/,
    );
    await page.locator("#f-account").selectOption("workspace");
    await expect
      .poll(() => page.locator("#quota-today").textContent())
      .toBe("In the 24 hours since the first call: 95,000 of 100,000 calls used.");
    expect(await page.locator("#quota-kind").textContent()).toBe("Quota of the account type chosen above.");
    expect(await page.locator("#quota-resets").textContent()).toBe(
      "The count starts over at 2026-01-11 09:30 (24 hours after the first call).",
    );
    expect(await page.locator("#quota-warning").count()).toBe(1);
    expect(await page.locator("#f-account").inputValue()).toBe("workspace");
    await page.close();
  });

  it("shows times as the server formatted them in the spreadsheet's zone, not the browser's", async () => {
    page = await opened.browser.context.newPage();
    const base = schedule();
    const run = {
      ...(base.runs[0] as ScheduleSidebarView["runs"][number]),
      startedAtText: "2026-01-10 05:00",
    };
    await loadSidebar(
      page,
      opened.html,
      {
        getSettingsView: view({
          schedule: { ...base, nextRunText: "2026-01-10 09:00", runs: [run] },
        }),
      },
      { failureKey: "error" },
    );
    await expect.poll(() => page.locator("#schedule-next").textContent()).toContain("2026-01-10 09:00");
    expect(await page.locator("#app").textContent()).toContain("2026-01-10 05:00 · schedule · failed");
    await page.close();
  });
});
