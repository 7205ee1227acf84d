/**
 * The settings sidebar in Chromium (at 300 px, google.script.run scripted): the host requests
 * really go to, shown under the service URL as it is typed; a warning when the built manifest's
 * allowlist does not cover it, saying how to add one; and the confirmation that re-binds the
 * user's token after another editor changed the service URL, which only the token's owner gives.
 */

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { ScheduleSidebarView } from "../../src/schedule/view";
import { defaultSettingsForm } from "../../src/settings/form";
import type { SettingsView } from "../../src/settings/view";
import { scriptRunCalls as calls, loadSidebar } from "../support/sidebar-page";
import { settingsSidebarInBrowser } from "./html";
import { scheduleView, settingsView } from "./view";

const SCHEDULE: ScheduleSidebarView = scheduleView({
  label: "Off",
  mine: false,
  quota: { verdict: "ok", used: 0, limit: 20000, estimate: 30, remaining: 20000 },
});
function view(patch: Partial<SettingsView> = {}, language: "en" | "es" = "en"): SettingsView {
  return settingsView({
    language,
    form: defaultSettingsForm(language),
    schedule: SCHEDULE,
    allowlist: ["https://api.rindegastos.com/"],
    ...patch,
  });
}
describe("settings sidebar: where requests go", () => {
  const opened = settingsSidebarInBrowser();
  let page: Page;

  async function open(answers: Record<string, unknown>): Promise<Page> {
    page = await opened.browser.context.newPage();
    await page.setViewportSize({ width: 300, height: 900 });
    await loadSidebar(page, opened.html, answers, { failureKey: "error" });
    return page;
  }

  it("shows the host plainly as the URL is typed, whatever comes before an @", async () => {
    await open({ getSettingsView: view() });
    expect(await page.locator("#f-baseUrl-host").textContent()).toBe(
      "Requests go to host api.rindegastos.com.",
    );
    expect(await page.locator("#f-baseUrl-allowlist").isVisible()).toBe(false);
    expect(await page.locator("#token-host").textContent()).toBe(
      "Your token is sent only to host api.rindegastos.com.",
    );
    await page.locator("#f-baseUrl").fill("https://api.rindegastos.com@attacker.example/v1");
    expect(await page.locator("#f-baseUrl-host").textContent()).toBe("Requests go to host attacker.example.");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(300);
    await page.close();
  });

  it("warns about a URL outside the built manifest's allowlist, saying how to add one", async () => {
    await open({
      getSettingsView: view({ form: { ...defaultSettingsForm("en"), baseUrl: "https://eu.example.com/v1" } }),
    });
    const warning = page.locator("#f-baseUrl-allowlist");
    expect(await warning.isVisible()).toBe(true);
    expect(await warning.textContent()).toBe(
      'Apps Script will refuse requests to host eu.example.com: the add-on\'s manifest allows only https://api.rindegastos.com/. To use another service, add its https prefix ending in "/" to urlFetchWhitelist in appsscript.json, rebuild and deploy the add-on again.',
    );
    await page.locator("#f-baseUrl").fill("https://api.rindegastos.com/v1");
    expect(await warning.isVisible()).toBe(false);
    await page.close();
  });

  it("after another editor changed the URL, offers the owner the confirmation and sends the URL it showed", async () => {
    const changed = "https://collector.example/v1";
    await open({
      getSettingsView: view({
        form: { ...defaultSettingsForm("en"), baseUrl: changed },
        token: { saved: true, last4: "9f3a", host: "api.rindegastos.com", confirmUrl: changed },
      }),
      confirmMyTokenUrl: {
        ok: true,
        view: view({
          form: { ...defaultSettingsForm("en"), baseUrl: changed },
          token: { saved: true, last4: "9f3a", host: "collector.example", confirmUrl: "" },
        }),
      },
    });
    expect(await page.locator("#token-binding").textContent()).toContain(
      "Your token is for host api.rindegastos.com, but another editor changed the service URL to https://collector.example/v1 (host collector.example). Your token is not sent there unless you confirm it.",
    );
    expect(await page.locator("#token-confirm").textContent()).toBe("Use my token with collector.example");
    expect((await calls(page)).map((c) => c.name)).not.toContain("confirmMyTokenUrl");
    await page.locator("#token-confirm").click();
    await page.waitForSelector("#token-feedback.ok");
    expect((await calls(page)).find((c) => c.name === "confirmMyTokenUrl")?.args).toEqual([changed]);
    expect(await page.locator("#token-feedback").textContent()).toBe(
      "Your token is now used with host collector.example.",
    );
    expect(await page.locator("#token-binding").count()).toBe(0);
    expect(await page.locator("#token-host").textContent()).toBe(
      "Your token is sent only to host collector.example.",
    );
    await page.close();
  });

  it("a stale confirmation says the URL changed again; in Spanish too", async () => {
    const changed = "https://collector.example/v1";
    const es = view(
      {
        form: { ...defaultSettingsForm("es"), baseUrl: changed },
        token: { saved: true, last4: "9f3a", host: "", confirmUrl: changed },
      },
      "es",
    );
    await open({
      getSettingsView: es,
      confirmMyTokenUrl: {
        ok: false,
        message: "La URL del servicio volvió a cambiar mientras tanto: revísela y confirme de nuevo.",
        view: es,
      },
    });
    expect(await page.locator("#token-binding").textContent()).toContain(
      "Su token se guardó antes de que cada token quedara ligado a una URL del servicio.",
    );
    expect(await page.locator("#f-baseUrl-host").textContent()).toBe(
      "Las solicitudes van al host collector.example.",
    );
    await page.locator("#token-confirm").click();
    await page.waitForSelector("#token-feedback.error");
    expect(await page.locator("#token-feedback").textContent()).toContain("volvió a cambiar");
    await page.close();
  });
});
