/**
 * End to end in Chromium: the built add-on (dist/) in the emulation against the sandbox, as
 * `npm start -- --companies 1` opens the playground, driven through the page as a person would.
 * Refreshing from the menu and from the Refresh sidebar, and opening the spreadsheet again.
 */
import { describe } from "vitest";
import { chromiumPerFile, playgroundFor } from "../support/playground";
import { openingSuite } from "./e2e/opening";
import { refreshSuite } from "./e2e/refresh";
import { refreshSidebarSuite } from "./e2e/refresh-sidebar";

const browser = chromiumPerFile();

describe("end to end: the built add-on in the emulation against the sandbox", () => {
  const ctx = playgroundFor(browser, 1);

  describe("refresh", () => refreshSuite(ctx));
  describe("refresh sidebar", () => refreshSidebarSuite(ctx));
  describe("opening", () => openingSuite(ctx));
});
