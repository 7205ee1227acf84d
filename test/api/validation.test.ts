import { describe, expect, it } from "vitest";
import {
  ENDPOINT_NAMES,
  ENDPOINTS,
  type EndpointName,
  issuesByField,
  MAX_EXACT_CENTS,
  totalsAfterProblem,
  totalsAfterText,
  validateRequest,
} from "../../src/api";
import { SPEC_ENDPOINTS } from "../support/endpoint-names";

const createFund = { IdEmployee: 42, IdAdmin: 7, FundName: "Caja", FundCurrency: "CLP", FundAmount: 1000 };
const updateFund = { Id: 300, IdAdmin: 7, FundName: "Caja" };
const integration = { Id: 7001, IntegrationStatus: 1 };
const customStatus = { Id: 7001, IdAdmin: 7, CustomStatus: "Pagado" };
const reports = { Since: "2024-01-01", Until: "2024-01-31" };
const TODAY = { today: "2024-06-15" };

/** The one issue of a refused request (fails the test if there is not exactly one). */
function onlyIssue(name: EndpointName, input: unknown, today = TODAY) {
  const r = validateRequest(name, input, today);
  if (r.ok) throw new Error(`expected ${name} to refuse ${JSON.stringify(input)}`);
  expect(r.issues).toHaveLength(1);
  return r.issues[0]!;
}

describe("every endpoint is described once", () => {
  it("lists the 11 endpoints of the spec with method, path, place of parameters and kind", () => {
    expect(ENDPOINT_NAMES).toEqual(SPEC_ENDPOINTS);
    const summary = ENDPOINT_NAMES.map((n) => {
      const e = ENDPOINTS[n];
      return [n, e.method, e.fallbackMethod ?? "", e.path, e.in, e.kind].join(" ");
    });
    expect(summary).toEqual([
      "getFunds GET  /getFunds query read",
      "getFund GET  /getFund query read",
      "createFund POST  /createFund body write",
      "updateFund PUT  /updateFund body write",
      "depositMoneyToFund POST  /depositMoneyToFund body write",
      "withdrawMoneyFromFund POST  /withdrawMoneyFromFund body write",
      "setFundStatus PUT  /setFundStatus body write",
      "getExpenseReports GET  /getExpenseReports query read",
      "getExpenseReport GET  /getExpenseReport query read",
      "setExpenseReportIntegration PUT POST /setExpenseReportIntegration body write",
      "setExpenseReportCustomStatus PUT POST /setExpenseReportCustomStatus body write",
    ]);
  });
});

describe("required fields", () => {
  it.each([
    ["getFund", {}, ["Id"]],
    ["getExpenseReport", {}, ["Id"]],
    ["createFund", {}, ["IdEmployee", "IdAdmin", "FundName", "FundCurrency", "FundAmount"]],
    ["updateFund", {}, ["Id", "IdAdmin", "FundName"]],
    ["depositMoneyToFund", {}, ["Id", "IdAdmin", "DepositAmount"]],
    ["withdrawMoneyFromFund", {}, ["Id", "IdAdmin", "WithdrawAmount"]],
    ["setFundStatus", {}, ["Id", "IdAdmin", "FundStatus"]],
    ["getExpenseReports", {}, ["Since"]],
    ["setExpenseReportIntegration", {}, ["Id", "IntegrationStatus"]],
    ["setExpenseReportCustomStatus", {}, ["Id", "IdAdmin", "CustomStatus"]],
  ] as const)("%s requires %j", (name, input, fields) => {
    const r = validateRequest(name, input, TODAY);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => [i.field, i.rule])).toEqual(fields.map((f) => [f, "required"]));
    expect(r.issues[0]!.message).toBe(`${fields[0]} is required.`);
  });

  it("treats blank cells and null as absent", () => {
    expect(onlyIssue("getFund", { Id: "  " }).rule).toBe("required");
    expect(onlyIssue("getFund", { Id: null }).rule).toBe("required");
    const r = validateRequest("getFunds", { Status: "", Order: null, Page: undefined });
    expect(r).toEqual({ ok: true, value: {} });
  });

  it("accepts getFunds with no parameters at all", () => {
    expect(validateRequest("getFunds", undefined)).toEqual({ ok: true, value: {} });
  });
});

