/**
 * The refresh sidebar through the page: a refresh of everything fills the sheets, and a refresh
 * while the service is down says why and leaves the previous data as it was.
 */
import { expect, it } from "vitest";
import { screenshot } from "../browser";
import { until } from "../until";
import type { E2eContext } from "./context";
import { sidebarQuality } from "./sidebar-quality";

export function refreshSidebarSuite(ctx: () => E2eContext): void {
  const frame = () => ctx().playground.sidebar();
  const status = () => frame().locator("#refresh-status");

  it("opens from the menu, fits 300 px and is reachable with the keyboard", async () => {
    const { playground } = ctx();
    await ctx().fresh();
    await playground.menu("showRefreshSidebar");
    await frame().locator("#refresh-all").waitFor();
    await sidebarQuality(ctx().page);
  });

  it("refreshes everything from the sidebar: funds, transactions and reports land in their sheets", async () => {
    const { playground, page } = ctx();
    await playground.afterRun(() => frame().locator("#refresh-all").click(), 60_000);
    await until(async () => expect(await status().getAttribute("class")).toBe("ok"));
    const tabs = await page.locator('[data-testid="sheet-tab"]').allTextContents();
    expect(tabs).toEqual(expect.arrayContaining(["Funds", "Expense reports"]));
    expect(tabs.length).toBeGreaterThanOrEqual(4);
    await screenshot(page, "sidebar-refresh");
  });

  it("says why a refresh failed while the service is down and keeps the previous rows", async () => {
    const { playground, page } = ctx();
    await playground.sheet("Funds");
    const before = await playground.row(2);
    expect(before.length).toBeGreaterThan(3);
    await page.locator('[data-testid="fault-preset"]').selectOption("down");
    await page.locator('[data-testid="fault-apply"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "Service down" }).waitFor();
    await playground.afterRun(() => frame().locator("#refresh-funds").click(), 60_000);
    await until(async () => expect(await status().getAttribute("class")).toBe("problem"));
    expect(await status().textContent()).toMatch(/503|down|unavailable|not answering/i);
    await playground.sheet("Funds");
    expect(await playground.row(2)).toEqual(before);
    await page.locator('[data-testid="fault-clear"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "none" }).waitFor();
  });
}
