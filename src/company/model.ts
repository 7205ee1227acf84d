/**
 * What a company is, for every layer above this one (pure): its key for ever, its name now and
 * before, removed or not; the document's list of them and whether it has ever had several; the
 * first company's key; and the company a row names, by its Company key and Company cells (a
 * data sheet's row) or by its Company cell alone (an Outbox row). Names are compared as they
 * look (names.ts). The list's own rules (adding, renaming, removing, storing) are the
 * settings' (src/settings/companies.ts), whose entries are companies of this shape.
 */

import { sameName } from "./names";

/**
 * The key of the company a one-company spreadsheet has always had: every row, record and
 * token saved before companies is its. The one declaration of it.
 */
export const FIRST_COMPANY_KEY = "c0";

/** "c0" for the first company; later "c" and 8 base-36 characters, made by the server only. */
export type CompanyKey = string;

/** A company as every layer needs it. */
export interface Company {
  key: CompanyKey;
  /** Shown in cells, dropdowns and the audit; "" only for a first company never named. */
  name: string;
  /** Names it had before, the latest last: a cell holding one still names it. */
  formerNames: readonly string[];
  /** Set while removed (a tombstone: its key stays its own); what it holds is the list's. */
  removed?: unknown;
}

/** The document's companies, in display order (removed ones too). */
export interface CompanyDirectory<C extends Company = Company> {
  entries: readonly C[];
  /**
   * True once the document has had a second company (never reset): an empty Company cell, or
   * a data sheet without its Company key column, then means no company, even with one left.
   */
  several?: boolean;
}

/** A directory of the first company alone, unnamed: what a document without companies reads as. */
export const ONE_COMPANY: CompanyDirectory = {
  entries: [{ key: FIRST_COMPANY_KEY, name: "", formerNames: [] }],
};

/** Whether `company` was removed from the document. */
export function isRemoved(company: Company): boolean {
  return company.removed !== undefined && company.removed !== null && company.removed !== false;
}

/** The companies still listed (not removed), in the list's order. */
export function liveCompanies<C extends Company>(entries: readonly C[]): C[] {
  return entries.filter((c) => !isRemoved(c));
}

/** Whether the document lists more than one live company now (rows must then name theirs). */
export function listsSeveral(directory: CompanyDirectory): boolean {
  return liveCompanies(directory.entries).length > 1;
}

/** Whether the document has ever had several companies (the stored fact, or several now). */
export function hasHadSeveral(directory: CompanyDirectory): boolean {
  return directory.several === true || listsSeveral(directory);
}

/**
 * How `text` names `company`: "current" (its name), "former" (one it had), or null. Compared
 * as names are (names.ts: "Alpha" and "ALPHA" are one name); an unnamed company is named by an
 * empty cell only.
 */
export function namedAs(company: Company, text: string): "current" | "former" | null {
  const value = text.trim();
  const same = (name: string) =>
    name.trim() === value || (name !== "" && value !== "" && sameName(name, value));
  if (same(company.name)) return "current";
  return company.formerNames.some((n) => n !== "" && same(n)) ? "former" : null;
}

/** Why a row's Company key and Company cells name no company. */
export type CellsRefusal = "noKey" | "unknownKey" | "nameMismatch" | "removed";

export type CompanyOfCells<C extends Company> =
  | { ok: true; company: C }
  | { ok: false; reason: CellsRefusal /** The name of the company the key names. */; expected?: string };

/**
 * The company a data sheet's row belongs to, from its Company key cell `key` and its Company
 * cell `name` (both as read): the live company the key names, when the name is its name or a
 * former one. The two cells must agree; anything else is refused, never guessed.
 */
export function companyOfCells<C extends Company>(
  key: string,
  name: string,
  entries: readonly C[],
): CompanyOfCells<C> {
  const k = key.trim();
  if (k === "") return { ok: false, reason: "noKey" };
  const company = entries.find((c) => c.key === k);
  if (!company) return { ok: false, reason: "unknownKey" };
  if (isRemoved(company)) return { ok: false, reason: "removed" };
  if (namedAs(company, name) !== null) return { ok: true, company };
  return { ok: false, reason: "nameMismatch", expected: company.name };
}

/**
 * The company of a data sheet's rows when the sheet has no Company key column: the first
 * company's, in a document that never had several companies (its sheets never had the
 * columns); once it has had several, none (a column renamed, moved or deleted says nothing of
 * whose a row is).
 */
export function companyWithoutKeyColumn<C extends Company>(directory: CompanyDirectory<C>): C | null {
  if (hasHadSeveral(directory)) return null;
  return directory.entries.find((c) => c.key === FIRST_COMPANY_KEY) ?? null;
}

/**
 * The company an empty Company cell of an Outbox row means: the one live company of a
 * document that never had several; once it has had several, none (a row of the one-company
 * days is never taken for whichever company is left).
 */
export function companyOfEmptyCell<C extends Company>(directory: CompanyDirectory<C>): C | null {
  const live = liveCompanies(directory.entries);
  return live.length === 1 && !hasHadSeveral(directory) ? (live[0] ?? null) : null;
}

export type CompanyByName<C extends Company> =
  | { found: "current" | "former"; company: C }
  | { found: "removed" | "unknown" };

/**
 * The company a non-empty Company cell names by name alone (an Outbox row): a live company's
 * current name first, then a live company's former name; a removed company's name is told
 * apart from a name no company had.
 */
export function companyByName<C extends Company>(value: string, entries: readonly C[]): CompanyByName<C> {
  const live = liveCompanies(entries);
  const current = live.find((c) => c.name !== "" && namedAs(c, value) === "current");
  if (current) return { found: "current", company: current };
  const former = live.find((c) => namedAs(c, value) === "former");
  if (former) return { found: "former", company: former };
  return entries.some((c) => isRemoved(c) && namedAs(c, value) !== null)
    ? { found: "removed" }
    : { found: "unknown" };
}
