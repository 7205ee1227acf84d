/**
 * The panel's "Reset spreadsheet and sandbox" as a person uses it, without reloading the page:
 * sidebars opened and used before, one left open across the reset, each opens again after it
 * and draws its content (a frame that is there but never drawn shows a blank sidebar).
 */
import type { FrameLocator, Locator } from "playwright-core";
import { expect, it } from "vitest";
import { screenshot } from "../browser";
import { until } from "../until";
import type { E2eContext } from "./context";
import { SidebarForm } from "./forms";

/** Each sidebar's menu item, and something its content shows once loaded. */
const SIDEBARS: [string, (frame: FrameLocator) => Locator][] = [
  ["showRefreshSidebar", (f) => f.locator("#refresh-all")],
  ["showFundSidebar", (f) => f.getByRole("button", { name: "Show fund" })],
  ["showReportSidebar", (f) => f.getByRole("button", { name: "Reload selection" })],
  ["showSettingsSidebar", (f) => f.getByText("Service URL").first()],
  ["showConnectionSidebar", (f) => f.getByText("Where the add-on finds the service").first()],
];

export function resetSuite(ctx: () => E2eContext): void {
  /** Opens a sidebar from the menu and waits until its content is drawn, not only present. */
  async function openDrawn(functionName: string, content: (frame: FrameLocator) => Locator) {
    const { playground, page } = ctx();
    await playground.menu(functionName);
    const frame = playground.sidebar();
    await content(frame).waitFor({ state: "visible" });
    const box = await content(frame).boundingBox();
    expect(box?.height ?? 0, `${functionName}: its content has no size`).toBeGreaterThan(0);
    const body = await frame.locator("body").evaluate((b) => b.getClientRects().length);
    expect(body, `${functionName}: its page is not drawn`).toBe(1);
    await page.locator('[data-testid="sidebar"]').waitFor({ state: "visible" });
  }

  it("opens every sidebar drawn after Reset, the one left open across it included, with no reload", async () => {
    const { playground, page } = ctx();
    await ctx().fresh();
    // Use them first: a refresh from its sidebar, then a deposit from the fund's.
    await openDrawn(...(SIDEBARS[0] as [string, (f: FrameLocator) => Locator]));
    await playground.afterRun(() => playground.sidebar().locator("#refresh-all").click(), 60_000);
    await playground.sheet("Funds");
    await playground.selectRows(await playground.findRow("Status", "Open"));
    await playground.menu("showFundSidebar");
    const deposit = new SidebarForm(playground.sidebar(), "Deposit");
    await deposit.fill({ Amount: "10" });
    await deposit.submit();
    const question = deposit.root.locator(".confirm[role=alertdialog]");
    await playground.afterRun(() => question.getByRole("button", { name: "Confirm" }).click());
    await until(async () => expect(await deposit.status().textContent()).toMatch(/^Done\./));
    // From here on, a slower machine, as many users': Chromium then commits a sidebar's document
    // later, which is when a frame shown after being hidden could stay undrawn.
    const cpu = await page.context().newCDPSession(page);
    await cpu.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    for (const [name, content] of SIDEBARS.slice(2)) await openDrawn(name, content);

    // The Connection sidebar is still open when the panel's Reset is pressed.
    await page.locator('[data-testid="reset"]').click();
    await page.locator('[data-testid="run-status"]', { hasText: "Reset done" }).waitFor({ timeout: 60_000 });
    for (const [name, content] of [...SIDEBARS].reverse()) await openDrawn(name, content);
    await screenshot(page, "sidebar-after-reset");
    await cpu.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await cpu.detach();
    expect(ctx().errors).toEqual([]);
  });
}
