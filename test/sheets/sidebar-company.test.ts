/**
 * The company a Fund or Report sidebar acts on: the selected row's (Company and Company key
 * checked together), the one picked for a typed Id, and whether a form's submission may go to
 * the company it names (listed, and the one shown last for that fund). Nothing is guessed.
 */
import { describe, expect, it } from "vitest";
import { withCompany } from "../../src/sheets/columns";
import type { SheetCompany } from "../../src/sheets/company";
import { companyLayoutOfHeader } from "../../src/sheets/sidebar-company";
import { companyOfSelectedRow, companyOfSubmission, companyOfTypedId } from "../../src/sheets/words";

const ALPHA: SheetCompany = { key: "c0", name: "Alpha", formerNames: [] };
const BETA: SheetCompany = { key: "c1beta0001", name: "Beta", formerNames: ["Beta Old"] };
const GONE: SheetCompany = {
  key: "c1gone0001",
  name: "Gone",
  formerNames: [],
  removed: { at: 1, rows: "keep" },
};
const TWO = [ALPHA, BETA, GONE];
const HEADER = ["Id", "Company", "Company key", "Title", "Balance"];

const rowOf = (id: number, name: string, key: string) => [id, name, key, "Caja", 10];

describe("the selected row's company", () => {
  it("reads the Company and Company key columns by their headers, in either language", () => {
    expect(companyLayoutOfHeader(HEADER)).toEqual(["", "company", "companyKey", "", ""]);
    expect(companyLayoutOfHeader(["Id", "Empresa", "Clave de empresa", 3])).toEqual([
      "",
      "company",
      "companyKey",
      "",
    ]);
    // The layout the refresh writes has the same headers.
    const columns = withCompany([{ key: "id" }, { key: "title" }] as never, ALPHA).map((c) => c.key);
    expect(columns).toEqual(["id", "company", "companyKey", "title"]);
  });

  it("the same Id in two companies: each row is its own company's", () => {
    const a = companyOfSelectedRow(rowOf(5001, "Alpha", "c0"), HEADER, TWO, 2, true, 5001, "en");
    const b = companyOfSelectedRow(rowOf(5001, "Beta", BETA.key), HEADER, TWO, 3, true, 5001, "en");
    expect(a).toEqual({ ok: true, company: ALPHA });
    expect(b).toEqual({ ok: true, company: BETA });
    // A former name still names its company (a rename not yet written into the cells).
    expect(companyOfSelectedRow(rowOf(5001, "beta old", BETA.key), HEADER, TWO, 4, true, 5001, "en")).toEqual(
      {
        ok: true,
        company: BETA,
      },
    );
  });

  it("refuses a row whose name and key disagree, naming the row and both cells", () => {
    const r = companyOfSelectedRow(rowOf(5001, "Alpha", BETA.key), HEADER, TWO, 7, true, 5001, "en");
    expect(r).toEqual({
      ok: false,
      message: `Row 7: the Company "Alpha" does not match its Company key "${BETA.key}", which is the company "Beta"; nothing is done with it. Put the two cells back as a refresh wrote them.`,
    });
  });

  it("refuses an empty key, an unknown key and a removed company, each naming the row and the cells", () => {
    const empty = companyOfSelectedRow(rowOf(5001, "Beta", ""), HEADER, TWO, 5, true, 5001, "en");
    expect(empty.ok).toBe(false);
    expect(!empty.ok && empty.message).toMatch(/^Row 5: the Company key cell is empty \(Company "Beta"\)/);
    const unknown = companyOfSelectedRow(rowOf(5001, "Zeta", "c9zzz"), HEADER, TWO, 6, true, 5001, "en");
    expect(!unknown.ok && unknown.message).toMatch(
      /^Row 6: the Company key "c9zzz" \(Company "Zeta"\) is not one/,
    );
    const removed = companyOfSelectedRow(rowOf(5001, "Gone", GONE.key), HEADER, TWO, 8, true, 5001, "es");
    expect(!removed.ok && removed.message).toMatch(/^Fila 8: .*"Gone".*"c1gone0001"/);
  });

  it("a data sheet without company columns holds the first company's rows while the document never had several; another sheet asks to pick", () => {
    const plain = ["Id", "Title"];
    expect(companyOfSelectedRow([5001, "Caja"], plain, [ALPHA], 2, true, 5001, "en")).toEqual({
      ok: true,
      company: ALPHA,
    });
    expect(
      companyOfSelectedRow([5001, "Caja"], plain, { entries: [ALPHA], several: false }, 2, true, 5001, "en"),
    ).toEqual({ ok: true, company: ALPHA });
    const other = companyOfSelectedRow([5001, "Caja"], ["Fund Id", "Note"], TWO, 2, false, 5001, "en");
    expect(other).toEqual({
      ok: false,
      message:
        "Fund 5001: pick its company (Alpha, Beta). Fund Ids repeat from one company to another; nothing is read until one is picked.",
    });
    // With one company there is nothing to pick.
    expect(companyOfSelectedRow([5001, "Caja"], ["Fund Id"], [ALPHA], 2, false, 5001, "en")).toEqual({
      ok: true,
      company: ALPHA,
    });
  });
});

describe("a typed Id's company", () => {
  it("one company: it; several: the one picked, which must be listed and live", () => {
    expect(companyOfTypedId(undefined, [ALPHA], 5001, "en")).toEqual({ ok: true, company: ALPHA });
    expect(companyOfTypedId(BETA.key, TWO, 5001, "en")).toEqual({ ok: true, company: BETA });
    expect(companyOfTypedId("", TWO, 5001, "en")).toMatchObject({ ok: false, message: /pick its company/ });
    expect(companyOfTypedId(GONE.key, TWO, 5001, "en")).toMatchObject({
      ok: false,
      message: /"c1gone0001" is not one of this spreadsheet's companies/,
    });
  });
});

