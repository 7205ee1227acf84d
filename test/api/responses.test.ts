import { describe, expect, it } from "vitest";
import {
  type EndpointName,
  MAX_EXACT_CENTS,
  parseBody,
  readResponse,
  ServiceError,
  UnexpectedResponseError,
  UnreadableAmountError,
} from "../../src/api";
import { fixture, fixtureText } from "./fakes";

function read<N extends EndpointName>(name: N, body: string, status = 200) {
  return readResponse(name, { status, headers: {}, body }, { now: 0, secrets: ["s3cr3t-token"] });
}
describe("fund shapes", () => {
  it("getFunds: the list envelope and typed items", () => {
    const list = read("getFunds", fixtureText("getFunds.json"));
    expect(list.records).toEqual({ totalRecords: 2, count: 2, page: 1, pages: 1 });
    expect(list.funds[0]).toEqual({
      id: 101,
      title: "Caja chica Santiago",
      code: "CC-01",
      currency: "CLP",
      idAssignTo: 5001,
      idCreator: 9001,
      depositsCents: 15000000,
      withdrawalsCents: 2000050,
      balanceCents: 12999950,
      status: 1,
      createdAt: "2024-03-01 09:15:00",
      expirationDate: "2024-12-31",
      flexibleFund: true,
      manualDeposit: false,
      automaticBlock: false,
    });
    expect(list.funds[1]).toMatchObject({ id: 102, depositsCents: 100010, expirationDate: null, status: 3 });
    expect("transactions" in list.funds[0]!).toBe(false);
  });

  it("getFunds as the real service sends it: string ids and amounts, '1'/'0'/'' flags, null dates", () => {
    const list = read("getFunds", fixtureText("getFunds.real.json"));
    expect(list.records).toEqual({ totalRecords: 3, count: 1, page: 2, pages: 3 });
    expect(list.funds[0]).toEqual({
      id: 2045,
      title: "Fondo por rendir",
      code: "",
      currency: "MXN",
      idAssignTo: 77,
      idCreator: 12,
      depositsCents: 250000,
      withdrawalsCents: 30010,
      balanceCents: 219990,
      status: 2,
      createdAt: "2023-11-30 23:59:59",
      expirationDate: null,
      flexibleFund: true,
      manualDeposit: false,
      automaticBlock: false,
    });
  });

  it("getFund: Charges becomes the same withdrawals total, transactions typed", () => {
    const fund = read("getFund", fixtureText("getFund.json"));
    expect(fund.withdrawalsCents).toBe(2000050);
    expect(fund.flexibleFund).toBe(true);
    expect(fund.transactions).toEqual([
      { type: 1, typeName: "Deposit", amountCents: 15000000, date: "2024-03-01" },
      { type: 2, typeName: "Withdrawal", amountCents: 2000050, date: "2024-03-15" },
    ]);
  });

  it.each([
    ["createFund", 300, 25075, 0, 1, 1],
    ["updateFund", 300, 25075, 0, 1, 1],
    ["depositMoneyToFund", 300, 35085, 0, 1, 2],
    ["withdrawMoneyFromFund", 300, 35085, 30, 1, 3],
    ["setFundStatus", 300, 35085, 30, 3, 0],
  ] as const)(
    "%s answers the fund (id %d, deposits %d, withdrawals %d, status %d, %d movements)",
    (name, id, deposits, withdrawals, status, moves) => {
      const fund = read(name, fixtureText(`${name}.json`));
      expect(fund).toMatchObject({ id, depositsCents: deposits, withdrawalsCents: withdrawals, status });
      expect(fund.balanceCents).toBe(deposits - withdrawals);
      expect(fund.transactions).toHaveLength(moves);
    },
  );

  it("a fund without Withdrawals or Charges is refused, naming the field", () => {
    const body = fixture("getFund.json") as Record<string, unknown>;
    delete body.Charges;
    expect(() => parseBody("getFund", body)).toThrow(/Withdrawals/);
  });
});

