/**
 * End to end in Chromium: the built add-on (dist/) in the emulation against the sandbox, as
 * `npm start -- --companies 1` opens the playground, driven through the page as a person would.
 * The Fund and Report sidebars.
 */
import { describe } from "vitest";
import { chromiumPerFile, playgroundFor } from "../support/playground";
import { fundSuite } from "./e2e/fund";
import { reportSuite } from "./e2e/report";

const browser = chromiumPerFile();

describe("end to end: the built add-on in the emulation against the sandbox", () => {
  const ctx = playgroundFor(browser, 1);

  describe("fund sidebar", () => fundSuite(ctx));
  describe("report sidebar", () => reportSuite(ctx));
});
