/**
 * The fund sidebar through the page, for the fund of the selected row: deposit, withdraw,
 * change status (closing asks first), update and create, each with its happy path checked
 * against the sandbox; a validation error shown before anything is sent; a refusal by the
 * service shown in the form.
 */
import { expect, it } from "vitest";
import { screenshot } from "../browser";
import { until } from "../until";
import { type E2eContext, money } from "./context";
import { cents, SidebarForm } from "./forms";
import { sidebarQuality } from "./sidebar-quality";

interface Fund {
  Id: number | string;
  Title: string;
  Balance: number | string;
  Currency: string;
  Status: number | string;
  Transactions: unknown[];
}

export function fundSuite(ctx: () => E2eContext): void {
  let fundId = "";
  const getFund = (id: string) => ctx().stack.sandbox<Fund>(`/v1/getFund?Id=${id}`);
  const form = (legend: string) => new SidebarForm(ctx().playground.sidebar(), legend);

  it("opens for the fund of the selected row, fits 300 px and is labelled", async () => {
    const { playground } = ctx();
    await ctx().fresh();
    await playground.menu("refreshFunds");
    const header = await playground.header();
    const row = await playground.findRow("Status", "Open");
    fundId = (await playground.row(row))[header.indexOf("Id")] as string;
    await playground.selectRows(row);
    await playground.menu("showFundSidebar");
    const card = playground.sidebar().locator(`.card[data-fund-id="${fundId}"]`);
    await card.waitFor();
    await sidebarQuality(ctx().page);
    await screenshot(ctx().page, "sidebar-fund");
  });

  it("deposits: the fund's balance grows by the amount and the row shows it", async () => {
    const { playground } = ctx();
    const before = await getFund(fundId);
    const deposit = form("Deposit");
    await deposit.fill({ Amount: "1234.56" });
    // Asked first: the fund, the amount with its currency and the balance after.
    await deposit.submit();
    const question = deposit.root.locator(".confirm[role=alertdialog]");
    await question.waitFor();
    expect(await question.getAttribute("aria-label")).toMatch(
      new RegExp(
        `^Deposit [A-Z]{3} 1,234\\.56 into fund ${fundId} “.*”\\? Balance after: [A-Z]{3} [\\d,.-]+\\.`,
      ),
    );
    await playground.afterRun(() => question.getByRole("button", { name: "Confirm" }).click());
    await until(async () =>
      expect(await deposit.status().textContent()).toMatch(new RegExp(`^Done. Fund ${fundId}`)),
    );
    // The amount is cleared: another click cannot send it again.
    expect(await deposit.field("Amount").inputValue()).toBe("");
    // The panel names what was done as a person would, not by a function's name.
    expect(await ctx().page.locator('[data-testid="run-status"]').textContent()).toBe("Deposit: finished");
    const after = await getFund(fundId);
    expect(cents(after.Balance) - cents(before.Balance)).toBe(123456);
    expect(after.Transactions.length).toBe(before.Transactions.length + 1);
    await playground.sheet("Funds");
    const header = await playground.header();
    const row = await playground.findRow("Id", fundId);
    await until(async () =>
      expect((await playground.row(row))[header.indexOf("Balance")]).toBe(
        money(Number(after.Balance), after.Currency),
      ),
    );
  });

  it("shows a validation error as the user types and sends nothing", async () => {
    const { playground, stack } = ctx();
    const before = await getFund(fundId);
    const runs = (await stack.control<{ executions: unknown[] }>("/control/logs")).executions.length;
    const withdraw = form("Withdraw");
    await withdraw.fill({ Amount: "12,50" });
    await until(async () => expect(await withdraw.problems()).toMatch(/comma|dot|\./i));
    await withdraw.submit();
    await until(async () => expect(await withdraw.status().getAttribute("class")).toContain("error"));
    expect((await getFund(fundId)).Transactions.length).toBe(before.Transactions.length);
    expect((await stack.control<{ executions: unknown[] }>("/control/logs")).executions.length).toBe(runs);
    await screenshot(playground.page, "sidebar-fund-validation");
  });

  it("withdraws: the balance drops by the amount", async () => {
    const { playground } = ctx();
    const before = await getFund(fundId);
    const withdraw = form("Withdraw");
    await withdraw.fill({ Amount: "10.05" });
    await withdraw.submit();
    const question = withdraw.root.locator(".confirm[role=alertdialog]");
    await question.waitFor();
    await playground.afterRun(() => question.getByRole("button", { name: "Confirm" }).click());
    await until(async () => expect(await withdraw.status().textContent()).toMatch(/^Done/));
    expect(cents(before.Balance) - cents((await getFund(fundId)).Balance)).toBe(1005);
  });

  it("updates the fund's name", async () => {
    const { playground } = ctx();
    const update = form("Update fund");
    await update.fill({ Name: "Caja chica playground" });
    await playground.afterRun(() => update.submit());
    await until(async () => expect(await update.status().textContent()).toMatch(/^Done/));
    expect((await getFund(fundId)).Title).toBe("Caja chica playground");
  });

  it("blocks the fund, and closing it asks first", async () => {
    const { playground } = ctx();
    const status = form("Change status");
    await status.fill({ "New status": "3" });
    await playground.afterRun(() => status.submit());
    await until(async () => expect(await status.status().textContent()).toMatch(/^Done/));
    expect(Number((await getFund(fundId)).Status)).toBe(3);

    await status.fill({ "New status": "2" });
    await status.submit();
    const question = status.root.locator(".confirm[role=alertdialog]");
    await question.waitFor();
    expect(await question.getAttribute("aria-label")).toMatch(new RegExp(`Close fund ${fundId}\\?`));
    expect(Number((await getFund(fundId)).Status)).toBe(3);
    await playground.afterRun(() => question.getByRole("button", { name: "Confirm" }).click());
    await until(async () => expect(Number((await getFund(fundId)).Status)).toBe(2));
  });

  it("names each field of a refused new fund by its label, never by the service's parameter", async () => {
    await ctx().playground.menu("showFundSidebar");
    const create = form("Create a fund");
    await create.fill({ Currency: "pesos", "Initial amount": "99999999999999" });
    await create.submit();
    await until(async () =>
      expect(await create.problems()).toContain(
        'Currency must be a 3-letter currency code such as CLP or USD (got "pesos").',
      ),
    );
    expect(await create.problems()).toMatch(/Initial amount /);
    expect(await create.problems()).not.toMatch(/Fund(Currency|Amount)/);
    await create.fill({ Currency: "", "Initial amount": "" });
  });

  it("creates a fund for an employee picked from the list", async () => {
    const { playground } = ctx();
    const create = form("Create a fund");
    const options = await create
      .field("Employee")
      .locator("option")
      .evaluateAll((els) => els.map((el) => (el as HTMLOptionElement).value).filter(Boolean));
    expect(options.length).toBeGreaterThan(0);
    await create.fill({
      Employee: options[0] as string,
      Name: "Fondo playground",
      Currency: "CLP",
      "Initial amount": "50000",
    });
    await playground.afterRun(() => create.submit());
    await until(async () => expect(await create.status().textContent()).toMatch(/^Done. Fund \d+ created/));
    const created = /Fund (\d+)/.exec((await create.status().textContent()) ?? "")?.[1] as string;
    const fund = await getFund(created);
    expect(fund.Title).toBe("Fondo playground");
    expect(cents(fund.Balance)).toBe(5_000_000);
    // Its creation time shows in the spreadsheet's zone, as every time the sheets show.
    const { timeZone } = await ctx().stack.control<{ timeZone: string }>("/control/info");
    const now = new Intl.DateTimeFormat("sv-SE", {
      timeZone,
      dateStyle: "short",
      timeStyle: "short",
    }).format(new Date());
    await playground.menu("refreshFunds");
    await playground.sheet("Funds");
    const header = await playground.header();
    const shown = (await playground.row(await playground.findRow("Id", created)))[header.indexOf("Created")];
    const minutes = (text: string) => Date.parse(`${text.replace(" ", "T")}:00Z`) / 60_000;
    expect(Math.abs(minutes(shown ?? "") - minutes(now))).toBeLessThanOrEqual(2);
  });

  it("shows the service's refusal in the form (an employee the service does not know)", async () => {
    const { playground } = ctx();
    const create = form("Create a fund");
    await playground.sidebar().getByLabel("…or type an employee Id").fill("987654");
    await create.fill({ Name: "Fondo rechazado", Currency: "USD", "Initial amount": "10" });
    await playground.afterRun(() => create.submit());
    await until(async () =>
      // The service's reason first, its field named by the form's label.
      expect(await create.status().textContent()).toMatch(
        /^The service refused Employee Id: no user with Id 987654\./,
      ),
    );
    expect(await create.status().textContent()).toMatch(/987654|IdEmployee|employee/i);
    await screenshot(playground.page, "sidebar-fund-refused");
  });
}