describe("string lengths", () => {
  const cases = [
    ["createFund", createFund, "FundName", 200],
    ["updateFund", updateFund, "FundName", 200],
    ["createFund", createFund, "FundCode", 50],
    ["updateFund", updateFund, "FundCode", 50],
    ["createFund", createFund, "FundComment", 255],
    ["updateFund", updateFund, "FundComment", 255],
    ["getExpenseReports", reports, "IntegrationCode", 255],
    ["setExpenseReportIntegration", integration, "IntegrationCode", 255],
    ["setExpenseReportCustomStatus", customStatus, "CustomStatus", 20],
    ["setExpenseReportCustomStatus", customStatus, "CustomMessage", 255],
  ] as const;

  it.each(cases)("%s.%s accepts %d-1 and %d characters", (name, base, field, max) => {
    for (const length of [max - 1, max]) {
      const r = validateRequest(name, { ...base, [field]: "x".repeat(length) }, TODAY);
      expect(r.ok, `${field} of ${length}`).toBe(true);
    }
  });

  it.each(cases)("%s.%s refuses one character over %d", (name, base, field, max) => {
    const issue = onlyIssue(name, { ...base, [field]: "x".repeat(max + 1) });
    expect(issue).toMatchObject({ field, rule: "maxLength", params: { max, length: max + 1 } });
    expect(issue.message).toBe(`${field} must be at most ${max} characters long (got ${max + 1}).`);
  });

  it("counts characters, not UTF-16 units (accents and emoji are one character each)", () => {
    expect(
      validateRequest("setExpenseReportCustomStatus", { ...customStatus, CustomStatus: "é".repeat(20) }).ok,
    ).toBe(true);
    expect(
      validateRequest("setExpenseReportCustomStatus", { ...customStatus, CustomStatus: "😀".repeat(20) }).ok,
    ).toBe(true);
    expect(
      onlyIssue("setExpenseReportCustomStatus", { ...customStatus, CustomStatus: "😀".repeat(21) }).rule,
    ).toBe("maxLength");
  });

  it("trims text and takes numbers from cells as text", () => {
    const r = validateRequest("createFund", { ...createFund, FundName: "  Caja  ", FundCode: 123 });
    expect(r.ok && r.value.FundName).toBe("Caja");
    expect(r.ok && r.value.FundCode).toBe("123");
  });

  it("refuses a non-text value for a text field", () => {
    expect(onlyIssue("createFund", { ...createFund, FundName: true })).toMatchObject({
      field: "FundName",
      rule: "text",
    });
  });
});

describe("currency", () => {
  it.each([
    ["createFund", createFund, "FundCurrency"],
    ["getExpenseReports", reports, "Currency"],
  ] as const)("%s.%s takes exactly three letters, upper-cased", (name, base, field) => {
    const r = validateRequest(name, { ...base, [field]: "usd" }, TODAY);
    expect(r.ok && (r.value as Record<string, unknown>)[field]).toBe("USD");
    for (const bad of ["US", "USDD", "U5D", "$$$", 840]) {
      const issue = onlyIssue(name, { ...base, [field]: bad });
      expect(issue).toMatchObject({ field, rule: "currency" });
      expect(issue.message).toContain("3-letter currency code");
    }
  });
});

