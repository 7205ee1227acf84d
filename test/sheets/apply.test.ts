/**
 * One refresh of one sheet through a SheetAccess: a sheet that is not the add-on's (its first
 * row shows none of its headers) is never written into, whatever the settings name.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Fund } from "../../src/api/types";
import { applyToSheet, type SheetAccess } from "../../src/sheets/apply";
import type { CellValue } from "../../src/sheets/cells";
import { FUNDS_TABLE, headersOf, rowOf } from "../../src/sheets/columns";
import type { RefreshPlan, SheetSnapshot } from "../../src/sheets/merge";

const funds: Fund[] = JSON.parse(
  readFileSync(new URL("../fixtures/sheets/funds.json", import.meta.url), "utf8"),
);

function access(values: CellValue[][] | null, layout: string[] | null = null) {
  const writes: RefreshPlan[] = [];
  const sheet: SheetAccess = {
    read: (): SheetSnapshot | null =>
      values && {
        name: "Payroll",
        values,
        formulas: values.map((r) => r.map(() => "")),
        formats: values.map((r) => r.map(() => "General")),
      },
    write: (plan) => {
      writes.push(plan);
      return true;
    },
    layout: () => layout,
    saveLayout: () => undefined,
  };
  return { sheet, writes };
}

const update = {
  columnsFor: () => FUNDS_TABLE.columns,
  records: funds,
  keyOf: FUNDS_TABLE.keyOf,
  covers: "all" as const,
};
const options = { language: "en" as const, mode: "remove" as const, missingNote: "gone" };

describe("applyToSheet", () => {
  it("refuses a sheet of someone's own data, even with a stored layout naming the add-on's columns", () => {
    const payroll: CellValue[][] = [
      ["Employee", "Salary"],
      ["Ana", 1000],
    ];
    for (const layout of [null, FUNDS_TABLE.columns.map((c) => c.key)]) {
      const { sheet, writes } = access(payroll, layout);
      expect(() => applyToSheet(sheet, update, options)).toThrow(
        'The sheet "Payroll" already holds other data (its first row is not the add-on\'s header), so nothing was written into it.',
      );
      expect(writes).toEqual([]);
    }
  });

  it("writes a new or empty sheet, and one that carries the add-on's header in either language", () => {
    for (const values of [
      null,
      [],
      [headersOf(FUNDS_TABLE, "es"), rowOf(FUNDS_TABLE, funds[0] as Fund, "es")],
    ]) {
      const { sheet, writes } = access(values as CellValue[][] | null);
      applyToSheet(sheet, update, options);
      expect(writes).toHaveLength(1);
    }
  });
});
