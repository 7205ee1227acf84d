/**
 * The company of each row of a data sheet (pure). Once a document has several companies, each
 * data sheet carries Company (the name) and Company key (hidden) after its first column
 * (`withCompany` in columns.ts), and rows are keyed by (company, Id): "c1|5001". The companies
 * are handed in as plain data; their registry and its rules live in src/settings/.
 */
import {
  type Company,
  type CompanyDirectory,
  companyOfCells,
  companyWithoutKeyColumn,
  FIRST_COMPANY_KEY,
  isRemoved,
  namedAs,
} from "../company/model";
import type { StringKey } from "../i18n";
import type { Words } from "../i18n/words";
import type { CellValue } from "./cells";
import {
  COMPANY_COLUMN,
  COMPANY_KEY_COLUMN,
  type CompanyLabel,
  hasCompanyColumns,
  KEY_SEPARATOR,
  type TableSpec,
  withCompany,
} from "./columns";
import { normaliseKey } from "./merge";

/** A company as the sheets need it: the one model of a company (src/company/model.ts). */
export type SheetCompany = Company;

/** The first company's key, declared once in src/company/model.ts (re-exported for the refresh). */

/**
 * Whether a sheet shows the company columns: once the document has several companies, and for
 * ever after on a sheet that has them (back to one company, the columns stay).
 */
export function showsCompanies(several: boolean, previousKeys: readonly string[]): boolean {
  return several || hasCompanyColumns(previousKeys);
}

/** A row's key within its company: "c1" and "5001" → "c1|5001". */
export function companyRowKey(companyKey: string, key: string): string {
  return `${companyKey}${KEY_SEPARATOR}${key}`;
}

/**
 * What a row written before its sheet had company columns reads as, for the merge's
 * `legacyParts`: the first company's key, and its name for the Company cell it gets.
 */
export function legacyPartsOf(companies: readonly SheetCompany[]): Record<string, string> {
  const first = companies.find((c) => c.key === FIRST_COMPANY_KEY);
  return { [COMPANY_KEY_COLUMN]: FIRST_COMPANY_KEY, [COMPANY_COLUMN]: first?.name ?? "" };
}

/**
 * One company's table: with the company columns (`withColumns`), its rows labelled with it and
 * keyed "K|<key>"; without them, `table` as it is, which only the first company may write (a
 * sheet without company columns holds the first company's rows alone).
 */
export function companyTable<R>(
  table: TableSpec<R>,
  company: CompanyLabel,
  withColumns: boolean,
): TableSpec<R> {
  if (!withColumns) {
    if (company.key !== FIRST_COMPANY_KEY)
      throw new Error(`The ${table.name} sheet has no company columns: only ${FIRST_COMPANY_KEY} writes it.`);
    return table;
  }
  return {
    name: table.name,
    columns: withCompany(table.columns, company),
    keyColumns: [COMPANY_KEY_COLUMN, ...table.keyColumns],
    keyOf: (record) => companyRowKey(company.key, table.keyOf(record)),
  };
}

/**
 * One company's `covers` for the merge: with company columns, only rows keyed "K|…" of its own
 * key, the rest of the key then asked of `covers` (written over the record's own keys, as
 * without companies); so marking or removing rows never reaches another company's rows.
 */
export function companyCovers(
  companyKey: string,
  withColumns: boolean,
  covers: "all" | ((key: string) => boolean),
): "all" | ((key: string) => boolean) {
  if (!withColumns) {
    if (companyKey !== FIRST_COMPANY_KEY) return () => false;
    return covers;
  }
  const prefix = companyRowKey(companyKey, "");
  return (key) => key.startsWith(prefix) && (covers === "all" || covers(key.slice(prefix.length)));
}

/**
 * One company's `anchorOf` for the merge: the row a new record goes after, within that company
 * (a fund's new movement after the same company's previous one, never after another's).
 */
export function companyAnchor<R>(
  companyKey: string,
  withColumns: boolean,
  anchorOf: ((record: R) => string | null) | undefined,
): ((record: R) => string | null) | undefined {
  if (!withColumns || !anchorOf) return anchorOf;
  return (record) => {
    const anchor = anchorOf(record);
    return anchor === null ? null : companyRowKey(companyKey, anchor);
  };
}