describe("amounts", () => {
  const cases = [
    ["createFund", createFund, "FundAmount"],
    ["depositMoneyToFund", { Id: 1, IdAdmin: 7 }, "DepositAmount"],
    ["withdrawMoneyFromFund", { Id: 1, IdAdmin: 7 }, "WithdrawAmount"],
  ] as const;

  it.each(cases)("%s.%s becomes integer cents", (name, base, field) => {
    for (const [input, cents] of [
      [0.01, 1],
      ["0.01", 1],
      ["1234.5", 123450],
      [1234.56, 123456],
    ] as const) {
      const r = validateRequest(name, { ...base, [field]: input });
      expect(r.ok && (r.value as Record<string, unknown>)[field]).toBe(cents);
    }
  });

  it.each(cases)("%s.%s must be positive: 0.01 passes, 0 and -0.01 do not", (name, base, field) => {
    expect(onlyIssue(name, { ...base, [field]: 0 })).toMatchObject({ field, rule: "amountPositive" });
    expect(onlyIssue(name, { ...base, [field]: "-0.01" })).toMatchObject({ field, rule: "amountPositive" });
  });

  it.each(cases)("%s.%s allows two decimals, not three", (name, base, field) => {
    expect(validateRequest(name, { ...base, [field]: "10.25" }).ok).toBe(true);
    const issue = onlyIssue(name, { ...base, [field]: "10.255" });
    expect(issue).toMatchObject({ field, rule: "amountDecimals" });
    expect(issue.message).toBe(`${field} must have at most two decimals (got "10.255").`);
  });

  it.each(cases)("%s.%s refuses a comma decimal and says to use a dot", (name, base, field) => {
    for (const bad of ["1.234,50", "12,5"]) {
      const issue = onlyIssue(name, { ...base, [field]: bad });
      expect(issue).toMatchObject({ field, rule: "amountComma" });
      expect(issue.message).toContain("dot as the decimal separator");
      expect(issue.message.startsWith(field)).toBe(true);
    }
  });

  it("accepts a caller's integer cents as { cents }", () => {
    const r = validateRequest("depositMoneyToFund", { Id: 1, IdAdmin: 7, DepositAmount: { cents: 5050 } });
    expect(r.ok && r.value.DepositAmount).toBe(5050);
  });

  // The bound is the largest amount the service's answers can carry back exactly (MAX_EXACT_CENTS).
  it.each(cases)("%s.%s: 9999999999999.99 and below pass, above is refused", (name, base, field) => {
    for (const [input, cents] of [
      ["9999999999999.99", MAX_EXACT_CENTS],
      ["9999999999999.98", MAX_EXACT_CENTS - 1],
      [9999999999999.99, MAX_EXACT_CENTS],
      [{ cents: MAX_EXACT_CENTS }, MAX_EXACT_CENTS],
    ] as const) {
      const r = validateRequest(name, { ...base, [field]: input });
      expect(r.ok && (r.value as Record<string, unknown>)[field]).toBe(cents);
    }
    for (const above of [
      "10000000000000",
      "10000000000000.00",
      10000000000000,
      { cents: MAX_EXACT_CENTS + 1 },
    ]) {
      expect(onlyIssue(name, { ...base, [field]: above })).toMatchObject({
        field,
        rule: "amountTooLarge",
        params: { max: "9999999999999.99" },
      });
    }
  });

  it("an amount above the bound is refused naming the field and the rule, in English and Spanish", () => {
    const input = { Id: 1, IdAdmin: 7, DepositAmount: "10000000000000.00" };
    expect(onlyIssue("depositMoneyToFund", input).message).toBe(
      'DepositAmount must be at most 9999999999999.99: the add-on cannot read larger amounts back exactly (got "10000000000000.00").',
    );
    const es = validateRequest("depositMoneyToFund", input, { ...TODAY, language: "es" });
    expect(!es.ok && es.issues.map((i) => i.message)).toEqual([
      'DepositAmount debe ser como máximo 9999999999999.99: el complemento no puede volver a leer con exactitud montos mayores (se recibió "10000000000000.00").',
    ]);
  });
});

