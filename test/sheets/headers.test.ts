/** A column found by its header, in either language (src/sheets/headers.ts). */
import { describe, expect, it } from "vitest";
import { translate } from "../../src/i18n";
import { hyperlinkFormula } from "../../src/sheets/cells";
import { FUND_COLUMNS, REPORT_COLUMNS } from "../../src/sheets/columns";
import {
  columnWithHeader,
  headerTexts,
  relabelledCells,
  relabelledHeader,
  relabelledLinks,
  textsOfHeader,
  whoText,
} from "../../src/sheets/headers";

describe("headers", () => {
  it("gives a column's header in English and in Spanish", () => {
    const id = headerTexts("id", FUND_COLUMNS);
    expect(id).toHaveLength(2);
    expect(id).toEqual(textsOfHeader(FUND_COLUMNS.find((c) => c.key === "id")?.header as never));
    expect(headerTexts("no such column", FUND_COLUMNS)).toEqual([]);
  });

  it("finds the first column holding either text, 1-based, and null when none does", () => {
    const [en, es] = headerTexts("employeeName", REPORT_COLUMNS) as [string, string];
    expect(en).not.toBe(es);
    expect(columnWithHeader(["Id", 7, "", es, en], [en, es])).toBe(4);
    expect(columnWithHeader(["Id", en], [en, es])).toBe(2);
    expect(columnWithHeader(["Id", `${en} `, null], [en, es])).toBeNull();
    expect(columnWithHeader([], [en, es])).toBeNull();
  });
});

describe("relabelledHeader", () => {
  it("turns the add-on's headers into the other language and leaves users' columns as they are", () => {
    const keys = ["col.id", "col.title", "col.balance"] as const;
    const row = ["Id", "Title", "My notes", "Balance", 3, ""];
    expect(relabelledHeader(row, keys, "en", "es")).toEqual([
      "Id",
      translate("es", "col.title"),
      "My notes",
      translate("es", "col.balance"),
      3,
      "",
    ]);
    expect(relabelledHeader(["Id", "My notes"], keys, "en", "es")).toBeNull();
  });
});

describe("relabelledCells", () => {
  it("turns exact labels into the other language, a note's date carried over, and leaves other text", () => {
    const note = translate("en", "note.missing", { date: "2024-06-30" });
    const cells = [["Deposit"], ["Withdrawal"], ["Deposit?"], [note], [""], [12], ["Depósito"]];
    expect(relabelledCells(cells, ["transaction.1", "transaction.2", "note.missing"], "en", "es")).toEqual([
      ["Depósito"],
      ["Retiro"],
      ["Deposit?"],
      [translate("es", "note.missing", { date: "2024-06-30" })],
      [""],
      [12],
      ["Depósito"],
    ]);
    expect(relabelledCells([["Sí"], ["maybe"]], ["flag.yes", "flag.no"], "en", "es")).toBeNull();
  });
});

describe("a scheduled run's who", () => {
  const NOTES = ["note.refreshed", "note.inProgress", "who.schedule"] as const;
  const note = (language: "en" | "es", who: string) =>
    translate(language, "note.refreshed", { when: "2026-01-05 09:00", who });

  it("is kept in English and shown in the document's language; anyone else's stays as it is", () => {
    expect(whoText("schedule (ana@example.com)", "es")).toBe("programación (ana@example.com)");
    expect(whoText("schedule (ana@example.com)", "en")).toBe("schedule (ana@example.com)");
    expect(whoText("ana@example.com", "es")).toBe("ana@example.com");
    expect(whoText("my schedule (x)", "es")).toBe("my schedule (x)");
  });

  it("follows a language switch inside the refresh notes, both ways, and an earlier Spanish note still reads", () => {
    const en = note("en", "schedule (ana@example.com)");
    const es = "Actualizada el 2026-01-05 09:00 por programación (ana@example.com).";
    expect(relabelledCells([[en]], NOTES, "en", "es")).toEqual([[es]]);
    expect(relabelledCells([[es]], NOTES, "es", "en")).toEqual([[en]]);
    // Written by a version that kept the English word in Spanish notes: English again, unchanged.
    expect(relabelledCells([[note("es", "schedule (ana@example.com)")]], NOTES, "es", "en")).toEqual([[en]]);
    const progress = translate("en", "note.inProgress", { when: "2026-01-05 09:00", who: "schedule (x)" });
    expect(relabelledCells([[progress]], NOTES, "en", "es")).toEqual([
      [translate("es", "note.inProgress", { when: "2026-01-05 09:00", who: "programación (x)" })],
    ]);
    expect(relabelledCells([[note("en", "ana@example.com")]], NOTES, "en", "es")).toEqual([
      [note("es", "ana@example.com")],
    ]);
  });
});

describe("relabelledLinks", () => {
  it("turns a link's label into the other language, keeping its address, and writes text as literal text", () => {
    const en = translate("en", "files.more", { name: 'a "b".pdf', count: 2 });
    const es = translate("es", "files.more", { name: 'a "b".pdf', count: 2 });
    const link = hyperlinkFormula("https://x.example/a?b=1", en);
    const values = [
      [en],
      ["solo.pdf"],
      [translate("en", "files.more", { name: "c.jpg", count: 1 })],
      [""],
      ["mine"],
    ];
    const formulas = [[link], [""], [""], [""], ['=HYPERLINK("https://y.example","mine")']];
    expect(relabelledLinks(values, formulas, ["files.more"], "en", "es")).toEqual([
      [hyperlinkFormula("https://x.example/a?b=1", es)],
      ["'solo.pdf"],
      [`'${translate("es", "files.more", { name: "c.jpg", count: 1 })}`],
      [""],
      ['=HYPERLINK("https://y.example","mine")'],
    ]);
    expect(relabelledLinks([["mine"]], [[""]], ["files.more"], "en", "es")).toBeNull();
  });
});