describe("expense report shapes", () => {
  it("getExpenseReports: every field camelCase, amounts in cents, extra fields and files", () => {
    const list = read("getExpenseReports", fixtureText("getExpenseReports.json"));
    expect(list.records).toEqual({ totalRecords: 1, count: 1, page: 1, pages: 1 });
    expect(list.expenseReports[0]).toEqual({
      id: 7001,
      title: "Viaje a Lima",
      reportNumber: "R-0042",
      sendDate: "2024-04-10",
      closeDate: "2024-04-20",
      employeeId: 5002,
      employeeName: "Ana Pérez",
      employeeIdentification: "12.345.678-9",
      approverId: 9001,
      approverName: "Luis Soto",
      policyId: 33,
      policyName: "Viajes",
      status: 1,
      customStatus: "Pagado",
      fundId: 102,
      fundName: "Viaje Lima",
      reportTotalCents: 85040,
      reportTotalApprovedCents: 80000,
      currency: "PEN",
      note: "",
      integrated: true,
      integrationDate: "2024-04-21 08:30:00",
      integrationExternalCode: "VOUCHER-9",
      integrationInternalCode: "INT-1",
      nbrExpenses: 4,
      nbrApprovedExpenses: 3,
      nbrRejectedExpenses: 1,
      extraFields: [
        { name: "Centro de costo", value: "Ventas", code: "CC10" },
        { name: "Proyecto", value: "Andes", code: "" },
      ],
      files: [{ Url: "https://files.example.com/a.pdf", Name: "a.pdf" }],
    });
  });

  it("getExpenseReports as the real service sends it: ExtraFields as JSON text, null and empty dates", () => {
    const [a, b] = read("getExpenseReports", fixtureText("getExpenseReports.real.json")).expenseReports;
    expect(a).toMatchObject({
      id: 7002,
      reportNumber: "43",
      closeDate: null,
      status: 0,
      fundId: 0,
      reportTotalCents: 4599000,
      note: "",
      // An empty Integrated in a list item means not integrated.
      integrated: false,
      integrationDate: null,
      extraFields: [{ name: "Centro de costo", value: "Marketing", code: "CC20" }],
      files: [],
    });
    expect(b).toMatchObject({
      id: 7003,
      closeDate: null,
      integrated: false,
      extraFields: [],
      files: [],
      reportTotalCents: 1230,
    });
  });

  it("getExpenseReport: list-only fields become null and empty", () => {
    const report = read("getExpenseReport", fixtureText("getExpenseReport.json"));
    expect(report).toMatchObject({
      id: 7001,
      integrated: null,
      integrationInternalCode: "",
      integrationDate: null,
      note: "Con boletas",
    });
  });

  it("a report's and a fund's members come out in the service's order under the record's names, and no others", () => {
    const body = JSON.stringify({ ...(fixture("getExpenseReport.json") as object), SomethingNew: "x" });
    const report = read("getExpenseReport", body);
    expect(Object.keys(report)).toEqual([
      "id",
      "title",
      "reportNumber",
      "sendDate",
      "closeDate",
      "employeeId",
      "employeeName",
      "employeeIdentification",
      "approverId",
      "approverName",
      "policyId",
      "policyName",
      "status",
      "customStatus",
      "fundId",
      "fundName",
      "reportTotalCents",
      "reportTotalApprovedCents",
      "currency",
      "note",
      "integrated",
      "integrationDate",
      "integrationExternalCode",
      "integrationInternalCode",
      "nbrExpenses",
      "nbrApprovedExpenses",
      "nbrRejectedExpenses",
      "extraFields",
      "files",
    ]);
    const fundKeys = [
      "id",
      "title",
      "code",
      "currency",
      "idAssignTo",
      "idCreator",
      "depositsCents",
      "withdrawalsCents",
      "balanceCents",
      "status",
      "createdAt",
      "expirationDate",
      "flexibleFund",
      "manualDeposit",
      "automaticBlock",
    ];
    expect(Object.keys(read("getFunds", fixtureText("getFunds.json")).funds[0] ?? {})).toEqual(fundKeys);
    expect(Object.keys(read("getFund", fixtureText("getFund.json")))).toEqual([...fundKeys, "transactions"]);
    const answer = read(
      "setExpenseReportCustomStatus",
      JSON.stringify({ Id: 1, Title: "T", ReportNumber: "R", CustomStatus: "S", Extra: 1 }),
    );
    expect(answer).toEqual({ id: 1, title: "T", reportNumber: "R", customStatus: "S" });
  });

  it("setExpenseReportIntegration and setExpenseReportCustomStatus answers", () => {
    expect(read("setExpenseReportIntegration", fixtureText("setExpenseReportIntegration.json"))).toEqual({
      id: 7001,
      title: "Viaje a Lima",
      reportNumber: "R-0042",
      integrationStatus: 1,
      integrationCode: "VOUCHER-9",
      integrationDate: "2024-04-21 08:30:00",
    });
    expect(read("setExpenseReportCustomStatus", fixtureText("setExpenseReportCustomStatus.json"))).toEqual({
      id: 7001,
      title: "Viaje a Lima",
      reportNumber: "R-0042",
      customStatus: "Observado",
    });
  });

  it("extra fields may come as an object of names to values", () => {
    const body = {
      ...(fixture("getExpenseReport.json") as object),
      ExtraFields: { Proyecto: "Andes", Monto: 5 },
    };
    expect(parseBody("getExpenseReport", body).extraFields).toEqual([
      { name: "Proyecto", value: "Andes", code: "" },
      { name: "Monto", value: "5", code: "" },
    ]);
  });

  it("dates in other common forms become one format; zero dates are empty", () => {
    const body = {
      ...(fixture("getExpenseReport.json") as object),
      SendDate: "2024-04-10 00:00:00",
      CloseDate: "0000-00-00",
      IntegrationDate: "2024-04-21T08:30:00Z",
    };
    expect(parseBody("getExpenseReport", body)).toMatchObject({
      sendDate: "2024-04-10",
      closeDate: null,
      integrationDate: "2024-04-21 08:30:00Z",
    });
  });

  it("a time given with an offset keeps it (Z or ±HH:MM), for the sheet to show in the spreadsheet's zone", () => {
    const at = (IntegrationDate: string) =>
      parseBody("getExpenseReport", { ...(fixture("getExpenseReport.json") as object), IntegrationDate })
        .integrationDate;
    expect(
      ["2024-04-21T08:30:00-0500", "2024-04-21 08:30:00+05:30", "2024-04-21T08:30:00.123Z"].map(at),
    ).toEqual(["2024-04-21 08:30:00-05:00", "2024-04-21 08:30:00+05:30", "2024-04-21 08:30:00Z"]);
    const fund = parseBody("getFund", {
      ...(fixture("getFund.json") as object),
      CreatedAt: "2024-03-01T10:00:00Z",
    });
    expect(fund.createdAt).toBe("2024-03-01 10:00:00Z");
  });
});

