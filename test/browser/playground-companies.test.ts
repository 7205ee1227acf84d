/**
 * End to end in Chromium: the built add-on (dist/) in the emulation against the sandbox with two
 * companies, as `npm start` opens the playground, driven through the page as a person would.
 */
import { describe } from "vitest";
import { chromiumPerFile, playgroundFor } from "../support/playground";
import { companiesSuite } from "./e2e/companies";
import { fundSidebarCompaniesSuite } from "./e2e/fund-sidebar-companies";

const browser = chromiumPerFile();

describe("end to end with two companies, as `npm start` opens the playground", () => {
  const ctx = playgroundFor(browser, 2);

  describe("two demo companies", () => companiesSuite(ctx));
  describe("the Fund sidebar acts on the selected row's company", () => fundSidebarCompaniesSuite(ctx));
});
