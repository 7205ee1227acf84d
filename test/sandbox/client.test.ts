/**
 * The add-on's own API client (src/api) against the running sandbox over real HTTP, for every
 * endpoint. The client is synchronous like UrlFetchApp, so its transport blocks this thread while
 * a helper thread does the HTTP, and the sandbox runs on a worker thread of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { createClient } from "../../src/api/client";
import { HttpError, ServiceError, TransportError, UnreadableAmountError } from "../../src/api/errors";
import { MAX_EXACT_CENTS, staysReadable } from "../../src/api/money";
import type { Clock, Transport } from "../../src/api/transport";
import { type SyncTransport, syncTransport } from "./sync-transport";

const clock: Clock = {
  now: () => Date.parse("2026-06-15T12:00:00Z"),
  sleep: () => {},
};

let sandbox: RunningSandbox;
let nodeTransport: SyncTransport;
beforeAll(async () => {
  sandbox = await startSandboxThread({ today: "2026-06-15", seed: 21, funds: 12, reports: 150 });
  nodeTransport = syncTransport();
});
afterAll(async () => {
  await nodeTransport.close();
  await sandbox.close();
});

function client(token = sandbox.token) {
  return createClient({ transport: nodeTransport, baseUrl: sandbox.url, token, clock, random: () => 0 });
}

async function faults(body: unknown) {
  const res = await fetch(`${sandbox.origin}/_sandbox/faults`, {
    method: body === null ? "DELETE" : "POST",
    headers: { "Content-Type": "application/json" },
    body: body === null ? undefined : JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

describe("the add-on's client against the sandbox", () => {
  it("reads and writes through every endpoint, with amounts in cents on both sides", () => {
    const api = client();
    const list = api.getFunds({ Status: 1, OrderBy: 2, Order: "ASC", ResultsPerPage: 5 });
    expect(list.records.page).toBe(1);
    expect(list.funds.length).toBeGreaterThan(0);
    expect(list.funds.every((f) => f.status === 1 && f.transactions === undefined)).toBe(true);

    const one = api.getFund({ Id: list.funds[0]?.id as number });
    expect(one.transactions?.length).toBeGreaterThan(0);
    expect(one.balanceCents).toBe(one.depositsCents - one.withdrawalsCents);

    const created = api.createFund({
      IdEmployee: 1101,
      IdAdmin: sandbox.adminId,
      FundName: "Caja chica sucursal",
      FundCurrency: "CLP",
      FundAmount: "150000",
      FundFlexibility: true,
    });
    expect(created).toMatchObject({
      status: 1,
      depositsCents: 15_000_000,
      balanceCents: 15_000_000,
      flexibleFund: true,
    });
    const updated = api.updateFund({
      Id: created.id,
      IdAdmin: sandbox.adminId,
      FundName: "Caja chica sucursal norte",
    });
    expect(updated.title).toBe("Caja chica sucursal norte");
    const deposited = api.depositMoneyToFund({
      Id: created.id,
      IdAdmin: sandbox.adminId,
      DepositAmount: 0.1,
    });
    const withdrawn = api.withdrawMoneyFromFund({
      Id: created.id,
      IdAdmin: sandbox.adminId,
      WithdrawAmount: 0.2,
    });
    expect([deposited.balanceCents, withdrawn.balanceCents]).toEqual([15_000_010, 14_999_990]);
    expect(api.setFundStatus({ Id: created.id, IdAdmin: sandbox.adminId, FundStatus: 3 }).status).toBe(3);

    const reports = api.getExpenseReports({ Since: "2025-06-15", TypeDateFilter: 2, ResultsPerPage: 100 });
    expect(reports.records.totalRecords).toBeGreaterThan(0);
    const report = reports.expenseReports.find((r) => r.policyId === 201 && r.status === 1);
    if (!report) throw new Error("no closed CLP report in the demo data");
    const single = api.getExpenseReport({ Id: report.id });
    expect(single).toMatchObject({ id: report.id, integrated: null, integrationInternalCode: "" });
    const marked = api.setExpenseReportIntegration({
      Id: report.id,
      IntegrationStatus: 1,
      IntegrationCode: "ERP-9",
      IntegrationDate: "2026-06-15 10:00:00",
    });
    expect(marked).toMatchObject({
      integrationStatus: 1,
      integrationCode: "ERP-9",
      integrationDate: "2026-06-15 10:00:00",
    });
    const status = api.setExpenseReportCustomStatus({
      Id: report.id,
      IdAdmin: sandbox.managerId,
      CustomStatus: "Pagado",
      CustomMessage: "Transferencia realizada",
    });
    expect(status.customStatus).toBe("Pagado");
    const again = api.getExpenseReports({ Since: "2025-06-15", IntegrationCode: "ERP-9" });
    expect(again.expenseReports.map((r) => r.id)).toEqual([report.id]);
  });

  it("marks a report through a service that takes setExpenseReportIntegration by POST only: PUT 405, then POST once", async () => {
    const switched = await startSandboxThread({
      today: "2026-06-15",
      seed: 21,
      reports: 40,
      integrationMethod: "POST",
    });
    try {
      const sent: string[] = [];
      const counted: Transport = {
        send: (request) => {
          sent.push(request.method);
          return nodeTransport.send(request);
        },
        sendAll: (requests) => {
          for (const r of requests) sent.push(r.method);
          return nodeTransport.sendAll(requests);
        },
      };
      const api = createClient({ transport: counted, baseUrl: switched.url, token: switched.token, clock });
      const report = api
        .getExpenseReports({ Since: "2025-06-16", Status: 1, IntegrationStatus: 0 })
        .expenseReports.find((r) => r.status === 1);
      if (!report) throw new Error("no closed report not integrated in the demo data");
      sent.length = 0;
      const marked = api.setExpenseReportIntegration({
        Id: report.id,
        IntegrationStatus: 1,
        IntegrationCode: "202605001",
        IntegrationDate: "2026-05-31 18:00:00",
      });
      expect(marked).toMatchObject({ id: report.id, integrationStatus: 1, integrationCode: "202605001" });
      expect(sent).toEqual(["PUT", "POST"]);
      const read = api.getExpenseReports({ Since: "2025-06-16", IntegrationCode: "202605001" });
      expect(read.expenseReports.map((r) => r.id)).toEqual([report.id]);
      // An unknown report: 404 to PUT is not applied either, POST once, then the 404 stands.
      sent.length = 0;
      expect(() =>
        api.setExpenseReportIntegration({ Id: 31337, IntegrationStatus: 1, IntegrationCode: "X" }),
      ).toThrow(HttpError);
      expect(sent).toEqual(["PUT", "POST"]);
    } finally {
      await switched.close();
    }
  });

  it("reports refusals as typed errors carrying the sandbox's field-named message", () => {
    const api = client();
    let error: unknown;
    try {
      api.createFund({
        IdEmployee: 1101,
        IdAdmin: sandbox.managerId,
        FundName: "x",
        FundCurrency: "USD",
        FundAmount: 1,
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(403);
    expect((error as HttpError).serviceMessage).toContain("IdAdmin");
    expect(() => client("wrong-token").getFunds({})).toThrow(HttpError);
  });

  it("sees an error inside HTTP 200 and a dropped connection as the faults describe them", async () => {
    const api = client();
    const fund = api.getFunds({ Status: 1, ResultsPerPage: 1 }).funds[0];
    if (!fund) throw new Error("no open fund");
    await faults({ rules: [{ endpoint: "depositMoneyToFund", fault: "error-in-200", times: 1 }] });
    expect(() => api.depositMoneyToFund({ Id: fund.id, IdAdmin: sandbox.adminId, DepositAmount: 5 })).toThrow(
      ServiceError,
    );
    await faults({ rules: [{ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 }] });
    const before = api.getFund({ Id: fund.id }).depositsCents;
    let error: unknown;
    try {
      api.depositMoneyToFund({ Id: fund.id, IdAdmin: sandbox.adminId, DepositAmount: 5 });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).outcome).toBe("unknown");
    expect(api.getFund({ Id: fund.id }).depositsCents).toBe(before + 500);
    await faults({ rules: [{ endpoint: "getFund", fault: "status", status: 503, retryAfter: 1, times: 2 }] });
    expect(api.getFund({ Id: fund.id }).id).toBe(fund.id);
    await faults(null);
  });

  it("a deposit answered 429 after it was applied is sent once and reported unknown", async () => {
    const api = client();
    const fund = api.getFunds({ Status: 1, ResultsPerPage: 1 }).funds[0];
    if (!fund) throw new Error("no open fund");
    const deposits = async () => {
      const state = (await (await fetch(`${sandbox.origin}/_sandbox/state`)).json()) as {
        funds: { id: number; transactions: { type: number; amountCents: number }[] }[];
      };
      const ledger = state.funds.find((f) => f.id === fund.id);
      return (ledger?.transactions ?? []).filter((t) => t.type === 1 && t.amountCents === 731).length;
    };
    const before = await deposits();
    await faults({
      rules: [
        {
          endpoint: "depositMoneyToFund",
          fault: "status",
          status: 429,
          retryAfter: 1,
          apply: true,
          times: 1,
        },
      ],
    });
    let error: unknown;
    try {
      api.depositMoneyToFund({ Id: fund.id, IdAdmin: sandbox.adminId, DepositAmount: "7.31" });
    } catch (err) {
      error = err;
    }
    await faults(null);
    expect(error).toBeInstanceOf(HttpError);
    expect([(error as HttpError).status, (error as HttpError).outcome]).toEqual([429, "unknown"]);
    expect(await deposits()).toBe(before + 1);
  });

  it("a deposit that takes a fund's totals beyond what can be read: named, and its transactions still count", async () => {
    const api = client();
    const fund = api.getFunds({ Status: 1, ResultsPerPage: 1 }).funds[0];
    if (!fund) throw new Error("no open fund");
    const totals = api.getFund({ Id: fund.id });
    // What the write path checks before sending: this one would not stay readable.
    expect(staysReadable(totals, "deposit", MAX_EXACT_CENTS)).toBe(false);
    const reads: unknown[] = [];
    for (const send of [
      () =>
        api.depositMoneyToFund({ Id: fund.id, IdAdmin: sandbox.adminId, DepositAmount: "9999999999999.99" }),
      () => api.getFund({ Id: fund.id }),
    ]) {
      try {
        send();
      } catch (err) {
        reads.push(err);
      }
    }
    expect(reads).toHaveLength(2);
    for (const err of reads) {
      expect(err).toBeInstanceOf(UnreadableAmountError);
      const e = err as UnreadableAmountError;
      expect([e.field, e.recordId, e.outcome]).toEqual(["Deposits", fund.id, "unknown"]);
      expect(e.message).toContain(`Deposits of fund ${fund.id} is `);
      expect(e.transactions?.filter((t) => t.type === 1 && t.amountCents === MAX_EXACT_CENTS)).toHaveLength(
        1,
      );
    }
    // Lists would now fail on this fund: back to the demo data for whatever runs next.
    const reset = await fetch(`${sandbox.origin}/_sandbox/reset`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seed: 21, funds: 12, reports: 150 }),
    });
    expect(reset.status).toBe(200);
  });
});