describe("a submission's company", () => {
  const shown = { "5001": BETA.key, new: ALPHA.key };

  it("one company: sent to it, whatever was shown (a one-company spreadsheet is unchanged)", () => {
    expect(companyOfSubmission(undefined, [ALPHA], {}, "5001", "en")).toEqual({ ok: true, company: ALPHA });
    expect(companyOfSubmission("c0", [ALPHA], {}, "5001", "en")).toEqual({ ok: true, company: ALPHA });
  });

  it("several: only the company shown last for that fund", () => {
    expect(companyOfSubmission(BETA.key, TWO, shown, "5001", "en")).toEqual({ ok: true, company: BETA });
    expect(companyOfSubmission("c0", TWO, shown, "5001", "en")).toEqual({
      ok: false,
      message:
        "Fund 5001 of Alpha is not the fund this sidebar showed last: load it again, then send. Nothing was sent.",
    });
    expect(companyOfSubmission("c0", TWO, shown, "new", "en")).toEqual({ ok: true, company: ALPHA });
    expect(companyOfSubmission(BETA.key, TWO, shown, "new", "en")).toMatchObject({ ok: false });
    // Nothing shown (the cache expired): load again.
    expect(companyOfSubmission(BETA.key, TWO, {}, "5001", "en")).toMatchObject({ ok: false });
  });

  it("several: none named, a key not listed or removed, is refused", () => {
    expect(companyOfSubmission(undefined, TWO, shown, "5001", "en")).toMatchObject({
      ok: false,
      message: /^Fund 5001: pick its company \(Alpha, Beta\)/,
    });
    expect(companyOfSubmission(undefined, TWO, shown, "new", "en")).toMatchObject({
      ok: false,
      message: /^Pick the company the new fund is for \(Alpha, Beta\)/,
    });
    expect(companyOfSubmission(GONE.key, TWO, { "5001": GONE.key }, "5001", "en")).toMatchObject({
      ok: false,
      message: /not one of this spreadsheet's companies/,
    });
    expect(companyOfSubmission({ key: "c0" }, TWO, shown, "5001", "en")).toMatchObject({ ok: false });
  });
});

describe("a data sheet that lost its Company key column", () => {
  const plain = ["Id", "Company", "Title"];
  const refused = (sheet: string) =>
    `Row 2: the ${sheet} sheet has no "Company key" column (its header renamed or deleted), and this spreadsheet has had several companies, so its rows cannot be told apart by company; nothing is done with it. Put the "Company key" header back as a refresh wrote it.`;

  it("is refused once the document lists several companies, naming the sheet and the column", () => {
    expect(companyOfSelectedRow([5001, "Beta", "Caja"], plain, TWO, 2, true, 5001, "en", "Funds")).toEqual({
      ok: false,
      message: refused("Funds"),
    });
  });

  it("is refused once the document has had several, even with one company left", () => {
    const one = { entries: [ALPHA, { ...BETA, removed: { at: 1, rows: "keep" } }], several: true };
    expect(companyOfSelectedRow([5001, "Alpha", "Caja"], plain, one, 2, true, 5001, "en", "Funds")).toEqual({
      ok: false,
      message: refused("Funds"),
    });
    expect(
      companyOfSelectedRow([5001, "Alpha", "Caja"], plain, one, 2, true, 5001, "es", "Fondos"),
    ).toMatchObject({ ok: false, message: /^Fila 2: la hoja Fondos no tiene la columna "Clave de empresa"/ });
  });

  it("a Company cell that names the key's company as it looks is the same name; another company's is refused", () => {
    expect(companyOfSelectedRow(rowOf(5001, "BETA", BETA.key), HEADER, TWO, 3, true, 5001, "en")).toEqual({
      ok: true,
      company: BETA,
    });
    // A Greek capital alpha: "Αlpha" looks like Alpha, so it is Alpha's name, not Beta's.
    expect(
      companyOfSelectedRow(rowOf(5001, "\u0391lpha", BETA.key), HEADER, TWO, 3, true, 5001, "en"),
    ).toMatchObject({
      ok: false,
      message: /^Row 3: the Company "\u0391lpha" does not match its Company key/,
    });
    expect(companyOfSelectedRow(rowOf(5001, "\u0391lpha", "c0"), HEADER, TWO, 3, true, 5001, "en")).toEqual({
      ok: true,
      company: ALPHA,
    });
  });
});

describe("a form's company once the document has had several, one company left", () => {
  const left = { entries: [{ ...ALPHA, removed: { at: 1, rows: "keep" } }, BETA], several: true };

  it("is never the company left by default: the submission names it, and it is the one shown for the fund", () => {
    expect(companyOfSubmission(undefined, left, { "5001": BETA.key }, "5001", "en")).toMatchObject({
      ok: false,
      message: /^Fund 5001: pick its company \(Beta\)/,
    });
    expect(companyOfSubmission(BETA.key, left, {}, "5001", "en")).toMatchObject({ ok: false });
    expect(companyOfSubmission(BETA.key, left, { "5001": BETA.key }, "5001", "en")).toEqual({
      ok: true,
      company: BETA,
    });
  });

  it("a document that never had several keeps its one company for a form that names none", () => {
    expect(companyOfSubmission(undefined, { entries: [ALPHA], several: false }, {}, "5001", "en")).toEqual({
      ok: true,
      company: ALPHA,
    });
  });
});
