/**
 * An interrupted write of Ana's on Beta is settled only by a read of the fund or report it was
 * sent to, whatever kind of write it was: through the BUILT add-on against a sandbox serving
 * Alpha and Beta on one URL (both companies' funds start at 5001, their reports at 100001),
 * with Luis, a co-editor whose Beta slot holds Alpha's token and IdAdmin (put straight into his
 * user properties, as a token saved before the account check was: nothing refuses it). His
 * Outbox run, or his Fund sidebar, reads Alpha's record of the same Id: it settles nothing, sends
 * nothing (neither to Alpha nor again to Beta), and says why; the write stays for a read of
 * Beta's own account (Ana's next run or opening) to settle.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { storeOf } from "../../dev/emulator/settings";
import type { FundSidebarView } from "../../src/app/fund-sidebar";
import type { ReportFormResult, ReportSidebarView } from "../../src/app/report-sidebar";
import type { FormOutcome } from "../../src/outbox/forms";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { settingsIssueText } from "../../src/settings/words";
import { ok, type SandboxFund, writeBackPerFile } from "./harness";

const LUIS = "luis@example.com";
const BETA_KEY = "cbeta0001";
const SIZES = { seed: 11, funds: 8, reports: 12 };
const wb = writeBackPerFile({ companies: 2, otherUsers: [LUIS] });

type Company = "Alpha" | "Beta";
type Report = {
  id: number;
  reportNumber: string;
  integrated: boolean;
  integrationExternalCode: string;
  customStatus: string;
};
type Ledger = { funds: SandboxFund[]; reports: Report[] };

async function control(path: string, company: Company, body?: unknown): Promise<unknown> {
  const origin = wb.sandbox.url.replace(/\/v1$/, "");
  const response = await fetch(`${origin}/_sandbox/${path}?company=${company}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const ledger = (company: Company) => control("state", company) as Promise<Ledger>;
const companyOf = (i: number) => {
  const company = wb.sandbox.companies[i];
  if (!company) throw new Error("the sandbox serves one company");
  return company;
};

/** A call to the service as one company's own administrator (someone else's change). */
async function serviceCall(company: number, endpoint: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${wb.sandbox.url}/${endpoint}`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${companyOf(company).token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ IdAdmin: companyOf(company).adminId, ...body }),
  });
  expect(response.status, await response.text()).toBe(200);
}

beforeEach(async () => {
  await wb.reset();
  await control("reset", "Beta", { ...SIZES, seed: SIZES.seed + 1 });
  const ana = storeOf(wb.emulator, wb.user);
  const added = ana.changeCompanies(
    { kind: "add", rev: ana.companies().rev, name: "Beta", apiUrl: wb.sandbox.url, firstName: "Alpha" },
    { newKey: () => BETA_KEY, now: Date.now() },
  );
  if (!added.ok) throw new Error(added.issues.map((i) => settingsIssueText(i, "en")).join(" "));
  const seen = { name: "Beta", apiUrl: wb.sandbox.url };
  expect(ana.saveCompanyToken(BETA_KEY, companyOf(1).token, String(companyOf(1).adminId), seen).ok).toBe(
    true,
  );
  // Luis's Beta slot: Alpha's token and IdAdmin, written past the add-on's check.
  const luis = storeOf(wb.emulator, LUIS);
  expect(luis.saveCompanyToken(BETA_KEY, companyOf(0).token, String(companyOf(0).adminId), seen).ok).toBe(
    true,
  );
});

/** Ana's Outbox row on Beta, whose call is lost before Beta's service applies it; its window passed. */
async function interruptedBetaRow(
  row: Record<string, unknown>,
  endpoint: string,
): Promise<{ alpha: string; beta: string }> {
  await control("faults", "Beta", {
    latencyMs: 0,
    rules: [{ endpoint, fault: "drop-before-apply", times: 1 }],
  });
  ok(wb.menu("createOutboxSheet"));
  wb.typeOutbox([{ company: "Beta", ...row }]);
  ok(wb.menu("runOutbox", ["YES", "OK", "OK"]));
  expect(wb.outbox()[0]?.state).toBe("Unknown");
  wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
  return { alpha: JSON.stringify(await ledger("Alpha")), beta: JSON.stringify(await ledger("Beta")) };
}

/** Luis runs the Outbox: nothing moves in either company, the row stays Unknown saying why. */
async function luisSettlesNothing(before: { alpha: string; beta: string }, says: RegExp): Promise<void> {
  wb.menu("runOutbox", ["YES", "OK", "OK"], { user: LUIS });
  const [row] = wb.outbox();
  expect(row?.state).toBe("Unknown");
  expect(String(row?.result)).toMatch(says);
  expect(String(row?.result)).toMatch(/the token in use may open another account than the company's/);
  expect(JSON.stringify(await ledger("Alpha"))).toBe(before.alpha);
  expect(JSON.stringify(await ledger("Beta"))).toBe(before.beta);
}

const OTHER_FUND = /fund 5001 read now is not the fund the write was sent to \(.*IdAssignTo \d+ → \d+/;
const OTHER_REPORT =
  /report 100001 read now is not the report the write was sent to \(.*EmployeeId \d+ → \d+/;

describe("an interrupted Outbox write on Beta, settled by Luis with Alpha's token under Beta", () => {
  it("a status change: not sent to Alpha's fund 5001, nor again to Beta's; Ana's next run settles it", async () => {
    const beta = (await ledger("Beta")).funds.find((f) => f.id === 5001) as SandboxFund;
    expect(beta.status).toBe(1);
    const before = await interruptedBetaRow(
      { operation: "Status change", targetId: 5001, fundStatus: "Blocked" },
      "setFundStatus",
    );
    await luisSettlesNothing(before, OTHER_FUND);
    // Read with Beta's own token, the write is settled: sent again to Beta's fund.
    ok(wb.menu("runOutbox", ["YES", "OK", "OK"]));
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect((await ledger("Beta")).funds.find((f) => f.id === 5001)?.status).toBe(3);
    expect(JSON.stringify(await ledger("Alpha"))).toBe(before.alpha);
  });

  it("a fund update: Alpha's fund 5001 is not renamed, even when it already shows the name sent", async () => {
    const before = await interruptedBetaRow(
      { operation: "Fund update", targetId: 5001, fundName: "Caja renombrada" },
      "updateFund",
    );
    // Alpha's fund 5001 happens to carry the name: today's reading took the update as applied.
    await serviceCall(0, "updateFund", { Id: 5001, FundName: "Caja renombrada" });
    const alphaNow = JSON.stringify(await ledger("Alpha"));
    await luisSettlesNothing({ ...before, alpha: alphaNow }, OTHER_FUND);
    expect((await ledger("Beta")).funds.find((f) => f.id === 5001)?.title).not.toBe("Caja renombrada");
  });

  it("an integration mark: not sent to Alpha's report 100001", async () => {
    const before = await interruptedBetaRow(
      { operation: "Integration mark", targetId: 100001, integrationCode: "V-77" },
      "setExpenseReportIntegration",
    );
    await luisSettlesNothing(before, OTHER_REPORT);
  });

  it("an integration removal: not sent to Alpha's report 100001", async () => {
    const before = await interruptedBetaRow(
      { operation: "Integration removal", targetId: 100001, integrationCode: "" },
      "setExpenseReportIntegration",
    );
    await luisSettlesNothing(before, OTHER_REPORT);
  });

  it("a custom status: not sent to Alpha's report 100001", async () => {
    const before = await interruptedBetaRow(
      { operation: "Custom status change", targetId: 100001, customStatus: "Observado" },
      "setExpenseReportCustomStatus",
    );
    await luisSettlesNothing(before, OTHER_REPORT);
  });
});

describe("a colleague's interrupted Fund sidebar write on Beta, opened by Luis with Alpha's token under Beta", () => {
  const open = (user: string) => {
    const out = wb.emulator.tryRun("getFundSidebarView", [{ fundId: "5001", company: BETA_KEY }], {
      as: "script.run",
      user,
    });
    if (!out.ok) throw new Error(out.error);
    return out.result as FundSidebarView;
  };
  const betaRecords = () =>
    [...wb.emulator.documentPropertiesData.values.entries()]
      .filter(([k]) => k.startsWith("outbox.record."))
      .map(([, v]) => JSON.parse(v) as { state: string; company?: string });

  it("a status change is not taken as applied because Alpha's fund 5001 shows that status; Ana's opening settles it", async () => {
    open(wb.user);
    await control("faults", "Beta", {
      latencyMs: 0,
      rules: [{ endpoint: "setFundStatus", fault: "drop-before-apply", times: 1 }],
    });
    const sent = wb.sidebar("changeFundStatus", {
      requestId: "status-beta-5001-abcdef",
      fields: { Id: 5001, FundStatus: 3 },
      company: BETA_KEY,
    }) as FormOutcome;
    expect(sent.kind).toBe("unknown");
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    // Alpha's fund 5001 is blocked by Alpha's own administrator meanwhile.
    await serviceCall(0, "setFundStatus", { Id: 5001, FundStatus: 3 });
    const before = {
      alpha: JSON.stringify(await ledger("Alpha")),
      beta: JSON.stringify(await ledger("Beta")),
    };

    const luis = open(LUIS);
    expect(luis.notice).toMatch(
      /^Not sent: the earlier request \(.*\) that got no answer is not settled, because /,
    );
    expect(luis.notice).toMatch(OTHER_FUND);
    expect(betaRecords()).toEqual([expect.objectContaining({ state: "unknown", company: BETA_KEY })]);
    expect(JSON.stringify(await ledger("Alpha"))).toBe(before.alpha);
    expect(JSON.stringify(await ledger("Beta"))).toBe(before.beta);

    // Ana's own opening reads Beta's fund: the write had not been applied.
    const ana = open(wb.user);
    expect(ana.notice).toMatch(/had not been applied/);
    expect(betaRecords().every((r) => r.state !== "unknown" && r.state !== "sending")).toBe(true);
  });
});

describe("a colleague's interrupted Report sidebar mark on Beta, met by Luis's mark with Alpha's token under Beta", () => {
  const as = <T>(user: string, fn: string, ...args: unknown[]): T => {
    const out = wb.emulator.tryRun(fn, args, { as: "script.run", user });
    if (!out.ok) throw new Error(out.error);
    return out.result as T;
  };

  it("Luis's click settles nothing and sends nothing, to Alpha's report 100001 or to Beta's", async () => {
    const beta = (await ledger("Beta")).reports.find((r) => r.id === 100001) as Report;
    if (!wb.emulator.spreadsheet.sheetByName("Expense reports"))
      wb.emulator.spreadsheet.addSheet("Expense reports");
    wb.emulator.typeCells("Expense reports", "A1:D2", [
      ["Id", "Company", "Company key", "Report number"],
      [beta.id, "Beta", BETA_KEY, beta.reportNumber],
    ]);
    wb.emulator.select("Expense reports", "A2");
    as<ReportSidebarView>(wb.user, "getReportSidebarView");
    await control("faults", "Beta", {
      latencyMs: 0,
      rules: [{ endpoint: "setExpenseReportCustomStatus", fault: "drop-before-apply", times: 1 }],
    });
    const mark = (user: string, requestId: string) =>
      as<ReportFormResult>(user, "setReportsCustomStatus", {
        requestId,
        fields: { CustomStatus: "Observado", CustomMessage: "" },
        reports: [{ id: beta.id, company: BETA_KEY, reportNumber: beta.reportNumber }],
      });
    expect(mark(wb.user, "mark-beta-ana-abcdef").results.map((r) => r.outcome.kind)).toEqual(["unknown"]);
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    const before = {
      alpha: JSON.stringify(await ledger("Alpha")),
      beta: JSON.stringify(await ledger("Beta")),
    };

    as<ReportSidebarView>(LUIS, "getReportSidebarView");
    const luis = mark(LUIS, "mark-beta-luis-abcdef").results[0]?.outcome;
    expect(luis?.kind).toBe("refused");
    expect(luis && "message" in luis ? luis.message : "").toMatch(OTHER_REPORT);
    expect(JSON.stringify(await ledger("Alpha"))).toBe(before.alpha);
    expect(JSON.stringify(await ledger("Beta"))).toBe(before.beta);
  });
});
