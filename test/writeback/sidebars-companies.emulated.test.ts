/**
 * The Fund and Report sidebars of the BUILT add-on with two companies, against a sandbox serving
 * both on one URL (each company's funds start at 5001, its reports at 100001): the sidebar acts
 * on the selected row's company, read and written with that company's token only; a row whose
 * Company and Company key disagree is refused, nothing sent; a company this user has no token
 * for says so.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../dev/emulator/index";
import { FakeProperties } from "../../dev/emulator/properties";
import { storeCompanies } from "../../dev/emulator/settings";
import type { RunningSandbox } from "../../dev/sandbox/index";
import type { FundSidebarView } from "../../src/app/fund-sidebar";
import type { ReportFormResult, ReportSidebarView } from "../../src/app/report-sidebar";
import type { FormOutcome } from "../../src/outbox/forms";
import { createSettingsStore } from "../../src/settings/store";
import { closeAll } from "../support/emulation";
import { companyControl, startTwoCompanies } from "../support/two-companies";
import type { SandboxFund } from "./harness";

const USER = "ana@example.com";
const SIZES = { seed: 11, funds: 8, reports: 12 };
let sandbox: RunningSandbox;
let em: Emulator;
let keys: string[];
let requests = 0;

const sandboxGet = <T = unknown>(path: string, company: "Alpha" | "Beta", body?: unknown) =>
  companyControl<T>(sandbox, path, company, body);

type Ledger = { funds: SandboxFund[]; reports: { id: number; reportNumber: string; title: string }[] };
const ledger = (company: "Alpha" | "Beta") => sandboxGet<Ledger>("state", company);
const fundOf = async (company: "Alpha" | "Beta", id: number) =>
  (await ledger(company)).funds.find((f) => f.id === id) as SandboxFund;

function run<T>(name: string, ...args: unknown[]): T {
  const out = em.tryRun(name, args, { as: "script.run" });
  if (!out.ok) throw new Error(`${name} failed: ${out.error}`);
  return out.result as T;
}

const HEADER = ["Id", "Company", "Company key", "Title", "Balance"];

/** The Funds sheet with fund 5001 of each company, and a third row whose name and key disagree. */
function fundsSheet(): void {
  if (!em.spreadsheet.sheetByName("Funds")) em.spreadsheet.addSheet("Funds");
  em.typeCells("Funds", "A1:E4", [
    HEADER,
    [5001, "Alpha", keys[0], "A's fund", 1],
    [5001, "Beta", keys[1], "B's fund", 2],
    [5001, "Alpha", keys[1], "forged", 3],
  ]);
}

beforeAll(async () => {
  ({ sandbox, em } = await startTwoCompanies([USER], SIZES));
}, 240_000);

afterAll(() => closeAll(em, sandbox));

beforeEach(async () => {
  await sandboxGet("reset", "Alpha", SIZES);
  // Beta's seed follows Alpha's, as at the start: the same Ids, other data.
  await sandboxGet("reset", "Beta", { ...SIZES, seed: SIZES.seed + 1 });
  em.resetState();
  const [alpha, beta] = sandbox.companies;
  if (!alpha || !beta) throw new Error("the sandbox serves one company");
  keys = storeCompanies(em, [
    { name: "Alpha", apiUrl: sandbox.url, token: alpha.token, adminId: alpha.adminId },
    { name: "Beta", apiUrl: sandbox.url, token: beta.token, adminId: beta.adminId },
  ]);
  fundsSheet();
});

