/**
 * End to end in Chromium: the built add-on (dist/) in the emulation against the sandbox, as
 * `npm start -- --companies 1` opens the playground, driven through the page as a person would.
 * The panel's Reset, with sidebars opened before it and one left open across it.
 */
import { describe } from "vitest";
import { chromiumPerFile, playgroundFor } from "../support/playground";
import { resetSuite } from "./e2e/reset";

const browser = chromiumPerFile();

describe("end to end: the built add-on in the emulation against the sandbox", () => {
  const ctx = playgroundFor(browser, 1);

  describe("reset", () => resetSuite(ctx));
});