describe("fund totals after a movement", () => {
  const totals = { depositsCents: 15_000_000, withdrawalsCents: 2_000_050, balanceCents: 12_999_950 };

  it("is no issue while every total stays within 9,999,999,999,999.99", () => {
    expect(totalsAfterProblem("DepositAmount", totals, "deposit", MAX_EXACT_CENTS - 15_000_000)).toBeNull();
    expect(totalsAfterProblem("WithdrawAmount", totals, "withdrawal", 500)).toBeNull();
    expect(
      totalsAfterText("en", "DepositAmount", totals, "deposit", MAX_EXACT_CENTS - 15_000_000),
    ).toBeNull();
  });

  it("names the amount's field, the total and the bound, in English and Spanish", () => {
    const amount = MAX_EXACT_CENTS - 15_000_000 + 1;
    expect(totalsAfterProblem("DepositAmount", totals, "deposit", amount)).toEqual({
      field: "DepositAmount",
      rule: "totalTooLarge",
      params: {
        total: "Deposits",
        after: "10000000000000.00",
        max: "9999999999999.99",
        got: "9999999850000.00",
      },
    });
    expect(totalsAfterText("en", "DepositAmount", totals, "deposit", amount)).toBe(
      'DepositAmount: with this amount the fund\'s Deposits would reach 10000000000000.00, above 9999999999999.99, the largest total the add-on can read back exactly; nothing was sent (got "9999999850000.00").',
    );
    expect(totalsAfterText("es", "Monto", totals, "deposit", amount)).toBe(
      'Monto: con este monto el total Deposits del fondo llegaría a 10000000000000.00, más que 9999999999999.99, el mayor total que el complemento puede volver a leer con exactitud; no se envió nada (se recibió "9999999850000.00").',
    );
  });
});

describe("dates and datetimes", () => {
  it.each([
    ["getFunds", {}, "From"],
    ["getFunds", {}, "To"],
    ["getExpenseReports", reports, "Since"],
    ["getExpenseReports", reports, "Until"],
    ["getExpenseReports", reports, "IntegrationDate"],
    ["createFund", { ...createFund, FundExpiration: true }, "FundExpirationDate"],
    ["updateFund", { ...updateFund, FundExpiration: true }, "FundExpirationDate"],
  ] as const)("%s.%s must be a calendar date YYYY-MM-DD", (name, base, field) => {
    const value = field === "Since" ? "2024-01-05" : "2024-01-20";
    expect(validateRequest(name, { ...base, [field]: value }, TODAY).ok).toBe(true);
    for (const bad of [
      "2024-1-05",
      "05/01/2024",
      "2023-02-29",
      "2024-13-01",
      "2024-01-20 10:00:00",
      20240120,
    ]) {
      const issue = onlyIssue(name, { ...base, [field]: bad });
      expect(issue).toMatchObject({ field, rule: "date" });
      expect(issue.message).toContain("YYYY-MM-DD");
    }
  });

  it("takes a leap day and a cell's Date", () => {
    const r = validateRequest("getFunds", { From: "2024-02-29", To: new Date(2024, 2, 5) });
    expect(r).toEqual({ ok: true, value: { From: "2024-02-29", To: "2024-03-05" } });
  });

  it("IntegrationDate of setExpenseReportIntegration is a datetime YYYY-MM-DD HH:MM:SS", () => {
    const ok = validateRequest("setExpenseReportIntegration", {
      ...integration,
      IntegrationDate: "2024-04-21 23:59:59",
    });
    expect(ok.ok).toBe(true);
    const fromDate = validateRequest("setExpenseReportIntegration", {
      ...integration,
      IntegrationDate: new Date(2024, 3, 21, 8, 5, 9),
    });
    expect(fromDate.ok && fromDate.value.IntegrationDate).toBe("2024-04-21 08:05:09");
    for (const bad of [
      "2024-04-21",
      "2024-04-21T08:30:00",
      "2024-04-21 24:00:00",
      "2024-04-21 08:60:00",
      "2024-04-31 08:00:00",
    ]) {
      expect(
        onlyIssue("setExpenseReportIntegration", { ...integration, IntegrationDate: bad }),
      ).toMatchObject({
        field: "IntegrationDate",
        rule: "datetime",
      });
    }
  });

  it("refuses To before From", () => {
    expect(onlyIssue("getFunds", { From: "2024-02-01", To: "2024-01-31" })).toMatchObject({
      field: "To",
      rule: "dateOrder",
    });
    expect(validateRequest("getFunds", { From: "2024-02-01", To: "2024-02-01" }).ok).toBe(true);
  });

  it("FundExpirationDate needs FundExpiration true", () => {
    const issue = onlyIssue("createFund", { ...createFund, FundExpirationDate: "2024-12-31" });
    expect(issue).toMatchObject({ field: "FundExpirationDate", rule: "dependsOn" });
    expect(issue.message).toContain("FundExpiration");
    expect(
      onlyIssue("updateFund", { ...updateFund, FundExpiration: false, FundExpirationDate: "2024-12-31" })
        .rule,
    ).toBe("dependsOn");
  });
});

