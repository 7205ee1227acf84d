/** A refresh from the add-on menu, with the grid showing what the service holds. */
import { expect, it } from "vitest";
import { screenshot } from "../browser";
import { until } from "../until";
import { type E2eContext, money } from "./context";

interface FundList {
  Funds: Array<{ Id: number | string; Title: string; Balance: number | string; Currency: string }>;
}

export function refreshSuite(ctx: () => E2eContext): void {
  it("refreshes funds from the menu and shows them in the grid as the service has them", async () => {
    const { playground, stack } = ctx();
    await ctx().fresh();
    // The menu as onOpen built it, for the README's picture.
    await playground.page.locator('[data-testid="menu-extensions"]').click();
    await playground.page.locator('[data-testid="menu-addon"]').click();
    await playground.page.locator('[data-testid="menu-item-refreshFunds"]').waitFor();
    await screenshot(playground.page, "playground-menu");
    await playground.page.keyboard.press("Escape");
    await playground.menu("refreshFunds");
    expect(await playground.activeSheet()).toBe("Funds");
    const header = await playground.header();
    expect(header.slice(0, 3)).toEqual(["Id", "Title", "Code"]);
    expect(header).toContain("Balance");
    const funds = await stack.sandbox<FundList>("/v1/getFunds?ResultsPerPage=5");
    for (const fund of funds.Funds.slice(0, 3)) {
      const row = await playground.findRow("Id", String(fund.Id));
      const cells = await playground.row(row);
      expect(cells[header.indexOf("Title")]).toBe(fund.Title);
      expect(cells[header.indexOf("Currency")]).toBe(fund.Currency);
      expect(cells[header.indexOf("Balance")]).toBe(money(Number(fund.Balance), fund.Currency));
    }
    // The header row is frozen, as the add-on set it.
    expect(await playground.page.locator("tr.frozen").count()).toBe(1);
    await until(async () => expect((await playground.toasts()).join(" ")).toMatch(/refreshed/));
    await screenshot(playground.page, "playground");
    expect(ctx().errors).toEqual([]);
  });

  it("refreshes only the selected rows after a deposit made elsewhere", async () => {
    const { playground, stack } = ctx();
    const header = await playground.header();
    const row = 2;
    const id = (await playground.row(row))[header.indexOf("Id")] as string;
    // The deposit arrives through the API, as another user of the service would make it.
    const deposit = await fetch(`${stack.apiUrl}/depositMoneyToFund`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
      body: JSON.stringify({ Id: Number(id), IdAdmin: stack.adminId, DepositAmount: 1000 }),
    });
    expect(deposit.status).toBe(200);
    const fund = (await deposit.json()) as { Balance: number | string; Currency: string };
    await playground.selectRows(row);
    await playground.menu("refreshSelectedRows");
    await playground.sheet("Funds");
    const updated = await playground.findRow("Id", id);
    expect((await playground.row(updated))[header.indexOf("Balance")]).toBe(
      money(Number(fund.Balance), fund.Currency),
    );
  });
}
