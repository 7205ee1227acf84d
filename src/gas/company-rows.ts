/**
 * The data sheets' rows of a company after a change to the list of companies, under the
 * document lock: the first company's rows labelled when a second is added (the Company columns
 * inserted by the merge, users' columns shifted with their formulas), a renamed company's
 * Company cells rewritten, a removed company's rows greyed with a note or removed. Each sheet
 * goes alone: one that cannot be written now is left to the next refresh, which labels and
 * covers rows by the same rules.
 */

import { tolerate } from "../api/errors";
import { type Company, FIRST_COMPANY_KEY } from "../company/model";
import type { Language } from "../i18n";
import type { SheetTarget } from "../refresh/engine";
import type { SheetNames } from "../refresh/options";
import { loadLayout } from "../refresh/stored-text";
import type { CellValue } from "../sheets/cells";
import { FORMAT } from "../sheets/cells";
import {
  COMPANY_COLUMN,
  COMPANY_KEY_COLUMN,
  type Column,
  FILES_TABLE,
  fundColumns,
  hasCompanyColumns,
  reportsTable,
  TRANSACTIONS_TABLE,
  withCompany,
} from "../sheets/columns";
import { companyCovers, legacyPartsOf, relabelledNames, type SheetCompany } from "../sheets/company";
import { applyToSheetIn } from "../sheets/words";
import { activeSpreadsheet, documentProperties } from "./active";
import { sheetAccess } from "./spreadsheet";

const DATA_SHEETS: readonly SheetTarget[] = ["funds", "transactions", "reports", "files"];

/** The add-on's columns of a data sheet without companies (no records: what the sheet holds). */
function baseColumns(target: SheetTarget, previousKeys: readonly string[]): readonly Column<unknown>[] {
  switch (target) {
    case "funds":
      return fundColumns(new Map()) as readonly Column<unknown>[];
    case "transactions":
      return TRANSACTIONS_TABLE.columns as readonly Column<unknown>[];
    case "reports":
      return reportsTable([], previousKeys).columns as readonly Column<unknown>[];
    default:
      return FILES_TABLE.columns as readonly Column<unknown>[];
  }
}

function hasRows(name: string): boolean {
  const sheet = activeSpreadsheet().getSheetByName(name);
  return sheet !== null && sheet.getLastRow() > 1;
}

/** Merges no records into one data sheet with company columns, `covers` deciding which rows go. */
function mergeRows(
  target: SheetTarget,
  name: string,
  label: { key: string; name: string },
  options: {
    legacyParts?: Record<string, string>;
    covers: (key: string) => boolean;
    mode: "keep" | "remove";
    note: string;
    language: Language;
  },
): void {
  const first = baseColumns(target, [])[0]?.key ?? "id";
  applyToSheetIn(
    sheetAccess(target, name),
    {
      columnsFor: (previousKeys) => withCompany(baseColumns(target, previousKeys), label),
      records: [],
      keyOf: () => "",
      keyColumns: [COMPANY_KEY_COLUMN, first],
      ...(options.legacyParts ? { legacyParts: options.legacyParts } : {}),
      covers: options.covers,
    },
    { language: options.language, mode: options.mode, missingNote: options.note },
  );
}

/**
 * The §5 migration: each data sheet with rows and no company columns gains Company and Company
 * key after its first column, every existing row labelled with the first company. Nothing else
 * of a row changes; users' columns move right with their formulas. Returns the sheets labelled.
 */
export function labelFirstCompanyRows(
  names: SheetNames,
  companies: readonly SheetCompany[],
  language: Language,
): SheetTarget[] {
  const legacyParts = legacyPartsOf(companies);
  const first = {
    key: legacyParts[COMPANY_KEY_COLUMN] ?? FIRST_COMPANY_KEY,
    name: legacyParts[COMPANY_COLUMN] ?? "",
  };
  const done: SheetTarget[] = [];
  for (const target of DATA_SHEETS) {
    const name = names[target as keyof SheetNames];
    if (!hasRows(name) || hasCompanyColumns(loadLayout(documentProperties(), target) ?? [])) continue;
    const ok = tolerate(
      "tried again later",
      () => {
        mergeRows(target, name, first, {
          legacyParts,
          covers: () => false,
          mode: "keep",
          note: "",
          language,
        });
        return true;
      },
      false,
    );
    if (ok) done.push(target);
  }
  return done;
}

/**
 * A rename: the Company cells of `was`'s rows that agree with their key show `name` (the key
 * cells stay; a row whose Company cell names another company is left as it is).
 */
export function relabelCompanyRows(names: SheetNames, was: Company, name: string): void {
  for (const target of DATA_SHEETS) {
    const sheetName = names[target as keyof SheetNames];
    const layout = loadLayout(documentProperties(), target) ?? [];
    const keyAt = layout.indexOf(COMPANY_KEY_COLUMN);
    const nameAt = layout.indexOf(COMPANY_COLUMN);
    const sheet = activeSpreadsheet().getSheetByName(sheetName);
    if (!sheet || keyAt < 0 || nameAt < 0 || sheet.getLastRow() <= 1) continue;
    tolerate(
      "tried again later",
      () => {
        const rows = sheet.getLastRow() - 1;
        const keys = sheet.getRange(2, keyAt + 1, rows, 1).getValues() as CellValue[][];
        const range = sheet.getRange(2, nameAt + 1, rows, 1);
        const cells = range.getValues() as CellValue[][];
        const next = relabelledNames(
          keys.map((r) => r[0] ?? ""),
          cells.map((r) => r[0] ?? ""),
          was,
          name,
        );
        if (!next) return;
        // Plain text first: a name lands in its cell as it is, never parsed.
        range.setNumberFormats(next.map(() => [FORMAT.text]));
        range.setValues(next.map((v) => [v]));
      },
      undefined,
    );
  }
}

/** A removal: `key`'s rows greyed with `note` ("keep") or removed ("remove"). */
export function removedCompanyRows(
  names: SheetNames,
  company: { key: string; name: string },
  rows: "keep" | "remove",
  note: string,
  language: Language,
): void {
  const covers = companyCovers(company.key, true, "all");
  for (const target of DATA_SHEETS) {
    const name = names[target as keyof SheetNames];
    if (!hasRows(name) || !hasCompanyColumns(loadLayout(documentProperties(), target) ?? [])) continue;
    tolerate(
      "tried again later",
      () =>
        mergeRows(target, name, company, {
          covers: covers === "all" ? () => true : covers,
          mode: rows,
          note,
          language,
        }),
      undefined,
    );
  }
}
