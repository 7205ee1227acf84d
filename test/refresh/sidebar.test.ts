/**
 * The refresh sidebar's page in Chromium at the sidebar's 300 px, with google.script.run
 * answered by a scripted fake: buttons, one refresh at a time, the summary shown as text.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot } from "../browser/browser";
import { scriptRunCalls as calls, sidebarPages } from "../support/sidebar-page";

const HOSTILE = '<img src=x onerror="window.__pwned=1">';

const sidebar = sidebarPages("refresh", {
  height: 600,
  delayMs: 1,
  failureKey: "error",
  ready: '#app[aria-busy="false"]',
});

/** Opens the sidebar; refreshFromSidebar answers after `delayMs`, everything else at once. */
const open = (answers: Record<string, unknown>, delayMs = 5): Promise<Page> =>
  sidebar.open(answers, { delays: { refreshFromSidebar: delayMs } });

describe("refresh sidebar", () => {
  it("runs the refresh of the button clicked, one at a time, and shows the summary as text", async () => {
    const page = await open(
      {
        getRefreshSidebarView: { language: "en" },
        refreshFromSidebar: {
          ok: true,
          finished: true,
          records: 12,
          calls: 3,
          seconds: 0.4,
          refreshed: ["funds"],
          message: `12 records ${HOSTILE}`,
        },
      },
      // Long enough that the buttons are seen disabled while it runs, however loaded the machine.
      3_000,
    );
    await page.getByRole("button", { name: "Refresh funds", exact: true }).click();
    // While it runs, no button can start another refresh.
    expect(await page.locator("button:disabled:visible").count()).toBe(5);
    await expect.poll(() => page.locator("#refresh-status").innerText()).toBe(`12 records ${HOSTILE}`);
    expect(await page.locator("button:disabled:visible").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect((await calls(page)).filter((c) => c.name === "refreshFromSidebar")).toEqual([
      { name: "refreshFromSidebar", args: ["funds"] },
    ]);
    await screenshot(page, "refresh-sidebar");
    await page.close();
  });

  it("says how fresh each sheet is, and again after a refresh", async () => {
    const answers = {
      getRefreshSidebarView: [
        { language: "en", paused: null, fresh: [`Funds: refreshed 2026-01-10 08:00 by ${HOSTILE}.`] },
        {
          language: "en",
          paused: null,
          fresh: [
            "Funds: refreshed 2026-01-10 09:30 by ana@example.com.",
            "Expense reports: refreshed 2026-01-10 09:30 by ana@example.com.",
          ],
        },
      ],
      refreshFromSidebar: {
        ok: true,
        finished: true,
        records: 3,
        calls: 1,
        seconds: 0.2,
        refreshed: ["funds"],
        message: "done",
      },
    };
    // Each call of getRefreshSidebarView takes the next answer: before, then after the refresh.
    const page = await sidebar.open(answers, { listsInTurn: true });
    const lines = () => page.locator("#refresh-fresh li").allTextContents();
    expect(await lines()).toEqual([`Funds: refreshed 2026-01-10 08:00 by ${HOSTILE}.`]);
    expect(await page.locator("#refresh-fresh img").count()).toBe(0);
    await page.getByRole("button", { name: "Refresh funds", exact: true }).click();
    await expect
      .poll(lines)
      .toEqual([
        "Funds: refreshed 2026-01-10 09:30 by ana@example.com.",
        "Expense reports: refreshed 2026-01-10 09:30 by ana@example.com.",
      ]);
    await page.close();
  });

  it("speaks Spanish and shows a failure's reason", async () => {
    const page = await open({
      getRefreshSidebarView: { language: "es" },
      refreshFromSidebar: { error: "La actualización falló: HTTP 500" },
    });
    await page.getByRole("button", { name: "Actualizar todo" }).click();
    await expect
      .poll(() => page.locator("#refresh-status").innerText())
      .toBe("La actualización falló: HTTP 500");
    expect(await page.locator("#refresh-status").getAttribute("class")).toBe("problem");
    await page.close();
  });
});

describe("refresh sidebar: a failure in plain words, its details behind a toggle", () => {
  const PLAIN =
    "The service is not answering right now. The sheets keep their previous data. Try again in a few minutes.";
  const DETAIL = `getFunds: the service answered HTTP 503: ${HOSTILE}`;

  async function detailsShown(page: Page) {
    const status = page.locator("#refresh-status");
    await expect.poll(() => status.locator("details").count()).toBe(1);
    // The plain sentence comes first; the technical text stays folded until asked for.
    expect(await status.evaluate((node) => node.firstChild?.textContent)).toBe(PLAIN);
    const details = status.locator("details");
    expect(await details.evaluate((node) => (node as HTMLDetailsElement).open)).toBe(false);
    expect(await details.locator("summary").innerText()).toBe("Details");
    expect(await status.innerText()).not.toContain("HTTP 503");
    await details.locator("summary").click();
    expect(await details.evaluate((node) => (node as HTMLDetailsElement).open)).toBe(true);
    expect(await status.innerText()).toContain("HTTP 503");
    expect(await details.evaluate((node) => node.lastChild?.textContent)).toBe(DETAIL);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  }

  it("shows a failed refresh's summary with a Details toggle", async () => {
    const page = await open({
      getRefreshSidebarView: { language: "en" },
      refreshFromSidebar: {
        ok: false,
        finished: true,
        records: 0,
        calls: 3,
        seconds: 1,
        refreshed: [],
        message: `${PLAIN}\n\nDetails: ${DETAIL}`,
        percent: 100,
      },
    });
    await page.getByRole("button", { name: "Refresh funds", exact: true }).click();
    await detailsShown(page);
    expect(await page.locator("#refresh-status").getAttribute("class")).toBe("problem");
    await page.close();
  });

  it("shows a call that failed the same way", async () => {
    const page = await open({
      getRefreshSidebarView: { language: "en" },
      refreshFromSidebar: { error: `${PLAIN}\n\nDetails: ${DETAIL}` },
    });
    await page.getByRole("button", { name: "Refresh funds", exact: true }).click();
    await detailsShown(page);
    await page.close();
  });

  it("names the toggle in Spanish", async () => {
    const page = await open({
      getRefreshSidebarView: { language: "es" },
      refreshFromSidebar: { error: "El servicio no está respondiendo.\n\nDetalles: getFunds: HTTP 503" },
    });
    await page.getByRole("button", { name: "Actualizar todo" }).click();
    const details = page.locator("#refresh-status details");
    await expect.poll(() => details.count()).toBe(1);
    expect(await details.locator("summary").innerText()).toBe("Detalles");
    expect(await details.evaluate((node) => node.lastChild?.textContent)).toBe("getFunds: HTTP 503");
    await page.close();
  });
});

describe("refresh sidebar: a refresh longer than one execution goes on from the page", () => {
  const piece = (percent: number, finished = false) => ({
    ok: true,
    finished,
    records: 10,
    calls: 4,
    seconds: 1.5,
    refreshed: [],
    message: finished ? "done" : "Paused near the time limit",
    percent,
  });

  const openPieces = (answers: Record<string, unknown>, delayMs = 150): Promise<Page> =>
    sidebar.open(answers, { delays: { refreshFromSidebar: delayMs }, listsInTurn: true });

  it("calls again piece after piece, with a progress bar, until the refresh is done", async () => {
    const page = await openPieces({
      getRefreshSidebarView: [{ language: "en", paused: null }],
      refreshFromSidebar: [piece(33), piece(66), piece(100, true)],
    });
    // Every value the bar takes, recorded as it is set (a poll could miss one on a loaded machine).
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { seen: number[] }).seen = seen;
      new MutationObserver((changes) => {
        for (const change of changes) {
          const bar = change.target as HTMLElement;
          if (bar.id === "refresh-progress") seen.push((bar as HTMLProgressElement).value);
        }
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["value"] });
    });
    await page.getByRole("button", { name: "Refresh all" }).click();
    await expect
      .poll(() => page.locator("#refresh-status").innerText())
      .toBe("30 records refreshed with 12 calls in 4.5 s, in 3 pieces.");
    const seen = await page.evaluate(() => (window as unknown as { seen: number[] }).seen);
    expect(seen.filter((value) => value > 0)).toEqual(expect.arrayContaining([33, 66]));
    expect(seen.indexOf(33)).toBeLessThan(seen.indexOf(66));
    expect(await page.locator("#refresh-progress").evaluate((p) => (p as HTMLProgressElement).value)).toBe(
      100,
    );
    expect((await calls(page)).filter((c) => c.name === "refreshFromSidebar")).toHaveLength(3);
    await page.close();
  });

  it("Cancel stops after the current piece and offers Continue, which goes on where it stopped", async () => {
    const page = await openPieces(
      {
        getRefreshSidebarView: [{ language: "en", paused: null }],
        refreshFromSidebar: [piece(25), piece(50), piece(100, true)],
      },
      400,
    );
    await page.getByRole("button", { name: "Refresh all" }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect
      .poll(() => page.locator("#refresh-status").innerText())
      .toBe("Stopped after the current piece: 10 rows written. Press Continue to go on where it stopped.");
    expect((await calls(page)).filter((c) => c.name === "refreshFromSidebar")).toHaveLength(1);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => page.locator("#refresh-status").innerText()).toMatch(/in 2 pieces\.$/);
    expect((await calls(page)).filter((c) => c.name === "refreshFromSidebar")).toEqual([
      { name: "refreshFromSidebar", args: ["all"] },
      { name: "refreshFromSidebar", args: ["all"] },
      { name: "refreshFromSidebar", args: ["all"] },
    ]);
    await page.close();
  });

  it("opened on a paused refresh, offers Continue; opened by the menu that paused it, goes on at once", async () => {
    const paused = { kind: "transactions", action: "Refresh funds and transactions", percent: 40 };
    const offered = await openPieces({
      getRefreshSidebarView: [{ language: "en", paused: { ...paused, continueNow: false } }],
      refreshFromSidebar: [piece(100, true)],
    });
    expect(await offered.locator("#refresh-status").innerText()).toBe(
      "“Refresh funds and transactions” stopped at 40% and can go on where it stopped.",
    );
    expect(await offered.getByRole("button", { name: "Continue" }).isVisible()).toBe(true);
    expect((await calls(offered)).filter((c) => c.name === "refreshFromSidebar")).toEqual([]);
    await offered.close();

    const resumed = await openPieces({
      getRefreshSidebarView: [{ language: "en", paused: { ...paused, continueNow: true } }],
      refreshFromSidebar: [piece(100, true)],
    });
    await expect
      .poll(async () => (await calls(resumed)).filter((c) => c.name === "refreshFromSidebar"))
      .toEqual([{ name: "refreshFromSidebar", args: ["transactions"] }]);
    await resumed.close();
  });

  it("with several companies, shows each one's last refresh and status, refreshing while it runs", async () => {
    const company = (key: string, name: string, status: string, statusText: string, fresh: string[]) => ({
      key,
      name,
      status,
      statusText,
      fresh,
    });
    const answers = {
      getRefreshSidebarView: [
        {
          language: "en",
          paused: null,
          fresh: ["Funds: refreshed 2026-01-10 08:00 by ana@example.com."],
          companies: [
            company("c0", "Alpha", "ready", "Ready to refresh with your token.", [
              "Funds: refreshed 2026-01-10 08:00 by ana@example.com.",
            ]),
            company("cbeta", `Beta ${HOSTILE}`, "noToken", "Not refreshed by you: no access token.", [
              "Not refreshed yet.",
            ]),
          ],
        },
        {
          language: "en",
          paused: null,
          fresh: ["Funds: refreshed 2026-01-10 09:30 by ana@example.com."],
          companies: [
            company("c0", "Alpha", "ready", "Ready to refresh with your token.", [
              "Funds: refreshed 2026-01-10 09:30 by ana@example.com.",
            ]),
            company("cbeta", `Beta ${HOSTILE}`, "noToken", "Not refreshed by you: no access token.", [
              "Not refreshed yet.",
            ]),
          ],
        },
      ],
      refreshFromSidebar: {
        ok: true,
        finished: true,
        records: 3,
        calls: 1,
        seconds: 0.2,
        refreshed: ["funds"],
        message: "Beta was not refreshed: no access token.",
      },
    };
    const page = await sidebar.open(answers, { delays: { refreshFromSidebar: 300 }, listsInTurn: true });
    const sections = () =>
      page
        .locator("#refresh-companies section")
        .evaluateAll((all) =>
          all.map((s) => [
            s.querySelector("h2")?.textContent,
            s.querySelector("p")?.textContent,
            [...s.querySelectorAll("li")].map((li) => li.textContent),
          ]),
        );
    expect(await sections()).toEqual([
      [
        "Alpha",
        "Ready to refresh with your token.",
        ["Funds: refreshed 2026-01-10 08:00 by ana@example.com."],
      ],
      [`Beta ${HOSTILE}`, "Not refreshed by you: no access token.", ["Not refreshed yet."]],
    ]);
    // The first company's lines are in its own section, not twice.
    expect(await page.locator("#refresh-fresh").isHidden()).toBe(true);
    expect(await page.locator("#refresh-companies img").count()).toBe(0);
    await page.getByRole("button", { name: "Refresh funds", exact: true }).click();
    await expect
      .poll(() => page.locator("#refresh-companies .company-status").allTextContents())
      .toEqual(["Refreshing…", "Not refreshed by you: no access token."]);
    await expect
      .poll(async () => (await sections())[0])
      .toEqual([
        "Alpha",
        "Ready to refresh with your token.",
        ["Funds: refreshed 2026-01-10 09:30 by ana@example.com."],
      ]);
    await screenshot(page, "refresh-sidebar-companies");
    await page.close();
  });

  it("with several companies, draws each company's sheets done between the pieces of a long refresh", async () => {
    const alpha = (fresh: string[]) => ({
      key: "c0",
      name: "Alpha",
      status: "ready",
      statusText: "Ready to refresh with your token.",
      fresh,
    });
    const beta = (fresh: string[]) => ({ ...alpha(fresh), key: "cbeta", name: "Beta" });
    const view = (a: string[], b: string[]) => ({
      language: "en",
      paused: null,
      fresh: [],
      companies: [alpha(a), beta(b)],
    });
    const page = await openPieces(
      {
        getRefreshSidebarView: [
          view(["Not refreshed yet."], ["Not refreshed yet."]),
          view(["Funds: refreshed 2026-01-10 09:30 by ana@example.com."], ["Not refreshed yet."]),
          view(
            ["Funds: refreshed 2026-01-10 09:30 by ana@example.com."],
            ["Funds: refreshed 2026-01-10 09:31 by ana@example.com."],
          ),
        ],
        refreshFromSidebar: [piece(50), piece(100, true)],
      },
      // Each piece long enough for a poll to see the state between them on a loaded machine.
      2_000,
    );
    const lines = () =>
      page
        .locator("#refresh-companies section")
        .evaluateAll((all) => all.map((s) => s.querySelector("li")?.textContent));
    await page.getByRole("button", { name: "Refresh all" }).click();
    // After the first piece: Alpha's funds done, both still refreshing.
    await expect
      .poll(lines)
      .toEqual(["Funds: refreshed 2026-01-10 09:30 by ana@example.com.", "Not refreshed yet."]);
    expect(await page.locator("#refresh-companies .company-status").allTextContents()).toEqual([
      "Refreshing…",
      "Refreshing…",
    ]);
    await expect
      .poll(lines)
      .toEqual([
        "Funds: refreshed 2026-01-10 09:30 by ana@example.com.",
        "Funds: refreshed 2026-01-10 09:31 by ana@example.com.",
      ]);
    await expect
      .poll(() => page.locator("#refresh-companies .company-status").allTextContents())
      .toEqual(["Ready to refresh with your token.", "Ready to refresh with your token."]);
    await page.close();
  });
});
