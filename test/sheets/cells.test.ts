import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayCell } from "../../dev/emulator/spreadsheet/format";
import {
  clipText,
  dateCell,
  dateFormat,
  FORMAT,
  hyperlinkFormula,
  literalText,
  MAX_CELL_TEXT,
  parseServiceDate,
  rewritableValue,
  safeUrl,
  wouldBeInterpreted,
} from "../../src/sheets/cells";
import { type Column, extraFieldColumn, filesCell, headerText } from "../../src/sheets/columns";

const adversarial: string[] = JSON.parse(
  readFileSync(new URL("../fixtures/sheets/adversarial-text.json", import.meta.url), "utf8"),
);

describe("literal text", () => {
  it("prefixes every non-empty text with one apostrophe so Sheets stores it as typed", () => {
    for (const s of adversarial) expect(literalText(s)).toBe(`'${s}`);
    expect(literalText("")).toBe("");
  });

  it("recognises what Sheets would turn into a formula, number, date or boolean", () => {
    for (const s of [
      "=1",
      "+1-2",
      "-x",
      "@x",
      "\t1",
      "\r1",
      "\nx",
      "00123",
      "2024-01-05",
      "1/2",
      "TRUE",
      "3.14",
      "1e5",
      "$100",
      "12:30",
      "'q",
    ]) {
      expect(wouldBeInterpreted(s), s).toBe(true);
    }
    for (const s of ["Fondo caja chica", "Ñandú", "ABC-123", "x=1"])
      expect(wouldBeInterpreted(s), s).toBe(false);
  });

  it("rewrites read-back strings literally unless the cell is plain text", () => {
    expect(rewritableValue("00123", "@")).toBe("00123");
    expect(rewritableValue("00123", "General")).toBe("'00123");
    expect(rewritableValue("=1+1", "0.00")).toBe("'=1+1");
    expect(rewritableValue("note", "General")).toBe("note");
    expect(rewritableValue(12.5, "General")).toBe(12.5);
  });

  it("never lets a rewritten string start a formula outside plain-text cells", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const v = rewritableValue(s, "General") as string;
        expect(v === s ? !wouldBeInterpreted(s) : v === `'${s}`).toBe(true);
      }),
    );
  });

  it("cuts text longer than a cell holds, and says so", () => {
    const long = "x".repeat(MAX_CELL_TEXT + 10);
    const cut = clipText(long);
    expect(cut.length).toBeLessThanOrEqual(MAX_CELL_TEXT);
    expect(cut.endsWith("[cut]")).toBe(true);
    expect(clipText("short")).toBe("short");
  });
});

describe("a file's link or an extra field's name longer than a cell holds", () => {
  const long = "x".repeat(MAX_CELL_TEXT + 10);
  it("a long label is cut in the link; a URL too long for any cell leaves the name as text, cut", () => {
    const labelled = hyperlinkFormula("https://a.example/f.pdf", long);
    expect(labelled.startsWith('=HYPERLINK("https://a.example/f.pdf",')).toBe(true);
    expect(labelled.length).toBeLessThanOrEqual(MAX_CELL_TEXT);
    expect(filesCell([{ Url: `https://a.example/${long}`, Name: "f.pdf" }], "en")).toBe("'f.pdf");
    expect(
      String(filesCell([{ Url: `https://a.example/${long}`, Name: long }], "en")).length,
    ).toBeLessThanOrEqual(MAX_CELL_TEXT);
  });

  it("an extra field's header is cut as its values are", () => {
    const header = headerText(extraFieldColumn(long) as Column<unknown>, "en");
    expect(header.length).toBeLessThanOrEqual(MAX_CELL_TEXT);
    expect(header.endsWith("[cut]")).toBe(true);
  });
});

describe("dates", () => {
  it("parses service dates and datetimes, refusing impossible ones", () => {
    const d = parseServiceDate("2024-02-29 13:05:09");
    expect(
      d && [d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()],
    ).toEqual([2024, 1, 29, 13, 5, 9]);
    expect(parseServiceDate("2023-02-29")).toBeNull();
    expect(parseServiceDate("")).toBeNull();
    expect(parseServiceDate(null)).toBeNull();
  });

  it("keeps a date that does not parse as literal text", () => {
    expect(dateCell("05/01/2024")).toBe("'05/01/2024");
    expect(dateCell(null)).toBe("");
    // Valid dates go as ISO text, read by Sheets as a date in the spreadsheet's own time zone.
    expect(dateCell("2024-01-05")).toBe("2024-01-05");
    expect(dateCell("2024-01-05T09:03:00")).toBe("2024-01-05 09:03:00");
    expect(dateCell("2023-02-29")).toBe("'2023-02-29");
    expect(dateCell("2024-02-29")).toBe("2024-02-29");
    expect(dateCell("1900-02-29")).toBe("'1900-02-29");
    expect(dateCell("2000-02-29 23:59")).toBe("2000-02-29 23:59:00");
    expect(dateCell("2024-04-31")).toBe("'2024-04-31");
    expect(dateCell("2024-01-05 24:00:00")).toBe("'2024-01-05 24:00:00");
    expect(dateCell("2024-01-05 10:60:00")).toBe("'2024-01-05 10:60:00");
    expect(dateCell("2024-13-01")).toBe("'2024-13-01");
  });

  it("writes a time given with an offset as that instant, which the sheet shows in the spreadsheet's zone", () => {
    const utc = dateCell("2024-03-01 10:00:00Z");
    const east = dateCell("2024-03-01 10:00:00-05:00");
    expect([utc, east].map((d) => (d instanceof Date ? d.toISOString() : d))).toEqual([
      "2024-03-01T10:00:00.000Z",
      "2024-03-01T15:00:00.000Z",
    ]);
    // Santiago is UTC-3 in March: the cell shows that clock time, not the service's.
    const shown = (d: unknown) =>
      displayCell((d as Date).toISOString(), FORMAT.datetime, "America/Santiago").text;
    expect([shown(utc), shown(east)]).toEqual(["2024-03-01 07:00", "2024-03-01 12:00"]);
    expect(dateFormat("2024-03-01 10:00:00Z", true)).toBe(FORMAT.datetime);
    expect(dateCell("2024-03-01 10:00:00+25:00")).toBe("'2024-03-01 10:00:00+25:00");
  });

  it("writes a time that the script's zone skips (a daylight-saving gap) as the service gave it", () => {
    // Santiago moved its clocks from 00:00 to 01:00 on 2024-09-08: a local-time Date would say 01:00.
    expect(dateCell("2024-09-08 00:30:00")).toBe("2024-09-08 00:30:00");
  });
});

describe("links", () => {
  it("accepts only http(s) URLs without quotes or spaces", () => {
    expect(safeUrl("https://files.example/a.pdf")).toBe("https://files.example/a.pdf");
    expect(safeUrl('https://x.example/"),IMPORTXML("')).toBeNull();
    expect(safeUrl("javascript:alert(1)")).toBeNull();
  });

  it("quotes the label so it cannot close the string and inject code", () => {
    expect(hyperlinkFormula("https://a.example", 'x"),A1,("')).toBe(
      '=HYPERLINK("https://a.example","x""),A1,(""")',
    );
    // Line breaks and tabs become one space; a plain label is taken as it is.
    expect(hyperlinkFormula("https://a.example", "a\r\nb\tc")).toBe(
      '=HYPERLINK("https://a.example","a b c")',
    );
    expect(hyperlinkFormula("https://a.example/f.pdf", "f.pdf")).toBe(
      '=HYPERLINK("https://a.example/f.pdf","f.pdf")',
    );
  });
});
