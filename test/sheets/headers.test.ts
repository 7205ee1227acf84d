/** A column found by its header, in either language (src/sheets/headers.ts). */
import { describe, expect, it } from "vitest";
import { FUND_COLUMNS, REPORT_COLUMNS } from "../../src/sheets/columns";
import { columnWithHeader, headerTexts, textsOfHeader } from "../../src/sheets/headers";

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
