import { describe, expect, it } from "vitest";
import { type EngineDeps, refreshSelection, runRefreshSteps, startCursor } from "../../src/refresh/engine";
import { FILES_TABLE, filesOf, rowOf } from "../../src/sheets/columns";
import { FakeService, makeReport, memorySheets, memoryStore, readerOf, smallRefreshOptions } from "./fakes";

const options = smallRefreshOptions();

const files = [
  { Name: "ticket.pdf", Url: "https://files.example.com/a?x=1&y=2" },
  { Name: 'say "hi"', Url: "http://files.example.com/b" },
  { Name: '=HYPERLINK("http://evil")', Url: "javascript:alert(1)" },
  "https://files.example.com/plain",
];

describe("a report's files", () => {
  it("become one row each, every http(s) file a link, anything else literal text", () => {
    const rows = filesOf({ id: 77, files }).map((f) => rowOf(FILES_TABLE, f, "en"));
    expect(rows.map((r) => r.slice(0, 3))).toEqual([
      ["77-1", 77, "ticket.pdf"],
      ["77-2", 77, 'say "hi"'],
      ["77-3", 77, '=HYPERLINK("http://evil")'],
      ["77-4", 77, "https://files.example.com/plain"],
    ]);
    expect(rows.map((r) => r[3])).toEqual([
      '=HYPERLINK("https://files.example.com/a?x=1&y=2","ticket.pdf")',
      '=HYPERLINK("http://files.example.com/b","say ""hi""")',
      '\'=HYPERLINK("http://evil")',
      '=HYPERLINK("https://files.example.com/plain","https://files.example.com/plain")',
    ]);
    // The name is plain text: never read as a formula.
    expect(FILES_TABLE.columns[2]?.format).toBe("@");
  });

  it("are written with the reports; a selected report's refresh touches only its own files", () => {
    const reports = [
      { ...makeReport(1, "2024-02-01"), files },
      makeReport(2, "2024-02-02"),
      { ...makeReport(3, "2024-02-03"), files: files.slice(0, 1) },
    ];
    const service = new FakeService([], reports);
    const { sheets, port } = memorySheets();
    const deps: EngineDeps = {
      reader: readerOf(service),
      sheets: port,
      fingerprints: memoryStore(),
      options,
    };
    // Without any file, no sheet of files.
    const none = memorySheets();
    const noFiles = { ...deps, reader: readerOf(new FakeService([], [makeReport(2, "2024-02-02")])) };
    runRefreshSteps({ ...noFiles, sheets: none.port }, startCursor("reports"), () => false);
    expect(none.sheets.files.values).toEqual([]);
    expect(none.sheets.reports.ids()).toEqual([2]);
    const result = runRefreshSteps(deps, startCursor("reports"), () => false);
    // Records are reports: their files are not counted again.
    expect(result.records).toBe(3);
    expect(sheets.files.ids()).toEqual(["1-1", "1-2", "1-3", "1-4", "3-1"]);
    expect(sheets.files.values[0]).toEqual(["File", "Report id", "Name", "Link", "Refresh note"]);

    // Report 1 now has one file, report 3 none; only report 1 is refreshed.
    service.reports[0] = { ...reports[0], files: files.slice(1, 2) } as (typeof reports)[0];
    service.reports[2] = { ...reports[2], files: [] } as (typeof reports)[2];
    refreshSelection(deps, { target: "reports", ids: [1] });
    expect(sheets.files.ids()).toEqual(["1-1", "1-2", "1-3", "1-4", "3-1"]);
    const note = (id: string) => sheets.files.values.find((r) => r[0] === id)?.[4];
    expect(note("1-1")).toBe("");
    expect([note("1-2"), note("1-3"), note("1-4")]).toEqual(["gone", "gone", "gone"]);
    expect(note("3-1")).toBe("");
    expect(sheets.files.formulas[1]?.[3]).toBe('=HYPERLINK("http://files.example.com/b","say ""hi""")');
  });
});
