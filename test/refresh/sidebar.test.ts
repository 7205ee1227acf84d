/**
 * The refresh sidebar's page in Chromium at the sidebar's 300 px, with google.script.run
 * answered by a scripted fake: buttons, one refresh at a time, the summary shown as text.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, launchBrowser, screenshot } from "../browser/browser";

const root = resolve(import.meta.dirname, "../..");
const HOSTILE = '<img src=x onerror="window.__pwned=1">';

async function sidebarHtml(): Promise<string> {
  const dir = join(root, "src/ui/sidebars/refresh");
  const out = await build({
    entryPoints: [join(dir, "client.ts")],
    bundle: true,
    format: "iife",
    target: "es2019",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  const css = readFileSync(join(root, "src/ui/sidebars/common.css"), "utf8");
  return readFileSync(join(dir, "index.html"), "utf8")
    .replace("<!-- inline:style -->", () => `<style>${css}</style>`)
    .replace(
      "<!-- inline:script -->",
      () => `<script>${(out.outputFiles[0]?.text ?? "").replace(/<\/script/gi, "<\\/script")}</script>`,
    );
}

/** A fake google.script.run answering from `scripted` after `delayMs`, recording calls. */
function fakeScriptRun(scripted: Record<string, unknown>, delayMs: number): void {
  const calls: { name: string; args: unknown[] }[] = [];
  (window as unknown as { __calls: typeof calls }).__calls = calls;
  const make = (ok?: (v: unknown) => void, fail?: (e: Error) => void): unknown =>
    new Proxy(
      {},
      {
        get(_t, name: string) {
          if (name === "withSuccessHandler") return (f: (v: unknown) => void) => make(f, fail);
          if (name === "withFailureHandler") return (f: (e: Error) => void) => make(ok, f);
          return (...args: unknown[]) => {
            calls.push({ name, args });
            const answer = scripted[name] as { error?: string } | undefined;
            setTimeout(
              () => {
                if (answer && typeof answer === "object" && "error" in answer)
                  fail?.(new Error(answer.error));
                else ok?.(JSON.parse(JSON.stringify(answer ?? null)));
              },
              name === "refreshFromSidebar" ? delayMs : 1,
            );
          };
        },
      },
    );
  (window as unknown as { google: unknown }).google = { script: { run: make() } };
}

let browser: Browser;
let html: string;

beforeAll(async () => {
  browser = await launchBrowser();
  html = await sidebarHtml();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

async function open(answers: Record<string, unknown>, delayMs = 5): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 300, height: 600 });
  const fake = `<script>(${fakeScriptRun.toString()})(${JSON.stringify(answers).replace(/</g, "\\u003c")}, ${delayMs});</script>`;
  await page.setContent(html.replace("<head>", () => `<head>${fake}`));
  await page.waitForSelector('#app[aria-busy="false"]');
  return page;
}

const calls = (page: Page) =>
  page.evaluate(() => (window as unknown as { __calls: { name: string; args: unknown[] }[] }).__calls);

describe("refresh sidebar", () => {
  it("runs the refresh of the button clicked, one at a time, and shows the summary as text", async () => {
    const page = await open(
      {
        getRefreshSidebarView: { language: "en" },
        refreshFromSidebar: {
          ok: true,
          finished: true,
          records: 12,
          calls: 3,
          seconds: 0.4,
          refreshed: ["funds"],
          message: `12 records ${HOSTILE}`,
        },
      },
      300,
    );
    await page.getByRole("button", { name: "Refresh funds", exact: true }).click();
    // While it runs, no button can start another refresh.
    expect(await page.locator("button:disabled").count()).toBe(5);
    await expect.poll(() => page.locator("#refresh-status").innerText()).toBe(`12 records ${HOSTILE}`);
    expect(await page.locator("button:disabled").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect((await calls(page)).filter((c) => c.name === "refreshFromSidebar")).toEqual([
      { name: "refreshFromSidebar", args: ["funds"] },
    ]);
    await screenshot(page, "refresh-sidebar");
    await page.close();
  });

  it("speaks Spanish and shows a failure's reason", async () => {
    const page = await open({
      getRefreshSidebarView: { language: "es" },
      refreshFromSidebar: { error: "La actualización falló: HTTP 500" },
    });
    await page.getByRole("button", { name: "Actualizar todo" }).click();
    await expect
      .poll(() => page.locator("#refresh-status").innerText())
      .toBe("La actualización falló: HTTP 500");
    expect(await page.locator("#refresh-status").getAttribute("class")).toBe("problem");
    await page.close();
  });
});
