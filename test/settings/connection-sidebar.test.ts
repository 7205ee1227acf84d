/**
 * The connection sidebar's page in Chromium at the sidebar's 300 px, with google.script.run
 * answered by a scripted fake: labels, keyboard, escaping, the write-only token, problems beside
 * their fields, the connection test's message.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectionTestResult, ConnectionView, SaveConnectionResult } from "../../src/settings";
import { type Browser, launchBrowser } from "../browser/browser";
import { scriptRunCalls as calls, loadSidebar, sidebarHtml } from "../support/sidebar-page";

const HOSTILE = '<img src=x onerror="window.__pwned=1">';

function view(patch: Partial<ConnectionView> = {}): ConnectionView {
  return {
    language: "en",
    baseUrl: "",
    defaultBaseUrl: "https://api.rindegastos.com/v1",
    adminId: "7",
    token: { saved: true, last4: "9f3a", host: "api.rindegastos.com", confirmUrl: "" },
    ...patch,
  };
}

/** Opens the sidebar; answers[name] is a value, {thrown} for a failure, or a list used in turn. */
async function open(page: Page, html: string, answers: Record<string, unknown>): Promise<void> {
  await loadSidebar(page, html, answers, { failureKey: "thrown", listsInTurn: true });
}

describe("connection sidebar", () => {
  let browser: Browser;
  let html: string;

  beforeAll(async () => {
    html = sidebarHtml("connection");
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  async function page(answers: Record<string, unknown>): Promise<Page> {
    const p = await browser.context.newPage();
    await p.setViewportSize({ width: 300, height: 800 });
    await open(p, html, answers);
    return p;
  }

  it("labels every field, fits 300 px, and shows hostile text as text", async () => {
    const p = await page({ getConnectionSettings: view({ baseUrl: `https://x.test/v1?${HOSTILE}` }) });
    const unlabeled = await p.evaluate(() =>
      Array.from(document.querySelectorAll("input, select, textarea"))
        .filter((c) => !c.id || !document.querySelector(`label[for="${c.id}"]`))
        .map((c) => c.outerHTML),
    );
    expect(unlabeled).toEqual([]);
    expect(await p.locator("input").count()).toBe(3);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(300);
    expect(await p.locator("#f-baseUrl").inputValue()).toBe(`https://x.test/v1?${HOSTILE}`);
    expect(await p.locator("img").count()).toBe(0);
    expect(await p.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await p.locator("#f-baseUrl").getAttribute("placeholder")).toBe("https://api.rindegastos.com/v1");
    await p.close();
  });

  it("keeps the token write-only and saves it only when typed, from the keyboard", async () => {
    const saved: SaveConnectionResult = {
      ok: true,
      message: "Saved.",
      view: view({ token: { saved: true, last4: "wxyz", host: "api.rindegastos.com", confirmUrl: "" } }),
    };
    const p = await page({ getConnectionSettings: view(), saveConnectionSettings: [saved, saved] });
    expect(await p.locator("#token-status").textContent()).toBe("A token is saved for you (ends in 9f3a).");
    expect(await p.locator("#f-token").getAttribute("type")).toBe("password");
    expect(await p.locator("#f-token").inputValue()).toBe("");
    // Saving without typing a token sends no token.
    await p.locator("#f-adminId").focus();
    await p.keyboard.press("Enter");
    await p.waitForSelector("#status.ok");
    await p.locator("#f-token").fill("new-token-0000wxyz");
    await p.locator("#f-token").press("Enter");
    // The first save's answer already names "wxyz": wait for the second save itself to be
    // answered (the field is cleared then), not only for the status line.
    await expect
      .poll(async () => (await calls(p)).filter((c) => c.name === "saveConnectionSettings").length)
      .toBe(2);
    await expect.poll(() => p.locator("#f-token").inputValue()).toBe("");
    expect(await p.locator("#token-status").textContent()).toContain("wxyz");
    const saves = (await calls(p)).filter((c) => c.name === "saveConnectionSettings").map((c) => c.args[0]);
    expect(saves).toEqual([
      { baseUrl: "", adminId: "7" },
      { baseUrl: "", adminId: "7", token: "new-token-0000wxyz" },
    ]);
    expect(await p.locator("#f-token").inputValue()).toBe("");
    expect(await p.locator("#status").textContent()).toBe("Saved.");
    await p.close();
  });

  it("removes the token, and offers no removal when none is saved", async () => {
    const p = await page({
      getConnectionSettings: view(),
      saveConnectionSettings: {
        ok: true,
        message: "Saved. Your token was removed.",
        view: view({ token: { saved: false, last4: "", host: "", confirmUrl: "" } }),
      },
    });
    await p.locator("#remove-token").click();
    await p.waitForSelector("#remove-token", { state: "hidden" });
    expect((await calls(p)).find((c) => c.name === "saveConnectionSettings")?.args).toEqual([
      { removeToken: true },
    ]);
    expect(await p.locator("#token-status").textContent()).toContain("No token saved for you");
    await p.close();
  });

  it("shows each problem beside its field and moves the focus there", async () => {
    const p = await page({
      getConnectionSettings: view(),
      saveConnectionSettings: {
        ok: false,
        issues: [
          { field: "adminId", rule: "integer", message: 'adminId must be a whole number (got "x").' },
          { field: "baseUrl", rule: "https", message: "baseUrl must start with https://" },
        ],
      },
    });
    await p.locator("#f-adminId").fill("x");
    await p.locator("#save").click();
    await p.waitForSelector("#status.error");
    expect(await p.locator("#adminId-problem").textContent()).toBe(
      'adminId must be a whole number (got "x").',
    );
    expect(await p.locator("#baseUrl-problem").textContent()).toBe("baseUrl must start with https://");
    expect(await p.locator("#f-adminId").getAttribute("aria-invalid")).toBe("true");
    expect(await p.locator("#f-adminId").getAttribute("aria-describedby")).toContain("adminId-problem");
    expect(await p.evaluate(() => document.activeElement?.id)).toBe("f-adminId");
    await p.close();
  });

  it("tests the connection with what is typed and says plainly what it found", async () => {
    const result: ConnectionTestResult = {
      ok: false,
      kind: "badToken",
      status: 401,
      message: "The service refused the access token (HTTP 401).",
    };
    const p = await page({ getConnectionSettings: view(), testConnection: result });
    await p.locator("#f-baseUrl").fill("http://127.0.0.1:9/v1");
    await p.locator("#f-token").fill("typed-token-123456");
    // Keyboard: Tab from the Save button to Test, then Enter.
    await p.locator("#save").focus();
    await p.keyboard.press("Tab");
    expect(await p.evaluate(() => document.activeElement?.id)).toBe("test");
    await p.keyboard.press("Enter");
    await p.waitForSelector("#status.error");
    expect(await p.locator("#status").textContent()).toBe("The service refused the access token (HTTP 401).");
    expect((await calls(p)).find((c) => c.name === "testConnection")?.args).toEqual([
      { baseUrl: "http://127.0.0.1:9/v1", token: "typed-token-123456" },
    ]);
    await p.close();
  });

  it("shows a failed call's plain words first, its details behind a toggle", async () => {
    const p = await page({
      getConnectionSettings: view(),
      saveConnectionSettings: {
        thrown: `The service is not answering right now. Nothing was changed. Try again in a few minutes.\n\nDetails: getFunds: HTTP 503 ${HOSTILE}`,
      },
    });
    await p.locator("#save").click();
    await p.waitForSelector("#status.error details");
    expect(await p.locator("#status").evaluate((node) => node.firstChild?.textContent)).toBe(
      "The service is not answering right now. Nothing was changed. Try again in a few minutes.",
    );
    expect(await p.locator("#status summary").textContent()).toBe("Details");
    expect(await p.locator("#status details").evaluate((node) => node.lastChild?.textContent)).toBe(
      `getFunds: HTTP 503 ${HOSTILE}`,
    );
    expect(await p.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await p.close();
  });

  it("speaks Spanish when the view says so, and shows a failed call plainly", async () => {
    const p = await page({
      getConnectionSettings: view({
        language: "es",
        token: { saved: false, last4: "", host: "", confirmUrl: "" },
      }),
      saveConnectionSettings: { thrown: "Settings: no document is open" },
    });
    expect(await p.locator("label[for=f-baseUrl]").textContent()).toBe("URL del servicio");
    expect(await p.evaluate(() => document.documentElement.lang)).toBe("es");
    await p.locator("#save").click();
    await p.waitForSelector("#status.error");
    expect(await p.locator("#status").textContent()).toBe("Algo salió mal: Settings: no document is open");
    expect(await p.locator("#save").isDisabled()).toBe(false);
    await p.close();
  });
});