describe("unexpected shapes name the field", () => {
  it.each([
    [
      "getFunds",
      { Records: { TotalRecords: 1, Funds: 1, Page: 1, Pages: 1 }, Funds: [{ Id: "x" }] },
      "Funds[0].Id",
    ],
    ["getFunds", { Funds: (fixture("getFunds.json") as { Funds: unknown[] }).Funds }, "Records"],
    ["getFunds", { Records: { TotalRecords: 1, Page: 1, Pages: 1 }, Funds: "none" }, "Funds"],
    ["getFund", [], "body"],
    ["getFund", { ...(fixture("getFund.json") as object), Balance: "12,50" }, "Balance"],
    ["getFund", { ...(fixture("getFund.json") as object), Status: "open" }, "Status"],
    ["getFund", { ...(fixture("getFund.json") as object), FlexibleFund: "maybe" }, "FlexibleFund"],
    ["getFund", { ...(fixture("getFund.json") as object), ExpirationDate: "31/12/2024" }, "ExpirationDate"],
    [
      "getFund",
      {
        ...(fixture("getFund.json") as object),
        Transactions: [{ TransactionType: "deposit", TransactionAmount: 1 }],
      },
      "Transactions[0].TransactionType",
    ],
    [
      "getExpenseReport",
      { ...(fixture("getExpenseReport.json") as object), ExtraFields: "{not json" },
      "ExtraFields",
    ],
    [
      "getExpenseReport",
      { ...(fixture("getExpenseReport.json") as object), ReportTotal: null },
      "ReportTotal",
    ],
    ["setExpenseReportIntegration", { Id: 1, IntegrationStatus: "yes" }, "IntegrationStatus"],
  ] as const)("%s with a bad member → UnexpectedResponseError at %s", (name, body, field) => {
    try {
      read(name, JSON.stringify(body));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(UnexpectedResponseError);
      expect((err as UnexpectedResponseError).field).toBe(field);
      expect((err as Error).message).toContain(field);
      expect((err as UnexpectedResponseError).outcome).toBe("unknown");
    }
  });

  it("a 2xx body that is not JSON is unexpected", () => {
    expect(() => read("getFunds", "<html>Gateway</html>")).toThrow(UnexpectedResponseError);
    expect(() => read("getFunds", "")).toThrow(/not JSON/);
  });
});

