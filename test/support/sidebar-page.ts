/**
 * A sidebar page for Chromium tests: the sidebar's HTML as scripts/build.ts makes it (client
 * bundled, shared CSS inlined, built here from the current sources so that the tests do not
 * depend on a dist/ rebuilt at any moment), and a scripted google.script.run installed before
 * the sidebar's own script runs. Chromium itself comes from test/browser/browser.ts, which fails
 * (never skips) when it is missing.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildSync } from "esbuild";
import type { Page } from "playwright-core";

const root = resolve(import.meta.dirname, "../..");

/** The page of src/ui/sidebars/<name>/ with its client bundled and the shared CSS inlined. */
export function sidebarHtml(name: string): string {
  const dir = join(root, "src/ui/sidebars", name);
  const out = buildSync({
    entryPoints: [join(dir, "client.ts")],
    bundle: true,
    format: "iife",
    target: "es2019",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  const css = readFileSync(join(root, "src/ui/sidebars/common.css"), "utf8");
  const script = (out.outputFiles[0]?.text ?? "").replace(/<\/script/gi, "<\\/script");
  return readFileSync(join(dir, "index.html"), "utf8")
    .replace("<!-- inline:style -->", () => `<style>${css}</style>`)
    .replace("<!-- inline:script -->", () => `<script>${script}</script>`);
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
      return new Proxy({}, {
        get: function (_target, prop) {
          if (prop === "withSuccessHandler") return function (f) { return runner(f, failure); };
          if (prop === "withFailureHandler") return function (f) { return runner(success, f); };
          return function () {
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
