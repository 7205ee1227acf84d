/**
 * The setup of the playground's browser tests, test/browser/playground-*.test.ts: one file per
 * subject, so that they run side by side instead of one long file alone at the end of the suite.
 * Each file launches one Chromium for its tests (a missing one fails the file's first test, with
 * how to install it, never skips); the end-to-end suites open a playground of the built add-on
 * (dist/) in a page of their own.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { type Browser, launchBrowser, pageErrors } from "../browser/browser";
import type { E2eContext } from "../browser/e2e/context";
import { PlaygroundPage } from "../browser/playground-page";
import { type PlaygroundStack, startStack } from "../browser/stack";

/**
 * One Chromium for the file's tests, launched before the first and closed after the last; the
 * function returned gives it (or throws why it did not start). Its first test fails when
 * Chromium is missing.
 */
export function chromiumPerFile(): () => Browser {
  // Each test drives whole executions of the add-on through a browser; on 2 shared cores with
  // the rest of the suite running beside it, that takes longer than a unit test.
  vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

  let browser: Browser | undefined;
  let launchError: Error | undefined;

  beforeAll(async () => {
    try {
      browser = await launchBrowser();
    } catch (err) {
      launchError = err instanceof Error ? err : new Error(String(err));
    }
  });

  // A missing Chromium is a failure of this test (with how to install it), never a skip.
  it("runs on Debian's Chromium", () => {
    expect(launchError?.message).toBeUndefined();
  });

  afterAll(async () => {
    await browser?.close();
  });

  return () => {
    if (!browser) throw launchError ?? new Error("Chromium did not start");
    return browser;
  };
}

/**
 * A playground of `companies` companies (as `npm start -- --companies N`) opened in a page of its
 * own of `browser` before the describe's tests, closed after them; the tests' context once it is
 * there.
 */
export function playgroundFor(browser: () => Browser, companies: number): () => E2eContext {
  let stack: PlaygroundStack | undefined;
  let page: Page | undefined;
  let context: E2eContext | undefined;

  beforeAll(async () => {
    const running = await startStack({ companies });
    stack = running;
    const openPage = await browser().context.newPage();
    page = openPage;
    const errors = pageErrors(openPage);
    const playground = new PlaygroundPage(openPage);
    context = {
      stack: running,
      page: openPage,
      playground,
      errors,
      async fresh() {
        await running.reset();
        errors.length = 0;
        await playground.open(running.url);
      },
    };
    await playground.open(running.url);
  });

  afterAll(async () => {
    await page?.close();
    await stack?.close();
  });

  return () => {
    if (!context)
      throw new Error(`The playground of ${companies} companies did not start (see the first failure)`);
    return context;
  };
}
