import { describe, expect, it } from "vitest";
import { formatDate } from "../../dev/emulator/format-date";
import { evaluateFormula } from "../../dev/emulator/formula";
import { columnLetters, columnNumber, parseA1, splitSheetRef, toA1 } from "../../dev/emulator/spreadsheet/a1";
import { SpreadsheetDoc } from "../../dev/emulator/spreadsheet/fakes";

describe("A1 notation", () => {
  it("reads cells, blocks, open-ended, column and row ranges", () => {
    expect(parseA1("B2", 1000, 26)).toEqual({ row: 2, column: 2, numRows: 1, numColumns: 1 });
    expect(parseA1("$A$1:C10", 1000, 26)).toEqual({ row: 1, column: 1, numRows: 10, numColumns: 3 });
    expect(parseA1("A2:C", 1000, 26)).toEqual({ row: 2, column: 1, numRows: 999, numColumns: 3 });
    expect(parseA1("B:C", 1000, 26)).toEqual({ row: 1, column: 2, numRows: 1000, numColumns: 2 });
    expect(parseA1("2:5", 1000, 26)).toEqual({ row: 2, column: 1, numRows: 4, numColumns: 26 });
  });
  it("refuses what is not A1", () => {
    for (const bad of ["", "A0", "1A", "A1:B2:C3", "hello world"])
      expect(parseA1(bad, 1000, 26)).toBeUndefined();
  });
  it("converts column letters both ways and names ranges", () => {
    expect(columnNumber("AA")).toBe(27);
    expect(columnLetters(703)).toBe("AAA");
    expect(toA1({ row: 2, column: 27, numRows: 3, numColumns: 2 })).toBe("AA2:AB4");
    expect(splitSheetRef("'Bob''s funds'!A1:B2")).toEqual({ sheetName: "Bob's funds", a1: "A1:B2" });
  });
});

describe("Utilities.formatDate patterns (Java SimpleDateFormat)", () => {
  const at = Date.UTC(2024, 6, 4, 15, 5, 9, 42); // Thursday 4 July 2024, 15:05:09.042 UTC
  it("formats in a named time zone", () => {
    expect(formatDate(at, "America/Santiago", "yyyy-MM-dd HH:mm:ss")).toBe("2024-07-04 11:05:09");
    expect(formatDate(at, "UTC", "EEE, d MMM yyyy h:mm a")).toBe("Thu, 4 Jul 2024 3:05 PM");
    expect(formatDate(at, "UTC", "EEEE MMMM dd yy SSS")).toBe("Thursday July 04 24 042");
  });
  it("writes offsets and quoted text", () => {
    expect(formatDate(at, "America/Santiago", "yyyy-MM-dd'T'HH:mmXXX")).toBe("2024-07-04T11:05-04:00");
    expect(formatDate(at, "America/Santiago", "Z")).toBe("-0400");
    expect(formatDate(at, "GMT+2", "HH 'o''clock'")).toBe("17 o'clock");
    expect(formatDate(at, "UTC", "XXX")).toBe("Z");
  });
  it("refuses unknown pattern letters", () => {
    expect(() => formatDate(at, "UTC", "yyyy-qq")).toThrow("Illegal pattern character 'q'");
  });
});

describe("formulas kept in cells show a value", () => {
  const doc = new SpreadsheetDoc("id", "Book", "UTC", "en_US");
  const sheet = doc.sheets[0]!;
  sheet.cellForWrite(1, 1).value = 10;
  sheet.cellForWrite(2, 1).value = 32.5;
  sheet.cellForWrite(3, 1).formula = "=A1*2";
  it("evaluates arithmetic, references and functions", () => {
    expect(evaluateFormula(doc, sheet, "=SUM(A1:A3)")).toBe(62.5);
    expect(evaluateFormula(doc, sheet, '=IF(A1>5,"big","small")')).toBe("big");
    expect(evaluateFormula(doc, sheet, "=ROUND(A2/3, 2)")).toBe(10.83);
    expect(evaluateFormula(doc, sheet, '="Fund "&A1')).toBe("Fund 10");
  });
  it("shows a link's label, as the add-on writes files and links (quotes doubled inside)", () => {
    expect(
      evaluateFormula(doc, sheet, '=HYPERLINK("https://files.example.com/r/1.pdf","receipt ""A"".pdf")'),
    ).toBe('receipt "A".pdf');
    expect(evaluateFormula(doc, sheet, '=HYPERLINK("https://files.example.com/r/2.pdf")')).toBe(
      "https://files.example.com/r/2.pdf",
    );
  });
  it("shows Sheets' error texts", () => {
    expect(evaluateFormula(doc, sheet, "=cmd|' /C calc'!A0")).toBe("#ERROR!");
    expect(evaluateFormula(doc, sheet, "=IMPORTXML(1)")).toBe("#NAME?");
    expect(evaluateFormula(doc, sheet, '=HYPERLINK("#gid=1",3)')).toBe(3);
    expect(evaluateFormula(doc, sheet, "=A1/0")).toBe("#DIV/0!");
  });
});
