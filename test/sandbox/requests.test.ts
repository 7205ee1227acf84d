/**
 * The request rules the spec writes as types (part 4, part 8): a JSON body carries integers as
 * numbers, amounts as numbers, flags as booleans and text as strings; `Order` is `ASC` or `DESC`
 * as written; currencies are ISO 4217 codes; lengths count what was sent. Each refusal names the
 * field and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, control, type Running, start } from "./sandbox-client";

let sandbox: Running;
beforeAll(async () => {
  sandbox = await start();
});
afterAll(() => sandbox.close());

async function fundState(id: number) {
  const state = await control(sandbox, "GET", "/state");
  return state.body.funds.find((f: { id: number }) => f.id === id);
}

function newFund(overrides: Record<string, unknown> = {}) {
  return {
    IdEmployee: 1101,
    IdAdmin: sandbox.adminId,
    FundName: "Caja chica bodega",
    FundCurrency: "CLP",
    FundAmount: 1000,
    ...overrides,
  };
}

describe("JSON types of write bodies", () => {
  it("refuses integers, amounts, flags and text sent in another JSON type, naming the field, moving nothing", async () => {
    const before = await fundState(5001);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["depositMoneyToFund", { Id: "5001", IdAdmin: sandbox.adminId, DepositAmount: 10 }, "Id"],
      ["depositMoneyToFund", { Id: 5001, IdAdmin: "1001", DepositAmount: 10 }, "IdAdmin"],
      ["depositMoneyToFund", { Id: 5001, IdAdmin: sandbox.adminId, DepositAmount: "10.00" }, "DepositAmount"],
      [
        "depositMoneyToFund",
        { Id: 5001, IdAdmin: sandbox.adminId, DepositAmount: { cents: 100 } },
        "DepositAmount",
      ],
      [
        "withdrawMoneyFromFund",
        { Id: 5001, IdAdmin: sandbox.adminId, WithdrawAmount: "1" },
        "WithdrawAmount",
      ],
      ["setFundStatus", { Id: 5001, IdAdmin: sandbox.adminId, FundStatus: "2" }, "FundStatus"],
      ["updateFund", { Id: 5001, IdAdmin: sandbox.adminId, FundName: 12345 }, "FundName"],
      [
        "updateFund",
        { Id: 5001, IdAdmin: sandbox.adminId, FundName: "x", FundFlexibility: "1" },
        "FundFlexibility",
      ],
      [
        "updateFund",
        { Id: 5001, IdAdmin: sandbox.adminId, FundName: "x", FundAutoBlock: 1 },
        "FundAutoBlock",
      ],
      ["updateFund", { Id: 5001, IdAdmin: sandbox.adminId, FundName: "x", FundCode: 77 }, "FundCode"],
    ];
    for (const [name, body, field] of cases) {
      const reply = await call(sandbox, name, body);
      expect(reply.status, `${name} ${JSON.stringify(body)}`).toBe(400);
      expect(reply.body.Error.Field).toBe(field);
      expect(reply.body.Error.Message.startsWith(field)).toBe(true);
    }
    expect(await fundState(5001)).toEqual(before);
  });

  it("refuses a wrongly typed createFund, setExpenseReportIntegration and setExpenseReportCustomStatus", async () => {
    const funds = (await control(sandbox, "GET", "/state")).body.funds.length;
    for (const [body, field] of [
      [newFund({ IdEmployee: "1101" }), "IdEmployee"],
      [newFund({ FundAmount: "1000" }), "FundAmount"],
      [newFund({ FundCurrency: 152 }), "FundCurrency"],
      [newFund({ FundExpiration: "true", FundExpirationDate: "2026-12-31" }), "FundExpiration"],
    ] as Array<[Record<string, unknown>, string]>) {
      const reply = await call(sandbox, "createFund", body);
      expect(reply.status).toBe(400);
      expect(reply.body.Error.Field).toBe(field);
    }
    expect((await control(sandbox, "GET", "/state")).body.funds).toHaveLength(funds);
    const integration = await call(sandbox, "setExpenseReportIntegration", {
      Id: 100001,
      IntegrationStatus: "1",
    });
    expect(integration.status).toBe(400);
    expect(integration.body.Error.Field).toBe("IntegrationStatus");
    const custom = await call(sandbox, "setExpenseReportCustomStatus", {
      Id: 100001,
      IdAdmin: sandbox.managerId,
      CustomStatus: 7,
    });
    expect(custom.status).toBe(400);
    expect(custom.body.Error.Field).toBe("CustomStatus");
  });

  it("still takes the spec's types: numbers, two-decimal amounts as numbers, booleans and strings", async () => {
    const reply = await call(
      sandbox,
      "createFund",
      newFund({ FundAmount: 1234.5, FundFlexibility: true, FundExpiration: false }),
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ Deposits: 1234.5, FlexibleFund: true });
  });
});

describe("text as sent", () => {
  it("counts the characters that were sent, spaces included, against the limits", async () => {
    const name = `${"a".repeat(200)} `;
    const reply = await call(sandbox, "createFund", newFund({ FundName: name }));
    expect(reply.status).toBe(400);
    expect(reply.body.Error.Field).toBe("FundName");
    const status = await call(sandbox, "setExpenseReportCustomStatus", {
      Id: 100001,
      IdAdmin: sandbox.managerId,
      CustomStatus: ` ${"b".repeat(20)}`,
    });
    expect(status.status).toBe(400);
    expect(status.body.Error.Field).toBe("CustomStatus");
  });

  it("sets Title and Code from FundName and FundCode exactly as sent", async () => {
    const reply = await call(sandbox, "createFund", newFund({ FundName: "  Caja  sur ", FundCode: " C-1" }));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ Title: "  Caja  sur ", Code: " C-1" });
  });
});

describe("an empty text sent on updateFund", () => {
  it("sets FundCode and FundComment to empty, where leaving them out keeps them", async () => {
    const fund = (await call(sandbox, "createFund", newFund({ FundCode: "K-9", FundComment: "nota" }))).body;
    const kept = await call(sandbox, "updateFund", {
      Id: fund.Id,
      IdAdmin: sandbox.adminId,
      FundName: "Otra",
    });
    expect(kept.body.Code).toBe("K-9");
    expect((await fundState(fund.Id)).comment).toBe("nota");
    const emptied = await call(sandbox, "updateFund", {
      Id: fund.Id,
      IdAdmin: sandbox.adminId,
      FundName: "Otra",
      FundCode: "",
      FundComment: "",
    });
    expect(emptied.status).toBe(200);
    expect(emptied.body.Code).toBe("");
    expect((await fundState(fund.Id)).comment).toBe("");
  });
});

describe("values written as the spec writes them", () => {
  it("takes Order only as ASC or DESC", async () => {
    for (const Order of ["asc", "Desc", " DESC"]) {
      const funds = await call(sandbox, "getFunds", { Order });
      expect(funds.status, Order).toBe(400);
      expect(funds.body.Error.Field).toBe("Order");
      const reports = await call(sandbox, "getExpenseReports", { Since: "2026-01-01", Order });
      expect(reports.status, Order).toBe(400);
      expect(reports.body.Error.Field).toBe("Order");
    }
    expect((await call(sandbox, "getFunds", { Order: "ASC" })).status).toBe(200);
  });

  it("takes only ISO 4217 codes, in capitals, for FundCurrency and the Currency filter", async () => {
    for (const FundCurrency of ["usd", "XYZ", "PES"]) {
      const reply = await call(sandbox, "createFund", newFund({ FundCurrency }));
      expect(reply.status, FundCurrency).toBe(400);
      expect(reply.body.Error.Field).toBe("FundCurrency");
      expect(reply.body.Error.Message).toContain("ISO 4217");
    }
    for (const Currency of ["clp", "ABC"]) {
      const reply = await call(sandbox, "getExpenseReports", { Since: "2026-01-01", Currency });
      expect(reply.status, Currency).toBe(400);
      expect(reply.body.Error.Field).toBe("Currency");
    }
    const eur = await call(sandbox, "createFund", newFund({ FundCurrency: "EUR" }));
    expect(eur.status).toBe(200);
    expect(eur.body.Currency).toBe("EUR");
  });

  it("takes dates and whole numbers of a query only as written: no spaces, no signs, no decimals", async () => {
    for (const [params, field] of [
      [{ From: " 2026-01-01" }, "From"],
      [{ Page: "+2" }, "Page"],
      [{ ResultsPerPage: " 5" }, "ResultsPerPage"],
    ] as Array<[Record<string, unknown>, string]>) {
      const reply = await call(sandbox, "getFunds", params);
      expect(reply.status, JSON.stringify(params)).toBe(400);
      expect(reply.body.Error.Field).toBe(field);
    }
    const since = await call(sandbox, "getExpenseReports", { Since: "2026-01-01 " });
    expect(since.status).toBe(400);
    expect(since.body.Error.Field).toBe("Since");
  });
});

describe("whole numbers too large", () => {
  it("names the bound, not the form, for a whole number beyond the largest taken", async () => {
    for (const [name, params, field, rule] of [
      ["getFunds", { Page: "9999999999999999" }, "Page", /at most 999999999999999/],
      ["getFunds", { ResultsPerPage: "99999999999999999999" }, "ResultsPerPage", /at most 1000\b/],
      ["getFunds", { Page: "-9999999999999999" }, "Page", /at least 1/],
      ["getFund", { Id: "12345678901234567890" }, "Id", /at most 999999999999999/],
      ["getExpenseReports", { Since: "2026-01-01", UserId: "1".repeat(20) }, "UserId", /at most/],
      ["setFundStatus", { Id: 1e16, IdAdmin: 1001, FundStatus: 2 }, "Id", /at most 999999999999999/],
    ] as const) {
      const reply = await call(sandbox, name, params);
      expect(reply.status, field).toBe(400);
      expect(reply.body.Error.Field).toBe(field);
      expect(reply.body.Error.Message, field).toMatch(rule);
    }
  });
});
