/**
 * The Fund sidebar through the page with two companies (Alpha and Beta, each with its fund 5001
 * and its own data; the user has a token for each): opened on a row of each company it shows
 * that company's fund and names the company; a deposit from Beta's row lands in Beta's ledger
 * only; a row whose Company does not match its Company key is refused, naming the row.
 */
import { expect, it } from "vitest";
import { screenshot } from "../browser";
import { until } from "../until";
import type { E2eContext } from "./context";
import { SidebarForm } from "./forms";

interface LedgerFund {
  id: number;
  title: string;
  balanceCents: number;
  transactions: unknown[];
}

export function fundSidebarCompaniesSuite(ctx: () => E2eContext): void {
  let keys: string[] = [];
  const ledger = async (company: "Alpha" | "Beta") =>
    (await ctx().stack.sandbox<{ funds: LedgerFund[] }>(`/_sandbox/state?company=${company}`)).funds;
  const fund5001 = async (company: "Alpha" | "Beta") =>
    (await ledger(company)).find((f) => f.id === 5001) as LedgerFund;

  /** Opens the Fund sidebar on row `row` of the Funds sheet. */
  async function openOn(row: number): Promise<void> {
    const { playground, stack } = ctx();
    await playground.sheet("Funds");
    await stack.control("/control/select", { sheet: "Funds", range: `A${row}` });
    await playground.menu("showFundSidebar");
    await playground.sidebar().locator("[data-ready='1']").waitFor();
  }

  it("each company's fund 5001 on its own row: the sidebar shows that company's fund and names it", async () => {
    const { stack, playground } = ctx();
    // The registry as the settings store wrote it (the emulator's start): Alpha is c0.
    const properties = await stack.control<{ document: Record<string, string> }>("/control/properties");
    const registry = JSON.parse(properties.document["settings.companies"] ?? "{}") as {
      entries: { key: string; name: string }[];
    };
    keys = registry.entries.map((e) => e.key);
    expect(registry.entries.map((e) => e.name)).toEqual(["Alpha", "Beta"]);
    const [a, b] = [await fund5001("Alpha"), await fund5001("Beta")];
    expect(a.title).not.toBe(b.title);
    // A Funds sheet (a refresh of the first company), its first rows then written as a refresh
    // writes them once there are two companies (Company, hidden Company key after Id).
    await playground.menu("refreshFunds");
    await stack.control("/control/cells", {
      sheet: "Funds",
      range: "A1:C4",
      values: [
        ["Id", "Company", "Company key"],
        [5001, "Alpha", keys[0]],
        [5001, "Beta", keys[1]],
        [5001, "Alpha", keys[1]],
      ],
    });
    for (const [row, company, fund] of [
      [2, "Alpha", a],
      [3, "Beta", b],
    ] as const) {
      await openOn(row);
      const frame = playground.sidebar();
      await frame.locator('.card[data-fund-id="5001"]').waitFor();
      expect(await frame.locator("h2").first().textContent()).toBe(`${fund.title} (5001)`);
      expect(await frame.locator(".company").textContent()).toBe(`Company: ${company}`);
      // The picker of a typed Id offers both companies, this one chosen.
      expect(await frame.getByLabel("Company of the fund").inputValue()).toBe(keys[row - 2]);
    }
    await screenshot(ctx().page, "sidebar-fund-companies");
  });

  it("a deposit from Beta's row lands in Beta's ledger only", async () => {
    const { playground } = ctx();
    await openOn(3);
    const alphaBefore = JSON.stringify(await ledger("Alpha"));
    const before = await fund5001("Beta");
    const deposit = new SidebarForm(playground.sidebar(), "Deposit");
    await deposit.fill({ Amount: "25.50" });
    await deposit.submit();
    const question = deposit.root.locator(".confirm[role=alertdialog]");
    await question.waitFor();
    expect(await question.getAttribute("aria-label")).toMatch(
      new RegExp(`^Deposit .* into Beta's fund 5001 “${before.title}”`),
    );
    await playground.afterRun(() => question.getByRole("button", { name: "Confirm" }).click());
    await until(async () => expect(await deposit.status().textContent()).toMatch(/^Done. Fund 5001/));
    const after = await fund5001("Beta");
    expect(after.balanceCents - before.balanceCents).toBe(2550);
    expect(after.transactions.length).toBe(before.transactions.length + 1);
    expect(JSON.stringify(await ledger("Alpha"))).toBe(alphaBefore);
  });

  it("a row whose Company does not match its Company key is refused, naming the row; nothing is read", async () => {
    const { playground } = ctx();
    const alphaBefore = JSON.stringify(await ledger("Alpha"));
    const betaBefore = JSON.stringify(await ledger("Beta"));
    await openOn(4);
    const frame = playground.sidebar();
    const error = frame.locator("p.status.error");
    await error.waitFor();
    expect(await error.textContent()).toContain(
      `Row 4: the Company "Alpha" does not match its Company key "${keys[1]}", which is the company "Beta"`,
    );
    expect(await frame.locator(".card").count()).toBe(0);
    expect(await frame.locator(".company").count()).toBe(0);
    expect(JSON.stringify(await ledger("Alpha"))).toBe(alphaBefore);
    expect(JSON.stringify(await ledger("Beta"))).toBe(betaBefore);
  });
}
