/**
 * The month-end close walked in the playground in Chromium, as a controller does it: the add-on
 * menu's "Month-end close…", a month of the demo data, Build, the Accounts sheet filled by typing
 * in the grid, Build again, Approve, Mark after the sidebar's confirmation; then the sandbox's
 * reports read integrated with their voucher's code, a second marking sends nothing, and the CSV
 * downloaded by the page is the stored file, byte for byte. One page on one playground.
 *
 * The sandbox's date is fixed (TODAY) and the spreadsheet's clock starts at its noon, so the demo
 * data, the month's reports, what needs attention and the CSV are the same on any day. The CSV
 * holds no time of either clock: its date is the voucher's, the month's last day; the integration
 * date the marking writes (the spreadsheet's clock, running on from TODAY) is checked by its form.
 * Chromium missing fails the first test, as in the other browser tests.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Report } from "../../dev/sandbox/model";
import { type Browser, launchBrowser, pageErrors, SCREENSHOT_DIR, screenshot } from "./browser";
import { PlaygroundPage } from "./playground-page";
import { type PlaygroundStack, startStack } from "./stack";
import { until } from "./until";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/** The sandbox's date, and the month closed: the one before it, with closed reports not integrated. */
const TODAY = "2026-06-15";
const MONTH = "2026-05";
const FIXTURE = resolve(import.meta.dirname, "fixtures/close-journal-2026-05.csv");
const RECEIVED = resolve(SCREENSHOT_DIR, "../close-journal-2026-05.received.csv");

/** A report as the sandbox stores it (`GET /_sandbox/state`). */
type StateReport = Report;

let browser: Browser | undefined;
let launchError: Error | undefined;
let stack: PlaygroundStack | undefined;
let page: Page | undefined;
let errors: string[] = [];

beforeAll(async () => {
  try {
    browser = await launchBrowser();
  } catch (err) {
    launchError = err instanceof Error ? err : new Error(String(err));
    return;
  }
  stack = await startStack({ companies: 1, today: TODAY });
  page = await browser.context.newPage();
  errors = pageErrors(page);
  await new PlaygroundPage(page).open(stack.url);
});

afterAll(async () => {
  await page?.close();
  await stack?.close();
  await browser?.close();
});

// A missing Chromium is a failure of this file (with how to install it), never a skip.
it("runs on Debian's Chromium", () => {
  expect(launchError?.message).toBeUndefined();
});

function ready(): { stack: PlaygroundStack; page: Page; playground: PlaygroundPage } {
  if (!stack || !page) throw launchError ?? new Error("The playground did not start");
  return { stack, page, playground: new PlaygroundPage(page) };
}

/** What a Build shows in the sidebar, once its run has finished. */
async function build(): Promise<{
  status: string;
  vouchers: string[];
  blocked: string[];
  attention: string[];
}> {
  const { playground } = ready();
  const sidebar = playground.sidebar();
  await playground.afterRun(() => sidebar.locator("#close-build").click());
  const status = sidebar.locator("#close-build-status");
  await until(async () => expect(await status.getAttribute("class")).toMatch(/\b(ok|problem)\b/));
  return {
    status: (await status.textContent()) ?? "",
    vouchers: await sidebar.locator("#close-vouchers li").allTextContents(),
    blocked: await sidebar.locator("#close-blocked li").allTextContents(),
    attention: await sidebar.locator("#close-attention li").allTextContents(),
  };
}

/** The active sheet's rows under its header, as the grid shows them, up to the first empty one. */
async function sheetRows(playground: PlaygroundPage): Promise<string[][]> {
  const rows: string[][] = [];
  for (let r = 2; ; r++) {
    const row = await playground.row(r);
    if (row.length === 0) return rows;
    rows.push(row);
  }
}

interface GridLine {
  voucher: string;
  currency: string;
  debit: number;
  credit: number;
  reportId: number;
}

/** The Journal sheet's lines as the grid shows them, amounts in cents. */
async function journalOfGrid(playground: PlaygroundPage): Promise<{ header: string[]; lines: GridLine[] }> {
  await playground.sheet("Journal");
  const header = await playground.header();
  const at = (row: string[], name: string) => row[header.indexOf(name)] ?? "";
  const cents = (text: string) => (text === "" ? 0 : Math.round(Number(text.replace(/,/g, "")) * 100));
  const lines = (await sheetRows(playground)).map((row) => ({
    voucher: at(row, "Voucher"),
    currency: at(row, "Currency"),
    debit: cents(at(row, "Debit")),
    credit: cents(at(row, "Credit")),
    reportId: Number(at(row, "Report Id")),
  }));
  return { header, lines };
}

function sum(lines: readonly GridLine[], side: "debit" | "credit"): number {
  return lines.reduce((total, line) => total + line[side], 0);
}

