import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Fund } from "../../src/api/types";
import type { CellValue } from "../../src/sheets/cells";
import { FUNDS_TABLE, headersOf, REPORT_COLUMNS, reportsTable, rowOf } from "../../src/sheets/columns";
import { inferKeys, planRefresh, type SheetSnapshot } from "../../src/sheets/merge";
import { makeReport } from "../refresh/fakes";
import { columnLetter } from "../support/column-letter";

const funds: Fund[] = JSON.parse(
  readFileSync(new URL("../fixtures/sheets/funds.json", import.meta.url), "utf8"),
);
const [f101, f102, f103] = funds as [Fund, Fund, Fund];
const keys = FUNDS_TABLE.columns.map((c) => c.key);
const owned = keys.length;
const balanceLetter = "H"; // 8th column
expect(keys[7]).toBe("balance");

/** A Funds sheet as the last refresh left it, plus two user columns: a formula and a note. */
function sheetWith(list: Fund[]): SheetSnapshot {
  const header: CellValue[] = [...headersOf(FUNDS_TABLE, "en"), "Double", "Notes"];
  const values: CellValue[][] = [header];
  const formulas: string[][] = [header.map(() => "")];
  const formats: string[][] = [header.map(() => "@")];
  list.forEach((f, i) => {
    const r = i + 2;
    values.push([...rowOf(FUNDS_TABLE, f, "en"), (f.balanceCents / 100) * 2, `note ${f.id}`]);
    formulas.push([...keys.map(() => ""), `=${balanceLetter}${r}*2`, ""]);
    formats.push([...FUNDS_TABLE.columns.map((c) => c.format), "0.00", "General"]);
  });
  // Ids read back from a sheet are numbers.
  return { name: "Funds", values, formulas, formats };
}

function plan(
  snapshot: SheetSnapshot,
  records: Fund[],
  mode: "keep" | "remove",
  covers: "all" | ((k: string) => boolean) = "all",
) {
  return planRefresh({
    columns: FUNDS_TABLE.columns,
    previousKeys: keys,
    snapshot,
    records,
    keyOf: FUNDS_TABLE.keyOf,
    covers,
    mode,
    language: "en",
    missingNote: "gone",
  });
}

