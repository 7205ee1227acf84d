import { afterAll, describe, expect, it } from "vitest";
import { fixtureEmulator, inScript } from "./helpers";

const em = fixtureEmulator();
afterAll(() => em.close());

describe("SpreadsheetApp as scripts see it", () => {
  it("creates sheets of 1000 rows and 26 columns whose getLastRow() is 0", () => {
    expect(
      inScript(
        em,
        `var s = SpreadsheetApp.getActive().insertSheet("Fresh");
         return [s.getMaxRows(), s.getMaxColumns(), s.getLastRow(), s.getLastColumn(), s.getIndex()];`,
      ),
    ).toEqual([1000, 26, 0, 0, 2]);
  });

  it("refuses a cell of more than 50,000 characters, writing nothing of the call, with Google's wording", () => {
    const message = "Your input contains more than the maximum of 50000 characters in a single cell.";
    expect(() =>
      inScript(
        em,
        `var s = SpreadsheetApp.getActive().insertSheet("Long cells");
         s.getRange("A1:B1").setValues([["kept?", new Array(50002).join("x")]]);`,
      ),
    ).toThrow(message);
    expect(() =>
      inScript(
        em,
        `SpreadsheetApp.getActive().getSheetByName("Long cells").getRange("C1").setValue("=" + new Array(50001).join("1"));`,
      ),
    ).toThrow(message);
    expect(
      inScript(
        em,
        `var s = SpreadsheetApp.getActive().getSheetByName("Long cells");
         s.getRange("D1").setValue(new Array(50001).join("x"));
         return [s.getRange("A1").getValue(), s.getRange("D1").getValue().length];`,
      ),
    ).toEqual(["", 50000]);
  });

  it("refuses setValues whose size differs from the range, with Google's wording", () => {
    expect(() =>
      inScript(em, `SpreadsheetApp.getActiveSheet().getRange("A1:B3").setValues([[1, 2], [3, 4]]);`),
    ).toThrow(
      "The number of rows in the data does not match the number of rows in the range. The data has 2 but the range has 3.",
    );
    expect(() =>
      inScript(em, `SpreadsheetApp.getActiveSheet().getRange(1, 1, 1, 2).setValues([[1, 2, 3]]);`),
    ).toThrow(
      "The number of columns in the data does not match the number of columns in the range. The data has 3 but the range has 2.",
    );
    expect(() => inScript(em, `SpreadsheetApp.getActiveSheet().getRange(1, 1, 0, 2);`)).toThrow(
      "The number of rows in the range must be at least 1.",
    );
  });

  it("throws errors named Exception, catchable as Error inside the script", () => {
    const caught = inScript(
      em,
      `try { SpreadsheetApp.getActiveSheet().getRange(1, 1, 0, 1); } catch (e) {
         return { name: e.name, isError: e instanceof Error, message: e.message };
       }`,
    );
    expect(caught).toEqual({
      name: "Exception",
      isError: true,
      message: "The number of rows in the range must be at least 1.",
    });
  });

  it("parses strings like typed input unless the format is @, and getValues returns typed values", () => {
    const result = inScript(
      em,
      `var s = SpreadsheetApp.getActive().insertSheet("Typed");
       s.getRange("B1:B6").setNumberFormat("@");
       s.getRange("A1:B6").setValues([["00123", "00123"], ["=1+2", "=1+2"], ["TRUE", "TRUE"],
         ["2024-03-01", "2024-03-01"], ["'=keep", "'=keep"], ["", ""]]);
       var v = s.getRange("A1:B6").getValues();
       return {
         a: v.map(function (r) { return r[0] instanceof Date ? "date:" + r[0].toISOString() : r[0]; }),
         b: v.map(function (r) { return r[1]; }),
         formulas: s.getRange("A1:B2").getFormulas(),
         lastRow: s.getLastRow(),
       };`,
    );
    expect(result).toEqual({
      a: [123, 3, true, "date:2024-03-01T03:00:00.000Z", "=keep", ""],
      b: ["00123", "=1+2", "TRUE", "2024-03-01", "'=keep", ""],
      formulas: [
        ["", ""],
        ["=1+2", ""],
      ],
      lastRow: 5,
    });
  });

  it("keeps notes, number formats, frozen rows and display values", () => {
    const result = inScript(
      em,
      `var s = SpreadsheetApp.getActive().insertSheet("Formats");
       s.getRange("A1").setValue(1234.5).setNumberFormat("#,##0.00").setNote("in CLP");
       s.setFrozenRows(1);
       return [s.getRange("A1").getDisplayValue(), s.getRange("A1").getNote(), s.getFrozenRows(),
               s.getRange("A1:A2").getNumberFormats()];`,
    );
    expect(result).toEqual(["1,234.50", "in CLP", 1, [["#,##0.00"], ["General"]]]);
  });

  it("inserts and deletes rows and columns, moving the content", () => {
    const result = inScript(
      em,
      `var s = SpreadsheetApp.getActive().insertSheet("Rows");
       s.getRange("A1:A3").setValues([["a"], ["b"], ["c"]]);
       s.insertRowsBefore(2, 2);
       var afterInsert = s.getRange("A1:A5").getValues().map(function (r) { return r[0]; });
       s.deleteRows(2, 2);
       s.insertColumnBefore(1);
       return [afterInsert, s.getRange("B1:B3").getValues().map(function (r) { return r[0]; }), s.getMaxRows(), s.getMaxColumns(), s.getLastColumn()];`,
    );
    expect(result).toEqual([["a", "", "", "b", "c"], ["a", "b", "c"], 1000, 27, 2]);
  });

  it("clears, gives the data range, and appends rows", () => {
    const result = inScript(
      em,
      `var s = SpreadsheetApp.getActive().insertSheet("Data");
       s.appendRow(["Id", "Title"]); s.appendRow([1, "Petty cash"]);
       var dr = s.getDataRange().getA1Notation();
       s.getRange("A2:B2").clearContent();
       return [dr, s.getLastRow(), s.getRange("A1:B1").isBlank(), s.getRange("A2:B2").isBlank()];`,
    );
    expect(result).toEqual(["A1:B2", 1, false, true]);
  });

  it("offers the active sheet, range and a multi-range selection set by the user", () => {
    inScript(em, `SpreadsheetApp.getActive().insertSheet("Sel");`);
    em.select("Sel", "A2:C2,A5:C7");
    const result = inScript(
      em,
      `var ss = SpreadsheetApp.getActive();
       return [ss.getActiveSheet().getName(), ss.getActiveRange().getA1Notation(),
         ss.getActiveRangeList().getRanges().map(function (r) { return r.getA1Notation(); }),
         SpreadsheetApp.getSelection().getCurrentCell().getA1Notation()];`,
    );
    expect(result).toEqual(["Sel", "A5:C7", ["A2:C2", "A5:C7"], "A5"]);
  });

  it("protects with a warning only, and adds list validation and checkboxes", () => {
    const result = inScript(
      em,
      `var s = SpreadsheetApp.getActive().insertSheet("Outbox");
       var p = s.getRange("A1:C1").protect().setDescription("header").setWarningOnly(true);
       s.getRange("B2:B3").setDataValidation(SpreadsheetApp.newDataValidation().requireValueInList(["deposit", "withdraw"], true).build());
       s.getRange("C2:C3").insertCheckboxes();
       var rule = s.getRange("B2").getDataValidation();
       return [p.isWarningOnly(), s.getProtections(SpreadsheetApp.ProtectionType.RANGE).length,
         rule.getCriteriaValues()[0], s.getRange("C2:C3").getValues(), s.getRange("C2").isChecked()];`,
    );
    expect(result).toEqual([true, 1, ["deposit", "withdraw"], [[false], [false]], false]);
  });

  it("refuses a duplicate sheet name and a missing range", () => {
    expect(() =>
      inScript(
        em,
        `SpreadsheetApp.getActive().insertSheet("Dup"); SpreadsheetApp.getActive().insertSheet("Dup");`,
      ),
    ).toThrow('A sheet with the name "Dup" already exists. Please enter another name.');
    expect(() => inScript(em, `SpreadsheetApp.getActive().getRange("Nope!A1");`)).toThrow("Range not found");
  });

  it("counts reads and writes per sheet, and the cells they touch", () => {
    em.resetCounters();
    inScript(
      em,
      `var s = SpreadsheetApp.getActive().insertSheet("Counted");
       s.getRange("A1:B2").setValues([[1, 2], [3, 4]]);
       s.getRange("A1:B2").getValues(); s.getRange("A1").getValue(); s.getRange("A1").setNumberFormat("0.00");`,
    );
    expect(em.counters.sheets.Counted).toEqual({ reads: 2, writes: 2, cellsRead: 5, cellsWritten: 5 });
  });

  it("charges emulated time per cell, so the execution limit bites on sheet work too", () => {
    const before = em.now().getTime();
    // 200 × 50 cells written then read: 10,000 × (10 + 2) µs = 120 ms of emulated time.
    inScript(
      em,
      `var s = SpreadsheetApp.getActive().insertSheet("Costly"); s.insertRowsAfter(1, 300);
       var rows = []; for (var r = 0; r < 200; r++) { var row = []; for (var c = 0; c < 26; c++) row.push(r * c); rows.push(row); }
       s.getRange(1, 1, 200, 26).setValues(rows); s.getRange(1, 1, 200, 26).getValues();`,
    );
    expect(em.now().getTime() - before).toBeGreaterThanOrEqual((200 * 26 * 12) / 1000);
    const tight = fixtureEmulator({ executionBudgetMs: 50 });
    try {
      // 10 writes of 26,000 cells: 2.6 s of emulated time against a budget of 50 ms.
      const out = tight.tryRun(
        "snippet",
        [
          `var s = SpreadsheetApp.getActive().getActiveSheet(); var rows = [];
           for (var r = 0; r < 1000; r++) { var row = []; for (var c = 0; c < 26; c++) row.push(1); rows.push(row); }
           for (var i = 0; i < 10; i++) s.getRange(1, 1, 1000, 26).setValues(rows);`,
          null,
        ],
        { as: "script.run" },
      );
      expect(out).toMatchObject({ ok: false, error: "Exceeded maximum execution time" });
    } finally {
      void tight.close();
    }
  });

  it("runs the script's onEdit when a user types, with the edit's event", () => {
    inScript(em, `SpreadsheetApp.getActive().insertSheet("Edits");`);
    expect(em.typeCells("Edits", "B2", [["42"]])?.ok).toBe(true);
    em.typeCells("Edits", "B2", [["43"]], "ben@example.com");
    expect(inScript(em, `return SpreadsheetApp.getActive().getRange("Edits!B2").getNote();`)).toBe(
      "ben@example.com typed 43 (was 42) in LIMITED",
    );
  });

  it("refuses to grow past 10 million cells", () => {
    expect(() =>
      inScript(em, `SpreadsheetApp.getActive().insertSheet("Huge").insertRowsAfter(1000, 400000);`),
    ).toThrow(
      "This action would increase the number of cells in the workbook above the limit of 10000000 cells.",
    );
  });

  it("has a spreadsheet id, name and time zone", () => {
    expect(
      inScript(
        em,
        `var ss = SpreadsheetApp.getActive(); return [typeof ss.getId(), ss.getSpreadsheetTimeZone()];`,
      ),
    ).toEqual(["string", "America/Santiago"]);
  });
});
