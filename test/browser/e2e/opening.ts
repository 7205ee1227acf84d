/**
 * Loading the playground is opening the spreadsheet: onOpen runs as in Sheets, so a scheduled
 * refresh that failed meanwhile shows its notice (a toast and a menu item) to the person who
 * opens it, and the menu is in the document's language.
 */
import { expect, it } from "vitest";
import { until } from "../until";
import type { E2eContext } from "./context";

export function openingSuite(ctx: () => E2eContext): void {
  const menuItems = async () => {
    const { page } = ctx();
    await page.locator('[data-testid="menu-extensions"]').click();
    await page.locator('[data-testid="menu-addon"]').click();
    const items = await page.locator('[data-testid^="menu-item-"]').allTextContents();
    await page.keyboard.press("Escape");
    return items;
  };

  it("says when the acting user has no scheduled refresh to fire, instead of a bare count", async () => {
    const { page } = ctx();
    await ctx().fresh();
    await page.locator('[data-testid="fire-trigger"]').click();
    await page
      .locator('[data-testid="run-status"]', {
        hasText:
          "No scheduled refresh of treasurer@example.com to fire: set one in Settings, under Scheduled refresh (it runs as the user who set it).",
      })
      .waitFor({ timeout: 30_000 });
  });

  it("shows a failed scheduled refresh when the spreadsheet is opened again (the page reloaded)", async () => {
    const { playground, page, stack } = ctx();
    await ctx().fresh();
    await playground.menu("showSettingsSidebar");
    const frame = playground.sidebar();
    await frame.locator("#f-schedule").selectOption("hours:4");
    await playground.afterRun(() => frame.locator("#schedule-apply").click());
    await page.locator('[data-testid="fault-preset"]').selectOption("down");
    await page.locator('[data-testid="fault-apply"]').click();
    await page.locator('[data-testid="fire-trigger"]').click();
    await page
      .locator('[data-testid="run-status"]', { hasText: "Scheduled trigger fired" })
      .waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="fault-clear"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "none" }).waitFor();

    await playground.open(stack.url);
    await until(async () =>
      expect((await playground.toasts()).join(" ")).toMatch(/last scheduled refresh failed/i),
    );
    expect(await menuItems()).toContain("⚠ Last scheduled refresh failed");
  });
}
