/**
 * The settings sidebar's Companies in Chromium at the sidebar's 300 px, google.script.run
 * answered by a scripted fake: with two companies or more, the Connection section lists each
 * company (name, host, this user's status: ready, read only, needs confirmation, no token) with
 * its own token and IdAdmin fields instead of the document-wide URL, token and IdAdmin; the
 * owner's confirmation sends the company as shown; a change refused as stale shows the list as
 * it is now with the message; with one company the section is today's, plus "Add a company",
 * which asks the first company's name. English and Spanish.
 */

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { CompanyStatus } from "../../src/settings/store";
import type { CompaniesResult, SettingsView } from "../../src/settings/view";
import { scriptRunCalls as calls, loadSidebar } from "../support/sidebar-page";
import { settingsSidebarInBrowser } from "./html";
import { settingsForm, settingsView } from "./view";

const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const URL_A = "https://api.rindegastos.com/v1";
const URL_B = "https://beta.example.com/v1";

function company(patch: Partial<CompanyStatus> & Pick<CompanyStatus, "key" | "name">): CompanyStatus {
  return {
    apiUrl: URL_A,
    host: "api.rindegastos.com",
    removed: false,
    status: "ready",
    writeStatus: "ready",
    last4: "9f3a",
    boundHost: "api.rindegastos.com",
    adminId: 7,
    confirm: null,
    message: `Your token for ${patch.name} is sent only to host api.rindegastos.com.`,
    ...patch,
  };
}

const ALPHA = company({ key: "c0", name: "Alpha" });
const BETA = company({
  key: "c1a2b3c4d",
  name: "Beta SA",
  apiUrl: URL_B,
  host: "beta.example.com",
  status: "renamed",
  writeStatus: "renamed",
  confirm: { name: "Beta SA", apiUrl: URL_B },
  message:
    "Beta was renamed Beta SA by another editor: confirm it in Settings to use your token for it (host beta.example.com).",
});
const GAMMA = company({
  key: "c9z8y7x6w",
  name: HOSTILE,
  apiUrl: "https://gamma.example.com/v1",
  host: "gamma.example.com",
  status: "noToken",
  writeStatus: "noToken",
  last4: "",
  boundHost: "",
  adminId: null,
  message: "No access token is saved for you for Gamma (host gamma.example.com).",
});
const DELTA = company({
  key: "c5d5d5d5d",
  name: "Delta",
  writeStatus: "noAdminId",
  adminId: null,
});

function view(patch: Partial<SettingsView> = {}): SettingsView {
  return settingsView({
    form: settingsForm({ baseUrl: URL_A }),
    companies: { rev: 4, several: true, max: 10, entries: [ALPHA, BETA, GAMMA, DELTA] },
    ...patch,
  });
}

const ONE_COMPANY = view({
  companies: { rev: 0, several: false, max: 10, entries: [company({ key: "c0", name: "" })] },
});