describe("Fund sidebar with two companies", () => {
  it("on a row of each company: that company's fund 5001, its name and the picker's companies", async () => {
    const [a, b] = [await fundOf("Alpha", 5001), await fundOf("Beta", 5001)];
    // The sandbox's companies differ: the same Id is another fund.
    expect(a.title).not.toBe(b.title);
    em.select("Funds", "B2");
    const alphaView = run<FundSidebarView>("getFundSidebarView");
    expect(alphaView.error).toBe("");
    expect(alphaView.company).toEqual({ key: keys[0], name: "Alpha" });
    expect(alphaView.fund?.title).toBe(a.title);
    expect(alphaView.companies.map((c) => c.name)).toEqual(["Alpha", "Beta"]);
    em.select("Funds", "C3");
    const betaView = run<FundSidebarView>("getFundSidebarView");
    expect(betaView.error).toBe("");
    expect(betaView.company).toEqual({ key: keys[1], name: "Beta" });
    expect(betaView.fund?.title).toBe(b.title);
    expect(betaView.fund?.employeeId).toBe(b.assignedTo);
  });

  it("a deposit from Beta's row lands in Beta's ledger only, and only Beta's row is updated", async () => {
    const alphaBefore = JSON.stringify(await ledger("Alpha"));
    const before = await fundOf("Beta", 5001);
    em.select("Funds", "A3");
    run<FundSidebarView>("getFundSidebarView");
    const outcome = run<FormOutcome>("depositToFund", {
      requestId: `deposit-${++requests}-abcdef`,
      fields: { Id: 5001, DepositAmount: "12.34" },
      company: keys[1],
    });
    expect(outcome).toMatchObject({ kind: "done" });
    const after = await fundOf("Beta", 5001);
    expect(after.balanceCents - before.balanceCents).toBe(1234);
    expect(JSON.stringify(await ledger("Alpha"))).toBe(alphaBefore);
    const values = em.spreadsheet.sheetByName("Funds");
    expect(values?.cell(2, 5)?.value).toBe(1);
    expect(values?.cell(3, 5)?.value).toBe(after.balanceCents / 100);
    // The write's record names Beta (the Outbox holds only Beta's fund 5001 with it).
    const records = [...em.documentPropertiesData.values.entries()].filter(([k]) =>
      k.startsWith("outbox.record."),
    );
    expect(records.map(([, v]) => JSON.parse(v).company)).toEqual([keys[1]]);
  });

  it("a form naming another company than the one shown for the fund is refused; nothing moves", async () => {
    em.select("Funds", "A3");
    run<FundSidebarView>("getFundSidebarView");
    const [alpha, beta] = [JSON.stringify(await ledger("Alpha")), JSON.stringify(await ledger("Beta"))];
    const asAlpha = run<FormOutcome>("depositToFund", {
      requestId: `deposit-${++requests}-abcdef`,
      fields: { Id: 5001, DepositAmount: "5" },
      company: keys[0],
    });
    expect(asAlpha).toEqual({
      kind: "refused",
      message:
        "Fund 5001 of Alpha is not the fund this sidebar showed last: load it again, then send. Nothing was sent.",
    });
    const none = run<FormOutcome>("depositToFund", {
      requestId: `deposit-${++requests}-abcdef`,
      fields: { Id: 5001, DepositAmount: "5" },
    });
    expect(none).toMatchObject({ kind: "refused", message: /^Fund 5001: pick its company \(Alpha, Beta\)/ });
    expect(JSON.stringify(await ledger("Alpha"))).toBe(alpha);
    expect(JSON.stringify(await ledger("Beta"))).toBe(beta);
  });

  it("a row whose Company does not match its Company key is refused, naming the row and both cells; nothing is read", () => {
    em.resetCounters();
    em.select("Funds", "A4");
    const view = run<FundSidebarView>("getFundSidebarView");
    expect(view.error).toBe(
      `Row 4: the Company "Alpha" does not match its Company key "${keys[1]}", which is the company "Beta"; nothing is done with it. Put the two cells back as a refresh wrote them.`,
    );
    expect(view.fund).toBeNull();
    expect(view.company).toBeNull();
    expect(em.counters.urlFetchTotal).toBe(0);
  });

  it("an Id typed in: read in the company picked, and with none picked the user is asked to pick", async () => {
    const b = await fundOf("Beta", 5002);
    const picked = run<FundSidebarView>("getFundSidebarView", { fundId: "5002", company: keys[1] });
    expect(picked.fund?.title).toBe(b.title);
    expect(picked.company?.name).toBe("Beta");
    em.resetCounters();
    const unpicked = run<FundSidebarView>("getFundSidebarView", { fundId: "5002" });
    expect(unpicked.fund).toBeNull();
    expect(unpicked.error).toMatch(/^Fund 5002: pick its company \(Alpha, Beta\)/);
    expect(em.counters.urlFetchTotal).toBe(0);
  });

  it("a company this user has no token for says so, and nothing is sent", () => {
    const store = createSettingsStore({
      document: new FakeProperties(em.documentPropertiesData),
      user: new FakeProperties(em.userPropertiesOf(USER)),
    });
    store.removeCompanyToken(keys[1] as string);
    em.resetCounters();
    em.select("Funds", "A3");
    const view = run<FundSidebarView>("getFundSidebarView");
    expect(view.fund).toBeNull();
    expect(view.error).toMatch(/^No access token is saved for you for Beta/);
    expect(em.counters.urlFetchTotal).toBe(0);
  });
});

