/**
 * The BUILT fund.html and report.html in Chromium, 300 px wide, with google.script.run replaced
 * by a recorder that answers as the server would: text from the service shown as text only,
 * the contract's messages as the user types, a submit that cannot send twice, closing a fund
 * asked first, a label for every field. Chromium is required: the suite fails without it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkWrite } from "../../src/outbox/requests";
import { type Browser, launchBrowser } from "../browser/browser";
import { scriptRunCalls as calls, loadSidebar } from "../support/sidebar-page";
import { buildWriteBack } from "./harness";

const EVIL = `<img src=x onerror="window.__pwned=1">Caja <script>window.__pwned=2</script>`;

let browser: Browser;
let dist: string;

beforeAll(async () => {
  dist = buildWriteBack();
  browser = await launchBrowser();
}, 120_000);

// Each test's pages are put aside after it, for the next test's (Browser.closePages).
afterEach(async () => {
  await browser?.closePages();
});

afterAll(async () => {
  await browser?.close();
});

const fundView = {
  language: "en",
  adminId: 1001,
  fundId: 5001,
  error: "",
  notice: "",
  checks: [] as { key: string; sent: string; message: string }[],
  employees: [{ id: 1101, name: `Ana <b>Pérez</b>` }],
  fund: {
    id: 5001,
    title: EVIL,
    code: "<i>C-1</i>",
    currency: "CLP",
    status: 1,
    statusLabel: "Open",
    balance: "CLP 1,000.00",
    balanceCents: 100_000,
    deposits: "CLP 1,000.00",
    charges: "CLP 0.00",
    employeeId: 1101,
    flexible: false,
    autoBlock: false,
    expirationDate: "",
    lastMovements: [{ type: 1, amount: "CLP 1,000.00", date: "2024-06-01" }],
  },
};

/**
 * Opens a built sidebar with a google.script.run that records each call and answers from
 * `answers` (by function name) after `delayMs`, as the real one answers asynchronously, or
 * fails for a function that is not scripted.
 */
async function open(name: "fund" | "report", answers: Record<string, unknown>, delayMs = 150): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 300, height: 900 });
  await loadSidebar(page, readFileSync(join(dist, `${name}.html`), "utf8"), answers, {
    delayMs,
    unscriptedFails: true,
  });
  return page;
}

describe("the pages under test", () => {
  it("are the build's: every inline marker expanded, the forms' stylesheet included", () => {
    for (const name of ["fund", "report"]) {
      const html = readFileSync(join(dist, `${name}.html`), "utf8");
      expect(html, name).not.toContain("<!-- inline:");
      expect(html, name).toContain(
        readFileSync(join(import.meta.dirname, "../../src/ui/sidebars/forms.css"), "utf8"),
      );
    }
  });
});

