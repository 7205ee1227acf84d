/**
 * Browser tests of the playground, one Chromium for all of them. The page suite drives the page
 * against a scripted control API; the end-to-end suites drive the real add-on (dist/) in the
 * emulation against the sandbox, through the page, as a person would. Adding a sidebar's tests
 * means adding a suite file under e2e/ and one line below.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Browser, launchBrowser, pageErrors } from "./browser";
import { companiesSuite } from "./e2e/companies";
import { connectionSuite } from "./e2e/connection";
import type { E2eContext } from "./e2e/context";
import { fundSuite } from "./e2e/fund";
import { fundSidebarCompaniesSuite } from "./e2e/fund-sidebar-companies";
import { openingSuite } from "./e2e/opening";
import { outboxSuite } from "./e2e/outbox";
import { refreshSuite } from "./e2e/refresh";
import { refreshSidebarSuite } from "./e2e/refresh-sidebar";
import { reportSuite } from "./e2e/report";
import { resetSuite } from "./e2e/reset";
import { settingsSuite } from "./e2e/settings";
import { summarySuite } from "./e2e/summary";
import { pageSuite } from "./page-suite";
import { PlaygroundPage } from "./playground-page";
import { type PlaygroundStack, startStack } from "./stack";

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

const getBrowser = (): Browser => {
  if (!browser) throw launchError ?? new Error("Chromium did not start");
  return browser;
};

describe("playground page", () => pageSuite(getBrowser));

/**
 * A playground of `companies` companies opened in a page of its own before the describe's tests,
 * closed after them; the tests' context once it is there.
 */
function playgroundFor(companies: number): () => E2eContext {
  let stack: PlaygroundStack | undefined;
  let page: Page | undefined;
  let context: E2eContext | undefined;

  beforeAll(async () => {
    const running = await startStack({ companies });
    stack = running;
    const openPage = await getBrowser().context.newPage();
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

describe("end to end: the built add-on in the emulation against the sandbox", () => {
  // As `npm start -- --companies 1`: the one-company demo these suites speak of.
  const ctx = playgroundFor(1);

  describe("refresh", () => refreshSuite(ctx));
  describe("refresh sidebar", () => refreshSidebarSuite(ctx));
  describe("settings sidebar: the Connection section (menu “Connection…”)", () => connectionSuite(ctx));
  describe("settings sidebar", () => settingsSuite(ctx));
  describe("fund sidebar", () => fundSuite(ctx));
  describe("report sidebar", () => reportSuite(ctx));
  describe("outbox", () => outboxSuite(ctx));
  describe("summary", () => summarySuite(ctx));
  describe("reset", () => resetSuite(ctx));
  describe("opening", () => openingSuite(ctx));
});

describe("end to end with two companies, as `npm start` opens the playground", () => {
  const ctx = playgroundFor(2);

  describe("two demo companies", () => companiesSuite(ctx));
  describe("the Fund sidebar acts on the selected row's company", () => fundSidebarCompaniesSuite(ctx));
});
