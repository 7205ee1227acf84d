/**
 * What every sidebar must be (issue 8): it fits the 300-pixel width without horizontal
 * scrolling, every field has a label, and every control can be reached with the Tab key.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";

export async function sidebarQuality(page: Page): Promise<void> {
  const frame = page.frames().find((f) => f !== page.mainFrame() && f.url() === "about:srcdoc");
  if (!frame) throw new Error("No sidebar frame is open");
  const box = await page.locator('[data-testid="sidebar-frame"]').boundingBox();
  expect(box?.width).toBe(300);
  const report = await frame.evaluate(() => {
    const visible = (el: Element) => {
      const r = (el as HTMLElement).getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
    };
    const fields = Array.from(document.querySelectorAll("input, select, textarea")).filter(
      (el) => visible(el) && (el as HTMLInputElement).type !== "hidden",
    ) as HTMLInputElement[];
    const unlabelled = fields
      .filter(
        (el) =>
          !(el.labels && el.labels.length > 0) &&
          !el.getAttribute("aria-label") &&
          !el.getAttribute("aria-labelledby"),
      )
      .map((el) => el.id || el.name || el.outerHTML.slice(0, 60));
    const controls = Array.from(document.querySelectorAll("input, select, textarea, button, a[href]")).filter(
      (el) => visible(el) && !(el as HTMLButtonElement).disabled,
    );
    const unreachable = controls
      .filter((el) => (el as HTMLElement).tabIndex < 0)
      .map((el) => el.id || el.outerHTML.slice(0, 60));
    return {
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      unlabelled,
      unreachable,
      controls: controls.length,
    };
  });
  expect(report.overflow, "horizontal overflow in pixels").toBeLessThanOrEqual(0);
  expect(report.unlabelled, "fields without a label").toEqual([]);
  expect(report.unreachable, "controls out of the Tab order").toEqual([]);
  expect(report.controls).toBeGreaterThan(0);
  // Tab really moves focus into and through the sidebar.
  // Click the sidebar's empty top-left corner (no control there), then press Tab.
  if (!box) throw new Error("The sidebar frame has no size");
  // A sidebar still settling (a late answer re-drawing a section) can take the focus back to
  // the body once; a person pressing Tab again gets in, and so must the test, within a few tries.
  let focused = "";
  for (
    let attempt = 0;
    attempt < 5 && !["INPUT", "SELECT", "TEXTAREA", "BUTTON", "A"].includes(focused);
    attempt++
  ) {
    if (attempt > 0) await page.waitForTimeout(200);
    await page.mouse.click(box.x + 2, box.y + 2);
    await page.keyboard.press("Tab");
    focused = await frame.evaluate(() => document.activeElement?.tagName ?? "");
  }
  expect(["INPUT", "SELECT", "TEXTAREA", "BUTTON", "A"]).toContain(focused);
}
