/**
 * The journal of a month: each report of the month in exactly one voucher, vouchers per company
 * and currency balanced to the cent, currencies never mixed, a report without its account
 * blocked with the reason and never booked to a default; voucher codes from the pattern.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ExpenseReport } from "../../src/api/types";
import type { AccountRow } from "../../src/close/accounts";
import { buildJournal, type CompanyClose, journalLines, journalProblems } from "../../src/close/journal";
import { DEFAULT_VOUCHER_PATTERN, voucherCode, voucherCodes } from "../../src/close/voucher";
import { makeReport } from "../refresh/fakes";

const MONTH = "2026-11";

function report(id: number, over: Partial<ExpenseReport> = {}): ExpenseReport {
  return { ...makeReport(id, "2026-11-15"), ...over };
}

const ACCOUNTS: AccountRow[] = [
  { company: "c0", kind: "policy", key: "3", account: "6100", row: 2 },
  { company: "c0", kind: "fund", key: "77", account: "1105", row: 3 },
  { company: "c0", kind: "employee", key: "", account: "2105", row: 4 },
  { company: "c1", kind: "policy", key: "3", account: "E-610", row: 5 },
  { company: "c1", kind: "employee", key: "", account: "E-210", row: 6 },
];

const options = {
  month: MONTH,
  currency: null as string | null,
  pattern: DEFAULT_VOUCHER_PATTERN,
  accounts: ACCOUNTS,
};

function built(companies: CompanyClose[], over: Partial<typeof options> = {}) {
  const result = buildJournal(companies, { ...options, ...over });
  if (!result.ok) throw new Error(`pattern problem ${JSON.stringify(result.problem)}`);
  return result;
}

describe("the journal", () => {
  it("books each report once: a debit to its policy's account, a credit to its fund's or the employee payable", () => {
    const reports = [
      report(1, { fundId: 77, fundName: "Caja", reportTotalApprovedCents: 10_050 }),
      report(2, { employeeIdentification: "12.345.678-9", reportTotalApprovedCents: 2_001 }),
      report(2, { reportTotalApprovedCents: 2_001 }), // read twice: booked once
    ];
    const { vouchers, blocked } = built([{ company: "c0", companyName: "Alpha", reports }]);
    expect(blocked).toEqual([]);
    expect(vouchers).toHaveLength(1);
    const [v] = vouchers;
    expect(v?.code).toBe("202611001");
    expect(v?.debitCents).toBe(12_051);
    expect(v?.creditCents).toBe(12_051);
    expect(v?.reports).toBe(2);
    expect(v?.date).toBe("2026-11-30");
    expect(v?.lines.map((l) => [l.reportId, l.account, l.debitCents, l.creditCents])).toEqual([
      [1, "6100", 10_050, 0],
      [1, "1105", 0, 10_050],
      [2, "6100", 2_001, 0],
      [2, "2105", 0, 2_001],
    ]);
    expect(v?.lines[3]?.employeeIdentification).toBe("12.345.678-9");
    expect(v?.lines[3]?.description).toBe("000002 · Ana (12.345.678-9)");
  });

  it("makes one voucher per company and currency, and never mixes currencies", () => {
    const alpha = [report(1), report(2, { currency: "USD", reportTotalApprovedCents: 99 }), report(3)];
    const beta = [report(1, { currency: "USD" })];
    const { vouchers } = built([
      { company: "c0", companyName: "Alpha", reports: alpha },
      { company: "c1", companyName: "Beta", reports: beta },
    ]);
    expect(vouchers.map((v) => [v.company, v.currency, v.code, v.reports])).toEqual([
      ["c0", "CLP", "202611001", 2],
      ["c0", "USD", "202611002", 1],
      ["c1", "USD", "202611001", 1],
    ]);
    for (const v of vouchers) expect(new Set(v.lines.map((l) => l.currency))).toEqual(new Set([v.currency]));
    expect(vouchers[2]?.lines.map((l) => l.account)).toEqual(["E-610", "E-210"]);
  });

  it("takes only the month's closed, not integrated reports of the currency asked", () => {
    const reports = [
      report(1),
      report(2, { closeDate: "2026-10-31" }),
      report(3, { status: 0 }),
      report(4, { integrated: true }),
      report(5, { currency: "USD" }),
    ];
    const { vouchers } = built([{ company: "c0", companyName: "Alpha", reports }], { currency: "CLP" });
    expect(journalLines(vouchers).map((l) => l.reportId)).toEqual([1, 1]);
  });

  it("blocks a report whose account cannot be found, with the reason, and books no default", () => {
    const reports = [
      report(1, { policyId: 9, policyName: "Travel" }),
      report(2, { fundId: 55, fundName: "Petty cash" }),
      report(3, { reportTotalApprovedCents: 0 }),
      report(4),
    ];
    const accounts = ACCOUNTS.filter((a) => a.kind !== "employee");
    const { vouchers, blocked } = built([{ company: "c0", companyName: "Alpha", reports }], { accounts });
    expect(blocked.map((b) => [b.reportId, b.reason])).toEqual([
      [1, { code: "noPolicyAccount", policyId: 9, policyName: "Travel" }],
      [2, { code: "noFundAccount", fundId: 55, fundName: "Petty cash" }],
      [3, { code: "nothingApproved", cents: 0 }],
      [4, { code: "noEmployeeAccount", employeeIdentification: "" }],
    ]);
    expect(vouchers).toEqual([]);
  });

  it("names every account a blocked report lacks, so that one build lists them all", () => {
    const reports = [
      report(1, { policyId: 9, policyName: "Travel", fundId: 55, fundName: "Petty cash" }),
      report(2, { policyId: 9, policyName: "Travel", fundId: 0 }),
      report(3, { fundId: 55, fundName: "Petty cash" }),
      report(4, { policyId: 9, reportTotalApprovedCents: 0 }),
    ];
    const accounts = ACCOUNTS.filter((a) => a.kind !== "employee");
    const { blocked } = built([{ company: "c0", companyName: "Alpha", reports }], { accounts });
    expect(blocked.map((b) => [b.reportId, b.lacking])).toEqual([
      [
        1,
        [
          { code: "noPolicyAccount", policyId: 9, policyName: "Travel" },
          { code: "noFundAccount", fundId: 55, fundName: "Petty cash" },
        ],
      ],
      [
        2,
        [
          { code: "noPolicyAccount", policyId: 9, policyName: "Travel" },
          { code: "noEmployeeAccount", employeeIdentification: "" },
        ],
      ],
      [3, [{ code: "noFundAccount", fundId: 55, fundName: "Petty cash" }]],
      // Never booked (nothing approved): no account is asked for it.
      [4, []],
    ]);
    // The reason stays the first account missing, as before.
    expect(blocked[0]?.reason).toEqual({ code: "noPolicyAccount", policyId: 9, policyName: "Travel" });
  });

  it("takes the employee payable account whatever its Id cell holds", () => {
    const accounts = ACCOUNTS.map((a) => (a.kind === "employee" ? { ...a, key: "all" } : a));
    const { vouchers } = built([{ company: "c0", companyName: "Alpha", reports: [report(1)] }], { accounts });
    expect(vouchers[0]?.lines.map((l) => l.account)).toEqual(["6100", "2105"]);
  });

  it("blocks a report when two rows give its policy different accounts, naming both rows", () => {
    const accounts = [
      ...ACCOUNTS,
      { company: "c0", kind: "policy" as const, key: "3", account: "6200", row: 9 },
    ];
    const { blocked } = built([{ company: "c0", companyName: "Alpha", reports: [report(1)] }], { accounts });
    expect(blocked[0]?.reason).toEqual({ code: "twoAccounts", kind: "policy", key: "3", rows: [2, 9] });
  });

  it("takes the cost centre from the extra field the Accounts sheet names, and blocks a report without it", () => {
    const accounts = [
      ...ACCOUNTS,
      { company: "c0", kind: "costCentre" as const, key: "CC", account: "", row: 8 },
    ];
    const withField = report(1);
    withField.extraFields = [{ name: "Centro", value: "ventas", code: "CC" }];
    const { vouchers, blocked } = built(
      [{ company: "c0", companyName: "Alpha", reports: [withField, report(2)] }],
      {
        accounts,
      },
    );
    expect(vouchers[0]?.lines.map((l) => l.costCentre)).toEqual(["ventas", "ventas"]);
    expect(blocked.map((b) => b.reason)).toEqual([{ code: "noCostCentre", fieldCode: "CC" }]);
  });

  it("balances every voucher to the cent, each report in exactly one voucher (any reports)", () => {
    const arb = fc.array(
      fc.record({
        id: fc.integer({ min: 1, max: 400 }),
        cents: fc.integer({ min: 1, max: 99_999_999_999 }),
        currency: fc.constantFrom("CLP", "USD", "MXN"),
        company: fc.constantFrom("c0", "c1"),
        fund: fc.constantFrom(0, 77),
      }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(arb, (rows) => {
        const companies = ["c0", "c1"].map((company) => ({
          company,
          companyName: company,
          reports: rows
            .filter((r) => r.company === company)
            .map((r) =>
              report(r.id, { reportTotalApprovedCents: r.cents, currency: r.currency, fundId: r.fund }),
            ),
        }));
        const { vouchers, blocked } = built(companies);
        for (const v of vouchers) {
          const debit = v.lines.reduce((t, l) => t + l.debitCents, 0);
          const credit = v.lines.reduce((t, l) => t + l.creditCents, 0);
          expect(debit).toBe(credit);
          expect(debit).toBe(v.debitCents);
          expect(v.lines.every((l) => l.currency === v.currency)).toBe(true);
        }
        for (const company of companies) {
          const ids = new Set(company.reports.map((r) => r.id));
          const booked = vouchers
            .filter((v) => v.company === company.company)
            .flatMap((v) => v.lines.filter((l) => l.debitCents > 0).map((l) => l.reportId));
          const blockedIds = blocked.filter((b) => b.company === company.company).map((b) => b.reportId);
          expect([...booked, ...blockedIds].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("a journal's problems, as the sheet holds it", () => {
  it("are none for a journal as built, and name an unbalanced voucher, mixed currencies, a report twice", () => {
    const { vouchers } = built([
      {
        company: "c0",
        companyName: "Alpha",
        reports: [report(1), report(2), report(3, { currency: "USD" })],
      },
    ]);
    const lines = journalLines(vouchers);
    expect(journalProblems(lines)).toEqual([]);
    const [a, b, c, d, e, f] = lines as [
      (typeof lines)[0],
      (typeof lines)[0],
      (typeof lines)[0],
      (typeof lines)[0],
      (typeof lines)[0],
      (typeof lines)[0],
    ];
    expect(journalProblems([{ ...a, debitCents: a.debitCents + 1 }, b, c, d])).toEqual([
      { code: "unbalanced", voucher: "202611001", debitCents: 24_691, creditCents: 24_690 },
    ]);
    expect(journalProblems([a, b, { ...c, currency: "USD" }, { ...d, currency: "USD" }])).toEqual([
      { code: "mixedCurrencies", voucher: "202611001", currencies: ["CLP", "USD"] },
    ]);
    expect(journalProblems([a, b, c, d, { ...e, reportId: 1 }, { ...f, reportId: 1 }])).toEqual([
      { code: "reportTwice", reportId: 1, vouchers: ["202611001", "202611002"] },
    ]);
  });
});

describe("voucher codes", () => {
  it("are digits only by default", () => {
    expect(
      voucherCode(DEFAULT_VOUCHER_PATTERN, { company: "Alpha", month: MONTH, currency: "CLP", sequence: 7 }),
    ).toBe("202611007");
  });

  it("fill the placeholders of any pattern, and go on past the codes an earlier close used", () => {
    const pattern = "RG-{company}-{yyyy}{mm}-{currency}";
    expect(voucherCodes(pattern, "Alpha", MONTH, ["CLP", "USD"], new Set())).toEqual({
      ok: true,
      codes: ["RG-Alpha-202611-CLP", "RG-Alpha-202611-USD"],
    });
    expect(voucherCodes(DEFAULT_VOUCHER_PATTERN, "Alpha", MONTH, ["CLP"], new Set(["202611001"]))).toEqual({
      ok: true,
      codes: ["202611002"],
    });
  });

  it("refuse an unknown placeholder, a code over 255 characters, and two vouchers sharing a code", () => {
    expect(voucherCodes("{yyyy}{day}", "A", MONTH, ["CLP"], new Set())).toEqual({
      ok: false,
      problem: { code: "unknownToken", token: "day" },
    });
    expect(voucherCodes(`${"x".repeat(251)}{nnn}{mm}`, "A", MONTH, ["CLP"], new Set())).toEqual({
      ok: false,
      problem: { code: "tooLong", length: 256 },
    });
    expect(voucherCodes("{yyyy}{mm}", "A", MONTH, ["CLP", "USD"], new Set())).toEqual({
      ok: false,
      problem: { code: "notUnique" },
    });
  });

  it("allow any text up to 255 characters", () => {
    const pattern = `${"é".repeat(246)}{yyyy}{nnn}`;
    const result = voucherCodes(pattern, "A", MONTH, ["CLP"], new Set());
    expect(result.ok && result.codes[0]?.length).toBe(253);
  });
});
