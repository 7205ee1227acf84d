/**
 * Sheets keyed by (company, Id): two companies' equal ids are two rows, a one-company sheet's
 * rows become the first company's with their users' cells, one company's refresh never touches
 * another's rows, and a row's company is resolved from its two cells or refused.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Fund } from "../../src/api/types";
import { applyToSheet, type SheetAccess } from "../../src/sheets/apply";
import { type CellValue, rewritableValue } from "../../src/sheets/cells";
import {
  FUNDS_TABLE,
  type FundMovement,
  headersOf,
  movementKey,
  rowOf,
  type TableSpec,
  TRANSACTIONS_TABLE,
} from "../../src/sheets/columns";
import {
  companyAnchor,
  companyCovers,
  companyOfRow,
  companyTable,
  legacyPartsOf,
  type SheetCompany,
  showsCompanies,
} from "../../src/sheets/company";
import {
  type MissingRowMode,
  planRefresh,
  type RefreshPlan,
  type SheetSnapshot,
} from "../../src/sheets/merge";
import { companyRefusalText } from "../../src/sheets/words";
import { columnLetter } from "../support/column-letter";

const funds: Fund[] = JSON.parse(
  readFileSync(new URL("../fixtures/sheets/funds.json", import.meta.url), "utf8"),
);
const [f101] = funds as [Fund];
const fund = (id: number): Fund => ({ ...f101, id, title: `Fund ${id}`, balanceCents: id * 100 });

const alpha: SheetCompany = { key: "c0", name: "Alpha", formerNames: [] };
const beta: SheetCompany = { key: "c1", name: "Beta SA", formerNames: ["Beta"] };
const gone: SheetCompany = { key: "c2", name: "Gamma", formerNames: [], removed: { at: 1, rows: "keep" } };
const companies = [alpha, beta, gone];

const alphaTable = companyTable(FUNDS_TABLE, alpha, true);
const betaTable = companyTable(FUNDS_TABLE, beta, true);
const oldKeys = FUNDS_TABLE.columns.map((c) => c.key);
const newKeys = alphaTable.columns.map((c) => c.key);
const owned = newKeys.length;

/**
 * A sheet with `rows` written by `table`s, plus two users' columns: a formula reading the row's
 * Balance and Id, and a note naming the row's record.
 */
function sheetOf(rows: { table: TableSpec<Fund>; fund: Fund }[], keys: readonly string[]): SheetSnapshot {
  const width = keys.length;
  const balance = columnLetter(keys.indexOf("balance") + 1);
  const header: CellValue[] = [
    ...headersOf(keys === oldKeys ? FUNDS_TABLE : alphaTable, "en"),
    "Double",
    "Notes",
  ];
  const values: CellValue[][] = [header];
  const formulas: string[][] = [header.map(() => "")];
  const formats: string[][] = [header.map(() => "@")];
  rows.forEach(({ table, fund: f }, i) => {
    const r = i + 2;
    const label = table.keyOf(f);
    values.push([...rowOf(table, f, "en"), (f.balanceCents / 100) * 2, `note ${label}`]);
    formulas.push([...new Array<string>(width).fill(""), `=${balance}${r}*2+A${r}`, ""]);
    formats.push([...table.columns.map((c) => c.format), "0.00", "General"]);
  });
  return { name: "Funds", values, formulas, formats };
}

function lane(
  table: TableSpec<Fund>,
  company: SheetCompany,
  snapshot: SheetSnapshot,
  previousKeys: readonly string[],
  records: Fund[],
  mode: MissingRowMode,
  covers: "all" | ((key: string) => boolean) = "all",
) {
  return planRefresh({
    columns: table.columns,
    previousKeys,
    snapshot,
    records,
    keyOf: table.keyOf,
    keyColumns: table.keyColumns,
    legacyParts: legacyPartsOf(companies),
    covers: companyCovers(company.key, true, covers),
    mode,
    language: "en",
    missingNote: "gone",
  });
}

const at = (key: string) => newKeys.indexOf(key);

