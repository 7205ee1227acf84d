import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatCents, wholeUnits } from "../../src/api/money";
import type { Fund } from "../../src/api/types";
import { amountFormat, dateFormat, dayOf, FORMAT } from "../../src/sheets/cells";
import { FUNDS_TABLE, headersOf } from "../../src/sheets/columns";
import { planRefresh } from "../../src/sheets/merge";

const [base] = JSON.parse(
  readFileSync(new URL("../fixtures/sheets/funds.json", import.meta.url), "utf8"),
) as [Fund];

describe("amounts in their currency's decimals", () => {
  it("a currency without minor unit shows none, unless the amount has cents", () => {
    expect(wholeUnits("CLP", 123_500)).toBe(true);
    expect(wholeUnits("jpy", -700)).toBe(true);
    expect(wholeUnits("CLP", 123_450)).toBe(false);
    expect(wholeUnits("USD", 123_500)).toBe(false);
    expect(wholeUnits("PEN", 0)).toBe(false);
    expect(amountFormat("CLP", 123_500)).toBe("#,##0");
    expect(amountFormat("CLP", 123_450)).toBe(FORMAT.amount);
    expect(amountFormat("MXN", 123_500)).toBe(FORMAT.amount);
  });

  it("text in sidebars and the Outbox follows the same rule, in both languages", () => {
    expect(formatCents(123_500, { decimalsOf: "CLP" })).toBe("1,235");
    expect(formatCents(123_450, { decimalsOf: "CLP" })).toBe("1,234.50");
    expect(formatCents(123_500, { locale: "es", currency: "CLP" })).toBe("CLP 1.235");
    expect(formatCents(-123_500, { locale: "es", currency: "USD" })).toBe("USD -1.235,00");
    expect(formatCents(123_500)).toBe("1,235.00");
  });

  it("dates alone show no time; times show hours and minutes", () => {
    expect(dateFormat("2024-03-05", true)).toBe("yyyy-mm-dd");
    expect(dateFormat("2024-03-05 00:00:00", true)).toBe("yyyy-mm-dd hh:mm");
    expect(dateFormat("2024-03-05 09:06:17", false)).toBe("yyyy-mm-dd");
    expect(dateFormat("not a date", true)).toBe("yyyy-mm-dd");
    // The fund card shows a date field as the sheet does: its day, never "00:00:00".
    expect(dayOf("2024-05-01 00:00:00")).toBe("2024-05-01");
    expect(dayOf("2024-05-01")).toBe("2024-05-01");
    expect(dayOf("soon")).toBe("soon");
  });

  it("a refresh writes each row's amounts in its own fund's format; the values stay exact", () => {
    const clp: Fund = { ...base, id: 1, currency: "CLP", balanceCents: 123_500, depositsCents: 123_450 };
    const usd: Fund = { ...base, id: 2, currency: "USD", balanceCents: 123_500, createdAt: "2024-03-05" };
    const plan = planRefresh({
      columns: FUNDS_TABLE.columns,
      previousKeys: [],
      snapshot: { name: "Funds", values: [], formulas: [], formats: [] },
      records: [clp, usd],
      keyOf: FUNDS_TABLE.keyOf,
      covers: "all",
      mode: "keep",
      language: "en",
      missingNote: "",
    });
    const at = (key: string) => FUNDS_TABLE.columns.findIndex((c) => c.key === key);
    expect(plan.values[0]?.[at("balance")]).toBe(headersOf(FUNDS_TABLE, "en")[at("balance")]);
    expect([plan.formats[1]?.[at("balance")], plan.formats[1]?.[at("deposits")]]).toEqual([
      "#,##0",
      "#,##0.00",
    ]);
    expect(plan.values[1]?.[at("balance")]).toBe(1235);
    expect(plan.values[1]?.[at("deposits")]).toBe(1234.5);
    expect(plan.formats[2]?.[at("balance")]).toBe("#,##0.00");
    expect(plan.formats[2]?.[at("createdAt")]).toBe("yyyy-mm-dd");
  });
});
