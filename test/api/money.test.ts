import { describe, expect, it } from "vitest";
import {
  centsToAmount,
  centsToDecimalText,
  formatCents,
  MAX_AMOUNT_CENTS,
  parseAmountToCents,
  responseAmountToCents,
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
    expect(formatCents(123456789, { language: "es", currency: "CLP" })).toBe("CLP 1.234.567,89");
    expect(formatCents(-5)).toBe("-0.05");
  });
});
