/**
 * A sidebar page for Chromium tests: the sidebar's HTML as scripts/build.ts makes it (client
 * bundled, shared CSS inlined, built here from the current sources so that the tests do not
 * depend on a dist/ rebuilt at any moment), and a scripted google.script.run installed before
 * the sidebar's own script runs. Chromium itself comes from test/browser/browser.ts, which fails
 * (never skips) when it is missing.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { sidebarHtml as buildSidebarHtml } from "../../scripts/build";
import { type Browser, launchBrowser } from "../browser/browser";

/** The page of src/ui/sidebars/<name>/ exactly as the build makes it, from the current sources. */
export function sidebarHtml(name: string): string {
  return buildSidebarHtml(name, { logLevel: "silent", minifySidebars: false });
}

export interface ScriptRunScript {
  /** Milliseconds before each answer, as the real google.script.run answers asynchronously. */
  delayMs?: number;
  /** A different delay for some functions, by name. */
  delays?: Record<string, number>;
  /** An answer holding this key is a failure whose message is the key's value. */
  failureKey?: "error" | "thrown";
  /** An answer that is a list is used one item per call. */
  listsInTurn?: boolean;
  /** A function with no scripted answer fails, instead of answering null. */
  unscriptedFails?: boolean;
}

/**
 * A google.script.run for the page, as plain JavaScript text (a compiled function's source
 * could name helpers the page does not have): records each call (arguments copied as sent) in
 * window.__calls and answers from `answers` by function name.
 */
export function scriptRunFake(answers: Record<string, unknown>, script: ScriptRunScript = {}): string {
  const options = {
    delayMs: 5,
    delays: {},
    failureKey: null,
    listsInTurn: false,
    unscriptedFails: false,
    ...script,
  };
  return `(function () {
    var answers = ${JSON.stringify(answers).replace(/</g, "\\u003c")};
    var options = ${JSON.stringify(options).replace(/</g, "\\u003c")};
    window.__calls = [];
    function runner(success, failure) {
      var self = new Proxy({}, {
        get: function (_target, prop) {
          if (prop === "withSuccessHandler") return function (f) { return runner(f, failure); };
          if (prop === "withFailureHandler") return function (f) { return runner(success, f); };
          return function () {
            // A method of its runner, as Google's: called detached, it fails.
            if (this !== self) throw new TypeError("google.script.run." + String(prop) + " called without its runner");
            var args = Array.prototype.slice.call(arguments);
            window.__calls.push({ name: prop, args: JSON.parse(JSON.stringify(args)) });
            var scripted = prop in answers;
            var answer = answers[prop];
            if (options.listsInTurn && Array.isArray(answer)) answer = answer.shift();
            var delay = prop in options.delays ? options.delays[prop] : options.delayMs;
            setTimeout(function () {
              if (!scripted && options.unscriptedFails) failure && failure(new Error(prop + " is not scripted"));
              else if (options.failureKey && answer && typeof answer === "object" && options.failureKey in answer)
                failure && failure(new Error(String(answer[options.failureKey])));
              else success && success(JSON.parse(JSON.stringify(answer === undefined ? null : answer)));
            }, delay);
          };
        }
      });
      return self;
    }
    window.google = { script: { run: runner(), host: { close: function () {} } } };
  })();`;
}

/** Loads `html` into `page` with the scripted google.script.run, and waits for `ready`. */
export async function loadSidebar(
  page: Page,
  html: string,
  answers: Record<string, unknown>,
  script: ScriptRunScript & { ready?: string } = {},
): Promise<void> {
  const { ready = '#app[data-ready="1"]', ...run } = script;
  const fake = `<script>${scriptRunFake(answers, run)}</script>`;
  await page.setContent(html.replace("<head>", () => `<head>${fake}`));
  await page.waitForSelector(ready);
}

/** The calls the page made to google.script.run, in order. */
export const scriptRunCalls = (page: Page) =>
  page.evaluate(() => (window as unknown as { __calls: { name: string; args: unknown[] }[] }).__calls);

export interface SidebarPages {
  /** The file's Chromium (for a page opened by hand). */
  readonly browser: Browser;
  /** The sidebar's page as the build makes it. */
  readonly html: string;
  /** A new page, 300 px wide, the sidebar loaded with these answers (`script` over the file's). */
  open(answers: Record<string, unknown>, script?: ScriptRunScript & { ready?: string }): Promise<Page>;
}

/**
 * One Chromium for a test file and the sidebar `name`'s page, its hooks registered: the browser
 * launched once before the file's tests and closed after them.
 */
export function sidebarPages(
  name: string,
  { height, ...script }: { height: number } & ScriptRunScript & { ready?: string },
): SidebarPages {
  let browser: Browser | undefined;
  let html: string | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
    html = sidebarHtml(name);
  }, 60_000);
  // Each test's pages are put aside after it, for the next test's (Browser.closePages).
  afterEach(async () => {
    await browser?.closePages();
  });
  afterAll(async () => {
    await browser?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the browser is launched in beforeAll");
    return value;
  };
  return {
    get browser() {
      return started(browser);
    },
    get html() {
      return started(html);
    },
    async open(answers, more = {}) {
      const page = await started(browser).context.newPage();
      await page.setViewportSize({ width: 300, height });
      await loadSidebar(page, started(html), answers, { ...script, ...more });
      return page;
    },
  };
}
