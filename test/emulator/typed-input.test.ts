import { describe, expect, it } from "vitest";
import { parseTypedInput } from "../../dev/emulator/spreadsheet/typed-input";

const ctx = { numberFormat: "General", locale: "en_US", timeZone: "America/Santiago" };

describe("strings written to cells are parsed as typed input", () => {
  it("turns number-looking text into numbers, dropping leading zeros", () => {
    expect(parseTypedInput("00123", ctx).value).toBe(123);
    expect(parseTypedInput("1,234.50", ctx).value).toBe(1234.5);
    expect(parseTypedInput("-12.5", ctx).value).toBe(-12.5);
    expect(parseTypedInput("$5", ctx).value).toBe(5);
  });
  it("turns percentages into fractions with a percent format", () => {
    expect(parseTypedInput("50%", ctx)).toEqual({ value: 0.5, autoFormat: "0.00%" });
  });
  it("keeps a leading '=' as a formula, and +/- followed by text too (formula injection)", () => {
    expect(parseTypedInput("=SUM(A1:A3)", ctx)).toEqual({ value: "", formula: "=SUM(A1:A3)" });
    expect(parseTypedInput("-A1+1", ctx).formula).toBe("=-A1+1");
    expect(parseTypedInput("+cmd", ctx).formula).toBe("=+cmd");
  });
  it("stores the rest literally after an apostrophe", () => {
    expect(parseTypedInput("'=1+1", ctx)).toEqual({ value: "=1+1" });
    expect(parseTypedInput("'00123", ctx)).toEqual({ value: "00123" });
  });
  it("turns TRUE and FALSE into booleans", () => {
    expect(parseTypedInput("true", ctx).value).toBe(true);
    expect(parseTypedInput("FALSE", ctx).value).toBe(false);
  });
  it("turns date-looking text into a date in the spreadsheet's time zone", () => {
    const d = parseTypedInput("2024-03-01", ctx);
    expect(d.value).toBeInstanceOf(Date);
    // Santiago is UTC-3 on 1 March 2024 (summer time).
    expect((d.value as Date).toISOString()).toBe("2024-03-01T03:00:00.000Z");
    expect(d.autoFormat).toBe("yyyy-mm-dd");
    expect((parseTypedInput("3/1/2024", ctx).value as Date).toISOString()).toBe("2024-03-01T03:00:00.000Z");
    expect((parseTypedInput("1/3/2024", { ...ctx, locale: "es_CL" }).value as Date).toISOString()).toBe(
      "2024-03-01T03:00:00.000Z",
    );
  });
  it("leaves impossible dates and ordinary text alone", () => {
    expect(parseTypedInput("2024-02-30", ctx).value).toBe("2024-02-30");
    expect(parseTypedInput("Petty cash", ctx).value).toBe("Petty cash");
    expect(parseTypedInput("", ctx).value).toBe("");
  });
  it("keeps every string as it is when the number format is @ (plain text)", () => {
    const text = { ...ctx, numberFormat: "@" };
    for (const s of ["00123", "=1+1", "TRUE", "2024-03-01", "'x"])
      expect(parseTypedInput(s, text)).toEqual({ value: s });
  });
});
