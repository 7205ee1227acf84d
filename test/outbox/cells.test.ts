import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCents, readAmount, readDate, readDateTime, readFlag, readId } from "../../src/outbox/cells";
import { formatUtc } from "./fakes";

describe("readAmount: amounts become integer cents", () => {
  it("reads numbers and dot-decimal text", () => {
    expect(readAmount(1234.5, "DepositAmount")).toEqual({ ok: true, value: 123450 });
    expect(readAmount(0.1 + 0.2, "DepositAmount")).toEqual({ ok: true, value: 30 });
    expect(readAmount("1234.05", "DepositAmount")).toEqual({ ok: true, value: 123405 });
    expect(readAmount(" 7 ", "DepositAmount")).toEqual({ ok: true, value: 700 });
  });

  it("refuses a comma decimal with a message that says so", () => {
    expect(readAmount("1234,50", "WithdrawAmount")).toEqual({
      ok: false,
      message: "WithdrawAmount: use a dot as the decimal separator, not a comma (e.g. 1234.50)",
    });
  });

  it("refuses more than two decimals instead of rounding", () => {
    expect(readAmount(10.005, "DepositAmount")).toEqual({
      ok: false,
      message: "DepositAmount: at most two decimals",
    });
    expect(readAmount("10.005", "DepositAmount")).toEqual({
      ok: false,
      message: "DepositAmount: at most two decimals",
    });
  });

  it("refuses zero, negatives and text", () => {
    expect(readAmount(0, "FundAmount")).toEqual({
      ok: false,
      message: "FundAmount: must be greater than zero",
    });
    expect(readAmount(-5, "FundAmount")).toEqual({
      ok: false,
      message: "FundAmount: must be greater than zero",
    });
    expect(readAmount("-5", "FundAmount")).toEqual({
      ok: false,
      message: "FundAmount: must be greater than zero",
    });
    expect(readAmount("ten", "FundAmount").ok).toBe(false);
    expect(readAmount(true, "FundAmount").ok).toBe(false);
  });

  it("round-trips every cent amount through text and through a number cell", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999_999 }), (cents) => {
        expect(readAmount(formatCents(cents), "A")).toEqual({ ok: true, value: cents });
        expect(readAmount(Number(formatCents(cents)), "A")).toEqual({ ok: true, value: cents });
      }),
    );
  });
});

describe("other cells", () => {
  it("reads ids from numbers and numeric text only", () => {
    expect(readId(12, "Id")).toEqual({ ok: true, value: 12 });
    expect(readId("12", "Id")).toEqual({ ok: true, value: 12 });
    expect(readId(1.5, "Id")).toEqual({ ok: false, message: "Id: must be a positive whole number" });
    expect(readId("abc", "Id").ok).toBe(false);
    expect(readId(0, "Id").ok).toBe(false);
  });

  it("reads flags in both languages and leaves a blank flag unset", () => {
    expect(readFlag(true, "FundFlexibility")).toEqual({ ok: true, value: true });
    expect(readFlag("Sí", "FundFlexibility")).toEqual({ ok: true, value: true });
    expect(readFlag("No", "FundFlexibility")).toEqual({ ok: true, value: false });
    expect(readFlag("", "FundFlexibility")).toEqual({ ok: true, value: undefined });
    expect(readFlag("maybe", "FundFlexibility")).toEqual({
      ok: false,
      message: "FundFlexibility: must be Yes or No",
    });
  });

  it("reads date cells in the spreadsheet's zone and checks typed dates", () => {
    const date = new Date(Date.UTC(2026, 2, 31, 23, 59, 1));
    expect(readDate(date, "FundExpirationDate", formatUtc)).toEqual({ ok: true, value: "2026-03-31" });
    expect(readDate("2026-02-30", "FundExpirationDate", formatUtc)).toEqual({
      ok: false,
      message: "FundExpirationDate: must be a date YYYY-MM-DD",
    });
    expect(readDateTime(date, "IntegrationDate", formatUtc)).toEqual({
      ok: true,
      value: "2026-03-31 23:59:01",
    });
    expect(readDateTime("2026-03-01 10:30", "IntegrationDate", formatUtc)).toEqual({
      ok: true,
      value: "2026-03-01 10:30:00",
    });
    expect(readDateTime("2026-03-01 25:00:00", "IntegrationDate", formatUtc).ok).toBe(false);
  });
});
