import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  centsToAmount,
  centsToDecimalText,
  formatCents,
  MAX_AMOUNT_CENTS,
  MAX_EXACT_CENTS,
  parseAmountToCents,
  readResponseAmount,
  responseAmountToCents,
  staysReadable,
  totalAfter,
  totalsAfter,
  typedAmount,
} from "../../src/api/money";

describe("parseAmountToCents", () => {
  it.each([
    [1234.5, 123450],
    ["1234.5", 123450],
    ["1234.50", 123450],
    [" 0.01 ", 1],
    [".5", 50],
    [100, 10000],
    ["007.10", 710],
    [{ cents: 99 }, 99],
  ])("reads %j as %d cents", (input, cents) => {
    expect(parseAmountToCents(input)).toEqual({ ok: true, cents });
  });

  it("keeps float noise out: 0.1 + 0.2 is refused, not rounded", () => {
    expect(parseAmountToCents(0.1 + 0.2)).toMatchObject({ ok: false, rule: "amountDecimals" });
  });

  it.each(["1.234,50", "12,5", "1,234.50", "1,00"])("refuses the comma in %j", (input) => {
    expect(parseAmountToCents(input)).toMatchObject({ ok: false, rule: "amountComma", got: input });
  });

  it.each(["1.234", "0.001", 1.005, 1e-7])("refuses more than two decimals: %j", (input) => {
    expect(parseAmountToCents(input)).toMatchObject({ ok: false, rule: "amountDecimals" });
  });

  it.each(["abc", "", "1.", "1e5", "$10", "--1", Number.NaN, Number.POSITIVE_INFINITY, true, null, [], {}])(
    "refuses what is not an amount: %j",
    (input) => {
      expect(parseAmountToCents(input)).toMatchObject({ ok: false, rule: "amountFormat" });
    },
  );

  it("refuses zero and negatives unless allowed", () => {
    expect(parseAmountToCents("0")).toMatchObject({ ok: false, rule: "amountPositive" });
    expect(parseAmountToCents("0.00")).toMatchObject({ ok: false, rule: "amountPositive" });
    expect(parseAmountToCents("-5")).toMatchObject({ ok: false, rule: "amountPositive" });
    expect(parseAmountToCents("0", { allowZero: true })).toEqual({ ok: true, cents: 0 });
    expect(parseAmountToCents("-5.25", { allowNegative: true })).toEqual({ ok: true, cents: -525 });
  });

  it("refuses amounts beyond 13 integer digits", () => {
    expect(parseAmountToCents("9999999999999.99")).toEqual({ ok: true, cents: MAX_AMOUNT_CENTS });
    expect(parseAmountToCents("10000000000000")).toMatchObject({ ok: false, rule: "amountTooLarge" });
    expect(parseAmountToCents(1e21)).toMatchObject({ ok: false, rule: "amountTooLarge" });
    expect(parseAmountToCents({ cents: MAX_AMOUNT_CENTS + 1 })).toMatchObject({
      ok: false,
      rule: "amountTooLarge",
    });
  });
});

describe("responseAmountToCents", () => {
  it.each([
    [20000.5, 2000050],
    ["2199.90", 219990],
    ["-15.5", -1550],
    [0.30000000000000004, 30],
    ["10.005", 1001],
    ["10.004", 1000],
    [1e-7, 0],
    [0, 0],
  ])("reads %j as %d cents", (input, cents) => {
    expect(responseAmountToCents(input)).toBe(cents);
  });

  it.each(["abc", "", null, undefined, true, "1,5", Number.NaN, 1e15])("gives null for %j", (input) => {
    expect(responseAmountToCents(input)).toBeNull();
  });
});

