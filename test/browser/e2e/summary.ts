/** The Summary sheet after Refresh all, with its embedded charts (one currency each) drawn over the grid. */
import { expect, it } from "vitest";
import { screenshot } from "../browser";
import { until } from "../until";
import type { E2eContext } from "./context";

export function summarySuite(ctx: () => E2eContext): void {
  it("shows the Summary's blocks and draws its charts, one currency each, where the add-on anchored them", async () => {
    const { playground } = ctx();
    await ctx().fresh();
    await playground.menu("refreshAll");
    await playground.sheet("Summary");
    expect(await playground.row(1)).toEqual(["Summary"]);
    expect((await playground.row(2))[0]).toMatch(/^Computed .* after Refresh all \(menu\)/);
    const page = playground.page;
    const charts = page.locator('[data-testid="sheet-chart"]');
    // The demo's funds are in four currencies, its closed reports not integrated in two.
    await until(async () => expect(await charts.count()).toBe(7));
    const labels = await charts.evaluateAll((boxes) => boxes.map((b) => b.getAttribute("aria-label") ?? ""));
    expect(labels).toEqual([
      "Funds in CLP: balance and movements in window",
      "Funds in MXN: balance and movements in window",
      "Funds in PEN: balance and movements in window",
      "Funds in USD: balance and movements in window",
      "Expense reports sent per month, by status",
      "CLP approved, not integrated, by age in days",
      "PEN approved, not integrated, by age in days",
    ]);
    // No chart of amounts draws two currencies: each names one, and its data rows are its own.
    for (const label of labels)
      expect(label.match(/\b(CLP|MXN|PEN|USD)\b/g)?.length ?? 0).toBeLessThanOrEqual(1);
    // The funds' charts side by side from column J, the months' below them, the ages' below that.
    const anchor = await playground.cell("J1").evaluate((td) => (td as HTMLElement).offsetLeft);
    const boxes = await charts.evaluateAll((list) =>
      list.map((b) => ({ left: (b as HTMLElement).offsetLeft, top: (b as HTMLElement).offsetTop })),
    );
    const [f1, f2, f3, f4, months, a1, a2] = boxes as { left: number; top: number }[];
    expect(f1?.left).toBe(anchor);
    expect([f2, f3, f4].every((b) => b?.top === f1?.top)).toBe(true);
    expect((f1?.left ?? 0) < (f2?.left ?? 0) && (f2?.left ?? 0) < (f3?.left ?? 0)).toBe(true);
    expect(months?.left).toBe(anchor);
    expect(months?.top).toBeGreaterThan(f1?.top ?? 0);
    expect(a1?.left).toBe(anchor);
    expect(a1?.top).toBeGreaterThan(months?.top ?? 0);
    expect(a2?.top).toBe(a1?.top);
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
    await screenshot(page, "summary");
    if (viewport) await page.setViewportSize(viewport);
    expect(ctx().errors).toEqual([]);
  });
}
