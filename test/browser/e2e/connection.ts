/**
 * The connection, through the page, where it now lives: the menu's "Connection…" opens the
 * settings sidebar on its Connection section. The connection test, a validation error with
 * nothing stored, saving (happy path), a token the service refuses, and a second user whose own
 * token, removed, leaves the first user's.
 */
import { expect, it } from "vitest";
import { screenshot } from "../browser";
import { until } from "../until";
import type { E2eContext } from "./context";
import { sidebarQuality } from "./sidebar-quality";

interface Properties {
  user: Record<string, Record<string, string>>;
  document: Record<string, string>;
}

export function connectionSuite(ctx: () => E2eContext): void {
  const frame = () => ctx().playground.sidebar();
  const status = () => frame().locator("#connection-status");
  /** The id of the element that has the focus in the sidebar's page. */
  const focused = () =>
    frame()
      .locator("body")
      .evaluate(() => document.activeElement?.id ?? "");

  async function open(): Promise<void> {
    await ctx().playground.menu("showConnectionSidebar");
    await frame().locator("#settings-form").waitFor();
  }

  it("“Connection…” opens Settings on its Connection section, fits 300 px; the connection test passes", async () => {
    const { playground, stack } = ctx();
    await ctx().fresh();
    await open();
    expect(await playground.sidebarTitle()).toMatch(/Settings/);
    // The section is there, and the page opened on it: its service URL field has the focus.
    await until(async () => expect(await frame().locator(":focus").getAttribute("id")).toBe("f-baseUrl"));
    expect(await frame().locator("fieldset#connection legend").textContent()).toBe("Connection");
    await sidebarQuality(ctx().page);
    await screenshot(ctx().page, "sidebar-connection");
    const funds = await stack.sandbox<{ Records: { TotalRecords: number } }>("/v1/getFunds?ResultsPerPage=1");
    await playground.afterRun(() => frame().locator("#settings-test").click());
    // Connected, with the number of funds the service holds (wording aside).
    expect(await status().textContent()).toMatch(
      new RegExp(`^Connected\\b.*\\b${funds.Records.TotalRecords} fund`),
    );
    expect(await status().getAttribute("class")).toContain("ok");
  });

  it("says the sandbox's local URL is on this computer instead of a red allowlist warning; an empty Results per page is explained", async () => {
    await open();
    const host = frame().locator("#f-baseUrl-host");
    const warning = frame().locator("#f-baseUrl-allowlist");
    // The playground's service is on 127.0.0.1: a deployed add-on never reaches it, the
    // emulation does (as a test deployment listing it); a refusal in red would be untrue here.
    expect(await host.textContent()).toMatch(
      /^Requests go to host 127\.0\.0\.1:\d+\. This computer: only a local emulation of Apps Script reaches it/,
    );
    expect(await warning.isVisible()).toBe(false);
    // A real host outside the manifest's allowlist still gets the warning, and no local note.
    const url = frame().locator("#f-baseUrl");
    const sandboxUrl = await url.inputValue();
    await url.fill("https://eu.example.com/v1");
    expect(await host.textContent()).toBe("Requests go to host eu.example.com.");
    expect(await warning.isVisible()).toBe(true);
    await url.fill(sandboxUrl);
    expect(await warning.isVisible()).toBe(false);
    expect(await frame().locator("#f-pageSize-hint").textContent()).toBe(
      "Empty: the largest page the service accepts (up to 1000), found once.",
    );
  });

  it("shows a validation error for an administrator id that is not a number and stores nothing", async () => {
    const { playground, stack } = ctx();
    const before = await stack.control<Properties>("/control/properties");
    await frame().locator("#f-adminId").fill("abc");
    await playground.afterRun(() => frame().locator("#settings-save").click());
    await until(async () => expect(await frame().locator("#f-adminId-problem").textContent()).not.toBe(""));
    expect(await frame().locator("#f-adminId").getAttribute("aria-invalid")).toBe("true");
    expect(await stack.control<Properties>("/control/properties")).toEqual(before);
  });

  it("saves a new administrator id (happy path)", async () => {
    const { playground, stack } = ctx();
    await frame().locator("#f-adminId").fill(String(stack.managerId));
    await playground.afterRun(() => frame().locator("#settings-save").click());
    await until(async () =>
      expect(await frame().locator("#settings-feedback").textContent()).toBe("Settings saved."),
    );
    const stored = await stack.control<Properties>("/control/properties");
    expect(JSON.stringify(stored.document)).toContain(String(stack.managerId));
    // The token never shows in the sidebar, only its last characters.
    expect(await frame().locator("body").textContent()).not.toContain(stack.token);
  });

  it("reports a token the service refuses", async () => {
    const { playground } = ctx();
    await frame().locator("#f-token").fill("not-the-right-token-1234");
    await playground.afterRun(() => frame().locator("#settings-save").click());
    await until(async () =>
      expect(await frame().locator("#settings-feedback").textContent()).toBe("Settings saved."),
    );
    await playground.afterRun(() => frame().locator("#settings-test").click());
    expect(await status().textContent()).toMatch(/^The service refused the access token \(HTTP 401\)/);
    expect(await status().getAttribute("class")).toContain("error");
    await screenshot(ctx().page, "sidebar-connection-refused");
  });

  it("the other demo user has a token of their own: removing it leaves the first user's", async () => {
    const { playground, page } = ctx();
    await page.locator('[data-testid="acting-user"]').selectOption("accountant@example.com");
    await open();
    // Both demo users have their tokens (as a second treasurer of the document would).
    await until(async () =>
      expect(await frame().locator("#token-status").textContent()).toMatch(/saved for you/),
    );
    await playground.afterRun(() => frame().locator("#token-remove").click());
    await until(async () =>
      expect(await frame().locator("#token-status").textContent()).toMatch(/No token saved/),
    );
    await open();
    // No token saved: the page opens on the token field.
    await until(async () => expect(await focused()).toBe("f-token"));
    await page.locator('[data-testid="acting-user"]').selectOption("treasurer@example.com");
    await open();
    await until(async () =>
      expect(await frame().locator("#token-status").textContent()).toMatch(/saved for you/),
    );
    expect(await playground.status()).not.toMatch(/failed/);
  });

  it("tells a refresh's failure from the menu wholly in the document's language: an error inside a 200, a user without a token", async () => {
    const { playground, page } = ctx();
    await open();
    await frame().locator("#f-language").selectOption("es");
    await playground.afterRun(() => frame().locator("#settings-save").click());
    await until(async () =>
      expect(await frame().locator("#settings-feedback").textContent()).toBe("Configuración guardada."),
    );
    await page.locator('[data-testid="fault-preset"]').selectOption("error-in-200");
    await page.locator('[data-testid="fault-apply"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "Error inside" }).waitFor();
    const before = await playground.runsFinished();
    await playground.clickMenu("refreshReports");
    // Sheets' own button speaks the user's language too.
    await page.locator('[data-testid="alert-button-OK"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid="alert-button-OK"]').textContent()).toBe("Aceptar");
    const { message: refused } = await playground.answer("OK");
    await playground.waitForRunsAfter(before);
    // The service's own words stay as they came; every word of the add-on's is Spanish. A read
    // has no values to check: try again later. The company is marked, so the refresh's first call
    // is the account check's read of its oldest funds (getFunds), which meets the fault first.
    expect(refused).toMatch(
      /^El servicio respondió con un error\. Las hojas conservan sus datos anteriores\. Intente de nuevo más tarde\.\n\nDetalles: getFunds: el servicio respondió HTTP 200: request: getFunds refused by an injected error-in-200 fault$/,
    );
    await page.locator('[data-testid="fault-clear"]').click();
    await page.locator('[data-testid="fault-active"]', { hasText: "none" }).waitFor();
    // A user without a token: the accountant's own, for every company, removed (the demo gives
    // each user theirs).
    const asAccountant = <T>(fn: string, ...args: unknown[]) =>
      ctx().stack.control<{ ok: boolean; result: T }>("/control/run", {
        function: fn,
        args,
        user: "accountant@example.com",
      });
    expect((await asAccountant("removeMyToken")).ok).toBe(true);
    const view = await asAccountant<{ companies?: { entries: { key: string }[] } }>("getSettingsView");
    for (const { key } of view.result.companies?.entries ?? [])
      expect((await asAccountant("removeMyCompanyToken", key)).ok).toBe(true);
    await page.locator('[data-testid="acting-user"]').selectOption("accountant@example.com");
    const messages = await playground.menuAnswering("refreshFunds", ["OK"]);
    expect(messages).toEqual([
      "La actualización falló y las hojas quedaron como estaban: No hay un token de acceso guardado para usted: ingréselo en Configuración.",
    ]);
    await page.locator('[data-testid="acting-user"]').selectOption("treasurer@example.com");
    await ctx().fresh();
  });
}
