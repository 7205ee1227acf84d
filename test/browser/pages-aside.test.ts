/**
 * The browser tests' pages put aside and given again (test/browser/browser.ts): a page closed by
 * one test and opened by the next must carry nothing over, or the next test would see what the
 * one before left.
 */
import { describe, expect, it } from "vitest";
import { chromiumPerFile } from "../support/playground";

const browser = chromiumPerFile();

describe("a page put aside and opened again", () => {
  it("is the same page, with a new window, no listener, no route and the first viewport", async () => {
    const { context } = browser();
    const first = await context.newPage();
    await first.setViewportSize({ width: 300, height: 900 });
    await first.route("http://pages-aside.invalid/", (route) =>
      route.fulfill({ contentType: "text/html", body: "<p>routed</p>" }),
    );
    await first.goto("http://pages-aside.invalid/");
    expect(await first.textContent("p")).toBe("routed");
    first.on("dialog", () => undefined);
    const errorsSeenByFirst: string[] = [];
    first.on("pageerror", (err) => errorsSeenByFirst.push(err.message));
    await first.setContent(
      `<script>window.__left = 1; setInterval(() => { window.__ticks = (window.__ticks || 0) + 1; }, 5);</script><p>first</p>`,
    );
    await first.close();

    const next = await context.newPage();
    expect(next).toBe(first);
    expect(next.isClosed()).toBe(false);
    expect(next.url()).toBe("about:blank");
    expect(next.viewportSize()).toEqual({ width: 1280, height: 800 });
    await new Promise((done) => setTimeout(done, 50));
    expect(
      await next.evaluate(() => {
        const w = window as unknown as Record<string, unknown>;
        return [w.__left, w.__ticks, document.body?.textContent ?? ""];
      }),
    ).toEqual([undefined, undefined, ""]);
    // The first test's listeners are gone: an error of the page reaches none of them, and a
    // dialog is dismissed as on a new page (the first's listener would have left it open).
    await next.evaluate(() =>
      setTimeout(() => {
        throw new Error("after");
      }),
    );
    await new Promise((done) => setTimeout(done, 50));
    expect(errorsSeenByFirst).toEqual([]);
    expect(await next.evaluate(() => confirm("go on?"))).toBe(false);
    // The route is gone: the address no longer answers.
    await expect(next.goto("http://pages-aside.invalid/", { timeout: 10_000 })).rejects.toThrow();
  });

  it("a page still open after a test is put aside by closePages, and two open at once stay two", async () => {
    const { context, closePages } = browser();
    await closePages();
    const a = await context.newPage();
    const b = await context.newPage();
    expect(a).not.toBe(b);
    await closePages();
    const again = [await context.newPage(), await context.newPage()];
    expect(new Set(again)).toEqual(new Set([a, b]));
    await closePages();
  });
});
