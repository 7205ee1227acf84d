/**
 * The journal's CSV: the chosen date format, decimal and field separators and column order; one
 * line per journal line or per report; and no cell from the service that a spreadsheet program
 * would run (never a cell starting with =, +, -, @, tab or CR).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { amountText, csvOptions, DEFAULT_CSV_OPTIONS, guardedText, journalCsv } from "../../src/close/csv";
import type { JournalLine } from "../../src/close/journal";

function line(over: Partial<JournalLine>): JournalLine {
  return {
    voucher: "202611001",
    company: "c0",
    companyName: "Alpha",
    date: "2026-11-30",
    currency: "CLP",
    account: "6100",
    costCentre: "",
    debitCents: 0,
    creditCents: 0,
    reportId: 10,
    reportNumber: "000010",
    employeeName: "Ana",
    employeeIdentification: "",
    description: "000010 · Ana",
    ...over,
  };
}

const LINES = [
  line({ debitCents: 123456 }),
  line({
    account: "2105",
    creditCents: 123456,
    employeeIdentification: "9-K",
    description: "000010 · Ana (9-K)",
  }),
];
const name = (c: string) => c;

/** RFC 4180's reading of `text`: quoted fields may hold the separator, quotes and line breaks. */
function parseCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === "") quoted = true;
    else if (c === separator) {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  return rows;
}

describe("the CSV", () => {
  it("writes one line per journal line by default, CRLF ended, with a header", () => {
    expect(journalCsv(LINES, DEFAULT_CSV_OPTIONS, name)).toBe(
      [
        "voucher,date,account,debit,credit,currency,description,reportId,reportNumber,employee,employeeIdentification,costCentre",
        "202611001,2026-11-30,6100,1234.56,,CLP,000010 · Ana,10,000010,Ana,,",
        "202611001,2026-11-30,2105,,1234.56,CLP,000010 · Ana (9-K),10,000010,Ana,9-K,",
        "",
      ].join("\r\n"),
    );
  });

  it("writes one line per report with its debit and credit accounts, in the format and order chosen", () => {
    const options = csvOptions({
      layout: "reports",
      dateFormat: "DD/MM/YYYY",
      decimal: ",",
      separator: ";",
      columns: ["date", "voucher", "amount", "debitAccount", "creditAccount", "description"],
    });
    expect(journalCsv(LINES, options, name)).toBe(
      [
        "date;voucher;amount;debitAccount;creditAccount;description",
        "30/11/2026;202611001;1234,56;6100;2105;000010 · Ana (9-K)",
        "",
      ].join("\r\n"),
    );
  });

  it("quotes a field holding the separator, a quote or a line break", () => {
    const out = journalCsv(
      [line({ debitCents: 5, employeeName: 'Ana "la" Díaz, jr.' })],
      DEFAULT_CSV_OPTIONS,
      name,
    );
    expect(out).toContain(',0.05,,CLP,000010 · Ana,10,000010,"Ana ""la"" Díaz, jr.",,');
  });

  it("never starts a cell with =, +, -, @, tab or CR, whatever the service's text", () => {
    const dangerous = fc.string().map((s) => `${["=", "+", "-", "@", "\t", "\r"][s.length % 6]}${s}`);
    fc.assert(
      fc.property(dangerous, dangerous, dangerous, (name1, number, title) => {
        const lines = [
          line({ debitCents: 100, employeeName: name1, reportNumber: number, description: title }),
        ];
        const options = csvOptions({ separator: "\t" });
        const out = journalCsv(lines, options, (c) => c);
        const rows = parseCsv(out, "\t");
        expect(rows).toHaveLength(2);
        for (const cell of rows[1] ?? []) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
        expect(rows[1]?.[9]).toBe(guardedText(name1));
      }),
      { numRuns: 300 },
    );
    expect(guardedText('=HYPERLINK("x")')).toBe('\'=HYPERLINK("x")');
    expect(guardedText("-5")).toBe("'-5");
    expect(guardedText("Ana")).toBe("Ana");
  });

  it("reads back kept options, each unknown value its default, never a comma for both separators", () => {
    expect(csvOptions(null)).toEqual(DEFAULT_CSV_OPTIONS);
    expect(csvOptions({ decimal: ",", separator: "," }).separator).toBe(";");
    expect(csvOptions({ columns: ["voucher", "nope", "voucher", "amount"] }).columns).toEqual(["voucher"]);
    expect(csvOptions({ layout: "reports" }).columns).toContain("debitAccount");
  });

  it("writes amounts from integer cents, no float", () => {
    expect(amountText(1, ".")).toBe("0.01");
    expect(amountText(99_999_999_999_999, ",")).toBe("999999999999,99");
  });
});
