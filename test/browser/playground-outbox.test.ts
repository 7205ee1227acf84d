/**
 * End to end in Chromium: the built add-on (dist/) in the emulation against the sandbox, as
 * `npm start -- --companies 1` opens the playground, driven through the page as a person would.
 * The Outbox typed into the grid and run, and the Summary.
 */
import { describe } from "vitest";
import { chromiumPerFile, playgroundFor } from "../support/playground";
import { outboxSuite } from "./e2e/outbox";
import { summarySuite } from "./e2e/summary";

const browser = chromiumPerFile();

describe("end to end: the built add-on in the emulation against the sandbox", () => {
  const ctx = playgroundFor(browser, 1);

  describe("outbox", () => outboxSuite(ctx));
  describe("summary", () => summarySuite(ctx));
});
