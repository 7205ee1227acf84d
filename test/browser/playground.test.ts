/**
 * Browser tests of the playground, one Chromium for all of them. The page suite drives the page
 * against a scripted control API; the end-to-end suites drive the real add-on (dist/) in the
 * emulation against the sandbox.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { type Browser, launchBrowser } from "./browser";
import { pageSuite } from "./page-suite";

let browser: Browser | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const getBrowser = (): Browser => {
  if (!browser) throw new Error("Chromium did not start (see the first failure)");
  return browser;
};

describe("playground page", () => pageSuite(getBrowser));
