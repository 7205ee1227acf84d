/** The Summary sheet after Refresh all, with its three embedded charts drawn over the grid. */
import { expect, it } from "vitest";
import { screenshot } from "../browser";
import { until } from "../until";
import type { E2eContext } from "./context";

export function summarySuite(ctx: () => E2eContext): void {
  it("shows the Summary's blocks and draws its three charts where the add-on anchored them", async () => {
    const { playground } = ctx();
    await ctx().fresh();
    await playground.menu("refreshAll");
    await playground.sheet("Summary");
    expect(await playground.row(1)).toEqual(["Summary"]);
    expect((await playground.row(2))[0]).toMatch(/^Computed .* after Refresh all \(menu\)/);
    const page = playground.page;
    const charts = page.locator('[data-testid="sheet-chart"]');
    await until(async () => expect(await charts.count()).toBe(3));
    expect(await charts.evaluateAll((boxes) => boxes.map((b) => b.getAttribute("aria-label")))).toEqual([
      "Balance of open funds per currency",
      "Expense reports sent per month, by status",
      "Approved, not integrated, by age in days",
    ]);
    // Anchored at column J, one under the other.
    const anchor = await playground.cell("J1").evaluate((td) => (td as HTMLElement).offsetLeft);
    const boxes = await charts.evaluateAll((list) =>
      list.map((b) => ({ left: (b as HTMLElement).offsetLeft, top: (b as HTMLElement).offsetTop })),
    );
    expect(boxes.map((b) => b.left)).toEqual([anchor, anchor, anchor]);
    expect(boxes[1]?.top).toBeGreaterThan(boxes[0]?.top ?? 0);
    // Each canvas was drawn on: bars, axes and a title, not a blank box.
    const inked = await charts.evaluateAll((list) =>
      list.map((b) => {
        const canvas = b.querySelector("canvas") as HTMLCanvasElement;
        const data = (canvas.getContext("2d") as CanvasRenderingContext2D).getImageData(
          0,
          0,
          canvas.width,
          canvas.height,
        ).data;
        let coloured = 0;
        for (let i = 0; i < data.length; i += 4)
          if ((data[i + 3] ?? 0) > 0 && Math.abs((data[i] ?? 0) - (data[i + 2] ?? 0)) > 60) coloured++;
        return coloured;
      }),
    );
    expect(inked.every((n) => n > 200)).toBe(true);
    // Wide enough for the blocks and the charts beside them (docs/summary.md's picture).
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: 1720, height: 1060 });
    await screenshot(page, "playground-summary");
    if (viewport) await page.setViewportSize(viewport);
    expect(ctx().errors).toEqual([]);
  });
}
