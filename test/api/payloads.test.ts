/**
 * Answers shaped the way the real service and the proxies in front of it send them
 * (docs/real-apps-script.md, "The real service's types vary"): what each one becomes, and what a person reads of it.
 */
import { describe, expect, it } from "vitest";
import { type EndpointName, readResponse, ServiceError } from "../../src/api";
import { FUNDS_TABLE, rowOf } from "../../src/sheets/columns";
import { fixture, fixtureText } from "./fakes";

/** A token of the standard base64 alphabet: JSON encoders write its "/" as "\/". */
const TOKEN = "Ab3/kq+Zt9Ve7Lm2Xw4Rp8Cd1Hn6Jy0Fs5Gu/Qe4Tb7Wc2Na9Mz";

function caught(fn: () => unknown): Error & Record<string, unknown> {
  try {
    fn();
  } catch (err) {
    return err as Error & Record<string, unknown>;
  }
  throw new Error("expected a throw");
}

function read<N extends EndpointName>(name: N, body: string, status = 200, headers = {}) {
  return readResponse(name, { status, headers, body }, { now: 0, secrets: [TOKEN] });
}

describe("the token never comes back in an error, in whatever form the answer echoes it", () => {
  const escaped = TOKEN.replace(/\//g, "\\/");
  const forms = (message: string) => [
    message.includes(TOKEN),
    message.includes(escaped),
    message.includes(encodeURIComponent(TOKEN)),
    // Any long piece of it: a value cut short for a message still gives most of it away.
    message.includes(TOKEN.slice(0, 16)),
  ];

  it("a 401 body without a message member, with the token JSON-escaped", () => {
    const e = caught(() => read("getFunds", `{"valid":false,"token":"${escaped}"}`, 401));
    expect(forms(e.message)).toEqual([false, false, false, false]);
    expect(e.message).toContain("[redacted]");
  });

  it("an HTML page that echoes the token URL-encoded", () => {
    const body = `<html><body>No access for ?access_token=${encodeURIComponent(TOKEN)}</body></html>`;
    const e = caught(() => read("getFunds", body, 403));
    expect(forms(e.message)).toEqual([false, false, false, false]);
  });

  it("an HTML page that echoes the token URL-encoded with lowercase escapes (%2b, %2f)", () => {
    const lower = encodeURIComponent(TOKEN).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
    expect(lower).not.toBe(encodeURIComponent(TOKEN));
    const e = caught(() => read("getFunds", `<html><body>Denied: ${lower}</body></html>`, 403));
    expect(e.message).not.toContain(lower);
    expect(e.message).toContain("[redacted]");
  });

  it("a member of the wrong type that holds the token, shown cut short in the message", () => {
    const body = { ...(fixture("getFund.json") as object), Status: TOKEN };
    const e = caught(() => read("getFund", JSON.stringify(body)));
    expect(e.field ?? e.message).toBeTruthy();
    expect(forms(e.message)).toEqual([false, false, false, false]);
  });
});

describe("pages and bodies that are not the service's JSON", () => {
  it("a proxy's HTML error page: its title and text, not its markup, styles or scripts", () => {
    const e = caught(() => read("getFunds", fixtureText("error-page.502.html"), 502));
    expect(e.message).toBe(
      "getFunds: the service answered HTTP 502: 502 Bad Gateway: Bad Gateway The proxy server received an invalid response from an upstream server. nginx",
    );
  });

  it("an HTML page with HTTP 200 (a login page, a captive portal) says what it says", () => {
    const body =
      "<html><head><title>Sign in &amp; continue</title></head><body><p>Please&nbsp;sign in</p></body></html>";
    const e = caught(() => read("getFunds", body));
    expect(e.message).toBe(
      "getFunds: unexpected answer from the service at body: not JSON: Sign in & continue: Please sign in",
    );
    expect(e.outcome).toBe("unknown");
  });

  it("a 200 with an empty body: unexpected, and a write's outcome unknown", () => {
    const e = caught(() => read("depositMoneyToFund", " \r\n"));
    expect(e.message).toBe(
      "depositMoneyToFund: unexpected answer from the service at body: not JSON: (empty)",
    );
    expect(e.outcome).toBe("unknown");
  });

  it("JSON after a byte order mark reads as the JSON", () => {
    expect(read("getFund", `\uFEFF${fixtureText("getFund.json")}`).id).toBe(101);
  });
});

describe("an error inside a 200 on a write", () => {
  const fund = fixture("depositMoneyToFund.json") as Record<string, unknown>;

  it("alone, it says the write was not applied: refused", () => {
    const e = caught(() => read("depositMoneyToFund", JSON.stringify({ Error: "Fund is closed" })));
    expect(e).toBeInstanceOf(ServiceError);
    expect(e.outcome).toBe("refused");
  });

  it("beside the fund the deposit answers with, it may have landed: unknown, so it is settled by reading, never sent again", () => {
    for (const error of ["Could not send the notification e-mail", { Code: 500, Message: "Timeout" }]) {
      const e = caught(() => read("depositMoneyToFund", JSON.stringify({ ...fund, Error: error })));
      expect(e).toBeInstanceOf(ServiceError);
      expect(e.outcome).toBe("unknown");
    }
    const created = fixture("createFund.json") as object;
    expect(caught(() => read("createFund", JSON.stringify({ ...created, error: "Timeout" }))).outcome).toBe(
      "unknown",
    );
  });

  it("beside the record of a write that is harmless to send again (a custom status echoing its Id): refused", () => {
    const e = caught(() =>
      read(
        "setExpenseReportCustomStatus",
        JSON.stringify({ Id: 7001, Error: "Status not defined in the policy" }),
      ),
    );
    expect(e.outcome).toBe("refused");
  });

  it("beside a list a read asked for, it is still the read's error", () => {
    const list = fixture("getFunds.json") as object;
    const e = caught(() => read("getFunds", JSON.stringify({ ...list, Error: "Partial results" })));
    expect(e).toBeInstanceOf(ServiceError);
  });
});

describe("a member of the wrong shape in a list names the record by its Id", () => {
  it("an amount with a decimal comma in the fourth fund of a page: its place, its fund, the rule", () => {
    const list = fixture("getFunds.json") as { Funds: Record<string, unknown>[] };
    const funds = list.Funds.map((f, i) => (i === 1 ? { ...f, Balance: "1234,50" } : f));
    const e = caught(() => read("getFunds", JSON.stringify({ ...list, Funds: funds })));
    expect(e.field).toBe("Funds[1].Balance");
    expect(e.message).toBe(
      `getFunds: unexpected answer from the service at Funds[1].Balance: expected an amount (a number, or numeric text with a dot decimal point), got "1234,50" (fund ${list.Funds[1]?.Id})`,
    );
  });

  it("a date in another format in a report's list item, or a movement of a fund", () => {
    const list = fixture("getExpenseReports.json") as { ExpenseReports: Record<string, unknown>[] };
    const reports = list.ExpenseReports.map((r, i) => (i === 0 ? { ...r, SendDate: "05/01/2024" } : r));
    const e = caught(() => read("getExpenseReports", JSON.stringify({ ...list, ExpenseReports: reports })));
    expect(e.message).toMatch(
      new RegExp(
        `at ExpenseReports\\[0\\]\\.SendDate: .*"05/01/2024" \\(report ${list.ExpenseReports[0]?.Id}\\)$`,
      ),
    );
  });
});

describe("an answer of another shape that says why", () => {
  it("keeps the service's words beside the member it lacks; a write's outcome stays unknown", () => {
    const body = JSON.stringify({ success: false, message: "IdAdmin 7 cannot administer funds" });
    const e = caught(() => read("depositMoneyToFund", body));
    expect(e.message).toBe(
      "depositMoneyToFund: unexpected answer from the service at Id: expected an id (a whole number below 2^53, or its text), got nothing; the answer says: IdAdmin 7 cannot administer funds",
    );
    expect(e.detail).toContain("the answer says: IdAdmin 7 cannot administer funds");
    expect(e.outcome).toBe("unknown");
  });
});

describe("a list sent as an object of its positions (a PHP array with items filtered out)", () => {
  it("reads the funds of a page and the movements of a fund in order", () => {
    const list = fixture("getFunds.json") as { Funds: unknown[] };
    const asObject = Object.fromEntries(list.Funds.map((f, i) => [String(i * 2), f]).reverse());
    const read1 = read("getFunds", JSON.stringify({ ...list, Funds: asObject }));
    expect(read1).toEqual(read("getFunds", JSON.stringify(list)));
    const fund = fixture("getFund.json") as { Transactions: unknown[] };
    const moves = Object.fromEntries(fund.Transactions.map((t, i) => [String(i + 3), t]));
    expect(read("getFund", JSON.stringify({ ...fund, Transactions: moves }))).toEqual(
      read("getFund", JSON.stringify(fund)),
    );
  });

  it("an object of other keys is still no list, and says so", () => {
    const list = fixture("getFunds.json") as object;
    const e = caught(() => read("getFunds", JSON.stringify({ ...list, Funds: { first: {} } })));
    expect(e.field).toBe("Funds");
  });
});

describe("an Error member that reports no error", () => {
  it.each([[[]], [{}], ["  "], ["null"]])("Error: %j beside the record is the record", (error) => {
    const body = { ...(fixture("depositMoneyToFund.json") as object), Error: error };
    expect(read("depositMoneyToFund", JSON.stringify(body)).id).toBe(
      (fixture("depositMoneyToFund.json") as { Id: number }).Id,
    );
  });

  it("a list of errors that holds one is an error", () => {
    const e = caught(() => read("getFunds", JSON.stringify({ Error: ["Fund 12 is closed"] })));
    expect(e).toBeInstanceOf(ServiceError);
  });
});

describe("a report's files in other shapes", () => {
  const report = fixture("getExpenseReport.json") as Record<string, unknown>;
  const file = { Name: "boleta.pdf", Url: "https://files.example/boleta.pdf" };

  it("one file sent as itself, or the list as an object of positions, reads as the list", () => {
    expect(read("getExpenseReport", JSON.stringify({ ...report, Files: file })).files).toEqual([file]);
    expect(
      read(
        "getExpenseReport",
        JSON.stringify({ ...report, Files: { "1": file, "0": { ...file, Name: "a" } } }),
      ).files,
    ).toEqual([{ ...file, Name: "a" }, file]);
  });
});

describe("an empty list without its Records", () => {
  it.each([
    ["getFunds", { Records: null, Funds: [] }],
    ["getFunds", { Funds: null }],
    ["getExpenseReports", { ExpenseReports: [] }],
    ["getExpenseReports", { Records: null, ExpenseReports: "" }],
  ] as const)("%s %j is a list of nothing", (name, body) => {
    const list = read(name, JSON.stringify(body)) as { records: { pages: number; totalRecords: number } };
    expect(list.records).toMatchObject({ totalRecords: 0, pages: 0 });
    expect(Object.values(list).find(Array.isArray)).toEqual([]);
  });

  it("without Records beside items, or with neither, it is still unread, naming Records", () => {
    const funds = (fixture("getFunds.json") as { Funds: unknown[] }).Funds;
    expect(caught(() => read("getFunds", JSON.stringify({ Funds: funds }))).field).toBe("Records");
    expect(caught(() => read("getFunds", "{}")).field).toBe("Records");
  });
});

describe("a fund's movement of a type the contract does not list", () => {
  const fund = fixture("getFund.json") as { Transactions: unknown[] };
  const body = {
    ...fund,
    Transactions: [
      ...fund.Transactions,
      {
        TransactionType: "3",
        TransactionTypeName: "Ajuste",
        TransactionAmount: "5.00",
        TransactionDate: "2024-05-02",
      },
    ],
  };

  it("is read with its number and its name; the fund still reads, its other movements unchanged", () => {
    const read1 = read("getFund", JSON.stringify(body));
    expect(read1.transactions?.slice(0, -1)).toEqual(read("getFund", JSON.stringify(fund)).transactions);
    expect(read1.transactions?.at(-1)).toEqual({
      type: 3,
      typeName: "Ajuste",
      amountCents: 500,
      date: "2024-05-02",
    });
  });

  it("in the answer to a deposit too, so the write settles", () => {
    expect(read("depositMoneyToFund", JSON.stringify(body)).transactions).toHaveLength(
      body.Transactions.length,
    );
  });

  it("a type that is no whole number is still unread, naming the movement", () => {
    const bad = { ...fund, Transactions: [{ ...(fund.Transactions[0] as object), TransactionType: "x" }] };
    expect(caught(() => read("getFund", JSON.stringify(bad))).field).toBe("Transactions[0].TransactionType");
  });
});

describe("extra fields whose values are of any JSON type", () => {
  const report = fixture("getExpenseReport.json") as Record<string, unknown>;
  it.each([
    [["Norte", "Sur"], '["Norte","Sur"]'],
    [{ id: 4, label: "Norte" }, '{"id":4,"label":"Norte"}'],
    [12.5, "12.5"],
    [0, "0"],
    [false, "false"],
    [null, ""],
  ])("%j reads as the text %j", (value, text) => {
    const body = { ...report, ExtraFields: [{ Name: "Zona", Value: value, Code: null }] };
    expect(read("getExpenseReport", JSON.stringify(body)).extraFields).toEqual([
      { name: "Zona", value: text, code: "" },
    ]);
  });

  it("inside ExtraFields given as JSON text of names to values, too", () => {
    const body = { ...report, ExtraFields: JSON.stringify({ Zona: ["Norte"], Km: 12 }) };
    expect(read("getExpenseReport", JSON.stringify(body)).extraFields).toEqual([
      { name: "Zona", value: '["Norte"]', code: "" },
      { name: "Km", value: "12", code: "" },
    ]);
  });
});

describe("the answer to marking a report integrated, with its status as a flag", () => {
  const answer = fixture("setExpenseReportIntegration.json") as Record<string, unknown>;
  it.each([
    [true, 1],
    ["true", 1],
    ["1", 1],
    [false, 0],
    ["0", 0],
  ])("IntegrationStatus %j reads as %j", (flag, status) => {
    const body = { ...answer, IntegrationStatus: flag };
    expect(read("setExpenseReportIntegration", JSON.stringify(body)).integrationStatus).toBe(status);
  });

  it("anything else is unexpected, naming the member", () => {
    const body = { ...answer, IntegrationStatus: "yes" };
    expect(caught(() => read("setExpenseReportIntegration", JSON.stringify(body))).field).toBe(
      "IntegrationStatus",
    );
  });
});

describe("a body that is not text (compressed, cut binary)", () => {
  const binary = "\u001f\u008b\b\u0000\u0000\u0000\u0000\u0000\u0000\u0003«V JMÎ/J)V²ªV";
  it("says so, without its bytes, in a 200 and in an error status", () => {
    for (const status of [200, 502]) {
      const message = caught(() => read("getFunds", binary, status)).message;
      expect(message).toContain("binary");
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
      expect(message).not.toMatch(/[\u0000-\u0008\u000e-\u001f]/);
    }
  });
});

describe("ids beyond what a number holds exactly (2^53)", () => {
  const fund = fixture("getFund.json") as Record<string, unknown>;
  it("as a number: names the member and the rule, and that the number was rounded", () => {
    const err = caught(() =>
      read("getFund", JSON.stringify(fund).replace('"Id":101', '"Id":9007199254740993')),
    );
    expect(err.field).toBe("Id");
    expect(err.message).toContain("2^53");
    expect(err.message).toContain("rounded");
  });

  it("as text: names the member and the rule; text of 16 digits within it reads", () => {
    expect(
      caught(() => read("getFund", JSON.stringify({ ...fund, Id: "9007199254740993" }))).message,
    ).toContain("2^53");
    expect(read("getFund", JSON.stringify({ ...fund, Id: "9007199254740991" })).id).toBe(9007199254740991);
  });
});

describe("the service's words given as a list", () => {
  it.each([
    [
      200,
      {
        statusCode: 400,
        message: ["DepositAmount must be positive", "Id must be a number"],
        error: "Bad Request",
      },
    ],
    [
      400,
      {
        statusCode: 400,
        message: ["DepositAmount must be positive", "Id must be a number"],
        error: "Bad Request",
      },
    ],
    [200, { Error: ["DepositAmount must be positive", "Id must be a number"] }],
    [422, { errors: [{ message: "DepositAmount must be positive" }, { message: "Id must be a number" }] }],
  ])("HTTP %s %j: every reason, joined", (status, body) => {
    expect(caught(() => read("depositMoneyToFund", JSON.stringify(body), status)).message).toContain(
      "DepositAmount must be positive; Id must be a number",
    );
  });

  it("an Error object with a Description: its words", () => {
    const body = { Error: { Code: 12, Description: "Fondo cerrado" } };
    expect(caught(() => read("setFundStatus", JSON.stringify(body))).message).toMatch(
      /answer: Fondo cerrado$/,
    );
  });
});

describe("a report status the contract does not list", () => {
  it("is read as its number, in a list and alone; text that is no number is still unread", () => {
    const list = fixture("getExpenseReports.json") as { ExpenseReports: Record<string, unknown>[] };
    const body = { ...list, ExpenseReports: [{ ...list.ExpenseReports[0], Status: "2" }] };
    expect(read("getExpenseReports", JSON.stringify(body)).expenseReports[0]?.status).toBe(2);
    const report = fixture("getExpenseReport.json") as Record<string, unknown>;
    expect(read("getExpenseReport", JSON.stringify({ ...report, Status: 3 })).status).toBe(3);
    expect(
      caught(() => read("getExpenseReport", JSON.stringify({ ...report, Status: "closed" }))).field,
    ).toBe("Status");
  });
});

describe("a fund status the contract does not list", () => {
  it("is read as its number, in a list and alone, and the Funds sheet shows that number; text that is no number is still unread", () => {
    const list = fixture("getFunds.json") as { Funds: Record<string, unknown>[] };
    const body = {
      ...list,
      Funds: [
        { ...list.Funds[0], Status: "5" },
        { ...list.Funds[0], Status: 0 },
      ],
    };
    const funds = read("getFunds", JSON.stringify(body)).funds;
    expect(funds.map((f) => f.status)).toEqual([5, 0]);
    expect(
      funds.map((f) => rowOf(FUNDS_TABLE, f, "en")[FUNDS_TABLE.columns.findIndex((c) => c.key === "status")]),
    ).toEqual(["5", "0"]);
    const fund = fixture("getFund.json") as Record<string, unknown>;
    expect(read("getFund", JSON.stringify({ ...fund, Status: 4 })).status).toBe(4);
    expect(caught(() => read("getFund", JSON.stringify({ ...fund, Status: "open" }))).field).toBe("Status");
  });
});