describe("the largest amount and total the add-on can read exactly", () => {
  it("is 9,999,999,999,999.99: 15 significant digits, the most a JSON number always carries back", () => {
    expect(MAX_EXACT_CENTS).toBe(999_999_999_999_999);
    expect(MAX_AMOUNT_CENTS).toBe(MAX_EXACT_CENTS);
    expect(centsToDecimalText(MAX_EXACT_CENTS).replace(".", "")).toHaveLength(15);
    // One digit more and a double no longer keeps the cents.
    expect(String(JSON.parse("99999999999999.99"))).toBe("99999999999999.98");
  });

  it("every amount up to the bound comes back from a JSON number to the same cents", () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_EXACT_CENTS, max: MAX_EXACT_CENTS }), (c) => {
        const wire = JSON.parse(JSON.stringify({ a: centsToAmount(c) })).a as number;
        expect(readResponseAmount(wire)).toEqual({ ok: true, cents: c });
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    [9999999999999.99, MAX_EXACT_CENTS],
    ["9999999999999.99", MAX_EXACT_CENTS],
    [-9999999999999.99, -MAX_EXACT_CENTS],
    [9999999999999.98, MAX_EXACT_CENTS - 1],
  ])("reads %j, at or below the bound", (input, cents) => {
    expect(readResponseAmount(input)).toEqual({ ok: true, cents });
  });

  it.each([
    [10000000000000, "10000000000000"],
    [10000000149999.99, "10000000149999.99"],
    ["10000000149999.99", "10000000149999.99"],
    ["9999999999999.995", "9999999999999.995"],
    [-10000000000000.01, "-10000000000000.01"],
    [1e21, "1e+21"],
  ])("says %j is too large to read exactly, not that it is no amount", (input, got) => {
    expect(readResponseAmount(input)).toEqual({ ok: false, reason: "tooLarge", got });
    expect(responseAmountToCents(input)).toBeNull();
  });

  it("says what is no amount at all", () => {
    expect(readResponseAmount("1,5")).toEqual({ ok: false, reason: "notAmount", got: "1,5" });
    expect(readResponseAmount(null)).toEqual({ ok: false, reason: "notAmount", got: "null" });
  });
});

describe("fund totals after a deposit or withdrawal", () => {
  const fund = { depositsCents: 15_000_000, withdrawalsCents: 2_000_050, balanceCents: 12_999_950 };
  const room = MAX_EXACT_CENTS - fund.depositsCents;

  it("totalAfter adds, or says null when the total could not be read back", () => {
    expect(totalAfter(15_000_000, room)).toBe(MAX_EXACT_CENTS);
    expect(totalAfter(15_000_000, room + 1)).toBeNull();
    expect(totalAfter(MAX_EXACT_CENTS + 1, 0)).toBeNull();
    expect(totalAfter(-12_000, 500)).toBe(-11_500);
  });

  it("a deposit up to the room left keeps every total readable; one cent more does not", () => {
    expect(totalsAfter(fund, "deposit", room)).toEqual({
      ok: true,
      totals: {
        depositsCents: MAX_EXACT_CENTS,
        withdrawalsCents: 2_000_050,
        balanceCents: MAX_EXACT_CENTS - 2_000_050,
      },
    });
    expect(staysReadable(fund, "deposit", room)).toBe(true);
    expect(totalsAfter(fund, "deposit", room + 1)).toEqual({
      ok: false,
      total: "Deposits",
      cents: MAX_EXACT_CENTS + 1,
    });
    expect(staysReadable(fund, "deposit", room + 1)).toBe(false);
  });

  it("the issue's 9,999,999,999,999.99 deposit on a fund that holds money is refused", () => {
    expect(staysReadable(fund, "deposit", MAX_EXACT_CENTS)).toBe(false);
    expect(
      staysReadable({ depositsCents: 0, withdrawalsCents: 0, balanceCents: 0 }, "deposit", MAX_EXACT_CENTS),
    ).toBe(true);
  });

  it("a withdrawal grows Withdrawals and lowers Balance (below zero on a flexible fund)", () => {
    const flexible = {
      depositsCents: 0,
      withdrawalsCents: MAX_EXACT_CENTS - 10,
      balanceCents: -(MAX_EXACT_CENTS - 10),
    };
    expect(staysReadable(flexible, "withdrawal", 10)).toBe(true);
    expect(totalsAfter(flexible, "withdrawal", 11)).toMatchObject({ ok: false, total: "Withdrawals" });
    const odd = { depositsCents: 0, withdrawalsCents: 0, balanceCents: -MAX_EXACT_CENTS };
    expect(totalsAfter(odd, "withdrawal", 1)).toMatchObject({ ok: false, total: "Balance" });
  });

  it("totals already out of range, or an amount that is not whole cents, are never readable", () => {
    expect(staysReadable({ ...fund, balanceCents: MAX_EXACT_CENTS + 1 }, "deposit", 1)).toBe(false);
    expect(staysReadable(fund, "deposit", 0.5)).toBe(false);
    expect(staysReadable(fund, "withdrawal", Number.NaN)).toBe(false);
  });
});

