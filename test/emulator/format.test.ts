import { describe, expect, it } from "vitest";
import {
  displayCell,
  formatGeneralNumber,
  isDateFormat,
  linkOf,
  splitSections,
} from "../../dev/emulator/spreadsheet/format";

describe("displayCell: numbers through their number format, as Sheets shows them", () => {
  it.each([
    [1234.5, "#,##0.00", "1,234.50"],
    [-1234.5, "#,##0.00", "-1,234.50"],
    [1234567, "#,##0", "1,234,567"],
    [0.5, "0%", "50%"],
    [0.1234, "0.00%", "12.34%"],
    [7, "000", "007"],
    [12.5, '"$"#,##0.00', "$12.50"],
    [12.5, '#,##0.00 "CLP"', "12.50 CLP"],
    [-3, "#,##0.00;(#,##0.00)", "(3.00)"],
    [0, '#,##0.00;(#,##0.00);"-"', "-"],
    [1.5, "0.0#", "1.5"],
    [1.555, "0.0#", "1.56"],
    [1500000, "#,##0,", "1,500"],
    [12.5, "[$USD] #,##0.00", "USD 12.50"],
    [-0.001, "0.00", "0.00"],
  ])("%s with %s shows %s", (value, format, text) => {
    expect(displayCell(value, format)).toEqual({ text, align: "right" });
  });

  it("paints a number in the colour its section names ([Red] for negative amounts)", () => {
    const format = '"PEN "#,##0.00;[Red]-"PEN "#,##0.00';
    expect(displayCell(-11422.5, format)).toEqual({
      text: "-PEN 11,422.50",
      align: "right",
      color: "#ff0000",
    });
    expect(displayCell(11422.5, format)).toEqual({ text: "PEN 11,422.50", align: "right" });
    expect(displayCell(5, "[Blue]0")).toEqual({ text: "5", align: "right", color: "#0000ff" });
  });

  it("shows numbers without a format with at most ten significant digits", () => {
    expect(formatGeneralNumber(0.1 + 0.2)).toBe("0.3");
    expect(formatGeneralNumber(123)).toBe("123");
    expect(displayCell(2 / 3, "")).toEqual({ text: "0.6666666667", align: "right" });
  });

  it("shows a number under a date format as a date serial", () => {
    expect(displayCell(45296, "yyyy-mm-dd").text).toBe("2024-01-05");
    expect(displayCell(45296.5, "dd/mm/yyyy hh:mm").text).toBe("05/01/2024 12:00");
  });
});

describe("displayCell: dates (ISO strings from the control API) in the spreadsheet's time zone", () => {
  it.each([
    ["2024-01-05T03:00:00.000Z", "yyyy-mm-dd", "America/Santiago", "2024-01-05"],
    ["2024-01-05T03:00:00.000Z", "dd/mm/yyyy", "UTC", "05/01/2024"],
    ["2024-03-09T15:04:05.000Z", "yyyy-mm-dd hh:mm:ss", "UTC", "2024-03-09 15:04:05"],
    ["2024-03-09T15:04:05.000Z", "h:mm AM/PM", "UTC", "3:04 PM"],
    ["2024-03-09T15:04:05.000Z", "mmm d, yyyy", "UTC", "Mar 9, 2024"],
    ["2024-03-09T15:04:05.000Z", "dddd", "UTC", "Saturday"],
  ])("%s as %s in %s shows %s", (iso, format, zone, text) => {
    expect(displayCell(iso, format, zone)).toEqual({ text, align: "right" });
  });

  it("uses a date-only display for midnight and a date-time display otherwise when unformatted", () => {
    expect(displayCell("2024-01-05T00:00:00.000Z", "", "UTC").text).toBe("2024-01-05");
    expect(displayCell("2024-01-05T10:30:00.000Z", "", "UTC").text).toBe("2024-01-05 10:30:00");
  });
});

describe("displayCell: text, booleans and empty cells", () => {
  it("keeps text as typed, left-aligned, even when it looks like a number under @", () => {
    expect(displayCell("00123", "@")).toEqual({ text: "00123", align: "left" });
    expect(displayCell("=HYPERLINK(1)", "")).toEqual({ text: "=HYPERLINK(1)", align: "left" });
  });

  it("shows booleans as TRUE/FALSE centred and empty cells as nothing", () => {
    expect(displayCell(true, "")).toEqual({ text: "TRUE", align: "center" });
    expect(displayCell(false, "#,##0")).toEqual({ text: "FALSE", align: "center" });
    expect(displayCell("", "#,##0.00").text).toBe("");
    expect(displayCell(null, "").text).toBe("");
  });
});

describe("format parsing", () => {
  it("splits sections outside quotes only", () => {
    expect(splitSections('0;"a;b";0')).toEqual(["0", '"a;b"', "0"]);
  });
  it("tells date patterns from number patterns", () => {
    expect(isDateFormat("yyyy-mm-dd")).toBe(true);
    expect(isDateFormat("hh:mm")).toBe(true);
    expect(isDateFormat("#,##0.00")).toBe(false);
    expect(isDateFormat('#,##0.00 "days"')).toBe(false);
    expect(isDateFormat("[$USD] 0.00")).toBe(false);
  });
});

describe("linkOf: a HYPERLINK cell opens its address in the playground", () => {
  it("reads the address of the add-on's own links, quotes doubled", () => {
    expect(linkOf('=HYPERLINK("https://files.example.com/a.pdf","a.pdf")')).toBe(
      "https://files.example.com/a.pdf",
    );
    expect(linkOf('=hyperlink( "http://x.example/?q=""1""")')).toBe('http://x.example/?q="1"');
  });
  it("gives no link for other schemes or other formulas", () => {
    expect(linkOf('=HYPERLINK("javascript:alert(1)","x")')).toBeNull();
    expect(linkOf("=SUM(A1:A2)")).toBeNull();
    expect(linkOf("")).toBeNull();
  });
});
