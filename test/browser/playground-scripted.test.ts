/**
 * The playground page itself, in Chromium, against a scripted control API (page-suite.ts): the
 * grid, the selection, typing, the add-on menu, alerts and toasts, the sidebar bridge and the
 * panel. The end-to-end suites of the built add-on are the other playground-*.test.ts files.
 */
import { describe } from "vitest";
import { chromiumPerFile } from "../support/playground";
import { pageSuite } from "./page-suite";

const browser = chromiumPerFile();

describe("playground page", () => pageSuite(browser));
