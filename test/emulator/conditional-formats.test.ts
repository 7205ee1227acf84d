/**
 * Conditional formats, hidden columns and moved columns, as scripts see them and as the control
 * API shows them: rules kept in order, custom formulas evaluated per cell with relative
 * references moved, the first rule that holds shown.
 */
import { afterAll, describe, expect, it } from "vitest";
import { sheetsSnapshot } from "../../dev/emulator/snapshots";
import { fixtureEmulator, inScript } from "./helpers";

const em = fixtureEmulator();
afterAll(() => em.close());

const snapshot = (name: string) => sheetsSnapshot(em).find((s) => s.name === name);

describe("conditional format rules", () => {
  it("builds, keeps and reads back rules; the first rule that holds colours each cell", () => {
    const read = inScript(
      em,
      `var s = SpreadsheetApp.getActive().insertSheet("Rules");
       s.getRange("A1:C4").setValues([["State", "Op", "Amount"], ["Done", "Deposit", "1"],
         ["hecho", "Set fund status", "2"], ["Pending", "Withdraw", "3"]]);
       var done = SpreadsheetApp.newConditionalFormatRule()
         .whenFormulaSatisfied('=OR($A2="Done",$A2="Hecho")').setBackground("#d9ead3")
         .setFontColor("#274e13").setRanges([s.getRange("A2:B4")]).build();
       var unused = SpreadsheetApp.newConditionalFormatRule()
         .whenFormulaSatisfied('=AND($B2<>"",$B2="Set fund status")').setBackground("#efefef")
         .setRanges([s.getRange("C2:C4")]).build();
       var later = SpreadsheetApp.newConditionalFormatRule().whenCellNotEmpty()
         .setBackground("#ff0000").setRanges([s.getRange("A2:C4")]).build();
       s.setConditionalFormatRules([done, unused, later]);
       return s.getConditionalFormatRules().map(function (r) {
         var c = r.getBooleanCondition();
         return [String(c.getCriteriaType()), c.getCriteriaValues()[0] || "", c.getBackground(),
           r.getRanges().map(function (g) { return g.getA1Notation(); }).join(",")];
       });`,
    );
    expect(read).toEqual([
      ["CUSTOM_FORMULA", '=OR($A2="Done",$A2="Hecho")', "#d9ead3", "A2:B4"],
      ["CUSTOM_FORMULA", '=AND($B2<>"",$B2="Set fund status")', "#efefef", "C2:C4"],
      ["CELL_NOT_EMPTY", "", "#ff0000", "A2:C4"],
    ]);
    const sheet = snapshot("Rules");
    // Row 2 Done (both cells), row 3 "hecho" (text compares without case), row 4 falls through.
    expect(sheet?.backgrounds.slice(1).map((row) => row.slice(0, 2))).toEqual([
      ["#d9ead3", "#d9ead3"],
      ["#d9ead3", "#d9ead3"],
      ["#ff0000", "#ff0000"],
    ]);
    expect(sheet?.fontColors[1]?.[0]).toBe("#274e13");
    expect(sheet?.backgrounds.slice(1).map((row) => row[2])).toEqual(["#ff0000", "#efefef", "#ff0000"]);
    expect(sheet?.conditionalFormats.map((r) => r.ranges)).toEqual([["A2:B4"], ["C2:C4"], ["A2:C4"]]);
  });

  it("refuses a rule without a condition or a range, a formula without =, and another sheet's range", () => {
    expect(() =>
      inScript(em, `SpreadsheetApp.newConditionalFormatRule().setBackground("#fff").build();`),
    ).toThrow(/condition/);
    expect(() => inScript(em, `SpreadsheetApp.newConditionalFormatRule().whenCellEmpty().build();`)).toThrow(
      /ranges/,
    );
    expect(() =>
      inScript(em, `SpreadsheetApp.newConditionalFormatRule().whenFormulaSatisfied("A1>1");`),
    ).toThrow(/formula/);
    expect(() =>
      inScript(
        em,
        `var other = SpreadsheetApp.getActive().insertSheet("Elsewhere");
         var rule = SpreadsheetApp.newConditionalFormatRule().whenCellEmpty()
           .setRanges([other.getRange("A1")]).build();
         SpreadsheetApp.getActive().getSheetByName("Rules").setConditionalFormatRules([rule]);`,
      ),
    ).toThrow(/different sheet/);
  });
});

describe("hidden and moved columns", () => {
  it("hides and shows columns, and moves columns with their cells, rules and hidden state", () => {
    const out = inScript(
      em,
      `var s = SpreadsheetApp.getActive().insertSheet("Moves");
       s.getRange("A1:E2").setValues([["a", "b", "c", "d", "e"], [1, 2, 3, 4, 5]]);
       s.getRange("D2").setNote("note on d");
       s.hideColumns(5);
       s.hideColumns(2, 2);
       s.showColumns(3);
       var hidden = [1, 2, 3, 4, 5].map(function (c) { return s.isColumnHiddenByUser(c); });
       s.setConditionalFormatRules([SpreadsheetApp.newConditionalFormatRule()
         .whenFormulaSatisfied("=$D2=4").setBackground("#00ff00").setRanges([s.getRange("D2:E2")]).build()]);
       s.moveColumns(s.getRange("D1:E1"), 1);
       return {
         hidden: hidden,
         after: [1, 2, 3, 4, 5].map(function (c) { return s.isColumnHiddenByUser(c); }),
         header: s.getRange("A1:E1").getValues()[0],
         note: s.getRange("A2").getNote(),
         ranges: s.getConditionalFormatRules()[0].getRanges()[0].getA1Notation(),
       };`,
    );
    expect(out).toEqual({
      hidden: [false, true, false, false, true],
      after: [false, true, false, true, false],
      header: ["d", "e", "a", "b", "c"],
      note: "note on d",
      ranges: "A2:B2",
    });
    expect(snapshot("Moves")?.hiddenColumns).toEqual([2, 4]);
  });

  it("moves columns to the right as Google documents it (A-B to index 5 become C-D)", () => {
    const header = inScript(
      em,
      `var s = SpreadsheetApp.getActive().insertSheet("Right");
       s.getRange("A1:E1").setValues([["a", "b", "c", "d", "e"]]);
       s.moveColumns(s.getRange("A1:B1"), 5);
       return s.getRange("A1:E1").getValues()[0];`,
    );
    expect(header).toEqual(["c", "d", "a", "b", "e"]);
  });

  it("hides and shows rows, and refuses rows out of bounds", () => {
    const hidden = inScript(
      em,
      `var s = SpreadsheetApp.getActive().insertSheet("Rows");
       s.hideRows(3);
       s.hideRows(5, 3);
       s.showRows(6);
       return [2, 3, 4, 5, 6, 7, 8].map(function (r) { return s.isRowHiddenByUser(r); });`,
    );
    expect(hidden).toEqual([false, true, false, true, false, true, false]);
    expect(() => inScript(em, `SpreadsheetApp.getActiveSheet().hideRows(1001);`)).toThrow(/out of bounds/);
    expect(() => inScript(em, `SpreadsheetApp.getActiveSheet().hideRows(999, 3);`)).toThrow(/out of bounds/);
  });

  it("refuses columns out of bounds", () => {
    expect(() => inScript(em, `SpreadsheetApp.getActiveSheet().hideColumns(27);`)).toThrow(/out of bounds/);
  });
});