describe("planning a refresh of a sheet users extended", () => {
  const changed103: Fund = { ...f103, title: "Renamed", balanceCents: 500 };
  const new104: Fund = { ...f101, id: 104, title: "New fund" };

  it("says whether every row stays where it was, so that a write may stop between chunks", () => {
    // Updated in place, marked, appended at the bottom: every row stays.
    expect(plan(sheetWith([f101, f102, f103]), [changed103, new104, f101], "keep").inPlace).toBe(true);
    // A removed row moves the rows below it up.
    expect(plan(sheetWith([f101, f102, f103]), [f101, f103], "remove").inPlace).toBe(false);
    // A record inserted after its anchor moves the rows below it down.
    const anchored = planRefresh({
      columns: FUNDS_TABLE.columns,
      previousKeys: keys,
      snapshot: sheetWith([f101, f102]),
      records: [f101, f102, new104],
      keyOf: FUNDS_TABLE.keyOf,
      covers: "all",
      mode: "keep",
      language: "en",
      missingNote: "gone",
      anchorOf: (f) => (f.id === 104 ? "101" : null),
    });
    expect(anchored.values.map((r) => r[0])).toEqual(["Id", 101, 104, 102]);
    expect(anchored.inPlace).toBe(false);
  });

  it("keeps rows in place, updates them by id, appends new ones, marks vanished ones", () => {
    const p = plan(sheetWith([f101, f102, f103]), [changed103, new104, f101], "keep");
    expect(p.counts).toEqual({ updated: 2, added: 1, removed: 0, marked: 1, untouched: 0 });
    expect(p.values.map((r) => r[0])).toEqual(["Id", 101, 102, 103, 104]);
    expect(p.values[3]?.[1]).toBe("Renamed");
    // The vanished fund keeps its data and gets the note; the users' cells stay beside it.
    expect(p.values[2]?.[1]).toBe(f102.title);
    expect(p.values[2]?.[keys.indexOf("refreshNote")]).toBe("gone");
    expect(p.values[2]?.slice(owned)).toEqual(["=H3*2", "note 102"]);
    expect(p.values[3]?.slice(owned)).toEqual(["=H4*2", "note 103"]);
    // The new fund gets empty users' cells, formatted like the column above.
    expect(p.values[4]?.slice(owned)).toEqual(["", ""]);
    expect(p.formats[4]?.slice(owned)).toEqual(["0.00", "General"]);
    expect(p.values[0]?.slice(owned)).toEqual(["Double", "Notes"]);
    // Still missing at the next refresh: the first note (and its date) stays.
    const again = planRefresh({
      columns: FUNDS_TABLE.columns,
      previousKeys: keys,
      snapshot: {
        name: "Funds",
        values: p.values,
        formulas: p.values.map((r) => r.map(() => "")),
        formats: p.formats,
      },
      records: [changed103, new104, f101],
      keyOf: FUNDS_TABLE.keyOf,
      covers: "all",
      mode: "keep",
      language: "en",
      missingNote: "gone again",
    });
    expect(again.values[2]?.[keys.indexOf("refreshNote")]).toBe("gone");
  });

  it("removes vanished rows and moves users' formulas so they still read their own row", () => {
    const p = plan(sheetWith([f101, f102, f103]), [changed103, new104, f101], "remove");
    expect(p.counts.removed).toBe(1);
    expect(p.values.map((r) => r[0])).toEqual(["Id", 101, 103, 104]);
    expect(p.values[2]?.slice(owned)).toEqual(["=H3*2", "note 103"]);
    expect(p.values[3]?.slice(owned)).toEqual(["", ""]);
    expect(p.dataRows).toBe(3);
    // Two funds gone: the rows left over below are cleared in the same write.
    const shrunk = plan(sheetWith([f101, f102, f103]), [f103], "remove");
    expect(shrunk.values.map((r) => r[0])).toEqual(["Id", 103, "", ""]);
    expect(shrunk.values[1]?.slice(owned)).toEqual(["=H2*2", "note 103"]);
    expect(shrunk.values[3]?.every((v) => v === "")).toBe(true);
    expect(p.values.every((r) => r.length === p.width)).toBe(true);
    expect(p.formats.every((r) => r.length === p.width)).toBe(true);
  });

  it("inserts a new record right after the row it belongs with, moving the rows below and their formulas", () => {
    const p = planRefresh({
      columns: FUNDS_TABLE.columns,
      previousKeys: keys,
      snapshot: sheetWith([f101, f102, f103]),
      records: [f101, f102, f103, new104, { ...new104, id: 105 }],
      keyOf: FUNDS_TABLE.keyOf,
      covers: "all",
      mode: "keep",
      language: "en",
      missingNote: "gone",
      // 104 belongs after 101, 105 after 104, anything else at the bottom.
      anchorOf: (f) => (f.id === 104 ? "101" : f.id === 105 ? "104" : null),
    });
    expect(p.values.map((r) => r[0])).toEqual(["Id", 101, 104, 105, 102, 103]);
    expect(p.values.map((r) => r[owned])).toEqual(["Double", "=H2*2", "", "", "=H5*2", "=H6*2"]);
    expect(p.values.map((r) => r[owned + 1])).toEqual(["Notes", "note 101", "", "", "note 102", "note 103"]);
  });

  it("leaves rows outside a selected-rows refresh exactly as they were", () => {
    const p = plan(sheetWith([f101, f102, f103]), [changed103], "remove", (k) => k === "103");
    expect(p.counts).toEqual({ updated: 1, added: 0, removed: 0, marked: 0, untouched: 2 });
    expect(p.values[1]?.[1]).toBe(f101.title);
    // Outside text kept in plain-text cells stays as it is (the format keeps it literal).
    expect(p.values[2]?.[1]).toBe(f102.title);
    expect(p.values[3]?.[1]).toBe("Renamed");
  });

  it("writes adversarial titles as plain-text cells", () => {
    const p = plan(sheetWith([]), [f102, f103], "keep");
    const titleAt = keys.indexOf("title");
    expect(p.values[1]?.[titleAt]).toBe(f102.title);
    expect(p.formats[1]?.[titleAt]).toBe("@");
    expect(p.formats[1]?.[keys.indexOf("code")]).toBe("@");
    expect(p.formats[1]?.[keys.indexOf("balance")]).toBe("#,##0.00");
    expect(p.values[1]?.[keys.indexOf("status")]).toBe("Blocked");
  });

  it("shows a report status the contract does not list as its number, the others by their label", () => {
    const table = reportsTable([]);
    const status = (n: number) => rowOf(table, { ...sampleReport(), status: n } as never, "en")[3];
    expect(REPORT_COLUMNS[3]?.key).toBe("status");
    expect([status(0), status(1), status(2)]).toEqual(["Open", "Closed", "2"]);
  });

  it("shifts users' columns right when new extra fields widen the reports block", () => {
    const base = { id: 1, extraFields: [{ name: "Centro de costo", value: "00042", code: "" }] };
    const report = (id: number, extra: { name: string; value: string; code: string }[]) =>
      ({ ...sampleReport(), ...base, id, extraFields: extra }) as never;
    const first = reportsTable([report(1, base.extraFields)]);
    const header = [...headersOf(first, "en"), "Mine", "Twice"];
    const cols = first.columns.length;
    const snapshot: SheetSnapshot = {
      name: "R",
      values: [header, [...rowOf(first, report(1, base.extraFields), "en"), 5, 10]],
      formulas: [
        header.map(() => ""),
        [...first.columns.map(() => ""), `=A2+${columnLetter(cols)}2`, `=${columnLetter(cols + 1)}2*2`],
      ],
      formats: [header.map(() => "@"), [...first.columns.map((c) => c.format), "0", "0"]],
    };
    const wider = reportsTable(
      [report(1, [...base.extraFields, { name: "Proyecto", value: "P-1", code: "" }])],
      first.columns.map((c) => c.key),
    );
    const p = planRefresh({
      columns: wider.columns,
      previousKeys: first.columns.map((c) => c.key),
      snapshot,
      records: [report(1, [...base.extraFields, { name: "Proyecto", value: "P-1", code: "" }])],
      keyOf: wider.keyOf,
      covers: "all",
      mode: "keep",
      language: "en",
      missingNote: "",
    });
    expect(p.values[0]?.slice(-4)).toEqual(["Centro de costo", "Proyecto", "Mine", "Twice"]);
    // A reference to the add-on's "Centro de costo" column stays on it; one to a users' column follows it.
    expect(p.values[1]?.slice(-4)).toEqual([
      "00042",
      "P-1",
      `=A2+${columnLetter(cols)}2`,
      `=${columnLetter(cols + 2)}2*2`,
    ]);
  });

  it("finds the add-on's block from its headers when the stored layout is lost", () => {
    const header = [...headersOf(FUNDS_TABLE, "es"), "Mía"];
    expect(inferKeys(header, FUNDS_TABLE.columns as never)).toEqual(keys);
    expect(inferKeys(["Something", "Id"], FUNDS_TABLE.columns as never)).toEqual([]);
    expect(REPORT_COLUMNS[0]?.key).toBe("id");
  });
});

