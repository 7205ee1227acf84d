/**
 * The settings sidebar through the page: test connection against the sandbox (and against
 * injected faults), a validation error shown with nothing stored, and the schedule: installed,
 * changed (still exactly one trigger), fired from the panel, seen in the history.
 */
import { expect, it } from "vitest";
import { screenshot } from "../browser";
import { until } from "../until";
import type { E2eContext } from "./context";
import { sidebarQuality } from "./sidebar-quality";

interface Logs {
  triggers: Array<{ handler: string; creator: string; eventType: string }>;
}
interface Properties {
  document: Record<string, string>;
}

export function settingsSuite(ctx: () => E2eContext): void {
  const feedback = () => ctx().playground.sidebar().locator("#settings-feedback");

  async function openSettings(): Promise<void> {
    const { playground } = ctx();
    await playground.menu("showSettingsSidebar");
    expect(await playground.sidebarTitle()).toMatch(/Settings/);
    await playground.sidebar().locator("#settings-form").waitFor();
  }

  it("opens from the menu, fits 300 px, labels every field and works with the keyboard", async () => {
    await ctx().fresh();
    await openSettings();
    await sidebarQuality(ctx().page);
    await screenshot(ctx().page, "sidebar-settings");
  });

  it("says that removing rows no longer returned deletes the notes written in them", async () => {
    const frame = ctx().playground.sidebar();
    const hint = frame.locator("#f-missingRows-hint");
    expect(await hint.textContent()).toMatch(/stays, greyed, with the reason/);
    await frame.locator("#f-missingRows").selectOption("remove");
    await until(async () => expect(await hint.textContent()).toMatch(/^Careful: .*with the notes/));
    await frame.locator("#f-missingRows").selectOption("keep");
  });

  it("tests the connection: connected, then the service down, then an error inside a 200", async () => {
    const { playground, stack, page } = ctx();
    const funds = await stack.sandbox<{ Records: { TotalRecords: number } }>("/v1/getFunds?ResultsPerPage=1");
    // The test and what it found are in the Connection section.
    const test = playground.sidebar().locator("#connection #settings-test");
    const connectionStatus = () => playground.sidebar().locator("#connection #connection-status");
    await playground.afterRun(() => test.click());
    expect(await connectionStatus().textContent()).toMatch(
      new RegExp(`^Connected\\b.*\\b${funds.Records.TotalRecords} fund`),
    );
    expect(await connectionStatus().getAttribute("class")).toContain("ok");

    await page.locator('[data-testid="fault-preset"]').selectOption("down");
    await page.locator('[data-testid="fault-apply"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "Service down" }).waitFor();
    await playground.afterRun(() => test.click());
    expect(await connectionStatus().textContent()).toMatch(/^The service is down or unreachable/);
    expect(await connectionStatus().getAttribute("class")).toContain("error");

    await page.locator('[data-testid="fault-preset"]').selectOption("error-in-200");
    await page.locator('[data-testid="fault-apply"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "Error inside" }).waitFor();
    await playground.afterRun(() => test.click());
    expect(await connectionStatus().textContent()).toMatch(
      /^The service reported an error inside a successful answer/,
    );
    await screenshot(page, "sidebar-settings-error");
    await page.locator('[data-testid="fault-clear"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "none" }).waitFor();
  });

  it("shows a validation error beside the field and stores nothing", async () => {
    const { playground, stack } = ctx();
    const before = (await stack.control<Properties>("/control/properties")).document;
    const frame = playground.sidebar();
    await frame.locator("#f-pageSize").fill("0");
    await playground.afterRun(() => frame.locator("#settings-save").click());
    await until(async () => expect(await frame.locator("#f-pageSize-problem").textContent()).not.toBe(""));
    expect(await frame.locator("#f-pageSize-problem").textContent()).toMatch(/Results per page/i);
    expect(await feedback().getAttribute("class")).toContain("error");
    expect((await stack.control<Properties>("/control/properties")).document).toEqual(before);
  });

  it("saves a change made in the form as it opened (happy path)", async () => {
    const { playground, stack } = ctx();
    await openSettings();
    const frame = playground.sidebar();
    await frame.locator("#f-pageSize").fill("50");
    await playground.afterRun(() => frame.locator("#settings-save").click());
    await until(async () => expect(await feedback().textContent()).toMatch(/saved/i));
    const stored = (await stack.control<Properties>("/control/properties")).document;
    expect(JSON.stringify(stored)).toMatch(/"pageSize\\?":\\?"50/);
  });

  it("installs a schedule, changes it with exactly one trigger left, fires it and lists the run", async () => {
    const { playground, stack, page } = ctx();
    const frame = playground.sidebar();
    await frame.locator("#f-schedule").selectOption("hours:4");
    await playground.afterRun(() => frame.locator("#schedule-apply").click());
    await until(async () => expect(await frame.locator("#schedule-feedback").textContent()).not.toBe(""));
    let triggers = (await stack.control<Logs>("/control/logs")).triggers;
    expect(triggers).toHaveLength(1);

    await frame.locator("#f-schedule").selectOption("daily");
    await frame.locator("#f-schedule-hour").selectOption("9");
    await playground.afterRun(() => frame.locator("#schedule-apply").click());
    triggers = (await stack.control<Logs>("/control/logs")).triggers;
    expect(triggers).toHaveLength(1);
    expect(triggers[0]?.creator).toBe("treasurer@example.com");
    expect(await frame.locator("#schedule-summary").textContent()).toMatch(/9/);

    await page.locator('[data-testid="fire-trigger"]').click();
    await page
      .locator('[data-testid="run-status"]', { hasText: "Scheduled trigger fired" })
      .waitFor({ timeout: 20_000 });
    // The sidebar shows the run once it is opened again.
    await openSettings();
    await until(async () => expect(await frame.locator("#history .run").count()).toBeGreaterThan(0));
    await frame.locator("#history").scrollIntoViewIfNeeded();
    await screenshot(page, "sidebar-settings-schedule");

    await frame.locator("#f-schedule").selectOption("off");
    await playground.afterRun(() => frame.locator("#schedule-apply").click());
    expect((await stack.control<Logs>("/control/logs")).triggers).toHaveLength(0);
  });
}