/** Why a row's company was refused: the row, and both of its cells as they read. */
export interface CompanyRefusal {
  reason: "noKey" | "unknownKey" | "nameMismatch" | "removed" | "noKeyColumn";
  /** The row's number in the sheet (1 is the header). */
  row: number;
  /** The Company cell. */
  name: string;
  /** The Company key cell. */
  key: string;
  /** For a name that does not match: the name of the company the key names. */
  expected?: string;
  /** For a sheet without its Company key column: the sheet's name. */
  sheet?: string;
}

export type RowCompany = { ok: true; company: SheetCompany } | { ok: false; refusal: CompanyRefusal };

function isCompanyList(value: CompanyDirectory | readonly Company[]): value is readonly Company[] {
  return Array.isArray(value);
}

/** A list of companies handed in alone: a directory whose "several" is what it lists now. */
function directoryOf(companies: CompanyDirectory | readonly Company[]): CompanyDirectory {
  return isCompanyList(companies) ? { entries: companies } : companies;
}

/**
 * The company row `row` belongs to, its `cells` read in the add-on's `layout` (column keys from
 * A): on a sheet without a Company key column, the first company while the document has never
 * had several (its sheets never had the columns), and none once it has (the column was renamed
 * or deleted: `sheet` names it in the refusal); else the live company its key names, when the
 * Company cell holds that company's name or a former one (compared as names are). Anything else
 * is refused, never guessed: the row is not sent with any company's token.
 */
export function companyOfRow(
  cells: readonly CellValue[],
  layout: readonly string[],
  companies: CompanyDirectory | readonly Company[],
  row: number,
  sheet = "",
): RowCompany {
  const directory = directoryOf(companies);
  const keyAt = layout.indexOf(COMPANY_KEY_COLUMN);
  const nameAt = layout.indexOf(COMPANY_COLUMN);
  const name = nameAt < 0 ? "" : normaliseKey(cells[nameAt]);
  const refuse = (reason: CompanyRefusal["reason"], key: string, expected?: string): RowCompany => ({
    ok: false,
    refusal: {
      reason,
      row,
      name,
      key,
      ...(expected === undefined ? {} : { expected }),
      ...(reason === "noKeyColumn" ? { sheet } : {}),
    },
  });
  if (keyAt < 0) {
    const first = companyWithoutKeyColumn(directory);
    if (!first) return refuse("noKeyColumn", "");
    return isRemoved(first) ? refuse("removed", first.key) : { ok: true, company: first };
  }
  const key = normaliseKey(cells[keyAt]);
  const found = companyOfCells(key, name, directory.entries);
  return found.ok ? found : refuse(found.reason, key, found.expected);
}

const REFUSAL_TEXT: Record<CompanyRefusal["reason"], StringKey> = {
  noKey: "company.row.noKey",
  unknownKey: "company.row.unknownKey",
  nameMismatch: "company.row.nameMismatch",
  removed: "company.row.removed",
  noKeyColumn: "company.row.noKeyColumn",
};

/**
 * A refusal's words: the row number and both cells ("Row 7: the Company "Beta" does not
 * match…"); ./words.ts says them (`companyRefusalText`).
 */
export function companyRefusalWords(refusal: CompanyRefusal): Words {
  return {
    key: REFUSAL_TEXT[refusal.reason],
    params: {
      row: refusal.row,
      name: refusal.name,
      key: refusal.key,
      expected: refusal.expected ?? "",
      sheet: refusal.sheet ?? "",
      column: { say: "col.companyKey" },
    },
  };
}

/**
 * A rename's Company cells: the column `names` (data rows, top to bottom) with every row whose
 * key cell (`keys`, same rows) is the company's key and whose Company cell agrees with it (names
 * it as it was called before the rename: `was`'s name or a former one, compared as names are)
 * showing `name`; the key stays, only the name shown changes. A row whose cells disagree is left
 * as it is: it names no company until an editor puts it right, and is refused where it is used.
 * Null when no cell changes.
 */
export function relabelledNames(
  keys: readonly CellValue[],
  names: readonly CellValue[],
  was: Company,
  name: string,
): CellValue[] | null {
  let changed = false;
  const out = names.map((cell, i) => {
    if (normaliseKey(keys[i]) !== was.key || cell === name) return cell;
    if (namedAs(was, String(cell ?? "")) === null) return cell;
    changed = true;
    return name;
  });
  return changed ? out : null;
}