describe("cents at the edge", () => {
  it("becomes the two-decimal number of a JSON body", () => {
    expect(centsToAmount(123450)).toBe(1234.5);
    expect(centsToAmount(1)).toBe(0.01);
    expect(centsToAmount(-199)).toBe(-1.99);
    expect(JSON.stringify({ a: centsToAmount(1010) })).toBe('{"a":10.1}');
  });

  it("becomes plain decimal text and display text", () => {
    expect(centsToDecimalText(5)).toBe("0.05");
    expect(centsToDecimalText(-123450)).toBe("-1234.50");
    expect(formatCents(123456789)).toBe("1,234,567.89");
    expect(formatCents(123456789, { locale: "es", currency: "CLP" })).toBe("CLP 1.234.567,89");
    expect(formatCents(-5)).toBe("-0.05");
  });
});

describe("typedAmount (an amount as typed in a sidebar)", () => {
  const cents = (input: unknown, language: "en" | "es") => {
    const typed = typedAmount(input, language);
    return typed.ok ? parseAmountToCents(typed.value) : typed;
  };

  it.each([
    ["1234,50", 123450],
    ["1234,5", 123450],
    [" 10,05 ", 1005],
    [",5", 50],
    ["1234.50", 123450],
    ["1234", 123400],
    [1234.5, 123450],
  ])("reads %j in Spanish as %d cents", (input, expected) => {
    expect(cents(input, "es")).toEqual({ ok: true, cents: expected });
  });

  it.each(["1.234", "12.345", "1.234.567", "-1.234"])("refuses %j in Spanish as ambiguous", (input) => {
    expect(typedAmount(input, "es")).toEqual({ ok: false, rule: "amountAmbiguous", got: input });
  });

  it.each(["1,234", "12,345", "1,234,567"])("refuses %j in English as ambiguous", (input) => {
    expect(typedAmount(input, "en")).toEqual({ ok: false, rule: "amountAmbiguous", got: input });
  });

  it("keeps English as it was: a dot is the decimal separator, a decimal comma is refused", () => {
    expect(cents("1234.50", "en")).toEqual({ ok: true, cents: 123450 });
    expect(cents("1.234", "en")).toMatchObject({ ok: false, rule: "amountDecimals" });
    expect(cents("1234,50", "en")).toMatchObject({ ok: false, rule: "amountComma" });
  });

  it("leaves what is not text as it is, and refuses a Spanish amount with both separators", () => {
    expect(typedAmount({ cents: 5 }, "es")).toEqual({ ok: true, value: { cents: 5 } });
    expect(cents("1.234,50", "es")).toMatchObject({ ok: false });
  });
});

describe("readResponseAmount of a JSON number", () => {
  it("reads a number as its text would read, with or without two decimals", () => {
    const same = (n: number) => {
      const text = String(n);
      if (/e/i.test(text)) return;
      expect(readResponseAmount(n)).toEqual(readResponseAmount(text));
    };
    fc.assert(
      fc.property(fc.integer({ min: -99_999_999_999_999, max: 99_999_999_999_999 }), (c) => same(c / 100)),
    );
    fc.assert(fc.property(fc.double({ min: -1e13, max: 1e13, noNaN: true }), same));
    fc.assert(fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), (m) => same(m / 1000)));
    for (const n of [0, -0, 0.1 + 0.2, 1.005, 2.675, -0.004, -0.005, 9_999_999_999_999.99, 0.07, 1e-7])
      same(n);
    expect(readResponseAmount(-0)).toEqual({ ok: true, cents: 0 });
    expect(Object.is((readResponseAmount(-0.001) as { cents: number }).cents, 0)).toBe(true);
  });
});