describe("Report sidebar with two companies", () => {
  /** The Expense reports sheet with report 100001 of each company. */
  async function reportsSheet(): Promise<{
    alpha: Ledger["reports"][number];
    beta: Ledger["reports"][number];
  }> {
    const alpha = (await ledger("Alpha")).reports[0] as Ledger["reports"][number];
    const beta = (await ledger("Beta")).reports.find((r) => r.id === alpha.id) as Ledger["reports"][number];
    if (!em.spreadsheet.sheetByName("Expense reports")) em.spreadsheet.addSheet("Expense reports");
    em.typeCells("Expense reports", "A1:D4", [
      ["Id", "Company", "Company key", "Report number"],
      [alpha.id, "Alpha", keys[0], alpha.reportNumber],
      [beta.id, "Beta", keys[1], beta.reportNumber],
      [beta.id, "Beta", keys[0], beta.reportNumber],
    ]);
    return { alpha, beta };
  }

  it("each row read from its own company; a mismatched row refused, naming the row", async () => {
    const { alpha, beta } = await reportsSheet();
    em.select("Expense reports", "A2:A4");
    const view = run<ReportSidebarView>("getReportSidebarView");
    expect(view.reports.map((r) => [r.id, r.check, r.company, r.title])).toEqual([
      [alpha.id, "read", keys[0], alpha.title],
      [beta.id, "read", keys[1], beta.title],
      [beta.id, "refused", undefined, undefined],
    ]);
    expect(view.reports[2]?.message).toMatch(
      /^Row 4: the Company "Beta" does not match its Company key "c0"/,
    );
  });

  it("a mark goes to the company of the row it was shown for, never to the other's same Id", async () => {
    const { alpha, beta } = await reportsSheet();
    em.select("Expense reports", "A3");
    run<ReportSidebarView>("getReportSidebarView");
    const alphaBefore = JSON.stringify(await ledger("Alpha"));
    const result = run<ReportFormResult>("setReportsCustomStatus", {
      requestId: `mark-${++requests}-abcdef`,
      fields: { CustomStatus: "Pagado", CustomMessage: "" },
      reports: [{ id: beta.id, company: keys[1], reportNumber: beta.reportNumber }],
    });
    expect(result.results.map((r) => r.outcome.kind)).toEqual(["done"]);
    const marked = (await ledger("Beta")).reports.find((r) => r.id === beta.id) as Record<string, unknown>;
    expect(marked.customStatus).toBe("Pagado");
    expect(JSON.stringify(await ledger("Alpha"))).toBe(alphaBefore);
    // Alpha's same Id was not shown: refused, nothing sent.
    const refused = run<ReportFormResult>("setReportsCustomStatus", {
      requestId: `mark-${++requests}-abcdef`,
      fields: { CustomStatus: "Pagado", CustomMessage: "" },
      reports: [{ id: alpha.id, company: keys[0], reportNumber: alpha.reportNumber }],
    });
    expect(refused.results.map((r) => r.outcome.kind)).toEqual(["refused"]);
    expect(JSON.stringify(await ledger("Alpha"))).toBe(alphaBefore);
  });
});
