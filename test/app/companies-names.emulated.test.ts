/**
 * What a group treasurer reads with two companies, through the BUILT add-on against a sandbox
 * serving Alpha and Beta on one URL (both companies' funds start at 5001), two editors: Ana,
 * whose tokens are saved for both, and Luis, who has none. The Fund sidebar on a Beta row names
 * Beta's people from Beta's own reports; a refresh Luis cannot make says, for each company,
 * what to do.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../dev/emulator/index";
import { storeCompanies } from "../../dev/emulator/settings";
import type { RunningSandbox } from "../../dev/sandbox/index";
import type { FundSidebarView } from "../../src/app/fund-sidebar";
import { sheetOf } from "../refresh/emulation";
import { closeAll } from "../support/emulation";
import { startTwoCompanies } from "../support/two-companies";

const ANA = "ana@example.com";
const LUIS = "luis@example.com";
const SIZES = { seed: 11, funds: 6, reports: 30 };
const FORM = { windowMode: "range", windowFrom: "2023-07-01", windowTo: "2024-06-30" };
let sandbox: RunningSandbox;
let em: Emulator;
let keys: string[];

beforeAll(async () => {
  ({ sandbox, em } = await startTwoCompanies([ANA, LUIS], SIZES));
}, 240_000);

afterAll(() => closeAll(em, sandbox));

beforeEach(() => {
  em.resetState();
  const [alpha, beta] = sandbox.companies;
  if (!alpha || !beta) throw new Error("the sandbox serves one company");
  keys = storeCompanies(
    em,
    [
      { name: "Alpha", apiUrl: sandbox.url, token: alpha.token, adminId: alpha.adminId },
      { name: "Beta", apiUrl: sandbox.url, token: beta.token, adminId: beta.adminId },
    ],
    ANA,
  );
  const values = em.documentPropertiesData.values;
  values.set(
    "settings.form",
    JSON.stringify({ ...JSON.parse(values.get("settings.form") ?? "{}"), ...FORM }),
  );
});

function menu(name: string, user: string) {
  em.answers.length = 0;
  em.answers.push("OK", "OK", "OK");
  const out = em.tryRun(name, [], { as: "menu", user });
  expect(out.ok, String(out.ok ? "" : out.error)).toBe(true);
}

describe("two companies, two editors", () => {
  it("the Fund sidebar on a Beta row names Beta's people from Beta's own reports, not bare ids", () => {
    menu("refreshReports", ANA);
    menu("refreshFunds", ANA);
    const funds = sheetOf(em, "Funds");
    if (!funds) throw new Error("no Funds sheet");
    const keyAt = funds.header.indexOf("Company key");
    const row = funds.values.findIndex((r, i) => i > 0 && r[keyAt] === keys[1]);
    expect(row).toBeGreaterThan(0);
    em.select("Funds", `A${row + 1}`);
    const view = em.tryRun("getFundSidebarView", [], { as: "script.run", user: ANA });
    if (!view.ok) throw new Error(String(view.error));
    const shown = view.result as FundSidebarView;
    expect(shown.company?.name).toBe("Beta");
    const named = shown.employees.filter((e) => e.name !== "");
    expect(named.length).toBeGreaterThan(0);
    // Beta's people only (its user ids from 2001), each named as Beta's reports name them.
    expect(shown.employees.every((e) => e.id > 2000 && e.id < 3000)).toBe(true);
    const reports = sheetOf(em, "Expense reports");
    if (!reports) throw new Error("no Expense reports sheet");
    const [rk, ri, rn] = ["Company key", "Employee id", "Employee"].map((h) => reports.header.indexOf(h));
    const betaNames = new Map(
      reports.values
        .slice(1)
        .flatMap((r) => (r[rk as number] === keys[1] ? [[r[ri as number], r[rn as number]]] : [])),
    );
    for (const e of named) expect(betaNames.get(e.id)).toBe(e.name);
  });

  it("a refresh Luis cannot make names each company and what to do, one sentence each", () => {
    menu("refreshFunds", LUIS);
    const message = em.ui.dialogs.at(-1)?.prompt ?? "";
    expect(message).toContain("enter your token for Alpha in Settings → Connection.");
    expect(message).toContain("enter your token for Beta in Settings → Connection.");
    expect(message).not.toContain(".;");
  });
});
