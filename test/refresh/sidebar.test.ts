/**
 * The refresh sidebar's page in Chromium at the sidebar's 300 px, with google.script.run
 * answered by a scripted fake: buttons, one refresh at a time, the summary shown as text.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, launchBrowser, screenshot } from "../browser/browser";
import { scriptRunCalls as calls, loadSidebar, sidebarHtml } from "../support/sidebar-page";

const HOSTILE = '<img src=x onerror="window.__pwned=1">';

let browser: Browser;
let html: string;

beforeAll(async () => {
  browser = await launchBrowser();
  html = sidebarHtml("refresh");
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** Opens the sidebar; refreshFromSidebar answers after `delayMs`, everything else at once. */
async function open(answers: Record<string, unknown>, delayMs = 5): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 300, height: 600 });
  await loadSidebar(page, html, answers, {
    delayMs: 1,
    delays: { refreshFromSidebar: delayMs },
    failureKey: "error",
    ready: '#app[aria-busy="false"]',
  });
  return page;
}

describe("refresh sidebar", () => {
  it("runs the refresh of the button clicked, one at a time, and shows the summary as text", async () => {
    const page = await open(
      {
        getRefreshSidebarView: { language: "en" },
        refreshFromSidebar: {
          ok: true,
          finished: true,
          records: 12,
          calls: 3,
          seconds: 0.4,
          refreshed: ["funds"],
          message: `12 records ${HOSTILE}`,
        },
      },
      300,
    );
    await page.getByRole("button", { name: "Refresh funds", exact: true }).click();
    // While it runs, no button can start another refresh.
    expect(await page.locator("button:disabled").count()).toBe(5);
    await expect.poll(() => page.locator("#refresh-status").innerText()).toBe(`12 records ${HOSTILE}`);
    expect(await page.locator("button:disabled").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect((await calls(page)).filter((c) => c.name === "refreshFromSidebar")).toEqual([
      { name: "refreshFromSidebar", args: ["funds"] },
    ]);
    await screenshot(page, "refresh-sidebar");
    await page.close();
  });

  it("speaks Spanish and shows a failure's reason", async () => {
    const page = await open({
      getRefreshSidebarView: { language: "es" },
      refreshFromSidebar: { error: "La actualización falló: HTTP 500" },
    });
    await page.getByRole("button", { name: "Actualizar todo" }).click();
    await expect
      .poll(() => page.locator("#refresh-status").innerText())
      .toBe("La actualización falló: HTTP 500");
    expect(await page.locator("#refresh-status").getAttribute("class")).toBe("problem");
    await page.close();
  });
});
