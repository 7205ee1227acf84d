/**
 * The settings sidebar's HTML as scripts/build.ts makes it (client bundled, shared CSS inlined),
 * built here so that the tests do not depend on a dist/ that others rebuild at any moment.
 */
import { afterAll, afterEach, beforeAll } from "vitest";
import { type Browser, launchBrowser } from "../browser/browser";
import { sidebarHtml } from "../support/sidebar-page";

export function settingsSidebarHtml(): string {
  return sidebarHtml("settings");
}

/**
 * Chromium and the settings sidebar's HTML for the tests of a describe block (or a file): built
 * and launched before its first test, the browser closed after its last. Its members are there
 * once the tests run.
 */
export function settingsSidebarInBrowser(): { browser: Browser; html: string } {
  const opened = {} as { browser: Browser; html: string };
  beforeAll(async () => {
    opened.html = settingsSidebarHtml();
    opened.browser = await launchBrowser();
  }, 60_000);
  // Each test's pages are put aside after it, for the next test's (Browser.closePages).
  afterEach(async () => {
    await opened.browser?.closePages();
  });
  afterAll(async () => {
    await opened.browser?.close();
  });
  return opened;
}
