/**
 * One refresh of one sheet through a SheetAccess: a sheet that is not the add-on's (its first
 * row shows none of its headers) is never written into, whatever the settings name.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Fund } from "../../src/api/types";
import { applyToSheet, ForeignSheetError, type SheetAccess } from "../../src/sheets/apply";
import type { CellValue } from "../../src/sheets/cells";
import { FUNDS_TABLE, headersOf, rowOf } from "../../src/sheets/columns";
import type { RefreshPlan, SheetSnapshot } from "../../src/sheets/merge";
import { applyToSheetIn } from "../../src/sheets/words";

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

  it("refuses it as data (the sheet's name), said in the sheets' language by applyToSheetIn", () => {
    const payroll: CellValue[][] = [["Employee", "Salary"]];
    expect(() => applyToSheet(access(payroll).sheet, update, options)).toThrow(ForeignSheetError);
    const { sheet, writes } = access(payroll);
    let caught: unknown;
    try {
      applyToSheetIn(sheet, update, { ...options, language: "es" });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ForeignSheetError);
    expect((caught as ForeignSheetError).sheet).toBe("Payroll");
    expect((caught as Error).name).toBe("Error");
    expect((caught as Error).message).toBe(
      'La hoja "Payroll" ya contiene otros datos (su primera fila no es el encabezado del complemento), así que no se escribió nada en ella. Elija otro nombre para ella en Configuración, o vacíe esa hoja.',
    );
    expect(applyToSheetIn(access(null).sheet, update, options).counts.added).toBe(funds.length);
    expect(writes).toEqual([]);
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
