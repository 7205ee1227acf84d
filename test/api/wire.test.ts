import { describe, expect, it } from "vitest";
import {
  buildRequest,
  type EndpointName,
  errorInBody,
  type RequestInput,
  retryAfterMs,
  validateRequest,
} from "../../src/api";

const BASE = "https://api.example.test/v1";

function built<N extends EndpointName>(name: N, input: RequestInput<N>) {
  const v = validateRequest(name, input, { today: "2024-06-15" });
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return buildRequest(name, v.value, { baseUrl: BASE, token: "tok-123" });
}

describe("request building for every endpoint", () => {
  it("getFunds: GET with the query in the endpoint's order", () => {
    const r = built("getFunds", {
      To: "2024-06-01",
      Status: "1",
      Order: "desc",
      From: "2024-01-01",
      ResultsPerPage: 100,
      Page: 2,
      OrderBy: 2,
    });
    expect(r).toEqual({
      method: "GET",
      url: `${BASE}/getFunds?Status=1&OrderBy=2&Order=DESC&ResultsPerPage=100&Page=2&From=2024-01-01&To=2024-06-01`,
      headers: { Authorization: "Bearer tok-123", Accept: "application/json" },
    });
  });

  it("getFunds without parameters has no query string", () => {
    expect(built("getFunds", {}).url).toBe(`${BASE}/getFunds`);
  });

  it("getFund and getExpenseReport: GET ?Id=", () => {
    expect(built("getFund", { Id: "55" }).url).toBe(`${BASE}/getFund?Id=55`);
    expect(built("getExpenseReport", { Id: 7001 }).url).toBe(`${BASE}/getExpenseReport?Id=7001`);
  });

  it("getExpenseReports: every filter, encoded", () => {
    const r = built("getExpenseReports", {
      Since: "2024-01-01",
      Until: "2024-03-31",
      TypeDateFilter: 2,
      Currency: "clp",
      Status: 1,
      ExpensePolicyId: 33,
      IntegrationStatus: 0,
      IntegrationCode: "A&B 1",
      IntegrationDate: "2024-04-01",
      UserId: 5002,
      OrderBy: 3,
      Order: "ASC",
      ResultsPerPage: 50,
      Page: 1,
    });
    expect(r.method).toBe("GET");
    expect(r.url).toBe(
      `${BASE}/getExpenseReports?Since=2024-01-01&Until=2024-03-31&TypeDateFilter=2&Currency=CLP&Status=1&ExpensePolicyId=33&IntegrationStatus=0&IntegrationCode=A%26B%201&IntegrationDate=2024-04-01&UserId=5002&OrderBy=3&Order=ASC&ResultsPerPage=50&Page=1`,
    );
    expect(r.body).toBeUndefined();
  });

  it("createFund: POST JSON with the amount as a two-decimal number and booleans", () => {
    const r = built("createFund", {
      IdEmployee: "42",
      IdAdmin: 7,
      FundName: "Caja",
      FundCurrency: "usd",
      FundCode: "C-1",
      FundAmount: "250.75",
      FundComment: "Q2",
      FundFlexibility: "1",
      FundAutoDeposit: false,
      FundAutoBlock: true,
      FundExpiration: true,
      FundExpirationDate: "2024-06-30",
    });
    expect(r.method).toBe("POST");
    expect(r.url).toBe(`${BASE}/createFund`);
    expect(r.headers["Content-Type"]).toBe("application/json");
    expect(r.headers.Authorization).toBe("Bearer tok-123");
    expect(r.body).toBe(
      '{"IdEmployee":42,"IdAdmin":7,"FundName":"Caja","FundCurrency":"USD","FundAmount":250.75,"FundCode":"C-1","FundComment":"Q2","FundFlexibility":true,"FundAutoDeposit":false,"FundAutoBlock":true,"FundExpiration":true,"FundExpirationDate":"2024-06-30"}',
    );
  });

  it("updateFund: PUT JSON, only the fields given", () => {
    const r = built("updateFund", { Id: 300, IdAdmin: 7, FundName: "Nuevo", FundCode: "" });
    expect([r.method, r.body]).toEqual(["PUT", '{"Id":300,"IdAdmin":7,"FundName":"Nuevo"}']);
  });

  it("depositMoneyToFund and withdrawMoneyFromFund: POST with exact amounts", () => {
    expect(built("depositMoneyToFund", { Id: 1, IdAdmin: 7, DepositAmount: "1234.50" }).body).toBe(
      '{"Id":1,"IdAdmin":7,"DepositAmount":1234.5}',
    );
    const w = built("withdrawMoneyFromFund", { Id: 1, IdAdmin: 7, WithdrawAmount: 0.1 });
    expect([w.method, w.body]).toEqual(["POST", '{"Id":1,"IdAdmin":7,"WithdrawAmount":0.1}']);
  });

  it("setFundStatus: PUT", () => {
    const r = built("setFundStatus", { Id: 1, IdAdmin: 7, FundStatus: "3" });
    expect([r.method, r.url, r.body]).toEqual([
      "PUT",
      `${BASE}/setFundStatus`,
      '{"Id":1,"IdAdmin":7,"FundStatus":3}',
    ]);
  });

  it("setExpenseReportIntegration: PUT with the datetime", () => {
    const r = built("setExpenseReportIntegration", {
      Id: 7001,
      IntegrationStatus: 1,
      IntegrationCode: "VOUCHER-9",
      IntegrationDate: "2024-04-21 08:30:00",
    });
    expect([r.method, r.body]).toEqual([
      "PUT",
      '{"Id":7001,"IntegrationStatus":1,"IntegrationCode":"VOUCHER-9","IntegrationDate":"2024-04-21 08:30:00"}',
    ]);
  });

  it("setExpenseReportCustomStatus: PUT first, POST on request", () => {
    const v = validateRequest("setExpenseReportCustomStatus", {
      Id: 7001,
      IdAdmin: 7,
      CustomStatus: "Pagado",
      CustomMessage: "ok",
    });
    if (!v.ok) throw new Error("invalid");
    expect(buildRequest("setExpenseReportCustomStatus", v.value, { baseUrl: BASE, token: "t" }).method).toBe(
      "PUT",
    );
    const post = buildRequest("setExpenseReportCustomStatus", v.value, {
      baseUrl: `${BASE}/`,
      token: "t",
      method: "POST",
    });
    expect([post.method, post.url, post.body]).toEqual([
      "POST",
      `${BASE}/setExpenseReportCustomStatus`,
      '{"Id":7001,"IdAdmin":7,"CustomStatus":"Pagado","CustomMessage":"ok"}',
    ]);
  });
});

