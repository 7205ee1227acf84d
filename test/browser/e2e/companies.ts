/**
 * Two demo companies, as `npm start` sets them up: GET /control/info lists both with the demo
 * user's tokens and IdAdmins, the panel's fault picker offers a company, and a fault put on one
 * company through the page leaves the other answering and its funds refreshed.
 */
import { expect, it } from "vitest";
import { screenshot } from "../browser";
import { until } from "../until";
import type { E2eContext } from "./context";

interface Info {
  apiUrl: string;
  token: string;
  adminId: number | string;
  companies: Array<{ name: string; apiUrl: string; token: string; adminId: number | string }>;
}

interface FundList {
  Funds: Array<{ Id: number | string; Title: string }>;
}

interface Faults {
  rules: Array<{ endpoint: string; fault: string; company?: string }>;
}

export function companiesSuite(ctx: () => E2eContext): void {
  it("GET /control/info lists the two demo companies, each with the demo user's token and IdAdmin", async () => {
    const { stack } = ctx();
    const info = await stack.control<Info>("/control/info");
    expect(info.companies).toEqual(
      stack.companies.map((c) => ({
        name: c.name,
        apiUrl: stack.apiUrl,
        token: c.token,
        adminId: c.adminId,
      })),
    );
    expect(info.companies.map((c) => c.name)).toEqual(["Alpha", "Beta"]);
    // The first company's are the fields of a one-company playground.
    expect(info).toMatchObject({ apiUrl: stack.apiUrl, token: stack.token, adminId: stack.adminId });
    // Stored as the add-on stores them: the document lists both, each token in the user's own properties.
    const props = await stack.control<{ document: Record<string, string> }>("/control/properties");
    const listed = JSON.parse(props.document["settings.companies"] ?? "{}") as {
      entries?: Array<{ name: string }>;
    };
    expect(listed.entries?.map((e) => e.name)).toEqual(["Alpha", "Beta"]);
  });

  it("“Connection…” lists both companies, each ready for the demo user, at 300 px; Refresh all fills one sheet with both", async () => {
    const { playground, page } = ctx();
    await ctx().fresh();
    await playground.menuAnswering("refreshAll", ["OK"]);
    await playground.sheet("Funds");
    const header = await playground.header();
    expect(header.slice(0, 3)).toEqual(["Id", "Company", "Company key"]);
    const column = async (name: string) =>
      (await page.locator(`td[data-column="${header.indexOf(name)}"]`).allTextContents()).slice(1);
    expect(new Set((await column("Company")).filter((text) => text !== ""))).toEqual(
      new Set(["Alpha", "Beta"]),
    );
    // Fund 5001 is Alpha's and Beta's: two rows.
    expect((await column("Id")).filter((text) => text === "5001").length).toBe(2);
    await screenshot(page, "playground-companies");
    await playground.menu("showConnectionSidebar");
    const frame = playground.sidebar();
    await frame.locator("#connection .company").first().waitFor();
    const cards = await frame.locator("#connection .company").evaluateAll((nodes) =>
      nodes.map((node) => ({
        name: node.querySelector(".company-name")?.textContent,
        status: (node as HTMLElement).dataset.status,
      })),
    );
    expect(cards).toEqual([
      { name: "Alpha", status: "ready" },
      { name: "Beta", status: "ready" },
    ]);
    expect(
      await frame.locator("body").evaluate(() => document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(300);
    await screenshot(page, "sidebar-companies");
    expect(ctx().errors).toEqual([]);
  });

  it("a fault put on Beta from the panel leaves Alpha answering: Alpha's funds refresh from the menu", async () => {
    const { playground, page, stack } = ctx();
    await ctx().fresh();
    const picker = page.locator('[data-testid="fault-company"]');
    expect(await picker.isVisible()).toBe(true);
    expect(await picker.locator("option").allTextContents()).toEqual(["every company", "Alpha", "Beta"]);
    await page.locator('[data-testid="fault-preset"]').selectOption("down");
    await picker.selectOption("Beta");
    await page.locator('[data-testid="fault-apply"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "Service down (503) (Beta)" }).waitFor();
    // The sandbox holds the rule for Beta only.
    const beta = await stack.control<Faults>("/playground/sandbox/faults?company=Beta");
    const alpha = await stack.control<Faults>("/playground/sandbox/faults?company=Alpha");
    expect(beta.rules).toEqual([
      expect.objectContaining({ endpoint: "*", fault: "status", company: "Beta" }),
    ]);
    expect(alpha.rules).toEqual([]);
    await expect(stack.read("Beta", "/v1/getFunds?ResultsPerPage=1")).rejects.toThrow(/answered 503/);
    const funds = await stack.read<FundList>("Alpha", "/v1/getFunds?ResultsPerPage=3");
    expect(funds.Funds.length).toBeGreaterThan(0);

    // Beta's failure may be told (in an alert); Alpha's funds are on the sheet as Alpha has them.
    await playground.menuAnswering("refreshFunds", ["OK"]);
    await playground.sheet("Funds");
    const header = await playground.header();
    for (const fund of funds.Funds) {
      const cells = await playground.row(await playground.findRow("Id", String(fund.Id)));
      expect(cells[header.indexOf("Title")]).toBe(fund.Title);
    }

    await page.locator('[data-testid="fault-clear"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "none" }).waitFor();
    await until(async () =>
      expect((await stack.control<Faults>("/playground/sandbox/faults?company=Beta")).rules).toEqual([]),
    );
    expect(ctx().errors).toEqual([]);
  });
}
