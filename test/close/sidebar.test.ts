/**
 * The Month-end close sidebar's page in Chromium at 300 px, with google.script.run answered by
 * a scripted fake: what the build found shown as text only, the marking refused with its reason,
 * the CSV downloaded from the page (no Drive) exactly as the server made it, in both languages.
 */
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot } from "../browser/browser";
import { scriptRunCalls as calls, loadSidebar, sidebarPages } from "../support/sidebar-page";
import { closeView } from "./sidebar-view";

const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const CSV = "voucher,date\r\n202405001,2024-05-31\r\n=cmd,x\r\n";

const sidebar = sidebarPages("close", { height: 900, delayMs: 1, failureKey: "error" });

const view = (language: "en" | "es") =>
  closeView(language, {
    fourEyesNote: "Four eyes is off for this spreadsheet.",
    columns: ["voucher", "date"],
  });

const open = (answers: Record<string, unknown>): Promise<Page> => sidebar.open(answers);

describe("the Month-end close sidebar", () => {
  it("builds the journal of the company and month chosen, and shows what it found as text", async () => {
    const page = await open({
      getCloseView: view("en"),
      closeBuildJournal: {
        ok: true,
        message: "The Journal sheet holds 1 voucher of 2 reports.",
        vouchers: ["202405001 · CLP: 2 reports, debits CLP 3,000, credits CLP 3,000"],
        blocked: [`Report 000009 (${HOSTILE}, CLP 5): no account for the expense policy X (Id 3)`],
        attention: [
          {
            text: `Report 000008 (${HOSTILE}) of this month is still open`,
            kind: "openReport",
            company: "c1",
            id: 8,
          },
        ],
      },
      closeShowRecord: true,
    });
    await page.selectOption("#close-company", "c1");
    await page.fill("#close-currency", "clp");
    await page.getByRole("button", { name: "Read the month and build the journal" }).click();
    await expect
      .poll(() => page.locator("#close-build-status").textContent())
      .toBe("The Journal sheet holds 1 voucher of 2 reports.");
    expect(await page.locator("#close-vouchers li").allTextContents()).toEqual([
      "202405001 · CLP: 2 reports, debits CLP 3,000, credits CLP 3,000",
    ]);
    expect(await page.locator("#close-blocked li").textContent()).toContain(HOSTILE);
    await page.locator("#close-attention button").click();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    const sent = await calls(page);
    expect(sent.find((c) => c.name === "closeBuildJournal")?.args).toEqual([
      { company: "c1", month: "2024-05", currency: "CLP", pattern: "{yyyy}{mm}{nnn}" },
    ]);
    expect(sent.find((c) => c.name === "closeShowRecord")?.args).toEqual([
      {
        text: `Report 000008 (${HOSTILE}) of this month is still open`,
        kind: "openReport",
        company: "c1",
        id: 8,
      },
    ]);
    await screenshot(page, "sidebar-close");
    await page.close();
  });

  it("refuses the marking with the reason, and confirms each voucher before marking", async () => {
    const second = await sidebar.browser.context.newPage();
    await second.setViewportSize({ width: 300, height: 900 });
    await loadSidebar(
      second,
      sidebar.html,
      {
        getCloseView: [view("en")],
        closeCheckMarking: [
          {
            ok: false,
            message: "The journal changed since ana approved it: row 3 (voucher 202405001) changed.",
            vouchers: [],
            count: 0,
          },
          {
            ok: true,
            message: "2 reports of 1 voucher checked.",
            vouchers: ["202405001 · CLP: 2 reports"],
            count: 2,
          },
        ],
        closeMarkVouchers: [{ ok: false, message: "nothing was marked", outcomes: [], more: false }],
      },
      { delayMs: 1, listsInTurn: true },
    );
    const mark = second.locator("#close-mark");
    await mark.click();
    await expect
      .poll(() => second.locator("#close-approval").textContent())
      .toContain("row 3 (voucher 202405001)");
    expect(await second.locator("#close-mark-confirm").count()).toBe(0);
    await mark.click();
    await expect
      .poll(() => second.locator("#close-mark-list li").allTextContents())
      .toEqual(["202405001 · CLP: 2 reports"]);
    // The confirmation's button says what it does, unlike the button that asked for it.
    expect(await second.locator("#close-mark-confirm").textContent()).toBe("Yes, mark these 2 reports");
    await second.locator("#close-mark-confirm").click();
    await expect.poll(() => second.locator("#close-approval").textContent()).toBe("nothing was marked");
    await second.close();
  });

  it("goes on with a long marking piece after piece, showing the progress, until its outcome", async () => {
    const page = await sidebar.browser.context.newPage();
    await page.setViewportSize({ width: 300, height: 900 });
    const piece = (done: number, more: boolean) => ({
      ok: true,
      message: more
        ? `${done} of 62 reports marked, continuing automatically.`
        : "62 of 62 reports marked integrated with their voucher's code.",
      outcomes: [],
      more,
      progress: { done, count: 62 },
    });
    await loadSidebar(
      page,
      sidebar.html,
      {
        getCloseView: [view("en")],
        getCloseMarkingStatus: [{ state: "none", message: "No marking is going on.", ok: true, mine: false }],
        closeCheckMarking: [{ ok: true, message: "62 reports checked.", vouchers: ["202405001"], count: 62 }],
        closeMarkVouchers: [piece(25, true)],
        closeContinueMarking: [piece(50, true), piece(62, false)],
      },
      { delayMs: 1, listsInTurn: true, delays: { closeContinueMarking: 1_500 } },
    );
    await page.locator("#close-mark").click();
    await page.locator("#close-mark-confirm").click();
    await expect
      .poll(() => page.locator("#close-approval").textContent(), { timeout: 10_000 })
      .toBe("50 of 62 reports marked, continuing automatically.");
    expect(await page.locator("#close-mark-stop").isVisible()).toBe(true);
    await expect
      .poll(() => page.locator("#close-approval").textContent(), { timeout: 10_000 })
      .toBe("62 of 62 reports marked integrated with their voucher's code.");
    expect(await page.locator("#close-mark-stop").isVisible()).toBe(false);
    expect((await calls(page)).filter((c) => c.name === "closeContinueMarking")).toHaveLength(2);
    await page.close();
  });

  it("opened while someone else's marking goes on, shows its progress and stops it", async () => {
    const page = await open({
      getCloseView: view("en"),
      getCloseMarkingStatus: {
        state: "running",
        message: "25 of 62 reports marked, continuing automatically as ana@example.com.",
        ok: true,
        mine: false,
        progress: { done: 25, count: 62 },
      },
      closeStopMarking: {
        state: "last",
        message: "The marking stopped after 25 of 62 reports: stopped by bo@example.com.",
        ok: false,
        mine: false,
      },
    });
    await expect
      .poll(() => page.locator("#close-marking-status").textContent())
      .toContain("25 of 62 reports marked, continuing automatically as ana@example.com.");
    await page.locator("#close-mark-stop").click();
    await expect
      .poll(() => page.locator("#close-marking-status").textContent())
      .toBe("The marking stopped after 25 of 62 reports: stopped by bo@example.com.");
    expect(await page.locator("#close-mark-stop").isVisible()).toBe(false);
    expect((await calls(page)).map((c) => c.name)).not.toContain("closeContinueMarking");
    await page.close();
  });

  it("downloads the CSV the server made, from the page, with the choices sent", async () => {
    const page = await open({
      getCloseView: view("es"),
      closeExportCsv: { fileName: "journal-2024-05.csv", text: CSV, lines: 2 },
    });
    expect(await page.locator("h1").textContent()).toBe("Cierre de mes");
    await page.selectOption("#csv-separator", ";");
    await page.selectOption("#csv-date-format", "DD/MM/YYYY");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Descargar el CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("journal-2024-05.csv");
    const path = await download.path();
    expect(readFileSync(path, "utf8")).toBe(`\ufeff${CSV}`);
    await expect
      .poll(() => page.locator("#close-export-status").textContent())
      .toBe("journal-2024-05.csv descargado: 2 líneas.");
    expect((await calls(page)).find((c) => c.name === "closeExportCsv")?.args).toEqual([
      {
        layout: "lines",
        dateFormat: "DD/MM/YYYY",
        decimal: ".",
        separator: ";",
        columns: ["voucher", "date"],
        header: true,
      },
    ]);
    await page.close();
  });
});