describe("a sheet keyed by (company, Id)", () => {
  it("puts Company and a hidden Company key right after the first column, and keys rows by both", () => {
    expect(newKeys.slice(0, 4)).toEqual(["id", "company", "companyKey", "title"]);
    expect(headersOf(betaTable, "en").slice(0, 3)).toEqual(["Id", "Company", "Company key"]);
    expect(headersOf(betaTable, "es").slice(0, 3)).toEqual(["Id", "Empresa", "Clave de empresa"]);
    expect(betaTable.columns.map((c) => !!c.hidden).slice(0, 4)).toEqual([false, false, true, false]);
    expect(betaTable.columns[1]?.format).toBe("@");
    expect(rowOf(betaTable, fund(5001), "en").slice(0, 3)).toEqual([5001, "Beta SA", "c1"]);
    expect(betaTable.keyColumns).toEqual(["companyKey", "id"]);
    expect(betaTable.keyOf(fund(5001))).toBe("c1|5001");
    const movements = companyTable(TRANSACTIONS_TABLE, beta, true);
    expect(movements.keyColumns).toEqual(["companyKey", "movement"]);
    expect(movements.columns.map((c) => c.key).slice(0, 3)).toEqual(["movement", "company", "companyKey"]);
  });

  it("keeps a one-company sheet's table, key and covers exactly as they are", () => {
    const covers = (k: string) => k === "101";
    expect(showsCompanies(false, oldKeys)).toBe(false);
    expect(showsCompanies(true, oldKeys)).toBe(true);
    // Back to one company, a sheet that has the columns keeps them.
    expect(showsCompanies(false, newKeys)).toBe(true);
    expect(companyTable(FUNDS_TABLE, alpha, false)).toBe(FUNDS_TABLE);
    expect(FUNDS_TABLE.keyOf(fund(5001))).toBe("5001");
    expect(companyCovers("c0", false, covers)).toBe(covers);
    expect(companyCovers("c0", false, "all")).toBe("all");
    // Only the first company's rows live on a sheet without company columns.
    expect(() => companyTable(FUNDS_TABLE, beta, false)).toThrow(/no company columns/);
    expect((companyCovers("c1", false, "all") as (k: string) => boolean)("101")).toBe(false);
  });

  it("makes two rows of two companies' equal ids, each updated by its own company", () => {
    const sheet = sheetOf(
      [
        { table: alphaTable, fund: fund(5001) },
        { table: alphaTable, fund: fund(5002) },
      ],
      newKeys,
    );
    const p = lane(betaTable, beta, sheet, newKeys, [fund(5001)], "remove");
    expect(p.counts).toEqual({ updated: 0, added: 1, removed: 0, marked: 0, untouched: 2 });
    expect(p.values.map((r) => [r[0], r[at("company")], r[at("companyKey")]])).toEqual([
      ["Id", "Company", "Company key"],
      [5001, "Alpha", "c0"],
      [5002, "Alpha", "c0"],
      [5001, "Beta SA", "c1"],
    ]);
    // Alpha's 5001 changes: only its own row does.
    const next = sheetOf(
      [
        { table: alphaTable, fund: fund(5001) },
        { table: alphaTable, fund: fund(5002) },
        { table: betaTable, fund: fund(5001) },
      ],
      newKeys,
    );
    const renamed = { ...fund(5001), title: "Alpha's own" };
    const q = lane(alphaTable, alpha, next, newKeys, [renamed, fund(5002)], "remove");
    expect(q.counts).toEqual({ updated: 2, added: 0, removed: 0, marked: 0, untouched: 1 });
    expect(q.values.map((r) => r[at("title")])).toEqual(["Title", "Alpha's own", "Fund 5002", "Fund 5001"]);
    expect(q.values.map((r) => r[owned + 1])).toEqual([
      "Notes",
      "note c0|5001",
      "note c0|5002",
      "note c1|5001",
    ]);
  });

  it("labels every row of a one-company sheet as the first company's, its users' cells beside it", () => {
    const old = sheetOf(
      [101, 102, 103].map((id) => ({ table: FUNDS_TABLE, fund: fund(id) })),
      oldKeys,
    );
    // A users' total below, on a row without an Id: nothing to label there.
    const double = (keys: readonly string[]) => columnLetter(keys.length + 1);
    old.values.push([...new Array<CellValue>(oldKeys.length).fill(""), 7, "total"]);
    old.formulas.push([
      ...new Array<string>(oldKeys.length).fill(""),
      `=SUM(${double(oldKeys)}2:${double(oldKeys)}4)`,
      "",
    ]);
    old.formats.push([...new Array<string>(oldKeys.length).fill(""), "0.00", "General"]);
    expect(old.formulas[1]?.[oldKeys.length]).toBe("=H2*2+A2");
    const total = `=SUM(${double(newKeys)}2:${double(newKeys)}4)`;
    const labels = (values: CellValue[][]) =>
      values.map((r) => [r[0], r[at("company")], r[at("companyKey")]]);

    // The second company refreshes first: it covers none of these rows, and still labels them.
    for (const mode of ["keep", "remove"] as const) {
      const p = lane(betaTable, beta, old, oldKeys, [fund(101)], mode);
      expect(p.counts).toEqual({ updated: 0, added: 1, removed: 0, marked: 0, untouched: 4 });
      expect(labels(p.values)).toEqual([
        ["Id", "Company", "Company key"],
        [101, "Alpha", "c0"],
        [102, "Alpha", "c0"],
        [103, "Alpha", "c0"],
        ["", "", ""],
        [101, "Beta SA", "c1"],
      ]);
      // Balance moved from H to J; the formulas follow it, the Id stays in A, the notes stay.
      expect(p.values.map((r) => r.slice(owned))).toEqual([
        ["Double", "Notes"],
        ["=J2*2+A2", "note 101"],
        ["=J3*2+A3", "note 102"],
        ["=J4*2+A4", "note 103"],
        [total, "total"],
        ["", ""],
      ]);
      expect(p.values.map((r) => r[at("title")])).toEqual([
        "Title",
        "Fund 101",
        "Fund 102",
        "Fund 103",
        "",
        "Fund 101",
      ]);
      expect(p.formats[2]?.slice(owned)).toEqual(["0.00", "General"]);
      expect(p.formats[2]?.[at("company")]).toBe("@");

      // Refreshed again by the first company, the labelled rows match by "c0|Id".
      const again = lane(
        alphaTable,
        alpha,
        snapshotOf(p.values, p.formats),
        p.keys,
        [fund(101), fund(102)],
        "keep",
      );
      expect(again.counts).toEqual({ updated: 2, added: 0, removed: 0, marked: 1, untouched: 2 });
    }

    // The first company refreshes first: its rows are its own, 102 not returned.
    const kept = lane(
      alphaTable,
      alpha,
      old,
      oldKeys,
      [{ ...fund(101), title: "Renamed" }, fund(103)],
      "keep",
    );
    expect(kept.counts).toEqual({ updated: 2, added: 0, removed: 0, marked: 1, untouched: 1 });
    expect(labels(kept.values).slice(1)).toEqual([
      [101, "Alpha", "c0"],
      [102, "Alpha", "c0"],
      [103, "Alpha", "c0"],
      ["", "", ""],
    ]);
    expect(
      kept.values.map((r) => [r[at("title")], r[at("refreshNote")], ...r.slice(owned)]).slice(1),
    ).toEqual([
      ["Renamed", "", "=J2*2+A2", "note 101"],
      ["Fund 102", "gone", "=J3*2+A3", "note 102"],
      ["Fund 103", "", "=J4*2+A4", "note 103"],
      ["", "", total, "total"],
    ]);
    const removed = lane(alphaTable, alpha, old, oldKeys, [fund(101), fund(103)], "remove");
    expect(removed.counts).toEqual({ updated: 2, added: 0, removed: 1, marked: 0, untouched: 1 });
    expect(removed.values.map((r) => [...(labels([r])[0] ?? []), ...r.slice(owned)]).slice(1)).toEqual([
      [101, "Alpha", "c0", "=J2*2+A2", "note 101"],
      [103, "Alpha", "c0", "=J3*2+A3", "note 103"],
      ["", "", "", `=SUM(${double(newKeys)}2:${double(newKeys)}3)`, "total"],
      ["", "", "", "", ""],
    ]);
  });

  it("never marks nor removes another company's rows, whatever one company's refresh returns", () => {
    const ids = fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 12 });
    const owner = fc.constantFrom(alpha, beta);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(owner, fc.integer({ min: 1, max: 30 })), { maxLength: 20 }),
        ids,
        fc.constantFrom<MissingRowMode>("keep", "remove"),
        fc.option(ids, { nil: undefined }),
        (rows, returned, mode, selected) => {
          const seen = new Set<string>();
          const unique = rows.filter(([c, id]) => !seen.has(`${c.key}${id}`) && !!seen.add(`${c.key}${id}`));
          const table = (c: SheetCompany) => (c === alpha ? alphaTable : betaTable);
          const sheet = sheetOf(
            unique.map(([c, id]) => ({ table: table(c), fund: fund(id) })),
            newKeys,
          );
          const covers = selected === undefined ? "all" : (k: string) => selected.map(String).includes(k);
          const p = lane(betaTable, beta, sheet, newKeys, returned.map(fund), mode, covers);
          const after = p.values.slice(1, 1 + p.dataRows);
          // As the sheet holds them: a text cell in a date column is written back literal.
          const alphaBefore = sheet.values
            .map((r, i) => r.map((v, c) => rewritableValue(v, sheet.formats[i]?.[c] ?? "")))
            .slice(1)
            .filter((r) => r[at("companyKey")] === "c0");
          const alphaAfter = after.filter((r) => r[at("companyKey")] === "c0");
          // Every row of the first company is still there, unchanged, its note with it.
          expect(alphaAfter.map((r) => r.slice(0, owned))).toEqual(alphaBefore.map((r) => r.slice(0, owned)));
          expect(alphaAfter.map((r) => r[owned + 1])).toEqual(alphaBefore.map((r) => r[owned + 1]));
          expect(alphaAfter.every((r) => r[at("refreshNote")] === "")).toBe(true);
          // The users' formula of each row still reads its own row; a new row's cells start empty.
          after.forEach((r, i) => {
            const before = r[owned + 1] !== "";
            expect(r[owned]).toBe(before ? `=J${i + 2}*2+A${i + 2}` : "");
            if (before) expect(r[owned + 1]).toBe(`note ${r[at("companyKey")]}|${r[0]}`);
          });
          // Mark or remove happened to the second company's rows alone.
          const betaGone = unique.filter(
            ([c, id]) =>
              c === beta && !returned.includes(id) && (selected === undefined || selected.includes(id)),
          ).length;
          expect(p.counts[mode === "keep" ? "marked" : "removed"]).toBe(betaGone);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("a movements sheet of two companies", () => {
  it("inserts a fund's new movement after its own company's previous one, never another's", () => {
    const deposit = { type: 1, typeName: "Deposit", amountCents: 100, date: "2024-01-02" };
    const movement = (position: number): FundMovement => ({
      fund: { id: 5001, title: "Fund 5001", currency: "CLP" },
      position,
      transaction: deposit as FundMovement["transaction"],
    });
    const tables = {
      c0: companyTable(TRANSACTIONS_TABLE, alpha, true),
      c1: companyTable(TRANSACTIONS_TABLE, beta, true),
    };
    const keys = tables.c0.columns.map((c) => c.key);
    const rows: [keyof typeof tables, number][] = [
      ["c0", 1],
      ["c1", 1],
      ["c0", 2],
    ];
    const values: CellValue[][] = [
      headersOf(tables.c0, "en"),
      ...rows.map(([c, position]) => rowOf(tables[c], movement(position), "en")),
    ];
    const snapshot: SheetSnapshot = {
      name: "Fund transactions",
      values,
      formulas: values.map((r) => r.map(() => "")),
      formats: values.map((r) => r.map(() => "@")),
    };
    const p = planRefresh({
      columns: tables.c1.columns,
      previousKeys: keys,
      snapshot,
      records: [movement(1), movement(2)],
      keyOf: tables.c1.keyOf,
      keyColumns: tables.c1.keyColumns,
      covers: companyCovers("c1", true, (k) => k.startsWith("5001-")),
      mode: "remove",
      language: "en",
      missingNote: "gone",
      anchorOf: companyAnchor("c1", true, (m: FundMovement) =>
        m.position > 1 ? movementKey(m.fund.id, m.position - 1) : null,
      ),
    });
    expect(p.counts).toEqual({ updated: 1, added: 1, removed: 0, marked: 0, untouched: 2 });
    expect(p.values.map((r) => `${r[keys.indexOf("companyKey")]} ${r[0]}`).slice(1)).toEqual([
      "c0 5001-1",
      "c1 5001-1",
      "c1 5001-2",
      "c0 5001-2",
    ]);
    expect(companyAnchor("c0", false, undefined)).toBeUndefined();
  });
});

describe("one company's refresh of a sheet through applyToSheet", () => {
  it("reads old rows as the first company's and labels them, the new rows its own", () => {
    const old = sheetOf(
      [101, 102].map((id) => ({ table: FUNDS_TABLE, fund: fund(id) })),
      oldKeys,
    );
    const writes: RefreshPlan[] = [];
    const sheet: SheetAccess = {
      read: () => old,
      write: (plan) => {
        writes.push(plan);
        return true;
      },
      layout: () => oldKeys,
      saveLayout: () => undefined,
    };
    const withColumns = showsCompanies(true, oldKeys);
    const table = companyTable(FUNDS_TABLE, beta, withColumns);
    const plan = applyToSheet(
      sheet,
      {
        columnsFor: () => table.columns,
        records: [fund(101)],
        keyOf: table.keyOf,
        keyColumns: table.keyColumns,
        legacyParts: legacyPartsOf(companies),
        covers: companyCovers(beta.key, withColumns, "all"),
      },
      { language: "en", mode: "remove", missingNote: "gone" },
    );
    expect(writes).toEqual([plan]);
    expect(plan.counts).toEqual({ updated: 0, added: 1, removed: 0, marked: 0, untouched: 2 });
    expect(plan.values.map((r) => [r[0], r[at("companyKey")], r[owned + 1]])).toEqual([
      ["Id", "Company key", "Notes"],
      [101, "c0", "note 101"],
      [102, "c0", "note 102"],
      [101, "c1", ""],
    ]);
  });
});

describe("the company of a row", () => {
  const row = (name: CellValue, key: CellValue): CellValue[] => {
    const cells: CellValue[] = new Array<CellValue>(newKeys.length).fill("");
    cells[0] = 5001;
    cells[at("company")] = name;
    cells[at("companyKey")] = key;
    return cells;
  };
  const of = (name: CellValue, key: CellValue) => companyOfRow(row(name, key), newKeys, companies, 7);

  it("is the first company on a sheet without company columns, while the document never had several", () => {
    expect(companyOfRow([5001, "Fund"], oldKeys, [alpha], 2)).toEqual({ ok: true, company: alpha });
    expect(companyOfRow([5001, "Fund"], oldKeys, { entries: [alpha], several: false }, 2)).toEqual({
      ok: true,
      company: alpha,
    });
  });

  it("is none on a sheet without a Company key column once the document has had several: refused, naming the sheet", () => {
    expect(companyOfRow([5001, "Fund"], oldKeys, companies, 2, "Funds")).toEqual({
      ok: false,
      refusal: { reason: "noKeyColumn", row: 2, name: "", key: "", sheet: "Funds" },
    });
    // One company left after a removal: the sheet still cannot say whose a row is.
    expect(
      companyOfRow([5001, "Fund"], oldKeys, { entries: [alpha], several: true }, 4, "Funds"),
    ).toMatchObject({ ok: false, refusal: { reason: "noKeyColumn", row: 4, sheet: "Funds" } });
  });

  it("is the live company its key names, by its name or a former one", () => {
    expect(of("Beta SA", "c1")).toEqual({ ok: true, company: beta });
    expect(of(" beta sa ", "c1")).toEqual({ ok: true, company: beta });
    // Renamed while the lock was busy: the old name still resolves until a refresh rewrites it.
    expect(of("Beta", "c1")).toEqual({ ok: true, company: beta });
    expect(of("Alpha", "c0")).toEqual({ ok: true, company: alpha });
  });

  it("refuses anything else, with the row number and both cells", () => {
    expect(of("Beta SA", "")).toEqual({
      ok: false,
      refusal: { reason: "noKey", row: 7, name: "Beta SA", key: "" },
    });
    expect(of("Beta SA", "c9")).toMatchObject({ ok: false, refusal: { reason: "unknownKey", key: "c9" } });
    // The name of another company beside this key: never guessed either way.
    expect(of("Alpha", "c1")).toEqual({
      ok: false,
      refusal: { reason: "nameMismatch", row: 7, name: "Alpha", key: "c1", expected: "Beta SA" },
    });
    expect(of("", "c1")).toMatchObject({ ok: false, refusal: { reason: "nameMismatch" } });
    expect(of("Gamma", "c2")).toMatchObject({ ok: false, refusal: { reason: "removed", key: "c2" } });
    // The first company removed: a sheet without company columns has no company left.
    expect(companyOfRow([5001], oldKeys, [{ ...alpha, removed: { at: 1 } }], 3)).toMatchObject({
      ok: false,
      refusal: { reason: "removed", key: "c0" },
    });
  });

  it("says why in words, with the row and both values, in English and Spanish", () => {
    const refusalOf = (name: CellValue, key: CellValue) => {
      const r = of(name, key);
      if (r.ok) throw new Error("accepted");
      return r.refusal;
    };
    expect(companyRefusalText(refusalOf("Alpha", "c1"), "en")).toBe(
      'Row 7: the Company "Alpha" does not match its Company key "c1", which is the company "Beta SA"; nothing is done with it. Put the two cells back as a refresh wrote them.',
    );
    for (const [name, key] of [
      ["Beta SA", ""],
      ["Beta SA", "c9"],
      ["Gamma", "c2"],
    ] as const) {
      for (const language of ["en", "es"] as const) {
        const text = companyRefusalText(refusalOf(name, key), language);
        expect(text).toMatch(/^(Row|Fila) 7: /);
        expect(text).toContain(`"${name}"`);
        if (key !== "") expect(text).toContain(`"${key}"`);
        expect(text).not.toMatch(/\{\w+\}/);
      }
    }
  });
});

function snapshotOf(values: CellValue[][], formats: string[][]): SheetSnapshot {
  return { name: "Funds", values, formulas: values.map((r) => r.map(() => "")), formats };
}