describe("the one-year rule of getExpenseReports", () => {
  it("accepts exactly one year between Since and Until, refuses one day more", () => {
    expect(validateRequest("getExpenseReports", { Since: "2023-03-10", Until: "2024-03-10" }, TODAY).ok).toBe(
      true,
    );
    expect(validateRequest("getExpenseReports", { Since: "2023-03-10", Until: "2024-03-09" }, TODAY).ok).toBe(
      true,
    );
    const issue = onlyIssue("getExpenseReports", { Since: "2023-03-10", Until: "2024-03-11" });
    expect(issue).toMatchObject({ field: "Until", rule: "dateRange", params: { latest: "2024-03-10" } });
    expect(issue.message).toContain("at most one year");
  });

  it("measures to today when Until is absent", () => {
    expect(validateRequest("getExpenseReports", { Since: "2023-06-15" }, TODAY).ok).toBe(true);
    const issue = onlyIssue("getExpenseReports", { Since: "2023-06-14" });
    expect(issue).toMatchObject({ field: "Since", rule: "dateRange", params: { until: "2024-06-15" } });
    expect(issue.message).toContain("to today");
  });

  it("counts a year from 29 February up to 28 February", () => {
    expect(validateRequest("getExpenseReports", { Since: "2024-02-29", Until: "2025-02-28" }, TODAY).ok).toBe(
      true,
    );
    expect(onlyIssue("getExpenseReports", { Since: "2024-02-29", Until: "2025-03-01" }).rule).toBe(
      "dateRange",
    );
  });

  it("refuses Until before Since", () => {
    expect(onlyIssue("getExpenseReports", { Since: "2024-02-01", Until: "2024-01-01" }).rule).toBe(
      "dateOrder",
    );
  });
});

