/** What employees and approvers do, through /_sandbox: send and close reports, and their effects on funds. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, control, type Running, start, TODAY } from "./sandbox-client";

let sandbox: Running;
beforeAll(async () => {
  sandbox = await start();
});
afterAll(() => sandbox.close());

async function fundFor(flags: Record<string, unknown>, amount = 1000) {
  const reply = await call(sandbox, "createFund", {
    IdEmployee: 1102,
    IdAdmin: sandbox.adminId,
    FundName: "Fondo de prueba",
    FundCurrency: "USD",
    FundAmount: amount,
    ...flags,
  });
  expect(reply.status).toBe(200);
  return reply.body;
}

async function draftFor(fundId: number, total = 250.75) {
  const reply = await control(sandbox, "POST", "/reports", {
    EmployeeId: 1102,
    FundId: fundId,
    ReportTotal: total,
  });
  expect(reply.status).toBe(201);
  return reply.body as { Id: number; SendDate: string; Status: number };
}

describe("the demo data's ready-made cases", () => {
  it("names in GET /_sandbox/state a report whose sending blocks its fund and one whose closing deposits back", async () => {
    await control(sandbox, "POST", "/reset", { seed: 5, funds: 8, reports: 12 });
    const { scenarios } = (await control(sandbox, "GET", "/state")).body;
    const { sendBlocksFund, closeDepositsBack } = scenarios;
    expect(sendBlocksFund.ReportId).not.toBe(closeDepositsBack.ReportId);
    const before = (await call(sandbox, "getFund", { Id: sendBlocksFund.FundId })).body;
    expect(before).toMatchObject({ Status: 1, AutomaticBlock: true });
    expect((await control(sandbox, "POST", `/reports/${sendBlocksFund.ReportId}/send`)).status).toBe(200);
    expect((await call(sandbox, "getFund", { Id: sendBlocksFund.FundId })).body.Status).toBe(3);

    const fundBefore = (await call(sandbox, "getFund", { Id: closeDepositsBack.FundId })).body;
    expect(fundBefore.ManualDeposit).toBe(false);
    const closed = await control(sandbox, "POST", `/reports/${closeDepositsBack.ReportId}/close`);
    expect(closed.status).toBe(200);
    const approved = (await call(sandbox, "getExpenseReport", { Id: closeDepositsBack.ReportId })).body
      .ReportTotalApproved;
    const fundAfter = (await call(sandbox, "getFund", { Id: closeDepositsBack.FundId })).body;
    expect(fundAfter.Transactions.at(-1)).toMatchObject({ TransactionType: 1, TransactionAmount: approved });
    expect(Math.round(fundAfter.Deposits * 100)).toBe(Math.round((fundBefore.Deposits + approved) * 100));
    expect(fundAfter.Balance).toBe(fundBefore.Balance);
    await control(sandbox, "POST", "/reset", { seed: 7, funds: 30, reports: 400 });
  });
});

describe("sending a report", () => {
  it("sets SendDate and blocks an open fund with AutomaticBlock", async () => {
    const fund = await fundFor({ FundAutoBlock: true });
    const draft = await draftFor(fund.Id);
    expect(draft).toMatchObject({ SendDate: "", Status: 0, FundId: fund.Id, Fund: { Id: fund.Id } });
    const sent = await control(sandbox, "POST", `/reports/${draft.Id}/send`);
    expect(sent.status).toBe(200);
    // The answer shows the report as getExpenseReport would, and its fund already blocked.
    expect(sent.body).toMatchObject({ Id: draft.Id, SendDate: TODAY, Status: 0, Fund: { Status: 3 } });
    expect(sent.body.Timeline.at(-1)).toMatchObject({ Text: "Informe enviado", ByUserId: 1102 });
    expect((await call(sandbox, "getFund", { Id: fund.Id })).body.Status).toBe(3);
    const listed = await call(sandbox, "getExpenseReports", {
      Since: TODAY,
      TypeDateFilter: 2,
      UserId: 1102,
    });
    expect(listed.body.ExpenseReports.map((r: { Id: number }) => r.Id)).toContain(draft.Id);
  });

  it("leaves a fund without AutomaticBlock open", async () => {
    const fund = await fundFor({ FundAutoBlock: false });
    const draft = await draftFor(fund.Id);
    await control(sandbox, "POST", `/reports/${draft.Id}/send`);
    expect((await call(sandbox, "getFund", { Id: fund.Id })).body.Status).toBe(1);
  });

  it("refuses reports against blocked or closed funds, and sending a closed report", async () => {
    for (const status of [2, 3]) {
      const fund = await fundFor({});
      await call(sandbox, "setFundStatus", { Id: fund.Id, IdAdmin: sandbox.adminId, FundStatus: status });
      const draft = await draftFor(fund.Id);
      const refused = await control(sandbox, "POST", `/reports/${draft.Id}/send`);
      expect(refused.status).toBe(409);
      expect(refused.body.Error.Field).toBe("FundId");
    }
    const fund = await fundFor({});
    const draft = await draftFor(fund.Id);
    expect((await control(sandbox, "POST", `/reports/${draft.Id}/send`)).status).toBe(200);
    // Re-sending an open report is a resubmission; a closed report cannot be sent again.
    expect((await control(sandbox, "POST", `/reports/${draft.Id}/send`)).status).toBe(200);
    await control(sandbox, "POST", `/reports/${draft.Id}/close`);
    const again = await control(sandbox, "POST", `/reports/${draft.Id}/send`);
    expect(again.status).toBe(409);
    expect(again.body.Error.Field).toBe("Id");
    expect((await control(sandbox, "POST", "/reports/999999/send")).status).toBe(404);
  });
});

describe("FlexibleFund", () => {
  it("refuses sending a report above the balance of a fund that is not flexible, and takes it on a flexible one", async () => {
    const rigid = await fundFor({}, 100);
    const over = await draftFor(rigid.Id, 100.01);
    const refused = await control(sandbox, "POST", `/reports/${over.Id}/send`);
    expect(refused.status).toBe(409);
    expect(refused.body.Error.Field).toBe("FundId");
    expect(refused.body.Error.Message).toMatch(/FlexibleFund/);
    expect((await control(sandbox, "GET", `/reports/${over.Id}`)).body.SendDate).toBe("");
    // Up to the balance it goes through.
    const exact = await draftFor(rigid.Id, 100);
    expect((await control(sandbox, "POST", `/reports/${exact.Id}/send`)).status).toBe(200);
    const flexible = await fundFor({ FundFlexibility: true }, 100);
    const beyond = await draftFor(flexible.Id, 250.75);
    expect((await control(sandbox, "POST", `/reports/${beyond.Id}/send`)).status).toBe(200);
  });

  it("offers as sendBlocksFund only a report that sending does not refuse, whatever the seed", async () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      await control(sandbox, "POST", "/reset", { seed, funds: 12, reports: 60 });
      const { sendBlocksFund } = (await control(sandbox, "GET", "/state")).body.scenarios;
      if (!sendBlocksFund) continue;
      expect(
        (await control(sandbox, "POST", `/reports/${sendBlocksFund.ReportId}/send`)).status,
        String(seed),
      ).toBe(200);
    }
    await control(sandbox, "POST", "/reset", { seed: 7, funds: 30, reports: 400 });
  });
});

describe("closing a report", () => {
  it("charges the approved amount to the fund and, with FundAutoDeposit, deposits it back", async () => {
    const fund = await fundFor({ FundAutoDeposit: true });
    const draft = await draftFor(fund.Id, 300);
    await control(sandbox, "POST", `/reports/${draft.Id}/send`);
    const closed = await control(sandbox, "POST", `/reports/${draft.Id}/close`, {
      ReportTotalApproved: 280.4,
    });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({
      Status: 1,
      CloseDate: TODAY,
      ReportTotalApproved: 280.4,
      Fund: { Id: fund.Id, Deposits: 1280.4, Charges: 280.4, Balance: 1000 },
    });
    const after = (await call(sandbox, "getFund", { Id: fund.Id })).body;
    expect(after).toMatchObject({ Deposits: 1280.4, Charges: 280.4, Balance: 1000 });
    expect(after.Transactions.slice(-2)).toEqual([
      {
        TransactionType: 2,
        TransactionTypeName: "Withdrawal",
        TransactionAmount: 280.4,
        TransactionDate: TODAY,
      },
      {
        TransactionType: 1,
        TransactionTypeName: "Deposit",
        TransactionAmount: 280.4,
        TransactionDate: TODAY,
      },
    ]);
    const report = (await call(sandbox, "getExpenseReport", { Id: draft.Id })).body;
    expect(report).toMatchObject({
      Status: 1,
      CloseDate: TODAY,
      ReportTotalApproved: 280.4,
      ReportTotal: 300,
    });
  });

  it("without FundAutoDeposit leaves the balance reduced by the approved amount", async () => {
    const fund = await fundFor({ FundAutoDeposit: false });
    const draft = await draftFor(fund.Id, 99.99);
    await control(sandbox, "POST", `/reports/${draft.Id}/send`);
    await control(sandbox, "POST", `/reports/${draft.Id}/close`);
    const after = (await call(sandbox, "getFund", { Id: fund.Id })).body;
    expect(after).toMatchObject({ Deposits: 1000, Charges: 99.99, Balance: 900.01 });
  });

  it("refuses closing an unsent or already closed report, and an approved amount above the total", async () => {
    const fund = await fundFor({});
    const draft = await draftFor(fund.Id, 10);
    expect((await control(sandbox, "POST", `/reports/${draft.Id}/close`)).status).toBe(409);
    await control(sandbox, "POST", `/reports/${draft.Id}/send`);
    const tooMuch = await control(sandbox, "POST", `/reports/${draft.Id}/close`, {
      ReportTotalApproved: 10.01,
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.Error.Field).toBe("ReportTotalApproved");
    const misspelt = await control(sandbox, "POST", `/reports/${draft.Id}/close`, { ReportTotalAproved: 5 });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body.Error.Field).toBe("ReportTotalAproved");
    expect((await control(sandbox, "POST", `/reports/${draft.Id}/close`)).status).toBe(200);
    expect((await control(sandbox, "POST", `/reports/${draft.Id}/close`)).status).toBe(409);
  });
});

describe("control routes", () => {
  it("lists users with their roles, including the admin and the manager", async () => {
    const reply = await control(sandbox, "GET", "/users");
    const users = reply.body.Users as Array<{ Id: number; Name: string; Roles: string[] }>;
    expect(users.find((u) => u.Id === sandbox.adminId)?.Roles).toEqual(["fundAdministrator", "manager"]);
    expect(users.find((u) => u.Id === sandbox.managerId)?.Roles).toEqual(["manager"]);
    expect(users.filter((u) => u.Roles.includes("employee")).length).toBeGreaterThan(5);
  });

  it("reset rebuilds the ledger from seed and sizes, and refuses bad sizes naming the field", async () => {
    const reply = await control(sandbox, "POST", "/reset", { seed: 3, funds: 4, reports: 9 });
    expect(reply.status).toBe(200);
    const state = (await control(sandbox, "GET", "/state")).body;
    expect(state.funds).toHaveLength(4);
    expect(state.reports).toHaveLength(9);
    expect(state.today).toBe(TODAY);
    for (const fund of state.funds) {
      expect(fund.balanceCents).toBe(fund.depositsCents - fund.chargesCents);
    }
    const again = await control(sandbox, "POST", "/reset", { seed: 3, funds: 4, reports: 9 });
    expect(again.status).toBe(200);
    expect((await control(sandbox, "GET", "/state")).body).toEqual(state);
    const nested = await control(sandbox, "POST", "/reset", { seed: 3, sizes: { funds: 4, reports: 9 } });
    expect(nested.status).toBe(200);
    expect((await control(sandbox, "GET", "/state")).body).toEqual(state);
    for (const [body, field] of [
      [{ reports: -1 }, "body.reports"],
      [{ seed: 3, fund: 4 }, "body.fund"],
      [{ sizes: { funds: 4, report: 9 } }, "body.sizes.report"],
      [{ sizes: 4 }, "body.sizes"],
    ] as const) {
      const bad = await control(sandbox, "POST", "/reset", body);
      expect(bad.status, field).toBe(400);
      expect(bad.body.Error.Field).toBe(field);
    }
    expect((await control(sandbox, "GET", "/state")).body).toEqual(state);
    const wrongMethod = await control(sandbox, "GET", "/reset");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    await control(sandbox, "POST", "/reset", { seed: 7, funds: 30, reports: 400 });
  });

  it("shows one stored report with its timeline, and refuses drafts for unknown people or others' funds", async () => {
    const fund = await fundFor({});
    const draft = await draftFor(fund.Id);
    await control(sandbox, "POST", `/reports/${draft.Id}/send`);
    const stored = await control(sandbox, "GET", `/reports/${draft.Id}`);
    expect(stored.body).toMatchObject({
      Id: draft.Id,
      SendDate: TODAY,
      Timeline: [{ Text: "Informe enviado" }],
    });
    const { Timeline: _timeline, Fund: _fund, ...asRead } = stored.body;
    expect(asRead).toEqual((await call(sandbox, "getExpenseReport", { Id: draft.Id })).body);
    expect((await control(sandbox, "GET", "/reports/abc")).status).toBe(400);
    const stranger = await control(sandbox, "POST", "/reports", { EmployeeId: 999_999 });
    expect(stranger.body.Error.Field).toBe("EmployeeId");
    const othersFund = await control(sandbox, "POST", "/reports", { EmployeeId: 1101, FundId: fund.Id });
    expect(othersFund.body.Error.Field).toBe("FundId");
    const badTotal = await control(sandbox, "POST", "/reports", { EmployeeId: 1102, ReportTotal: "12,50" });
    expect(badTotal.body.Error.Field).toBe("ReportTotal");
  });

  it("answers 404 for unknown routes", async () => {
    expect((await control(sandbox, "GET", "/nothing")).status).toBe(404);
    const outside = await fetch(`${sandbox.origin}/v2/getFunds`);
    expect(outside.status).toBe(404);
  });
});