describe("Fund sidebar page", () => {
  it("shows text from the service as text: no markup, no script", async () => {
    const page = await open("fund", { getFundSidebarView: fundView });
    await expect.poll(() => page.locator(".card h2").textContent()).toBe(`${EVIL} (5001)`);
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.locator("#app script, #app b, #app i").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator("select[name=IdEmployee] option").nth(1).textContent()).toBe(
      "Ana <b>Pérez</b> (1101)",
    );
    // The fund card names its employee as the reports did, as text.
    expect(await page.locator(".card .row", { hasText: "(1101)" }).textContent()).toMatch(
      /: Ana <b>Pérez<\/b> \(1101\)$/,
    );
    await page.close();
  });

  it("offers the writer of a request only a person can settle to acknowledge it, then loads the fund again", async () => {
    const held = {
      ...fundView,
      notice: "Not sent: your earlier request (Deposit of 2.00 to fund 5001) cannot be settled.",
      checks: [{ key: "rec-0001", sent: "Deposit of 2.00 to fund 5001", message: "check the fund" }],
    };
    const page = await open("fund", {
      getFundSidebarView: held,
      acknowledgeFundCheck: { kind: "done", message: "Acknowledged." },
    });
    await page.getByRole("button", { name: "I checked the fund" }).click();
    await expect
      .poll(async () => (await calls(page)).map((c) => c.name))
      .toEqual(["getFundSidebarView", "acknowledgeFundCheck", "getFundSidebarView"]);
    expect((await calls(page))[1]?.args).toEqual([{ key: "rec-0001" }]);
    await page.close();
  });

  it("labels every field, fits 300 px, and can be used with the keyboard", async () => {
    const page = await open("fund", { getFundSidebarView: fundView });
    const unlabelled = await page.evaluate(() =>
      Array.from(document.querySelectorAll("input, select"))
        .filter((el) => !document.querySelector(`label[for="${el.id}"]`))
        .map((el) => (el as HTMLInputElement).name),
    );
    expect(unlabelled).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(300);
    await page.getByLabel("Amount").first().focus();
    await page.keyboard.type("12.50");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    // The confirmation takes the focus on its Cancel; Shift+Tab reaches Confirm.
    await page.getByRole("alertdialog").waitFor();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await calls(page)).map((c) => c.name)).toContain("depositToFund");
    await page.close();
  });

  it("checks as the user types with the contract's rules, in a person's words", async () => {
    const page = await open("fund", { getFundSidebarView: fundView });
    const amount = page.getByLabel("Amount").first();
    await amount.fill("10,50");
    const expected = checkWrite("deposit", { Id: 5001, DepositAmount: "10,50" }, { adminId: 1001 });
    expect(expected.ok).toBe(false);
    await expect
      .poll(() => page.locator("fieldset .problem").first().textContent())
      .toMatch(/^“Amount”: .* 1234\.50\.$/);
    expect(await amount.getAttribute("aria-invalid")).toBe("true");
    await amount.fill("10.50");
    await expect.poll(() => page.locator("fieldset .problem").first().textContent()).toBe("");
    // Submitting an invalid form sends nothing.
    const name = page.getByLabel("Name").first();
    await name.fill("x".repeat(201));
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect
      .poll(() => page.getByText("“Name” can be at most 200 characters long (it has 201).").count())
      .toBe(1);
    expect((await calls(page)).map((c) => c.name)).toEqual(["getFundSidebarView"]);
    await page.close();
  });

  it("a double click sends once, the button stays disabled until the answer, the result is shown", async () => {
    const done = {
      kind: "done",
      message: "Done. Fund 5001: balance CLP 1,010.50.",
      fund: { ...fundView.fund, balance: "CLP 1,010.50" },
    };
    const page = await open("fund", { getFundSidebarView: fundView, depositToFund: done }, 400);
    await page.getByLabel("Amount").first().fill("10.50");
    const button = page.getByRole("button", { name: "Deposit" });
    await button.dblclick();
    await button.click({ force: true }).catch(() => {});
    expect(await button.isDisabled()).toBe(true);
    // One question, whatever the clicks; confirmed once.
    expect(await page.getByRole("alertdialog").count()).toBe(1);
    await page.getByRole("alertdialog").getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => page.getByText("Done. Fund 5001: balance CLP 1,010.50.").count()).toBe(1);
    const sent = (await calls(page)).filter((c) => c.name === "depositToFund");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.args[0]).toMatchObject({ fields: { Id: 5001, DepositAmount: "10.50" } });
    expect(await page.locator(".card").textContent()).toContain("CLP 1,010.50");
    expect(await button.isDisabled()).toBe(false);
    await page.close();
  });

  it("a deposit or withdrawal asks first, naming fund, amount, currency and balance after, with the warnings; the amount is cleared once sent", async () => {
    const blocked = { ...fundView, fund: { ...fundView.fund, status: 3, statusLabel: "Blocked" } };
    const done = { kind: "done", message: "Done. Fund 5001: balance CLP 700.00.", fund: blocked.fund };
    const page = await open("fund", { getFundSidebarView: blocked, withdrawFromFund: done });
    const amount = page.getByLabel("Amount").nth(1);
    await amount.fill("1200");
    await page.getByRole("button", { name: "Withdraw" }).click();
    const question = page.getByRole("alertdialog");
    expect(await question.getAttribute("aria-label")).toBe(
      `Withdraw CLP 1,200 from fund 5001 “${EVIL}”? Balance after: CLP -200. This fund is blocked. This is more than the balance of a fund that is not flexible: the service may refuse it.`,
    );
    await question.getByRole("button", { name: "Cancel" }).click();
    expect((await calls(page)).filter((c) => c.name === "withdrawFromFund")).toHaveLength(0);

    await amount.fill("300");
    await page.getByRole("button", { name: "Withdraw" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => page.getByText("Done. Fund 5001: balance CLP 700.00.").count()).toBe(1);
    expect(await amount.inputValue()).toBe("");
    // The same amount again, minutes later: said in the question.
    await amount.fill("300");
    await page.getByRole("button", { name: "Withdraw" }).click();
    expect(await page.getByRole("alertdialog").getAttribute("aria-label")).toMatch(
      /The same amount was sent to this fund from here 1 min ago\.$/,
    );
    await page.close();
  });

  it("with several companies, the question of a deposit or withdrawal names the fund's company", async () => {
    const beta = {
      ...fundView,
      company: { key: "cbeta0001", name: "Beta" },
      companies: [
        { key: "c0", name: "Alpha" },
        { key: "cbeta0001", name: "Beta" },
      ],
      fund: { ...fundView.fund, title: "Caja" },
    };
    const page = await open("fund", { getFundSidebarView: beta });
    await page.getByLabel("Amount").first().fill("10");
    await page.getByRole("button", { name: "Deposit" }).click();
    expect(await page.getByRole("alertdialog").getAttribute("aria-label")).toBe(
      "Deposit CLP 10 into Beta's fund 5001 “Caja”? Balance after: CLP 1,010.",
    );
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
    expect((await calls(page)).filter((c) => c.name === "depositToFund")).toHaveLength(0);
    await page.close();
  });

  it("a deposit to a fund in a status the contract does not list warns that it is not open, naming the status", async () => {
    const other = { ...fundView, fund: { ...fundView.fund, status: 4, statusLabel: "4" } };
    const page = await open("fund", { getFundSidebarView: other });
    // The status form offers the contract's statuses and picks none of them, never Open.
    expect(await page.getByLabel("New status").inputValue()).toBe("");
    await page.getByLabel("Amount").first().fill("10");
    await page.getByRole("button", { name: "Deposit" }).click();
    expect(await page.getByRole("alertdialog").getAttribute("aria-label")).toMatch(
      /Balance after: CLP 1,010\. This fund has status 4, which is not open\.$/,
    );
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
    expect((await calls(page)).filter((c) => c.name === "depositToFund")).toHaveLength(0);
    await page.close();
  });

  it("closing a fund asks first; cancelling sends nothing", async () => {
    const page = await open("fund", {
      getFundSidebarView: fundView,
      changeFundStatus: { kind: "done", message: "Done. Fund 5001: balance CLP 1,000.00." },
    });
    await page.getByLabel("New status").selectOption("2");
    await page.getByRole("button", { name: "Change status" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
    expect((await calls(page)).filter((c) => c.name === "changeFundStatus")).toHaveLength(0);
    await page.getByRole("button", { name: "Change status" }).click();
    await expect.poll(() => page.getByRole("alertdialog").textContent()).toContain("Close fund 5001?");
    await page.getByRole("alertdialog").getByRole("button", { name: "Confirm" }).click();
    await expect
      .poll(async () => (await calls(page)).filter((c) => c.name === "changeFundStatus").length)
      .toBe(1);
    await page.close();
  });

  it("a refusal from the service is shown as text in the form", async () => {
    const page = await open("fund", {
      getFundSidebarView: fundView,
      withdrawFromFund: {
        kind: "refused",
        message: "The service refused: <b>IdAdmin</b> may not administer funds",
      },
    });
    await page.getByLabel("Amount").nth(1).fill("1");
    await page.getByRole("button", { name: "Withdraw" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Confirm" }).click();
    await expect
      .poll(() => page.getByText("The service refused: <b>IdAdmin</b> may not administer funds").count())
      .toBe(1);
    expect(await page.locator("#app b").count()).toBe(0);
    await page.close();
  });
});

describe("Fund sidebar page: a movement of a type the contract does not list", () => {
  it("is named by its type, not called a withdrawal", async () => {
    const lastMovements = [
      { type: 3, amount: "CLP 5.00", date: "2024-06-02" },
      { type: 2, amount: "CLP 7.00", date: "2024-06-01" },
    ];
    const page = await open("fund", {
      getFundSidebarView: { ...fundView, fund: { ...fundView.fund, lastMovements } },
    });
    expect(await page.locator("ul.movements li").allTextContents()).toEqual([
      "2024-06-02 · Type 3 · CLP 5.00",
      "2024-06-01 · Withdrawal · CLP 7.00",
    ]);
    await page.close();
  });
});

describe("Fund sidebar page in Spanish", () => {
  it("reads a decimal comma, and asks which was meant for an amount such as 1.234", async () => {
    const page = await open("fund", { getFundSidebarView: { ...fundView, language: "es" } });
    const amount = page.locator("input[name=DepositAmount]");
    expect(await amount.getAttribute("placeholder")).toBe("1234,50");
    // The fund card names its last movements by nouns, in the user's language.
    expect(await page.locator("ul.movements li").first().textContent()).toBe(
      "2024-06-01 · Depósito · CLP 1,000.00",
    );
    await amount.fill("1.234");
    await expect
      .poll(() => page.locator("fieldset .problem").first().textContent())
      .toContain("sin separador de miles");
    await amount.fill("1234,50");
    await expect.poll(() => page.locator("fieldset .problem").first().textContent()).toBe("");
    await amount.press("Enter");
    await page.getByRole("alertdialog").waitFor();
    expect(await page.getByRole("alertdialog").textContent()).toContain("CLP 1.234,50");
    await page.close();
  });
});

describe("Fund sidebar page: plain words", () => {
  it("names the field by its label when an amount has a comma or could mean thousands", async () => {
    const page = await open("fund", { getFundSidebarView: fundView });
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Deposit" }) });
    const problem = () => form.locator(".field .problem").first().textContent();
    await form.getByLabel("Amount").fill("1234,50");
    await expect
      .poll(problem)
      .toBe(
        "“Amount”: write the amount with a dot for decimals and no thousands separator, such as 1234.50.",
      );
    await form.getByLabel("Amount").fill("1,234");
    await expect.poll(problem).toMatch(/^“Amount”: “1,234” could mean thousands or decimals/);
    expect(await problem()).not.toContain("DepositAmount");
    await page.close();
  });

  it("says above the fields that some need fixing, beside each field what to fix, and sends nothing", async () => {
    const page = await open("fund", { getFundSidebarView: fundView });
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Deposit" }) });
    await form.getByLabel("Amount").fill("-50");
    await page.getByRole("button", { name: "Deposit" }).click();
    const summary = form.getByText("Fix the fields marked below.");
    await expect.poll(() => summary.count()).toBe(1);
    // Beside the field, a person's words naming it by its label, not the service's field name.
    expect(await form.locator(".field .problem").first().textContent()).toBe(
      "“Amount” must be more than zero.",
    );
    const above = await summary.evaluate((line) => {
      const field = line.closest("fieldset")?.querySelector("input");
      return field ? Boolean(line.compareDocumentPosition(field) & Node.DOCUMENT_POSITION_FOLLOWING) : false;
    });
    expect(above).toBe(true);
    expect((await calls(page)).map((c) => c.name)).toEqual(["getFundSidebarView"]);
    // Corrected, the line goes.
    await form.getByLabel("Amount").fill("50");
    await expect.poll(() => summary.count()).toBe(0);
    await page.close();
  });

  it("a call that failed shows its plain words, the technical text behind a Details toggle", async () => {
    const failing = await browser.context.newPage();
    await failing.setViewportSize({ width: 300, height: 900 });
    await loadSidebar(
      failing,
      readFileSync(join(dist, "fund.html"), "utf8"),
      {
        getFundSidebarView: fundView,
        depositToFund: {
          thrown: `The service is not answering right now. Nothing was changed. Try again in a few minutes.\n\nDetails: getFund: the service answered HTTP 503: ${EVIL}`,
        },
      },
      { delayMs: 20, failureKey: "thrown" },
    );
    await failing.getByLabel("Amount").first().fill("10");
    await failing.getByRole("button", { name: "Deposit" }).click();
    await failing.getByRole("alertdialog").getByRole("button", { name: "Confirm" }).click();
    const details = failing.locator("form details");
    await expect.poll(() => details.count()).toBe(1);
    const status = failing.locator("form .status:has(details)");
    expect(await status.evaluate((node) => node.firstChild?.textContent)).toBe(
      "The service is not answering right now. Nothing was changed. Try again in a few minutes.",
    );
    expect(await details.evaluate((node) => (node as HTMLDetailsElement).open)).toBe(false);
    expect(await status.innerText()).not.toContain("HTTP 503");
    await details.locator("summary").click();
    expect(await status.innerText()).toContain("HTTP 503");
    expect(await details.evaluate((node) => node.lastChild?.textContent)).toBe(
      `getFund: the service answered HTTP 503: ${EVIL}`,
    );
    expect(await failing.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await failing.close();
  });
});

describe("Fund sidebar page: the Fund Id typed in", () => {
  it("refuses an Id that is not a whole number from 1, naming the field and the rule, and reads nothing", async () => {
    const page = await open("fund", { getFundSidebarView: fundView });
    await page.locator("#app[data-ready='1']").waitFor();
    const problem = page.locator("#fund-id-problem");
    await page.locator("#fund-id").fill("12ab");
    await page.locator("#fund-id").press("Enter");
    await expect.poll(() => problem.textContent()).toBe('Fund Id must be a whole number (got "12ab").');
    expect(await page.locator("#fund-id").getAttribute("aria-invalid")).toBe("true");
    await page.locator("#fund-id").fill("0");
    await page.locator("#fund-id").press("Enter");
    await expect.poll(() => problem.textContent()).toBe("Fund Id must be at least 1 (got 0).");
    expect((await calls(page)).map((c) => c.name)).toEqual(["getFundSidebarView"]);
    // A good Id is read, and the problem goes.
    await page.locator("#fund-id").fill("5001");
    await page.locator("#fund-id").press("Enter");
    await expect.poll(async () => (await calls(page)).length).toBe(2);
    expect((await calls(page))[1]?.args).toEqual([{ fundId: "5001" }]);
    await page.close();
  });
});

describe("Fund sidebar page: a fund that cannot be read", () => {
  it("says so in plain words, the service's text behind a Details toggle", async () => {
    const page = await open("fund", {
      getFundSidebarView: {
        ...fundView,
        fund: null,
        error: `The fund could not be read, so it is not shown.\n\nDetails: getFund: the service answered HTTP 503: ${EVIL}`,
      },
    });
    const shown = page.locator("#app > .status.error");
    await expect.poll(() => shown.locator("details").count()).toBe(1);
    expect(await shown.evaluate((node) => node.firstChild?.textContent)).toBe(
      "The fund could not be read, so it is not shown.",
    );
    expect(await shown.locator("summary").textContent()).toBe("Details");
    expect(await shown.locator("details").evaluate((node) => node.lastChild?.textContent)).toBe(
      `getFund: the service answered HTTP 503: ${EVIL}`,
    );
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.close();
  });
});

describe("Report sidebar page", () => {
  it("lists the selected reports and marks them integrated with the date defaulting to now", async () => {
    const view = {
      language: "es",
      adminId: 1001,
      now: "2024-06-30 10:15:00",
      reports: [
        {
          id: 31,
          reportNumber: "R-31",
          title: "<script>x()</script>Viaje",
          employeeName: "Ana",
          integrated: false,
          customStatus: "",
          check: "read",
          sheetNumber: "R-31",
        },
        {
          id: 32,
          reportNumber: "R-32",
          title: "Taxi",
          employeeName: "Ben",
          integrated: false,
          customStatus: "",
          check: "read",
          sheetNumber: "R-32",
        },
      ],
    };
    const result = {
      summary: "2 hechas, 0 rechazadas, 0 desconocidas.",
      results: [
        { id: 31, outcome: { kind: "done", message: "Hecho: rendición 31." } },
        { id: 32, outcome: { kind: "done", message: "Hecho: rendición 32." } },
      ],
    };
    const page = await open("report", { getReportSidebarView: view, markReportsIntegrated: result });
    expect(await page.locator("li[data-report-id]").count()).toBe(2);
    expect(await page.locator("li[data-report-id='31']").textContent()).toContain(
      "<script>x()</script>Viaje",
    );
    expect(await page.locator("li[data-report-id='31'] .hint").textContent()).toBe("Integrada: No");
    expect(await page.getByLabel("Fecha y hora de integración").inputValue()).toBe("2024-06-30 10:15:00");
    await page.getByLabel("Código de comprobante").fill("ERP-1");
    await page.getByRole("button", { name: "Marcar integrada" }).first().click();
    await expect.poll(() => page.locator(".status.ok").first().textContent()).toContain("2 hechas");
    // Each report is named as the list names it, by its number, not by a second kind of id.
    expect(await page.locator(".status.ok").first().textContent()).toContain(
      "R-31 · Hecho: rendición 31.\nR-32 · Hecho: rendición 32.",
    );
    const sent = (await calls(page)).find((c) => c.name === "markReportsIntegrated");
    expect(await page.locator(".reports [role=alert]").count()).toBe(0);
    expect(sent?.args[0]).toMatchObject({
      reportIds: [31, 32],
      reportNumbers: { 31: "R-31", 32: "R-32" },
      fields: { IntegrationCode: "ERP-1", IntegrationDate: "2024-06-30 10:15:00" },
    });
    await page.close();
  });

  it("warns of a row whose Id is another report, unknown or unread, in the user's language", async () => {
    const reports = [
      {
        id: 41,
        check: "read",
        sheetNumber: "R-40",
        reportNumber: "R-41",
        title: "Taxi",
        employeeName: "Ana",
      },
      { id: 42, check: "unknown", sheetNumber: "R-42" },
      { id: 43, check: "unread", sheetNumber: "R-43" },
      { id: 44, check: "read", sheetNumber: "R-44", reportNumber: "R-44", title: "Hotel" },
    ];
    const warnings = async (language: string) => {
      const page = await open("report", {
        getReportSidebarView: { language, adminId: 1001, now: "2024-06-30 10:15:00", reports },
      });
      await page.locator("li[data-report-id='41']").waitFor();
      const texts = await Promise.all(
        [41, 42, 43, 44].map(
          async (id) =>
            (await page.locator(`li[data-report-id='${id}'] [role=alert]`).allTextContents())[0] ?? "",
        ),
      );
      // The line names the service's report, never the row's own number.
      expect(await page.locator("li[data-report-id='41']").textContent()).toMatch(/^R-41 · Taxi · Ana/);
      await page.close();
      return texts;
    };
    expect(await warnings("en")).toEqual([
      "Warning: the row's report number is “R-40”, but Id 41 is report R-41 in the service. Check the row's Id cell.",
      "The service has no report with Id 42: check this row's Id cell. It cannot be marked.",
      "Not verified: report 43 could not be read from the service. Reload before marking it.",
      "",
    ]);
    expect(await warnings("es")).toEqual([
      "Atención: el número de rendición de la fila es «R-40», pero el Id 41 es la rendición R-41 en el servicio. Revise la celda Id de la fila.",
      "El servicio no tiene una rendición con Id 42: revise la celda Id de esta fila. No se puede marcar.",
      "Sin verificar: la rendición 43 no se pudo leer del servicio. Vuelva a cargar antes de marcarla.",
      "",
    ]);
  });

  it("says what to do when no report row is selected", async () => {
    const page = await open("report", {
      getReportSidebarView: { language: "en", adminId: 1001, now: "", reports: [] },
    });
    expect(await page.locator("#app").textContent()).toContain(
      "Select one or more rows of the Expense reports sheet",
    );
    await page.close();
  });
});