describe("settings sidebar: Companies", () => {
  const opened = settingsSidebarInBrowser();

  async function page(answers: Record<string, unknown>): Promise<Page> {
    const p = await opened.browser.context.newPage();
    await p.setViewportSize({ width: 300, height: 800 });
    await loadSidebar(p, opened.html, answers, { failureKey: "error" });
    return p;
  }

  const cards = (p: Page) =>
    p.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>("#connection .company")).map((card) => ({
        key: card.dataset.key,
        name: card.querySelector(".company-name")?.textContent,
        host: card.querySelector(".company-host")?.textContent,
        badge: card.querySelector(".company-badge")?.textContent,
        confirm: card.querySelector(".company-confirm")?.textContent ?? null,
      })),
    );

  it("lists each company with its host and this user's status, at 300 px, names shown as text", async () => {
    const p = await page({ getSettingsView: view() });
    expect(await cards(p)).toEqual([
      {
        key: "c0",
        name: "Alpha",
        host: "Host api.rindegastos.com",
        badge: "Ready: you can refresh and write",
        confirm: null,
      },
      {
        key: BETA.key,
        name: "Beta SA",
        host: "Host beta.example.com",
        badge: "Needs your confirmation",
        confirm: "Use my token for Beta SA (beta.example.com)",
      },
      {
        key: GAMMA.key,
        name: HOSTILE,
        host: "Host gamma.example.com",
        badge: "No token saved for you",
        confirm: null,
      },
      {
        key: DELTA.key,
        name: "Delta",
        host: "Host api.rindegastos.com",
        badge: "You can refresh; no IdAdmin saved to write",
        confirm: null,
      },
    ]);
    expect(await p.locator(".company").nth(1).locator(".company-message").textContent()).toBe(BETA.message);
    expect(await p.locator("#companies-count").textContent()).toBe("4 of at most 10 companies.");
    // The document-wide URL, IdAdmin and token give way to each company's own.
    for (const id of ["#f-baseUrl", "#f-adminId", "#f-token", "#settings-test"])
      expect(await p.locator(id).count(), id).toBe(0);
    expect(await p.locator(".company").first().locator(".company-adminId").inputValue()).toBe("7");
    // Every field labelled; nothing wider than the sidebar; the hostile name stays text.
    const unlabeled = await p.evaluate(() =>
      Array.from(document.querySelectorAll("#companies input, #companies select"))
        .filter((c) => !c.id || !document.querySelector(`label[for="${c.id}"]`))
        .map((c) => c.outerHTML),
    );
    expect(unlabeled).toEqual([]);
    for (const open of await p.locator("#companies details").all()) await open.locator("summary").click();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(300);
    expect(await p.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await p.close();
  });

  it("the owner's confirmation sends the company as shown, and the answer's list replaces the page", async () => {
    const confirmed: CompaniesResult = {
      ok: true,
      message: "Your token is now used for Beta SA (host beta.example.com).",
      view: view({
        companies: {
          rev: 4,
          several: true,
          max: 10,
          entries: [ALPHA, { ...BETA, status: "ready", writeStatus: "ready", confirm: null }, GAMMA],
        },
      }),
    };
    const p = await page({ getSettingsView: view(), confirmMyCompanyToken: confirmed });
    await p.locator(".company-confirm").click();
    await expect.poll(async () => (await cards(p))[1]?.badge).toBe("Ready: you can refresh and write");
    expect((await calls(p)).find((c) => c.name === "confirmMyCompanyToken")?.args).toEqual([
      BETA.key,
      { name: "Beta SA", apiUrl: URL_B },
    ]);
    expect(await p.locator("#companies-feedback").textContent()).toBe(confirmed.message);
    await p.close();
  });

  it("a token is saved for its company with its IdAdmin and the company as shown", async () => {
    const p = await page({
      getSettingsView: view(),
      saveMyCompanyToken: { ok: true, message: "Your token for Gamma was saved.", view: view() },
    });
    const gamma = p.locator(".company").nth(2);
    await gamma.locator(".company-token").fill("tok-gamma-123456");
    await gamma.locator(".company-adminId").fill("1007");
    await gamma.locator(".company-save").click();
    await expect.poll(async () => (await calls(p)).some((c) => c.name === "saveMyCompanyToken")).toBe(true);
    expect((await calls(p)).find((c) => c.name === "saveMyCompanyToken")?.args).toEqual([
      GAMMA.key,
      "tok-gamma-123456",
      "1007",
      { name: HOSTILE, apiUrl: GAMMA.apiUrl },
    ]);
    // The settings form was not saved along.
    expect((await calls(p)).some((c) => c.name === "saveSettings")).toBe(false);
    await p.close();
  });

  it("a rename refused as stale shows the list as it is now and the message", async () => {
    const now = view({
      companies: { rev: 5, several: true, max: 10, entries: [{ ...ALPHA, name: "Alpha Ltda" }, BETA] },
    });
    const stale: CompaniesResult = {
      ok: false,
      problems: [
        {
          field: "rev",
          message:
            "The list of companies changed since it was shown (another editor saved it): reload it and try again. Nothing was saved.",
        },
      ],
      view: now,
    };
    const p = await page({ getSettingsView: view(), saveCompanies: stale });
    const alpha = p.locator(".company").first();
    await alpha.locator("summary").click();
    await alpha.locator(".company-new-name").fill("Alpha SA");
    await alpha.locator(".company-rename").click();
    await expect.poll(async () => (await cards(p)).map((c) => c.name)).toEqual(["Alpha Ltda", "Beta SA"]);
    expect((await calls(p)).find((c) => c.name === "saveCompanies")?.args).toEqual([
      { kind: "rename", rev: 4, key: "c0", name: "Alpha SA" },
    ]);
    expect(await p.locator("#companies-feedback").textContent()).toContain("The list of companies changed");
    expect(await p.locator("#companies-feedback").getAttribute("class")).toContain("error");
    await p.close();
  });

  it("removing a company asks what to do with its rows", async () => {
    const p = await page({ getSettingsView: view(), saveCompanies: { ok: true, message: "", view: view() } });
    const beta = p.locator(".company").nth(1);
    await beta.locator("summary").click();
    await beta.locator(".company-remove-rows").selectOption("remove");
    await beta.locator(".company-remove").click();
    await expect.poll(async () => (await calls(p)).some((c) => c.name === "saveCompanies")).toBe(true);
    expect((await calls(p)).find((c) => c.name === "saveCompanies")?.args).toEqual([
      { kind: "remove", rev: 4, key: BETA.key, rows: "remove" },
    ]);
    await p.close();
  });

  it("with one company, the Connection section is today's, with Add a company asking the first one's name", async () => {
    const p = await page({
      getSettingsView: ONE_COMPANY,
      saveCompanies: { ok: true, message: "", view: view() },
    });
    for (const id of ["#f-baseUrl", "#f-adminId", "#f-token", "#settings-test"])
      expect(await p.locator(`#connection ${id}`).count(), id).toBe(1);
    expect(await p.locator(".company").count()).toBe(0);
    await p.locator("#company-add summary").click();
    expect(await p.locator('label[for="company-add-first"]').textContent()).toBe(
      "Name of the current company (host api.rindegastos.com)",
    );
    await p.locator("#company-add-first").fill("Alpha");
    await p.locator("#company-add-name").fill("Beta");
    await p.locator("#company-add-url").fill(URL_B);
    await p.locator("#company-add-url").press("Enter");
    await expect.poll(async () => (await cards(p)).length).toBe(4);
    const sent = (await calls(p)).filter((c) => c.name === "saveCompanies" || c.name === "saveSettings");
    expect(sent.map((c) => c.name)).toEqual(["saveCompanies"]);
    expect(sent[0]?.args).toEqual([{ kind: "add", rev: 0, name: "Beta", apiUrl: URL_B, firstName: "Alpha" }]);
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(300);
    await p.close();
  });

  it("speaks Spanish", async () => {
    const es = view({ language: "es", form: { ...view().form, language: "es" } });
    const p = await page({ getSettingsView: es });
    expect((await cards(p)).map((c) => c.badge)).toEqual([
      "Lista: puede actualizar y escribir",
      "Requiere su confirmación",
      "No hay un token guardado para usted",
      "Puede actualizar; no hay IdAdmin guardado para escribir",
    ]);
    expect(await p.locator(".companies-title").textContent()).toBe("Empresas");
    expect(await p.locator(".company-save").first().textContent()).toBe("Guardar mi token");
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(300);
    await p.close();
  });
});
