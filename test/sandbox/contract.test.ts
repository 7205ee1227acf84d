/**
 * Every answer of the sandbox read through the contract's response schemas (src/api), and one
 * error shape for every refusal.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINT_NAMES, ENDPOINTS, type EndpointName } from "../../src/api/endpoints";
import { call, control, type Running, start } from "./sandbox-client";

/** The members of every shape, from the spec (a fixture file, not the sandbox's own code). */
const SHAPES: Record<string, string[]> = JSON.parse(
  readFileSync(join(import.meta.dirname, "../fixtures/sandbox/shapes.json"), "utf8"),
);
const keys = (value: unknown) => Object.keys(value as object).sort();
const shape = (name: string) => [...(SHAPES[name] as string[])].sort();

let sandbox: Running;
beforeAll(async () => {
  sandbox = await start();
});
afterAll(() => sandbox.close());

/** One successful call per endpoint, in an order where each can use what the previous made. */
async function successfulCalls(): Promise<Array<[EndpointName, unknown]>> {
  const out: Array<[EndpointName, unknown]> = [];
  const ok = async (name: EndpointName, params: Record<string, unknown>) => {
    const reply = await call(sandbox, name, params);
    expect(reply.status, `${name}: ${JSON.stringify(reply.body)}`).toBe(200);
    out.push([name, reply.body]);
    return reply.body;
  };
  const list = await ok("getFunds", { ResultsPerPage: 50 });
  await ok("getFund", { Id: list.Funds[0].Id });
  const fund = await ok("createFund", {
    IdEmployee: 1101,
    IdAdmin: sandbox.adminId,
    FundName: "Contrato",
    FundCurrency: "MXN",
    FundAmount: 999.99,
    FundExpiration: true,
    FundExpirationDate: "2026-09-30",
  });
  await ok("updateFund", { Id: fund.Id, IdAdmin: sandbox.adminId, FundName: "Contrato 2" });
  await ok("depositMoneyToFund", { Id: fund.Id, IdAdmin: sandbox.adminId, DepositAmount: 0.01 });
  await ok("withdrawMoneyFromFund", { Id: fund.Id, IdAdmin: sandbox.adminId, WithdrawAmount: 1000 });
  await ok("setFundStatus", { Id: fund.Id, IdAdmin: sandbox.adminId, FundStatus: 3 });
  const reports = await ok("getExpenseReports", {
    Since: "2025-06-15",
    TypeDateFilter: 2,
    ResultsPerPage: 200,
  });
  const report = reports.ExpenseReports.find((r: { PolicyId: number }) => r.PolicyId === 202);
  await ok("getExpenseReport", { Id: report.Id });
  await ok("setExpenseReportIntegration", { Id: report.Id, IntegrationStatus: 1, IntegrationCode: "X-1" });
  await ok("setExpenseReportCustomStatus", {
    Id: report.Id,
    IdAdmin: sandbox.managerId,
    CustomStatus: "En revisión",
  });
  return out;
}