describe("amounts beyond what the add-on can read exactly", () => {
  function caught(fn: () => unknown): UnreadableAmountError {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(UnreadableAmountError);
      return err as UnreadableAmountError;
    }
    throw new Error("expected a throw");
  }

  it("a fund total above 9,999,999,999,999.99 names the field and the fund, says what to do, keeps the transactions", () => {
    const err = caught(() => read("getFund", fixtureText("getFund.total-too-large.json")));
    expect(err).toBeInstanceOf(UnexpectedResponseError);
    expect(err).toMatchObject({
      field: "Deposits",
      got: "10000000149999.99",
      recordKind: "fund",
      recordId: 101,
      fundTotal: true,
      outcome: "unknown",
    });
    expect(err.message).toBe(
      "getFund: Deposits of fund 101 is 10000000149999.99, above 9,999,999,999,999.99, the largest total the add-on can read exactly (the service's numbers keep 15 significant digits). The add-on cannot show this fund's totals or move money on it: check the fund in Rindegastos, and leave it out of the add-on's funds.",
    );
    // Transaction amounts stay readable, so a movement can still be settled by counting them.
    expect(err.transactions?.map((t) => [t.type, t.amountCents])).toEqual([
      [1, 15_000_000],
      [2, 2_000_050],
      [1, MAX_EXACT_CENTS],
    ]);
  });

  it("the answer to a deposit that took the fund out of range: the same error, outcome unknown", () => {
    const err = caught(() => read("depositMoneyToFund", fixtureText("getFund.total-too-large.json")));
    expect([err.field, err.outcome, err.transactions?.length]).toEqual(["Deposits", "unknown", 3]);
  });

  it("a total just at the bound still reads", () => {
    const body = {
      ...(fixture("getFund.json") as object),
      Deposits: 9999999999999.99,
      Balance: "-9999999999999.99",
    };
    expect(read("getFund", JSON.stringify(body))).toMatchObject({
      depositsCents: MAX_EXACT_CENTS,
      balanceCents: -MAX_EXACT_CENTS,
    });
  });

  it("in a list, the item and its fund are named", () => {
    const list = fixture("getFunds.json") as { Funds: Record<string, unknown>[] };
    list.Funds[1] = { ...list.Funds[1], Balance: "10000000000000.00" };
    const err = caught(() => read("getFunds", JSON.stringify(list)));
    expect([err.field, err.recordId, err.fundTotal, err.transactions]).toEqual([
      "Funds[1].Balance",
      102,
      true,
      null,
    ]);
    expect(err.message).toContain("Funds[1].Balance of fund 102 is 10000000000000.00");
  });

  it("a transaction amount or a report total out of range is named too, with no transactions", () => {
    const fund = fixture("getFund.total-too-large.json") as { Transactions: Record<string, unknown>[] };
    const body = { ...fund, Deposits: 150000, Balance: 129999.5 };
    body.Transactions[2] = { ...body.Transactions[2], TransactionAmount: 10000000000000 };
    const err = caught(() => read("getFund", JSON.stringify(body)));
    expect([err.field, err.recordKind, err.recordId, err.fundTotal, err.transactions]).toEqual([
      "Transactions[2].TransactionAmount",
      "fund",
      101,
      false,
      null,
    ]);
    const report = { ...(fixture("getExpenseReport.json") as object), ReportTotal: 12345678901234.5 };
    const r = caught(() => read("getExpenseReport", JSON.stringify(report)));
    expect(r.message).toMatch(
      /^getExpenseReport: ReportTotal of report \d+ is 12345678901234\.5, above 9,999,999,999,999\.99/,
    );
    expect(r.message).toContain("Check this report in Rindegastos.");
  });
});

describe("errors inside a 2xx body", () => {
  it.each([
    ["error-in-200.v1.json", "IdAdmin does not have permission to administer funds", undefined],
    ["error-in-200.v2.json", "Invalid IntegrationDate", 400],
    ["error-in-200.lowercase.json", "Fund is closed", undefined],
  ])("%s becomes a ServiceError with the service's message", (file, message, code) => {
    try {
      read("depositMoneyToFund", fixtureText(file));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ServiceError);
      const e = err as ServiceError;
      expect(e.serviceMessage).toBe(message);
      expect(e.bodyStatusCode).toBe(code);
      expect(e.outcome).toBe("refused");
      expect(e.status).toBe(200);
    }
  });

  it("a statusCode of 500 inside the body leaves a write's outcome unknown", () => {
    expect(() => read("depositMoneyToFund", JSON.stringify({ statusCode: "503", message: "busy" }))).toThrow(
      expect.objectContaining({ kind: "service", outcome: "unknown", bodyStatusCode: 503 }),
    );
  });

  it("empty Error members and statusCode 200 are not errors", () => {
    const body = { ...(fixture("getFund.json") as object), Error: "", statusCode: 200 };
    expect(read("getFund", JSON.stringify(body)).id).toBe(101);
    expect(read("getFund", JSON.stringify({ ...(fixture("getFund.json") as object), Error: null })).id).toBe(
      101,
    );
  });

  it("never repeats the token the service echoed", () => {
    const body = JSON.stringify({ Error: "Token s3cr3t-token is not valid" });
    expect(() => read("getFunds", body)).toThrow("Token [redacted] is not valid");
    expect(() => read("getFunds", "bad token s3cr3t-token", 401)).toThrow(/\[redacted\]/);
  });
});
