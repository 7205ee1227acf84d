/**
 * End to end in Chromium: the built add-on (dist/) in the emulation against the sandbox, as
 * `npm start -- --companies 1` opens the playground, driven through the page as a person would.
 * The Settings sidebar and its Connection section.
 */
import { describe } from "vitest";
import { chromiumPerFile, playgroundFor } from "../support/playground";
import { connectionSuite } from "./e2e/connection";
import { settingsSuite } from "./e2e/settings";

const browser = chromiumPerFile();

describe("end to end: the built add-on in the emulation against the sandbox", () => {
  const ctx = playgroundFor(browser, 1);

  describe("settings sidebar: the Connection section (menu “Connection…”)", () => connectionSuite(ctx));
  describe("settings sidebar", () => settingsSuite(ctx));
});