describe("integers, ids and status values", () => {
  it("ids are whole numbers of at least 1, as numbers or numeric text", () => {
    expect(validateRequest("getFund", { Id: "00012" })).toEqual({ ok: true, value: { Id: 12 } });
    expect(validateRequest("getFund", { Id: 1 }).ok).toBe(true);
    expect(onlyIssue("getFund", { Id: 0 })).toMatchObject({ field: "Id", rule: "min", params: { min: 1 } });
    for (const bad of [1.5, "1.0", "12a", "1e3", true, Number.NaN]) {
      expect(onlyIssue("getFund", { Id: bad })).toMatchObject({ field: "Id", rule: "integer" });
    }
  });

  it("Page and ResultsPerPage start at 1", () => {
    for (const field of ["Page", "ResultsPerPage"]) {
      expect(validateRequest("getFunds", { [field]: 1 }).ok).toBe(true);
      expect(onlyIssue("getFunds", { [field]: 0 })).toMatchObject({ field, rule: "min" });
    }
  });

  it.each([
    ["getFunds", {}, "Status", [1, 2, 3], [0, 4]],
    ["getFunds", {}, "OrderBy", [1, 2], [0, 3]],
    ["setFundStatus", { Id: 1, IdAdmin: 7 }, "FundStatus", [1, 2, 3], [0, 4]],
    ["getExpenseReports", reports, "TypeDateFilter", [1, 2], [0, 3]],
    ["getExpenseReports", reports, "Status", [0, 1], [-1, 2]],
    ["getExpenseReports", reports, "IntegrationStatus", [0, 1], [-1, 2]],
    ["getExpenseReports", reports, "OrderBy", [1, 2, 3], [0, 4]],
    ["setExpenseReportIntegration", { Id: 1 }, "IntegrationStatus", [0, 1], [-1, 2]],
  ] as const)("%s.%s takes %j and refuses %j", (name, base, field, good, bad) => {
    for (const v of good) {
      const r = validateRequest(name, { ...base, [field]: String(v) }, TODAY);
      expect(r.ok && (r.value as Record<string, unknown>)[field]).toBe(v);
    }
    for (const v of bad) {
      const issue = onlyIssue(name, { ...base, [field]: v });
      expect(issue).toMatchObject({ field, rule: "oneOf" });
      expect(issue.message).toContain(good.join(", "));
    }
  });

  it("Order is ASC or DESC, any case", () => {
    const r = validateRequest("getFunds", { Order: "asc" });
    expect(r.ok && r.value.Order).toBe("ASC");
    expect(onlyIssue("getExpenseReports", { ...reports, Order: "UP" })).toMatchObject({
      field: "Order",
      rule: "oneOf",
    });
  });

  it("flags take booleans, 1/0 and text", () => {
    for (const [input, value] of [
      [true, true],
      ["1", true],
      ["TRUE", true],
      [0, false],
      ["false", false],
    ] as const) {
      const r = validateRequest("createFund", { ...createFund, FundFlexibility: input });
      expect(r.ok && r.value.FundFlexibility).toBe(value);
    }
    expect(onlyIssue("createFund", { ...createFund, FundAutoBlock: "yes" })).toMatchObject({
      field: "FundAutoBlock",
      rule: "boolean",
    });
  });
});

describe("the request as a whole", () => {
  it("refuses unknown parameters by name", () => {
    const issue = onlyIssue("getFund", { Id: 1, id: 2 });
    expect(issue).toMatchObject({ field: "id", rule: "unknownField" });
    expect(issue.message).toBe("id is not a parameter of getFund.");
  });

  it("refuses something that is not an object", () => {
    for (const bad of ["Id=1", 5, [1], null]) {
      expect(onlyIssue("getFund", bad)).toMatchObject({ field: "request", rule: "request" });
    }
  });

  it("reports every broken rule at once, each under its field", () => {
    const r = validateRequest("createFund", {
      IdEmployee: "x",
      IdAdmin: 7,
      FundName: "",
      FundCurrency: "PESOS",
      FundAmount: "1,5",
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(issuesByField(r.issues)).toEqual({
      IdEmployee: ['IdEmployee must be a whole number (got "x").'],
      FundName: ["FundName is required."],
      FundCurrency: ['FundCurrency must be a 3-letter currency code such as CLP or USD (got "PESOS").'],
      FundAmount: [
        'FundAmount contains a comma: write amounts with a dot as the decimal separator and no thousands separator, e.g. 1234.50 (got "1,5").',
      ],
    });
  });

  it("speaks Spanish when asked", () => {
    const r = validateRequest("createFund", { ...createFund, FundAmount: "12,5" }, { language: "es" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]!.message).toContain("punto decimal");
  });

  it("refuses an unknown endpoint name without throwing", () => {
    const r = validateRequest("deleteFund" as EndpointName, {});
    expect(r.ok).toBe(false);
  });

  it("the zod request schema applies the same rules for the sandbox", () => {
    expect(
      ENDPOINTS.depositMoneyToFund.request.safeParse({ Id: "1", IdAdmin: "7", DepositAmount: "10.5" }).data,
    ).toEqual({
      Id: 1,
      IdAdmin: 7,
      DepositAmount: 1050,
    });
    expect(ENDPOINTS.getFunds.request.safeParse({ From: "2024-02-01", To: "2024-01-01" }).success).toBe(
      false,
    );
  });
});