describe("reading errors and headers", () => {
  it("errorInBody finds v1, v2 and nested errors only", () => {
    expect(errorInBody({ Error: "bad" })).toEqual({ message: "bad" });
    expect(errorInBody({ error: true, message: "nope" })).toEqual({ message: "nope" });
    expect(errorInBody({ statusCode: 401, message: "Unauthorized" })).toEqual({
      message: "Unauthorized",
      statusCode: 401,
    });
    expect(errorInBody({ Error: "0" })).toBeNull();
    expect(errorInBody({ Error: false, statusCode: 200 })).toBeNull();
    expect(errorInBody([{ Error: "x" }])).toBeNull();
    expect(errorInBody("Error")).toBeNull();
  });

  it("retryAfterMs reads seconds and HTTP dates", () => {
    const now = Date.UTC(2024, 0, 1, 0, 0, 0);
    expect(retryAfterMs({ "retry-after": "3" }, now)).toBe(3000);
    expect(retryAfterMs({ "Retry-After": "Mon, 01 Jan 2024 00:00:10 GMT" }, now)).toBe(10_000);
    expect(retryAfterMs({ "Retry-After": "Mon, 01 Jan 2023 00:00:10 GMT" }, now)).toBe(0);
    expect(retryAfterMs({ "Retry-After": "soon" }, now)).toBeUndefined();
    expect(retryAfterMs({}, now)).toBeUndefined();
  });
});
