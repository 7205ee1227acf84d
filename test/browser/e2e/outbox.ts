/**
 * The Outbox through the page, as the treasurer uses it: create the sheet, type a batch of a
 * deposit and a withdrawal into the grid, preview (totals, nothing sent), run after confirming,
 * and every row ends Done with the balances moved exactly once, even when run again.
 */
import { expect, it } from "vitest";
import { screenshot } from "../browser";
import type { E2eContext } from "./context";
import { cents } from "./forms";

interface FundList {
  Funds: Array<{
    Id: number | string;
    Balance: number | string;
    Currency: string;
    FlexibleFund?: boolean | number | string;
  }>;
}

export function outboxSuite(ctx: () => E2eContext): void {
  const balance = async (id: string) =>
    cents((await ctx().stack.sandbox<{ Balance: number | string }>(`/v1/getFund?Id=${id}`)).Balance);
  let funds: { id: string; before: number }[] = [];

  async function stateColumn(): Promise<string[]> {
    const { playground } = ctx();
    const header = await playground.header();
    const state = header.indexOf("State");
    return [(await playground.row(2))[state] ?? "", (await playground.row(3))[state] ?? ""];
  }

  it("creates the Outbox sheet from the menu and takes a batch typed into the grid", async () => {
    const { playground, stack, page } = ctx();
    await ctx().fresh();
    const open = await stack.sandbox<FundList>("/v1/getFunds?Status=1&ResultsPerPage=2");
    funds = await Promise.all(
      open.Funds.map(async (f) => ({ id: String(f.Id), before: await balance(String(f.Id)) })),
    );
    expect(funds).toHaveLength(2);
    const before = await playground.runsFinished();
    await playground.clickMenu("createOutboxSheet");
    await page.locator('[data-testid="alert-dialog"]').waitFor({ timeout: 30_000 });
    await screenshot(page, "playground-alert");
    const alert = await playground.answer("OK");
    expect(alert.message).toMatch(/Outbox/);
    await playground.waitForRunsAfter(before);
    expect(await playground.activeSheet()).toBe("Outbox");
    const header = await playground.header();
    expect(header.slice(0, 6)).toEqual(["State", "Result", "Company", "Operation", "Target Id", "Amount"]);
    // State and Result come first (A, B), then Company (C: empty with one company): the
    // operation is typed from column D.
    await playground.typeRows(2, [
      ["", "", "", "Deposit", funds[0]?.id as string, "1000.50"],
      ["", "", "", "Withdrawal", funds[1]?.id as string, "20"],
    ]);
    expect((await playground.row(2)).slice(3, 5)).toEqual(["Deposit", funds[0]?.id]);
  });

  it("previews the batch with its totals and sends nothing", async () => {
    const { playground } = ctx();
    const before = await playground.runsFinished();
    await playground.clickMenu("previewOutbox");
    const preview = await playground.answerFirstOf(["OK"]);
    await playground.waitForRunsAfter(before);
    expect(preview.message).toMatch(/1,000\.50|1000\.50|1\.000,50/);
    expect(preview.message).toMatch(/20/);
    for (const f of funds) expect(await balance(f.id)).toBe(f.before);
  });

  it("runs after confirmation: both rows Done, each balance moved once, and a second run sends nothing", async () => {
    const { playground, page } = ctx();
    const before = await playground.runsFinished();
    await playground.clickMenu("runOutbox");
    const confirm = await playground.answerFirstOf(["YES", "OK"]);
    expect(confirm.message).toMatch(/1,000\.50|1000\.50|1\.000,50/);
    await playground.waitForRunsAfter(before);
    await playground.sheet("Outbox");
    expect(await stateColumn()).toEqual(["Done", "Done"]);
    // Done rows show green in State and Result; the add-on's record (time, key, sent) is hidden.
    const green = "rgb(217, 234, 211)";
    for (const name of ["A2", "B2", "A3"])
      expect(await playground.cell(name).evaluate((td) => getComputedStyle(td).backgroundColor)).toBe(green);
    for (const letter of ["U", "V", "W"])
      expect(await page.locator(`[data-testid="col-header-${letter}"]`).isVisible()).toBe(false);
    // A deposit does not use Currency (G): shaded on its row.
    expect(await playground.cell("G2").evaluate((td) => getComputedStyle(td).backgroundColor)).toBe(
      "rgb(239, 239, 239)",
    );
    expect(await balance(funds[0]?.id as string)).toBe((funds[0]?.before ?? 0) + 100_050);
    expect(await balance(funds[1]?.id as string)).toBe((funds[1]?.before ?? 0) - 2_000);
    // Bring the add-on's State and Result columns into view for the picture.
    const stateIndex = (await playground.header()).indexOf("State");
    await playground.cell(`${String.fromCharCode(65 + stateIndex)}2`).click();
    await screenshot(page, "playground-outbox");

    // Nothing is pending: the add-on may say so in an alert, or run without asking.
    await playground.menuAnswering("runOutbox", ["OK", "NO", "CANCEL"]);
    expect(await balance(funds[0]?.id as string)).toBe((funds[0]?.before ?? 0) + 100_050);
    expect(await balance(funds[1]?.id as string)).toBe((funds[1]?.before ?? 0) - 2_000);
  });

  it("never moves money twice when the connection drops after a deposit was applied", async () => {
    const { playground, page } = ctx();
    const start = await balance(funds[0]?.id as string);
    await playground.sheet("Outbox");
    await playground.typeRows(4, [["", "", "", "Deposit", funds[0]?.id as string, "500"]]);
    await page.locator('[data-testid="fault-preset"]').selectOption("drop-after-apply-deposit");
    await page.locator('[data-testid="fault-apply"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "dropped" }).waitFor();

    const before = await playground.runsFinished();
    await playground.clickMenu("runOutbox");
    await playground.answerFirstOf(["YES", "OK"]);
    await playground.waitForRunsAfter(before);
    await playground.sheet("Outbox");
    const state = (await playground.header()).indexOf("State");
    const afterDrop = (await playground.row(4))[state];
    expect(["Unknown", "Done"]).toContain(afterDrop);
    expect(await balance(funds[0]?.id as string)).toBe(start + 50_000);

    await page.locator('[data-testid="fault-clear"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "none" }).waitFor();
    if (afterDrop === "Unknown") {
      // At once: the request might still land, so nothing is concluded and nothing is sent.
      await playground.menuAnswering("runOutbox", ["YES", "OK"]);
      await playground.sheet("Outbox");
      expect((await playground.row(4))[state]).toBe("Unknown");
      expect(String((await playground.row(4))[state + 1])).toMatch(/waiting for the earlier request to land/);
      // Time passes (the panel's clock button): now it is settled by reading the fund.
      await page.locator('[data-testid="clock-advance"]').click();
      await page.locator('[data-testid="run-status"]', { hasText: "5 minutes ahead" }).waitFor();
    }
    await playground.menuAnswering("runOutbox", ["YES", "OK"]);
    await playground.sheet("Outbox");
    expect((await playground.row(4))[state]).toBe("Done");
    expect(await balance(funds[0]?.id as string)).toBe(start + 50_000);
  });

  it("shows a refused row's Result in the grid in plain words, with the service's reason first", async () => {
    const { playground, stack } = ctx();
    const list = await stack.sandbox<FundList>("/v1/getFunds?Status=1&ResultsPerPage=100");
    const rigid = list.Funds.find((f) => [false, 0, "0", "false"].includes(f.FlexibleFund as never));
    expect(rigid).toBeDefined();
    const id = String(rigid?.Id);
    const start = await balance(id);
    await playground.sheet("Outbox");
    await playground.typeRows(5, [["", "", "", "Withdrawal", id, "99999999"]]);
    await playground.menuAnswering("runOutbox", ["YES", "OK"]);
    await playground.sheet("Outbox");
    const header = await playground.header();
    const row = await playground.row(5);
    expect(row[header.indexOf("State")]).toBe("Refused");
    // Read as the grid shows it: the reason in the fund's currency, code first, then the details.
    const result = String(row[header.indexOf("Result")]);
    expect(result).toMatch(
      new RegExp(
        `^Refused: The fund's balance \\(${rigid?.Currency} [\\d,.]+\\) is less than the withdrawal \\(${rigid?.Currency} 99,999,999(\\.00)?\\)`,
      ),
    );
    expect(result.indexOf("Details")).toBeGreaterThan(result.indexOf("withdrawal"));
    expect(await balance(id)).toBe(start);
  });
}