function sampleReport() {
  return {
    ...makeReport(1, "2024-01-02"),
    title: "T",
    reportNumber: "0001",
    closeDate: null,
    employeeName: "E",
    approverName: "A",
    policyName: "P",
    status: 0,
    reportTotalCents: 1000,
    reportTotalApprovedCents: 900,
    integrated: null,
  };
}

describe("refresh plans for any sheet and any refresh", () => {
  it("keep every record once, and every user's cell and formula beside its own record", () => {
    const ids = fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { maxLength: 25 });
    fc.assert(
      fc.property(ids, ids, fc.constantFrom("keep" as const, "remove" as const), (before, now, mode) => {
        const fund = (id: number): Fund => ({ ...f101, id, balanceCents: id * 100 });
        const p = plan(sheetWith(before.map(fund)), now.map(fund), mode);
        const rows = p.values.slice(1, 1 + p.dataRows);
        const got = rows.map((r) => r[0]);
        const kept = mode === "keep" ? before : before.filter((id) => now.includes(id));
        expect(got).toEqual([...kept, ...now.filter((id) => !before.includes(id))]);
        rows.forEach((r, i) => {
          const id = r[0] as number;
          if (!before.includes(id)) {
            expect(r.slice(owned)).toEqual(["", ""]);
            return;
          }
          expect(r.slice(owned)).toEqual([`=${balanceLetter}${i + 2}*2`, `note ${id}`]);
          expect(r[keys.indexOf("refreshNote")]).toBe(now.includes(id) ? "" : "gone");
        });
        // Rows past the new end are blanked in the same write; every row is as wide as the plan.
        expect(p.values.slice(1 + p.dataRows).every((r) => r.every((v) => v === ""))).toBe(true);
        expect(p.values.every((r) => r.length === p.width)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
