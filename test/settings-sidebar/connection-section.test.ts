/**
 * The settings sidebar's Connection section in Chromium at the sidebar's 300 px, with
 * google.script.run answered by a scripted fake: what the connection sidebar did, now in one
 * place. Opened from the menu's "Connection…" the page opens on the section (the token field
 * focused when none is saved); the token stays write-only and is sent only when typed; problems
 * show beside their fields; the connection test tries what is typed and says plainly what it
 * found, details behind a toggle; both languages.
 */

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { scriptRunCalls as calls, loadSidebar } from "../support/sidebar-page";
import { settingsSidebarInBrowser } from "./html";
import { settingsView as view } from "./view";

const HOSTILE = '<img src=x onerror="window.__pwned=1">';
/** What the server appends to the page when the menu's "Connection…" opens it. */
const ON_CONNECTION = '<meta name="open-section" content="connection">';

describe("settings sidebar: the Connection section", () => {
  const opened = settingsSidebarInBrowser();

  async function page(answers: Record<string, unknown>, fromConnectionItem = false): Promise<Page> {
    const p = await opened.browser.context.newPage();
    await p.setViewportSize({ width: 300, height: 600 });
    // Apps Script's HtmlOutput.append adds the marker after the page's own markup.
    await loadSidebar(p, fromConnectionItem ? `${opened.html}${ON_CONNECTION}` : opened.html, answers, {
      failureKey: "error",
    });
    return p;
  }

  it("opened from “Connection…”, shows the Connection section with the token field focused when none is saved", async () => {
    const none = view({ token: { saved: false, last4: "", host: "", confirmUrl: "" } });
    const p = await page({ getSettingsView: none }, true);
    expect(await p.evaluate(() => document.activeElement?.id)).toBe("f-token");
    const section = p.locator("fieldset#connection");
    expect(await section.locator("legend").textContent()).toBe("Connection");
    // Everything the connection needs is in the section: URL, token, IdAdmin and the test.
    for (const id of ["#f-baseUrl", "#f-token", "#f-adminId", "#settings-test"])
      expect(await section.locator(id).count(), id).toBe(1);
    expect(await section.locator(".hint").first().textContent()).toBe(
      "Where the add-on finds the service, and how it signs in.",
    );
    expect(await section.isVisible()).toBe(true);
    expect(
      await p.evaluate(() => document.getElementById("connection")?.getBoundingClientRect().top ?? -1),
    ).toBeLessThan(600);
    await p.close();
  });

  it("opened from “Connection…” with a token saved, focuses the service URL; from “Settings…”, nothing", async () => {
    const saved = await page({ getSettingsView: view() }, true);
    expect(await saved.evaluate(() => document.activeElement?.id)).toBe("f-baseUrl");
    await saved.close();
    const plain = await page({ getSettingsView: view() });
    expect(await plain.evaluate(() => document.activeElement?.tagName)).toBe("BODY");
    await plain.close();
  });

  it("labels every field, fits 300 px, and shows hostile text as text", async () => {
    const p = await page(
      { getSettingsView: view({ form: { ...view().form, baseUrl: `https://x.test/v1?${HOSTILE}` } }) },
      true,
    );
    const unlabeled = await p.evaluate(() =>
      Array.from(document.querySelectorAll("#connection input, #connection select"))
        .filter((c) => !c.id || !document.querySelector(`label[for="${c.id}"]`))
        .map((c) => c.outerHTML),
    );
    expect(unlabeled).toEqual([]);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(300);
    expect(await p.locator("#f-baseUrl").inputValue()).toBe(`https://x.test/v1?${HOSTILE}`);
    expect(await p.locator("img").count()).toBe(0);
    expect(await p.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await p.locator("#f-adminId-hint").textContent()).toBe(
      "Needed to create funds, move money or set a report's status.",
    );
    await p.close();
  });

  it("keeps the token write-only and sends it only when typed, from the keyboard", async () => {
    const after = view({
      token: { saved: true, last4: "wxyz", host: "api.rindegastos.com", confirmUrl: "" },
    });
    const p = await page({ getSettingsView: view(), saveSettings: { ok: true, view: after } }, true);
    expect(await p.locator("#token-status").textContent()).toBe("A token is saved for you (••••9f3a).");
    expect(await p.locator("#f-token").getAttribute("type")).toBe("password");
    expect(await p.locator("#f-token").inputValue()).toBe("");
    expect(await p.locator('label[for="f-token"]').textContent()).toBe(
      "New token (leave empty to keep the saved one)",
    );
    // Saving without typing a token sends none.
    await p.locator("#f-adminId").press("Enter");
    await p.waitForSelector("#settings-feedback.ok");
    await p.locator("#f-token").fill("new-token-0000wxyz");
    await p.locator("#f-token").press("Enter");
    await expect.poll(async () => (await calls(p)).filter((c) => c.name === "saveSettings").length).toBe(2);
    const saves = (await calls(p)).filter((c) => c.name === "saveSettings").map((c) => c.args[1]);
    expect(saves).toEqual(["", "new-token-0000wxyz"]);
    await expect.poll(() => p.locator("#token-status").textContent()).toContain("wxyz");
    // Both saves answer with the same view: the field is cleared once the second answer is drawn.
    await expect.poll(() => p.locator("#f-token").inputValue()).toBe("");
    expect(await p.locator("body").textContent()).not.toContain("new-token-0000wxyz");
    await p.close();
  });

  it("removes the token, and offers no removal when none is saved", async () => {
    const removed = view({ token: { saved: false, last4: "", host: "", confirmUrl: "" } });
    const p = await page({ getSettingsView: view(), removeMyToken: removed }, true);
    await p.locator("#token-remove").click();
    await p.waitForSelector("#token-remove", { state: "hidden" });
    expect((await calls(p)).filter((c) => c.name === "removeMyToken")).toHaveLength(1);
    expect(await p.locator("#token-status").textContent()).toContain("No token saved for you");
    // Nothing saved is left to keep: the field no longer says "leave empty to keep the saved one".
    expect(await p.locator('label[for="f-token"]').textContent()).toBe("Your token");
    await p.close();
  });

  it("shows each problem beside its field and moves the focus there", async () => {
    const p = await page(
      {
        getSettingsView: view(),
        saveSettings: {
          ok: false,
          problems: [
            { field: "adminId", message: 'adminId must be a whole number (got "x").' },
            { field: "baseUrl", message: "baseUrl must start with https://" },
          ],
        },
      },
      true,
    );
    await p.locator("#f-adminId").fill("x");
    await p.locator("#settings-save").click();
    await p.waitForSelector("#settings-feedback.error");
    expect(await p.locator("#f-adminId-problem").textContent()).toBe(
      'adminId must be a whole number (got "x").',
    );
    expect(await p.locator("#f-baseUrl-problem").textContent()).toBe("baseUrl must start with https://");
    expect(await p.locator("#f-adminId").getAttribute("aria-describedby")).toContain("f-adminId-problem");
    expect(await p.locator("#f-adminId").getAttribute("aria-invalid")).toBe("true");
    expect(await p.evaluate(() => document.activeElement?.id)).toBe("f-adminId");
    await p.close();
  });

  it("tests the connection with what is typed, from the keyboard, and says plainly what it found", async () => {
    const p = await page(
      {
        getSettingsView: view(),
        testSettingsConnection: { ok: false, message: "The service refused the access token (HTTP 401)." },
      },
      true,
    );
    await p.locator("#f-baseUrl").fill("http://127.0.0.1:9/v1");
    await p.locator("#f-token").fill("typed-token-123456");
    // Keyboard: Tab from the last field of the section to Test, then Enter.
    await p.locator("#f-pageSize").focus();
    await p.keyboard.press("Tab");
    expect(await p.evaluate(() => document.activeElement?.id)).toBe("settings-test");
    await p.keyboard.press("Enter");
    await p.waitForSelector("#connection-status.error");
    expect(await p.locator("#connection-status").textContent()).toBe(
      "The service refused the access token (HTTP 401).",
    );
    expect((await calls(p)).find((c) => c.name === "testSettingsConnection")?.args).toEqual([
      { baseUrl: "http://127.0.0.1:9/v1", token: "typed-token-123456" },
    ]);
    await p.close();
  });

  it("shows a failed call's plain words first, its details behind a toggle", async () => {
    const p = await page(
      {
        getSettingsView: view(),
        testSettingsConnection: {
          error: `The service is not answering right now. Nothing was changed. Try again in a few minutes.\n\nDetails: getFunds: HTTP 503 ${HOSTILE}`,
        },
      },
      true,
    );
    await p.locator("#settings-test").click();
    await p.waitForSelector("#connection-status.error details");
    expect(await p.locator("#connection-status").evaluate((node) => node.firstChild?.textContent)).toBe(
      "The service is not answering right now. Nothing was changed. Try again in a few minutes.",
    );
    expect(await p.locator("#connection-status summary").textContent()).toBe("Details");
    expect(
      await p.locator("#connection-status details").evaluate((node) => node.lastChild?.textContent),
    ).toBe(`getFunds: HTTP 503 ${HOSTILE}`);
    expect(await p.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await p.close();
  });

  it("speaks Spanish when the view says so, and shows a failed call plainly", async () => {
    const p = await page(
      {
        getSettingsView: view({
          language: "es",
          form: { ...view().form, language: "es" },
          token: { saved: false, last4: "", host: "", confirmUrl: "" },
        }),
        testSettingsConnection: { error: "Settings: no document is open" },
      },
      true,
    );
    expect(await p.locator("#connection legend").textContent()).toBe("Conexión");
    expect(await p.locator("label[for=f-baseUrl]").textContent()).toBe("URL del servicio");
    expect(await p.evaluate(() => document.documentElement.lang)).toBe("es");
    await p.locator("#settings-test").click();
    await p.waitForSelector("#connection-status.error");
    expect(await p.locator("#connection-status").textContent()).toBe("Error: Settings: no document is open");
    expect(await p.locator("#settings-test").isDisabled()).toBe(false);
    await p.close();
  });
});