describe("responses against the contract", () => {
  it("every endpoint answers something its response schema accepts, with the values it sent", async () => {
    const calls = await successfulCalls();
    expect(calls.map(([name]) => name).sort()).toEqual([...ENDPOINT_NAMES].sort());
    for (const [name, body] of calls) {
      const parsed = ENDPOINTS[name].response.safeParse(body);
      expect(parsed.success, `${name}: ${parsed.error?.message}`).toBe(true);
    }
    const fund = ENDPOINTS.withdrawMoneyFromFund.response.parse(
      calls.find(([n]) => n === "withdrawMoneyFromFund")?.[1],
    );
    expect(fund).toMatchObject({ depositsCents: 100_000, withdrawalsCents: 100_000, balanceCents: 0 });
    expect(fund.transactions?.map((t) => t.amountCents)).toEqual([99_999, 1, 100_000]);
    const list = ENDPOINTS.getExpenseReports.response.parse(
      calls.find(([n]) => n === "getExpenseReports")?.[1],
    );
    expect(list.expenseReports.every((r) => r.integrated !== null)).toBe(true);
  });

  it("every answer has exactly the members the spec lists for its shape", async () => {
    const calls = new Map(await successfulCalls());
    const funds = calls.get("getFunds") as { Records: unknown; Funds: unknown[] };
    expect(keys(funds)).toEqual(shape("fundListEnvelope"));
    expect(keys(funds.Records)).toEqual(shape("fundListRecords"));
    for (const item of funds.Funds) expect(keys(item)).toEqual(shape("fundListItem"));
    for (const name of [
      "getFund",
      "createFund",
      "updateFund",
      "depositMoneyToFund",
      "withdrawMoneyFromFund",
      "setFundStatus",
    ] as const) {
      const fund = calls.get(name) as { Transactions: unknown[] };
      expect(keys(fund), name).toEqual(shape("singleFund"));
      for (const t of fund.Transactions) expect(keys(t)).toEqual(shape("transaction"));
    }
    const reports = calls.get("getExpenseReports") as {
      Records: unknown;
      ExpenseReports: Array<{ ExtraFields: unknown[] }>;
    };
    expect(keys(reports)).toEqual(shape("reportListEnvelope"));
    expect(keys(reports.Records)).toEqual(shape("reportListRecords"));
    for (const item of reports.ExpenseReports) {
      expect(keys(item)).toEqual(shape("reportListItem"));
      for (const field of item.ExtraFields) expect(keys(field)).toEqual(shape("extraField"));
    }
    expect(keys(calls.get("getExpenseReport"))).toEqual(shape("singleReport"));
    expect(keys(calls.get("setExpenseReportIntegration"))).toEqual(shape("integrationResult"));
    expect(keys(calls.get("setExpenseReportCustomStatus"))).toEqual(shape("customStatusResult"));
  });

  it("list items and single shapes differ exactly as the spec says", async () => {
    const calls = new Map(await successfulCalls());
    const listItem = (calls.get("getFunds") as { Funds: object[] }).Funds[0] as object;
    const single = calls.get("getFund") as object;
    expect(
      Object.keys(single)
        .filter((k) => !(k in listItem))
        .sort(),
    ).toEqual(["Charges", "Transactions"]);
    expect(Object.keys(listItem).filter((k) => !(k in single))).toEqual(["Withdrawals"]);
    const reportItem = (calls.get("getExpenseReports") as { ExpenseReports: object[] })
      .ExpenseReports[0] as object;
    const oneReport = calls.get("getExpenseReport") as object;
    expect(
      Object.keys(reportItem)
        .filter((k) => !(k in oneReport))
        .sort(),
    ).toEqual(["Integrated", "IntegrationInternalCode"]);
    expect(Object.keys(oneReport).filter((k) => !(k in reportItem))).toEqual([]);
    for (const name of [
      "createFund",
      "updateFund",
      "depositMoneyToFund",
      "withdrawMoneyFromFund",
      "setFundStatus",
    ] as const) {
      expect(Object.keys(calls.get(name) as object).sort(), name).toEqual(Object.keys(single).sort());
    }
  });

  it("writes every amount as a JSON number with two decimals, and leaves text alone", async () => {
    const created = await call(sandbox, "createFund", {
      IdEmployee: 1101,
      IdAdmin: sandbox.adminId,
      FundName: "amount-x:1.00",
      FundCurrency: "USD",
      FundAmount: 1000.5,
    });
    const raw = async (path: string) =>
      (
        await fetch(`${sandbox.url}/${path}`, { headers: { Authorization: `Bearer ${sandbox.token}` } })
      ).text();
    const fund = await raw(`getFund?Id=${created.body.Id}`);
    expect(fund).toContain('"Deposits":1000.50,');
    expect(fund).toContain('"Charges":0.00,');
    expect(fund).toContain('"TransactionAmount":1000.50,');
    expect(JSON.parse(fund).Title).toBe("amount-x:1.00");
    const texts = [
      fund,
      await raw("getFunds?ResultsPerPage=20"),
      await raw("getExpenseReports?Since=2025-06-15&TypeDateFilter=2&ResultsPerPage=50"),
    ];
    for (const text of texts) {
      const amounts = [
        ...text.matchAll(
          /"(Deposits|Withdrawals|Charges|Balance|TransactionAmount|ReportTotal|ReportTotalApproved)":([^,}]*)/g,
        ),
      ];
      expect(amounts.length).toBeGreaterThan(0);
      for (const [, member, value] of amounts) expect(value, member).toMatch(/^-?\d+\.\d{2}$/);
    }
  });

  it("shows FlexibleFund as '1'/'0' on reads and as a boolean in write responses", async () => {
    const calls = new Map(await successfulCalls());
    const flexible = (name: EndpointName) => (calls.get(name) as { FlexibleFund: unknown }).FlexibleFund;
    for (const item of (calls.get("getFunds") as { Funds: Array<{ FlexibleFund: unknown }> }).Funds) {
      expect(["1", "0"]).toContain(item.FlexibleFund);
    }
    expect(["1", "0"]).toContain(flexible("getFund"));
    for (const name of [
      "createFund",
      "updateFund",
      "depositMoneyToFund",
      "withdrawMoneyFromFund",
      "setFundStatus",
    ] as const) {
      expect(typeof flexible(name), name).toBe("boolean");
    }
  });
});

describe("one error shape", () => {
  it("every refusal is {Error: {Code, Message, Field}} with the message starting with the field", async () => {
    const fundId = (await call(sandbox, "getFunds")).body.Funds[0].Id;
    const refusals = [
      await call(sandbox, "getFunds", {}, { token: "nope" }),
      await call(sandbox, "getFund", { Id: "abc" }),
      await call(sandbox, "getFund", { Id: 1 }),
      await call(sandbox, "setFundStatus", { Id: fundId, IdAdmin: 1101, FundStatus: 2 }),
      await call(sandbox, "getFunds", {}, { method: "POST" }),
      await call(sandbox, "withdrawMoneyFromFund", {
        Id: fundId,
        IdAdmin: sandbox.adminId,
        WithdrawAmount: 99_999_999,
      }),
      await control(sandbox, "POST", "/reports/1/send"),
    ];
    expect(refusals.map((r) => r.status)).toEqual([401, 400, 404, 403, 405, 409, 404]);
    for (const reply of refusals) {
      const error = reply.body.Error;
      expect(Object.keys(reply.body)).toEqual(["Error"]);
      expect(typeof error.Code).toBe("string");
      expect(error.Message.startsWith(error.Field)).toBe(true);
    }
  });
});
