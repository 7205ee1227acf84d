/**
 * The report sidebar through the page, for several selected rows of the Expense reports sheet:
 * mark integrated, mark not integrated, custom status with a message, each checked against the
 * sandbox; a validation error shown before sending; a refusal by the service shown in the form.
 */
import { expect, it } from "vitest";
import { screenshot } from "../browser";
import { until } from "../until";
import type { E2eContext } from "./context";
import { SidebarForm } from "./forms";
import { sidebarQuality } from "./sidebar-quality";

interface Report {
  Id: number | string;
  CustomStatus: string;
  IntegrationDate: string;
  IntegrationExternalCode: string;
}

export function reportSuite(ctx: () => E2eContext): void {
  let ids: string[] = [];
  const getReport = (id: string) => ctx().stack.sandbox<Report>(`/v1/getExpenseReport?Id=${id}`);
  const form = (legend: string) => new SidebarForm(ctx().playground.sidebar(), legend);

  it("opens for two selected report rows, fits 300 px and is labelled", async () => {
    const { playground } = ctx();
    await ctx().fresh();
    await playground.menu("refreshReports", 30_000);
    const header = await playground.header();
    expect(header).toContain("Id");
    await playground.selectRows(2, 3);
    ids = [
      (await playground.row(2))[header.indexOf("Id")] as string,
      (await playground.row(3))[header.indexOf("Id")] as string,
    ];
    expect(ids.every((id) => /^\d+$/.test(id))).toBe(true);
    await playground.menu("showReportSidebar");
    const items = playground.sidebar().locator("li[data-report-id]");
    await until(async () => expect(await items.count()).toBe(2));
    expect(await items.evaluateAll((els) => els.map((el) => el.getAttribute("data-report-id")))).toEqual(ids);
    // Each report says what its Integrated cell holds, named: never a bare "Yes" or "No".
    expect(await items.locator(".hint").allTextContents()).toEqual([
      expect.stringMatching(/^Integrated: (Yes|No)\b/),
      expect.stringMatching(/^Integrated: (Yes|No)\b/),
    ]);
    await sidebarQuality(ctx().page);
    // Toasts (the refresh's may still be up) sit over the sheet, left of the sidebar: none ever
    // covers a button of it. Measured in one go, as a toast may fade between two calls.
    const { sidebarLeft, toastRights } = await ctx().page.evaluate(() => {
      const toasts = document.querySelector('[data-testid="toasts"]') as HTMLElement;
      return {
        sidebarLeft: (
          document.querySelector('[data-testid="sidebar"]') as HTMLElement
        ).getBoundingClientRect().left,
        toastRights: [toasts, ...Array.from(toasts.children)].map((el) => el.getBoundingClientRect().right),
      };
    });
    for (const right of toastRights) expect(right).toBeLessThanOrEqual(sidebarLeft);
    await screenshot(ctx().page, "sidebar-report");
  });

  it("marks both reports integrated with a voucher code", async () => {
    const { playground } = ctx();
    const integrated = form("Mark integrated");
    await integrated.fill({ "Voucher code": "ERP-2026-0042" });
    await playground.afterRun(() => integrated.submit());
    await until(async () => expect(await integrated.status().getAttribute("class")).toContain("ok"));
    for (const id of ids) {
      const report = await getReport(id);
      expect(report.IntegrationExternalCode).toBe("ERP-2026-0042");
      expect(report.IntegrationDate).not.toBe("");
    }
  });

  it("shows a validation error for a custom status over 20 characters and sends nothing", async () => {
    const { playground, stack } = ctx();
    const runs = (await stack.control<{ executions: unknown[] }>("/control/logs")).executions.length;
    const custom = form("Custom status");
    await custom.fill({ "Status text": "A status far too long for the service" });
    await until(async () => expect(await custom.problems()).toMatch(/20/));
    await custom.submit();
    await until(async () => expect(await custom.status().getAttribute("class")).toContain("error"));
    expect((await stack.control<{ executions: unknown[] }>("/control/logs")).executions.length).toBe(runs);
    await screenshot(playground.page, "sidebar-report-validation");
  });

  it("sets a custom status with a message on both reports", async () => {
    const { playground } = ctx();
    const custom = form("Custom status");
    await custom.fill({
      "Status text": "Observado",
      "Message to the employee (optional)": "Falta la boleta del taxi",
    });
    await playground.afterRun(() => custom.submit());
    await until(async () => expect(await custom.status().getAttribute("class")).toContain("ok"));
    for (const id of ids) expect((await getReport(id)).CustomStatus).toBe("Observado");
  });

  it("shows the service's refusal (an error inside a 200 answer) and marks nothing", async () => {
    const { playground, page } = ctx();
    await page.locator('[data-testid="fault-preset"]').selectOption("error-in-200");
    await page.locator('[data-testid="fault-apply"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "Error inside" }).waitFor();
    const notIntegrated = form("Mark not integrated");
    await playground.afterRun(() => notIntegrated.submit());
    await until(async () => expect(await notIntegrated.status().textContent()).toMatch(/refused/i));
    expect(await notIntegrated.status().getAttribute("class")).toContain("error");
    await screenshot(page, "sidebar-report-refused");
    await page.locator('[data-testid="fault-clear"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "none" }).waitFor();
    for (const id of ids) expect((await getReport(id)).IntegrationExternalCode).toBe("ERP-2026-0042");
  });

  it("marks both reports not integrated", async () => {
    const { playground } = ctx();
    const notIntegrated = form("Mark not integrated");
    await playground.afterRun(() => notIntegrated.submit());
    await until(async () => expect(await notIntegrated.status().getAttribute("class")).toContain("ok"));
    for (const id of ids) expect((await getReport(id)).IntegrationDate).toBe("");
  });

  it("suggests the custom statuses seen on reports of the same policy, still taking any text", async () => {
    const { playground } = ctx();
    // The refresh writes the status set above on the sheet; the sidebar opened again learns it.
    await playground.menu("refreshReports", 30_000);
    await playground.selectRows(2, 3);
    await playground.menu("showReportSidebar");
    const sidebar = playground.sidebar();
    const items = sidebar.locator("li[data-report-id]");
    await until(async () => expect(await items.count()).toBe(2));
    const input = sidebar.getByLabel("Status text");
    const listId = await input.getAttribute("list");
    expect(listId).toBeTruthy();
    const options = await sidebar
      .locator(`datalist[id="${listId}"] option`)
      .evaluateAll((els) => els.map((el) => el.getAttribute("value")));
    expect(options).toContain("Observado");
    // A suggestion, not a choice: any other text is still typed and accepted by the form.
    const custom = form("Custom status");
    await custom.fill({ "Status text": "Revisar" });
    await until(async () => expect(await custom.problems()).toBe(""));
  });
}
