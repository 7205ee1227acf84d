/** getFunds, getFund and the fund writes: shapes, filters, ordering, paging and state rules. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_RESULTS_PER_PAGE } from "../../dev/sandbox/queries";
import { call, control, type Running, start, TODAY } from "./sandbox-client";

let sandbox: Running;
beforeAll(async () => {
  sandbox = await start();
});
afterAll(() => sandbox.close());

const LIST_KEYS = [
  "AutomaticBlock",
  "Balance",
  "Code",
  "CreatedAt",
  "Currency",
  "Deposits",
  "ExpirationDate",
  "FlexibleFund",
  "Id",
  "IdAssignTo",
  "IdCreator",
  "ManualDeposit",
  "Status",
  "Title",
  "Withdrawals",
].sort();
const SINGLE_KEYS = [...LIST_KEYS.filter((k) => k !== "Withdrawals"), "Charges", "Transactions"].sort();

async function allFunds(params: Record<string, unknown> = {}) {
  const reply = await call(sandbox, "getFunds", { ResultsPerPage: MAX_RESULTS_PER_PAGE, ...params });
  expect(reply.status).toBe(200);
  return reply.body.Funds as Array<Record<string, unknown>>;
}

async function openFundOf(currency: string) {
  const funds = await allFunds({ Status: 1 });
  const fund = funds.find((f) => f.Currency === currency);
  if (!fund) throw new Error(`no open ${currency} fund in the demo data`);
  return fund;
}

function newFund(overrides: Record<string, unknown> = {}) {
  return {
    IdEmployee: 1101,
    IdAdmin: sandbox.adminId,
    FundName: "Anticipo viaje Lima",
    FundCurrency: "PEN",
    FundAmount: 1500.5,
    FundCode: "AV-77",
    FundComment: "Para la feria de junio",
    ...overrides,
  };
}

describe("getFunds", () => {
  it("lists items with Withdrawals, FlexibleFund as '1'/'0', no Transactions, inside a Records envelope", async () => {
    const reply = await call(sandbox, "getFunds", { ResultsPerPage: 5 });
    expect(reply.status).toBe(200);
    expect(reply.body.Records).toEqual({ TotalRecords: 30, Funds: 5, Page: 1, Pages: 6 });
    for (const fund of reply.body.Funds) {
      expect(Object.keys(fund).sort()).toEqual(LIST_KEYS);
      expect(["1", "0"]).toContain(fund.FlexibleFund);
      expect(typeof fund.ManualDeposit).toBe("boolean");
      expect(Math.round(fund.Balance * 100)).toBe(
        Math.round(fund.Deposits * 100) - Math.round(fund.Withdrawals * 100),
      );
    }
  });

  it("orders by creation date descending by default, ascending on request, and by title", async () => {
    const byDefault = await allFunds();
    const created = byDefault.map((f) => f.CreatedAt as string);
    expect(created).toEqual([...created].sort().reverse());
    const ascending = (await allFunds({ Order: "ASC" })).map((f) => f.CreatedAt as string);
    expect(ascending).toEqual([...created].sort());
    const titles = (await allFunds({ OrderBy: 2, Order: "ASC" })).map((f) => f.Title as string);
    expect(titles).toEqual([...titles].sort());
  });

  it("filters by each status and by the creation-date range", async () => {
    const all = await allFunds();
    for (const status of [1, 2, 3]) {
      const some = await allFunds({ Status: status });
      expect(some.length).toBeGreaterThan(0);
      expect(some.every((f) => f.Status === status)).toBe(true);
      expect(some.length).toBe(all.filter((f) => f.Status === status).length);
    }
    const days = all.map((f) => (f.CreatedAt as string).slice(0, 10)).sort();
    const from = days[5] as string;
    const to = days[20] as string;
    const ranged = await allFunds({ From: from, To: to });
    const expected = all.filter((f) => {
      const day = (f.CreatedAt as string).slice(0, 10);
      return day >= from && day <= to;
    });
    expect(ranged.map((f) => f.Id).sort()).toEqual(expected.map((f) => f.Id).sort());
  });

  it("pages without gaps or repeats, and answers past the last page with an empty list", async () => {
    const all = await allFunds();
    const seen: unknown[] = [];
    for (let page = 1; page <= 4; page++) {
      const reply = await call(sandbox, "getFunds", { ResultsPerPage: 8, Page: page });
      expect(reply.body.Records).toMatchObject({ TotalRecords: 30, Page: page, Pages: 4 });
      seen.push(...reply.body.Funds.map((f: { Id: number }) => f.Id));
    }
    expect(seen).toEqual(all.map((f) => f.Id));
    const beyond = await call(sandbox, "getFunds", { ResultsPerPage: 8, Page: 9 });
    expect(beyond.body.Records).toEqual({ TotalRecords: 30, Funds: 0, Page: 9, Pages: 4 });
    expect(beyond.body.Funds).toEqual([]);
  });

  it("uses 100 results per page by default and refuses more than the maximum, naming ResultsPerPage", async () => {
    const big = await start({ funds: 150, reports: 0 });
    try {
      const reply = await call(big, "getFunds");
      expect(reply.body.Records).toEqual({ TotalRecords: 150, Funds: 100, Page: 1, Pages: 2 });
      const tooMany = await call(big, "getFunds", { ResultsPerPage: MAX_RESULTS_PER_PAGE + 1 });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.Error.Field).toBe("ResultsPerPage");
      // Worded like every other refusal of a parameter, with the list of issues.
      expect(tooMany.body.Error.Message).toBe(
        `ResultsPerPage must be at most ${MAX_RESULTS_PER_PAGE} (got ${MAX_RESULTS_PER_PAGE + 1}).`,
      );
      expect(tooMany.body.Error.Issues).toEqual([
        { Field: "ResultsPerPage", Message: tooMany.body.Error.Message },
      ]);
      const reports = await call(big, "getExpenseReports", { Since: TODAY, ResultsPerPage: 5000 });
      expect(reports.status).toBe(400);
      expect(reports.body.Error.Field).toBe("ResultsPerPage");
    } finally {
      await big.close();
    }
  });

  it("refuses bad filters with a message naming the field", async () => {
    for (const [params, field] of [
      [{ Status: 4 }, "Status"],
      [{ OrderBy: 3 }, "OrderBy"],
      [{ Order: "UP" }, "Order"],
      [{ Page: 0 }, "Page"],
      [{ From: "2026-02-30" }, "From"],
      [{ From: "2026-05-01", To: "2026-04-01" }, "To"],
      [{ Colour: "red" }, "Colour"],
    ] as const) {
      const reply = await call(sandbox, "getFunds", params);
      expect(reply.status, JSON.stringify(params)).toBe(400);
      expect(reply.body.Error.Field).toBe(field);
      expect(reply.body.Error.Message).toMatch(new RegExp(`^${field}`));
    }
  });
});

describe("getFund", () => {
  it("returns Charges and Transactions whose sums make Deposits, Charges and Balance", async () => {
    const [first] = await allFunds();
    const reply = await call(sandbox, "getFund", { Id: first?.Id });
    expect(reply.status).toBe(200);
    const fund = reply.body;
    expect(Object.keys(fund).sort()).toEqual(SINGLE_KEYS);
    const cents = (n: number) => Math.round(n * 100);
    const sum = (type: number) =>
      fund.Transactions.filter((t: { TransactionType: number }) => t.TransactionType === type).reduce(
        (total: number, t: { TransactionAmount: number }) => total + cents(t.TransactionAmount),
        0,
      );
    expect(sum(1)).toBe(cents(fund.Deposits));
    expect(sum(2)).toBe(cents(fund.Charges));
    expect(cents(fund.Balance)).toBe(cents(fund.Deposits) - cents(fund.Charges));
    for (const t of fund.Transactions) {
      expect(t.TransactionTypeName).toBe(t.TransactionType === 1 ? "Deposit" : "Withdrawal");
    }
  });

  it("answers 404 naming Id for an unknown fund and 400 for a missing one", async () => {
    const missing = await call(sandbox, "getFund", { Id: 999_999 });
    expect(missing.status).toBe(404);
    expect(missing.body.Error).toMatchObject({ Code: "NotFound", Field: "Id" });
    const absent = await call(sandbox, "getFund");
    expect(absent.status).toBe(400);
    expect(absent.body.Error.Field).toBe("Id");
  });
});

describe("createFund", () => {
  it("opens the fund with one deposit of FundAmount and never returns FundComment", async () => {
    const reply = await call(sandbox, "createFund", newFund());
    expect(reply.status).toBe(200);
    const fund = reply.body;
    expect(fund).toMatchObject({
      Title: "Anticipo viaje Lima",
      Code: "AV-77",
      Currency: "PEN",
      IdAssignTo: 1101,
      IdCreator: sandbox.adminId,
      Deposits: 1500.5,
      Charges: 0,
      Balance: 1500.5,
      Status: 1,
      ExpirationDate: "",
      FlexibleFund: false,
      AutomaticBlock: false,
      ManualDeposit: true,
      Transactions: [
        {
          TransactionType: 1,
          TransactionTypeName: "Deposit",
          TransactionAmount: 1500.5,
          TransactionDate: TODAY,
        },
      ],
    });
    expect(fund.CreatedAt).toMatch(new RegExp(`^${TODAY} \\d{2}:\\d{2}:\\d{2}$`));
    expect(JSON.stringify(fund)).not.toContain("feria");
    const read = await call(sandbox, "getFund", { Id: fund.Id });
    // Reads show FlexibleFund as "1"/"0", writes as a boolean (spec 2.1); nothing else differs.
    expect(read.body).toEqual({ ...fund, FlexibleFund: "0" });
    const state = await control(sandbox, "GET", "/state");
    expect(state.body.funds.find((f: { id: number }) => f.id === fund.Id).comment).toBe(
      "Para la feria de junio",
    );
  });

  it("takes flags as booleans and shows ExpirationDate only when FundExpiration is true", async () => {
    const withDate = await call(
      sandbox,
      "createFund",
      newFund({
        FundFlexibility: true,
        FundAutoBlock: true,
        FundAutoDeposit: true,
        FundExpiration: true,
        FundExpirationDate: "2026-12-31",
      }),
    );
    expect(withDate.body).toMatchObject({
      FlexibleFund: true,
      AutomaticBlock: true,
      ManualDeposit: false,
      ExpirationDate: "2026-12-31",
    });
    // "Used only when FundExpiration is true": without the flag the date is taken and not used.
    for (const flag of [{}, { FundExpiration: false }, { FundExpiration: "" }]) {
      const dateWithoutFlag = await call(
        sandbox,
        "createFund",
        newFund({ ...flag, FundExpirationDate: "2026-12-31" }),
      );
      expect(dateWithoutFlag.status, JSON.stringify(flag)).toBe(200);
      expect(dateWithoutFlag.body.ExpirationDate).toBe("");
    }
    const notADate = await call(sandbox, "createFund", newFund({ FundExpirationDate: "31/12/2026" }));
    expect(notADate.status).toBe(400);
    expect(notADate.body.Error.Field).toBe("FundExpirationDate");
    const flagWithoutDate = await call(sandbox, "createFund", newFund({ FundExpiration: true }));
    expect(flagWithoutDate.status).toBe(400);
    expect(flagWithoutDate.body.Error.Field).toBe("FundExpirationDate");
  });

  it("refuses each broken field with its name and the rule, and creates nothing", async () => {
    const before = (await call(sandbox, "getFunds")).body.Records.TotalRecords;
    for (const [overrides, field, rule] of [
      [{ FundName: "x".repeat(201) }, "FundName", /200/],
      [{ FundName: "" }, "FundName", /required/],
      [{ FundCurrency: "PESO" }, "FundCurrency", /ISO 4217/],
      [{ FundCode: "c".repeat(51) }, "FundCode", /50/],
      [{ FundComment: "c".repeat(256) }, "FundComment", /255/],
      [{ FundAmount: 10.555 }, "FundAmount", /two decimals/],
      [{ FundAmount: "1.234,50" }, "FundAmount", /comma/],
      [{ FundAmount: -5 }, "FundAmount", /greater than zero/],
      [{ IdEmployee: undefined }, "IdEmployee", /required/],
      [{ IdEmployee: 424242 }, "IdEmployee", /no user/],
      // Spec 4.3: the fund is assigned to an employee; administrators and approvers are not.
      [{ IdEmployee: sandbox.adminId }, "IdEmployee", /not an employee/],
      [{ IdEmployee: sandbox.managerId }, "IdEmployee", /not an employee/],
      [{ FundFlexibility: "maybe" }, "FundFlexibility", /true or false/],
    ] as const) {
      const reply = await call(sandbox, "createFund", newFund(overrides));
      expect(reply.status, field).toBe(400);
      expect(reply.body.Error.Field).toBe(field);
      expect(reply.body.Error.Message).toMatch(rule);
    }
    expect((await call(sandbox, "getFunds")).body.Records.TotalRecords).toBe(before);
  });

  it("refuses an IdAdmin without fund-administration permission with 403", async () => {
    for (const idAdmin of [sandbox.managerId, 1101, 987654]) {
      const reply = await call(sandbox, "createFund", newFund({ IdAdmin: idAdmin }));
      expect(reply.status).toBe(403);
      expect(reply.body.Error).toMatchObject({ Code: "Forbidden", Field: "IdAdmin" });
    }
  });
});

describe("updateFund", () => {
  it("changes name, code and flags but not owner, creator, currency or amounts", async () => {
    const created = (await call(sandbox, "createFund", newFund({ FundCurrency: "USD", FundAmount: 200 })))
      .body;
    const reply = await call(sandbox, "updateFund", {
      Id: created.Id,
      IdAdmin: 1003,
      FundName: "Anticipo renombrado",
      FundCode: "NEW-1",
      FundFlexibility: true,
      FundExpiration: true,
      FundExpirationDate: "2027-01-15",
      FundComment: "nota",
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      Id: created.Id,
      Title: "Anticipo renombrado",
      Code: "NEW-1",
      FlexibleFund: true,
      ExpirationDate: "2027-01-15",
      IdAssignTo: created.IdAssignTo,
      IdCreator: created.IdCreator,
      Currency: "USD",
      Balance: 200,
      Transactions: created.Transactions,
    });
    const turnedOff = await call(sandbox, "updateFund", {
      Id: created.Id,
      IdAdmin: sandbox.adminId,
      FundName: "Anticipo renombrado",
      FundExpiration: false,
    });
    expect(turnedOff.body.ExpirationDate).toBe("");
    const ignored = await call(sandbox, "updateFund", {
      Id: created.Id,
      IdAdmin: sandbox.adminId,
      FundName: "Anticipo renombrado",
      FundExpirationDate: "2027-03-01",
    });
    expect(ignored.status).toBe(200);
    expect(ignored.body.ExpirationDate).toBe("");
    await call(sandbox, "updateFund", {
      Id: created.Id,
      IdAdmin: sandbox.adminId,
      FundName: "Anticipo renombrado",
      FundExpiration: true,
      FundExpirationDate: "2027-01-15",
    });
    // A fund that already expires takes a new date without the flag being sent again.
    const moved = await call(sandbox, "updateFund", {
      Id: created.Id,
      IdAdmin: sandbox.adminId,
      FundName: "Anticipo renombrado",
      FundExpirationDate: "2027-02-28",
    });
    expect(moved.body.ExpirationDate).toBe("2027-02-28");
    const flagOff = await call(sandbox, "updateFund", {
      Id: created.Id,
      IdAdmin: sandbox.adminId,
      FundName: "Anticipo renombrado",
      FundExpiration: false,
      FundExpirationDate: "2027-03-31",
    });
    expect(flagOff.body.ExpirationDate).toBe("");
    for (const fixed of ["IdEmployee", "FundCurrency", "FundAmount"]) {
      const refused = await call(sandbox, "updateFund", {
        Id: created.Id,
        IdAdmin: sandbox.adminId,
        FundName: "x",
        [fixed]: fixed === "FundCurrency" ? "CLP" : 5,
      });
      expect(refused.status, fixed).toBe(400);
      expect(refused.body.Error.Field).toBe(fixed);
    }
  });

  it("answers 404 for an unknown fund and 403 for a manager without fund permission", async () => {
    const missing = await call(sandbox, "updateFund", {
      Id: 777_777,
      IdAdmin: sandbox.adminId,
      FundName: "x",
    });
    expect(missing.status).toBe(404);
    const fund = await openFundOf("CLP");
    const refused = await call(sandbox, "updateFund", {
      Id: fund.Id,
      IdAdmin: sandbox.managerId,
      FundName: "x",
    });
    expect(refused.status).toBe(403);
    expect((await call(sandbox, "getFund", { Id: fund.Id })).body.Title).toBe(fund.Title);
  });
});

describe("deposits and withdrawals", () => {
  it("append a transaction and move Deposits, Charges and Balance in exact cents, never Status", async () => {
    const fund = (await call(sandbox, "createFund", newFund({ FundAmount: 0.1, FundCurrency: "USD" }))).body;
    await call(sandbox, "setFundStatus", { Id: fund.Id, IdAdmin: sandbox.adminId, FundStatus: 3 });
    const deposit = await call(sandbox, "depositMoneyToFund", {
      Id: fund.Id,
      IdAdmin: sandbox.adminId,
      DepositAmount: 0.2,
    });
    expect(deposit.status).toBe(200);
    expect(deposit.body).toMatchObject({ Deposits: 0.3, Charges: 0, Balance: 0.3, Status: 3 });
    expect(deposit.body.Transactions).toHaveLength(2);
    expect(deposit.body.Transactions[1]).toEqual({
      TransactionType: 1,
      TransactionTypeName: "Deposit",
      TransactionAmount: 0.2,
      TransactionDate: TODAY,
    });
    const withdrawal = await call(sandbox, "withdrawMoneyFromFund", {
      Id: fund.Id,
      IdAdmin: 1003,
      WithdrawAmount: 0.25,
    });
    expect(withdrawal.status).toBe(200);
    expect(withdrawal.body).toMatchObject({ Deposits: 0.3, Charges: 0.25, Balance: 0.05, Status: 3 });
    expect(withdrawal.body.Transactions[2]).toMatchObject({
      TransactionType: 2,
      TransactionTypeName: "Withdrawal",
      TransactionAmount: 0.25,
    });
    const state = await control(sandbox, "GET", "/state");
    const ledger = state.body.funds.find((f: { id: number }) => f.id === fund.Id);
    expect(ledger).toMatchObject({ depositsCents: 30, chargesCents: 25, balanceCents: 5 });
  });

  it("refuses a withdrawal above the balance (unless flexible), changing nothing", async () => {
    const fund = (await call(sandbox, "createFund", newFund({ FundAmount: 100 }))).body;
    const tooMuch = await call(sandbox, "withdrawMoneyFromFund", {
      Id: fund.Id,
      IdAdmin: sandbox.adminId,
      WithdrawAmount: 100.01,
    });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.Error.Field).toBe("WithdrawAmount");
    const flexible = (await call(sandbox, "createFund", newFund({ FundAmount: 100, FundFlexibility: true })))
      .body;
    const beyond = await call(sandbox, "withdrawMoneyFromFund", {
      Id: flexible.Id,
      IdAdmin: sandbox.adminId,
      WithdrawAmount: 100.01,
    });
    expect(beyond.status).toBe(200);
    expect(beyond.body.Balance).toBe(-0.01);
    const after = (await call(sandbox, "getFund", { Id: fund.Id })).body;
    expect(after.Transactions).toHaveLength(1);
    expect(after.Balance).toBe(100);
  });

  it("are taken in every status, closed included, and leave Status as it was", async () => {
    for (const status of [1, 2, 3]) {
      const fund = (await call(sandbox, "createFund", newFund({ FundAmount: 100 }))).body;
      await call(sandbox, "setFundStatus", { Id: fund.Id, IdAdmin: sandbox.adminId, FundStatus: status });
      const deposit = await call(sandbox, "depositMoneyToFund", {
        Id: fund.Id,
        IdAdmin: sandbox.adminId,
        DepositAmount: 5,
      });
      expect(deposit.status, `deposit in status ${status}`).toBe(200);
      expect(deposit.body).toMatchObject({ Deposits: 105, Balance: 105, Status: status });
      const withdraw = await call(sandbox, "withdrawMoneyFromFund", {
        Id: fund.Id,
        IdAdmin: sandbox.adminId,
        WithdrawAmount: 30.5,
      });
      expect(withdraw.status, `withdrawal in status ${status}`).toBe(200);
      expect(withdraw.body).toMatchObject({ Charges: 30.5, Balance: 74.5, Status: status });
      expect(withdraw.body.Transactions.map((t: { TransactionType: number }) => t.TransactionType)).toEqual([
        1, 1, 2,
      ]);
    }
  });

  it("require the amount, refuse bad amounts and unknown funds, and check permission", async () => {
    const fund = await openFundOf("CLP");
    const noAmount = await call(sandbox, "depositMoneyToFund", { Id: fund.Id, IdAdmin: sandbox.adminId });
    expect(noAmount.status).toBe(400);
    expect(noAmount.body.Error.Field).toBe("DepositAmount");
    const zero = await call(sandbox, "withdrawMoneyFromFund", {
      Id: fund.Id,
      IdAdmin: sandbox.adminId,
      WithdrawAmount: 0,
    });
    expect(zero.body.Error.Field).toBe("WithdrawAmount");
    const unknown = await call(sandbox, "depositMoneyToFund", {
      Id: 123,
      IdAdmin: sandbox.adminId,
      DepositAmount: 1,
    });
    expect(unknown.status).toBe(404);
    const employee = await call(sandbox, "depositMoneyToFund", {
      Id: fund.Id,
      IdAdmin: 1101,
      DepositAmount: 1,
    });
    expect(employee.status).toBe(403);
    expect((await call(sandbox, "getFund", { Id: fund.Id })).body.Deposits).toBe(fund.Deposits);
  });
});

describe("setFundStatus", () => {
  it("moves between any of the three states and returns the fund with its new Status", async () => {
    const fund = (await call(sandbox, "createFund", newFund())).body;
    for (const status of [3, 1, 2, 1, 3, 2]) {
      const reply = await call(sandbox, "setFundStatus", {
        Id: fund.Id,
        IdAdmin: sandbox.adminId,
        FundStatus: status,
      });
      expect(reply.status).toBe(200);
      expect(reply.body.Status).toBe(status);
      expect(reply.body.Transactions).toHaveLength(1);
    }
  });

  it("requires FundStatus in 1, 2, 3 and fund permission", async () => {
    const fund = await openFundOf("MXN");
    const missing = await call(sandbox, "setFundStatus", { Id: fund.Id, IdAdmin: sandbox.adminId });
    expect(missing.body.Error.Field).toBe("FundStatus");
    const wrong = await call(sandbox, "setFundStatus", {
      Id: fund.Id,
      IdAdmin: sandbox.adminId,
      FundStatus: 4,
    });
    expect(wrong.status).toBe(400);
    const manager = await call(sandbox, "setFundStatus", {
      Id: fund.Id,
      IdAdmin: sandbox.managerId,
      FundStatus: 2,
    });
    expect(manager.status).toBe(403);
    expect((await call(sandbox, "getFund", { Id: fund.Id })).body.Status).toBe(1);
  });
});

describe("permission before existence", () => {
  it("answers 403 to a user without permission whether or not the record exists, so ids are not told", async () => {
    const writes: Array<[string, Record<string, unknown>]> = [
      ["updateFund", { FundName: "x" }],
      ["depositMoneyToFund", { DepositAmount: 1 }],
      ["withdrawMoneyFromFund", { WithdrawAmount: 1 }],
      ["setFundStatus", { FundStatus: 2 }],
      ["setExpenseReportCustomStatus", { CustomStatus: "Pagado" }],
    ];
    for (const [name, fields] of writes) {
      const idAdmin = name === "setExpenseReportCustomStatus" ? 1003 : sandbox.managerId;
      const reply = await call(sandbox, name, { Id: 777_777, IdAdmin: idAdmin, ...fields });
      expect(reply.status, name).toBe(403);
      expect(reply.body.Error.Field, name).toBe("IdAdmin");
    }
  });
});
