/**
 * The Accounts sheet's Company cells, resolved as every sheet's are (src/company/model.ts): a
 * row is never given to a company it does not name.
 */
import { describe, expect, it } from "vitest";
import { accountRows, accountsCompanyOf, kindFromLabel } from "../../src/close/sheets";
import type { Company, CompanyDirectory } from "../../src/company/model";
import { LANGUAGES, translate } from "../../src/i18n";

const ALPHA: Company = { key: "c0", name: "Alpha", formerNames: ["Alfa"] };
const BETA: Company = { key: "cbeta0001", name: "Beta", formerNames: [] };
const GONE: Company = { key: "cgone0001", name: "Gamma", formerNames: ["Old Gamma"], removed: { at: 1 } };

const several: CompanyDirectory = { entries: [ALPHA, BETA, GONE], several: true };

describe("the company an Accounts row names", () => {
  it("reads a name as names are compared: trimmed, any case, look-alike letters, a former name", () => {
    const of = accountsCompanyOf(several);
    expect(of("Alpha")).toBe("c0");
    expect(of("  ALPHA ")).toBe("c0");
    // The Greek capital alpha looks like the Latin A: the same name.
    expect(of("\u0391lpha")).toBe("c0");
    expect(of("Alfa")).toBe("c0");
    expect(of("beta")).toBe("cbeta0001");
    // A key written as it is names its live company.
    expect(of("cbeta0001")).toBe("cbeta0001");
  });

  it("gives a row no company when its cell names none: a removed company, an unknown name or key", () => {
    const of = accountsCompanyOf(several);
    expect(of("Gamma")).toBeNull();
    expect(of("Old Gamma")).toBeNull();
    expect(of("cgone0001")).toBeNull();
    expect(of("Delta")).toBeNull();
    expect(of("Alph")).toBeNull();
  });

  it("reads an empty cell as the one company only in a document that never had several", () => {
    expect(accountsCompanyOf({ entries: [ALPHA] })("")).toBe("c0");
    expect(accountsCompanyOf({ entries: [{ key: "c0", name: "", formerNames: [] }] })(" ")).toBe("c0");
    // Once a second company was added, an empty cell names none, even with one left.
    expect(accountsCompanyOf({ entries: [ALPHA, GONE], several: true })("")).toBeNull();
    expect(accountsCompanyOf(several)("")).toBeNull();
  });

  it("keeps the rows of the Accounts sheet whose Company cell names a company, each under its key", () => {
    const rows = accountRows(
      [
        ["Alpha", "Expense policy", "3", "Meals", "6100"],
        ["ALPHA ", "Expense policy", "4", "Taxis", "6200"],
        ["Gamma", "Expense policy", "3", "Meals", "9999"],
        ["", "Expense policy", "3", "Meals", "8888"],
        ["Beta", "Fund", "7", "Petty cash", "1100"],
      ],
      accountsCompanyOf(several),
      (label) => kindFromLabel(label, (key) => LANGUAGES.map((l) => translate(l, key))),
    );
    expect(rows.map((r) => [r.company, r.kind, r.key, r.account, r.row])).toEqual([
      ["c0", "policy", "3", "6100", 2],
      ["c0", "policy", "4", "6200", 3],
      ["cbeta0001", "fund", "7", "1100", 6],
    ]);
  });
});