/** The fields of a CSV line (quotes as RFC 4180: a quoted field may hold the separator). */
function csvFields(line: string, separator: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quoted && c === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (!quoted && c === '"' && field === "") {
      quoted = true;
    } else if (!quoted && c === separator) {
      fields.push(field);
      field = "";
    } else {
      field += c;
    }
  }
  fields.push(field);
  return fields;
}

let journal: { header: string[]; lines: GridLine[] } = { header: [], lines: [] };

describe("the month-end close in the playground, from the menu to the CSV", () => {
  const monthReports = async (): Promise<StateReport[]> => {
    const state = await ready().stack.sandbox<{ reports: StateReport[] }>("/_sandbox/state");
    return state.reports.filter((r) => r.status === 1 && r.closeDate?.startsWith(MONTH));
  };
  let toBook: StateReport[] = [];
  let markedBefore: StateReport[] = [];

  it("opens the close's sidebar from Extensions → the add-on's menu", async () => {
    const { playground } = ready();
    toBook = (await monthReports()).filter((r) => !r.integrated);
    expect(toBook.length).toBeGreaterThan(2);
    await playground.page.locator('[data-testid="menu-extensions"]').click();
    await playground.page.locator('[data-testid="menu-addon"]').click();
    expect(await playground.page.locator('[data-testid="menu-item-showCloseSidebar"]').textContent()).toBe(
      "Month-end close…",
    );
    await playground.afterRun(() =>
      playground.page.locator('[data-testid="menu-item-showCloseSidebar"]').click(),
    );
    expect(await playground.sidebarTitle()).toBe("Month-end close");
    await playground.sidebar().locator("#close-build").waitFor();
  });

  it("builds: nothing booked yet, and the Accounts sheet lists every account the month needs", async () => {
    const { playground, page } = ready();
    const sidebar = playground.sidebar();
    await sidebar.locator("#close-month").fill(MONTH);
    await sidebar.locator("#close-currency").fill("");
    const first = await build();
    expect(first.status).toBe(
      "The Journal sheet holds 0 vouchers of 0 reports. The Accounts sheet lists what this month needs: " +
        "fill in each Account, then build the journal again.",
    );
    expect(first.vouchers).toEqual([]);
    expect(first.blocked).toHaveLength(toBook.length);
    await playground.sheet("Accounts");
    const rows = await sheetRows(playground);
    // One row for each policy, fund and the employee payable account the month's reports need:
    // all of them from this first build, so that one filling books every report.
    const needed = [
      ...new Set([
        ...toBook.map((r) => `Expense policy|${r.policyId}`),
        ...toBook.map((r) => (r.fundId > 0 ? `Fund|${r.fundId}` : "Employee payable|")),
      ]),
    ].sort();
    expect(rows.map((r) => `${r[1]}|${r[2] ?? ""}`).sort()).toEqual(needed);
    expect(rows.every((r) => (r[4] ?? "") === "")).toBe(true);
    await screenshot(page, "playground-close-accounts", page.getByTestId("grid"));
  });

  it("books every report once the accounts are typed into the grid: balanced vouchers in the Journal sheet", async () => {
    const { playground, page } = ready();
    await playground.sheet("Accounts");
    const rows = await sheetRows(playground);
    for (const [i, row] of rows.entries()) {
      const account = row[1] === "Expense policy" ? `6${row[2]}` : row[1] === "Fund" ? `11${row[2]}` : "2105";
      await playground.typeInto(`E${i + 2}`, account);
    }
    expect((await sheetRows(playground)).map((r) => r[4])).toEqual(
      rows.map((r) => (r[1] === "Expense policy" ? `6${r[2]}` : r[1] === "Fund" ? `11${r[2]}` : "2105")),
    );
    const second = await build();
    expect(second.status).toBe(
      `The Journal sheet holds ${second.vouchers.length} vouchers of ${toBook.length} reports.`,
    );
    expect(second.blocked).toEqual([]);
    expect(second.attention.length).toBeGreaterThan(0);
    expect(await playground.activeSheet()).toBe("Journal");
    journal = await journalOfGrid(playground);
    expect(journal.lines).toHaveLength(2 * toBook.length);
    const vouchers = new Set(journal.lines.map((l) => l.voucher));
    expect(vouchers.size).toBe(second.vouchers.length);
    for (const voucher of vouchers) {
      const own = journal.lines.filter((l) => l.voucher === voucher);
      expect(sum(own, "debit"), `voucher ${voucher}`).toBe(sum(own, "credit"));
      expect(new Set(own.map((l) => l.currency)).size).toBe(1);
    }
    expect([...new Set(journal.lines.map((l) => l.reportId))].sort()).toEqual(toBook.map((r) => r.id).sort());
    await screenshot(page, "playground-close-journal", page.getByTestId("grid"));
    await playground.sidebar().locator("#close-results").scrollIntoViewIfNeeded();
    await screenshot(page, "sidebar-close-built", page.getByTestId("sidebar"));
  });

  it("approves, then marks after the sidebar's confirmation: each report reads integrated with its voucher's code", async () => {
    const { playground, page, stack } = ready();
    const sidebar = playground.sidebar();
    await playground.afterRun(() => sidebar.locator("#close-approve").click());
    const approval = sidebar.locator("#close-approval");
    await until(async () =>
      expect(await approval.textContent()).toMatch(
        /^Approved by treasurer@example\.com at 2026-06-15 \d\d:\d\d:\d\d\.$/,
      ),
    );
    await playground.afterRun(() => sidebar.locator("#close-mark").click());
    const vouchers = new Set(journal.lines.map((l) => l.voucher));
    await until(async () => expect(await sidebar.locator("#close-mark-list li").count()).toBe(vouchers.size));
    expect(await approval.textContent()).toBe(
      `${toBook.length} reports of ${vouchers.size} vouchers checked against the approval.`,
    );
    // Nothing is sent before the confirmation.
    expect((await monthReports()).filter((r) => r.integrated && toBook.some((b) => b.id === r.id))).toEqual(
      [],
    );
    expect(await sidebar.locator("#close-mark-confirm").textContent()).toBe(
      `Yes, mark these ${toBook.length} reports`,
    );
    await sidebar.locator("#close-mark-confirm").scrollIntoViewIfNeeded();
    await screenshot(page, "sidebar-close-confirm", page.getByTestId("sidebar"));
    await playground.afterRun(() => sidebar.locator("#close-mark-confirm").click());
    await until(async () =>
      expect(await approval.textContent()).toBe(
        `${toBook.length} of ${toBook.length} reports marked integrated with their voucher's code.`,
      ),
    );
    await screenshot(page, "sidebar-close-marked", page.getByTestId("sidebar"));
    const voucherOf = new Map(journal.lines.map((l) => [l.reportId, l.voucher]));
    const marked = (await monthReports()).filter((r) => voucherOf.has(r.id));
    expect(marked).toHaveLength(toBook.length);
    for (const r of marked) {
      expect(r.integrated, `report ${r.id}`).toBe(true);
      expect(r.integrationExternalCode).toBe(voucherOf.get(r.id));
      expect(r.integrationDate).toMatch(/^2026-06-15 \d\d:\d\d:\d\d$/);
      expect(r.integrationCalls).toBe(1);
      // As the API reads it (§4.8): integrated (IntegrationStatus 1) under the voucher's code.
      const read = await stack.sandbox<{ ExpenseReports: Array<{ Id: number | string }> }>(
        `/v1/getExpenseReports?IntegrationStatus=1&IntegrationCode=${voucherOf.get(r.id)}&Since=${MONTH}-01&Until=${MONTH}-31&ResultsPerPage=100`,
      );
      expect(read.ExpenseReports.map((e) => Number(e.Id))).toContain(r.id);
    }
    markedBefore = marked;
  });

  it("sends nothing on a second marking: every report is already integrated with its code", async () => {
    const { playground } = ready();
    const sidebar = playground.sidebar();
    await playground.afterRun(() => sidebar.locator("#close-mark").click());
    await sidebar.locator("#close-mark-confirm").waitFor();
    await playground.afterRun(() => sidebar.locator("#close-mark-confirm").click());
    await until(async () =>
      expect(await sidebar.locator("#close-approval").textContent()).toBe(
        `${toBook.length} of ${toBook.length} reports marked integrated with their voucher's code.`,
      ),
    );
    const again = (await monthReports()).filter((r) => markedBefore.some((m) => m.id === r.id));
    expect(again).toEqual(markedBefore);
  });

  it("downloads the CSV from the page: the stored file byte for byte, no cell starting a formula", async () => {
    const { playground, page } = ready();
    const sidebar = playground.sidebar();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      playground.afterRun(() => sidebar.locator("#close-export").click()),
    ]);
    expect(download.suggestedFilename()).toBe(`journal-${MONTH}.csv`);
    const got = readFileSync(await download.path());
    if (!got.equals(readFileSync(FIXTURE))) {
      // The file as received, to compare with the stored one (and to store, if the change is meant).
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      writeFileSync(RECEIVED, got);
      expect.fail(`The downloaded CSV differs from ${FIXTURE}; it was saved as ${RECEIVED}`);
    }
    const text = got.toString("utf8");
    expect(text.startsWith("\ufeff")).toBe(true);
    const lines = text.slice(1).split("\r\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(1 + journal.lines.length);
    for (const line of lines.slice(1))
      for (const field of csvFields(line, ",")) expect(field, line).not.toMatch(/^[=+\-@\t\r]/);
    expect(await sidebar.locator("#close-export-status").textContent()).toBe(
      `journal-${MONTH}.csv downloaded: ${journal.lines.length} lines.`,
    );
    expect(errors).toEqual([]);
  });
});
