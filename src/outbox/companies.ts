/**
 * The company of each Outbox row (pure). A row names its company in the Company cell, by name:
 * the name is matched against the document's companies (handed in as plain data by app/, which
 * reads the registry), and the row goes to that company's key, whose connection alone may send
 * it. A cell that names no live company, or is empty while there are several, is refused: a row
 * is never sent with another company's token.
 */
import { type CompanyDirectory, companyByName, companyOfEmptyCell, liveCompanies } from "../company/model";
import { type Language, translate } from "../i18n";
import { columnLetters } from "../sheets/formulas";
import { cellText } from "./cells";
import { columnNumber } from "./columns";
import type { OutboxRow } from "./rows";

export { ONE_COMPANY } from "../company/model";
export type { CompanyDirectory };

export type RowCompany =
  | { ok: true; key: string; name: string /** Set when the cell holds a former name. */; note?: string }
  | { ok: false; message: string };

/**
 * The company a row's Company cell names: empty with one live company (in a document that never
 * had several), that one; a current name (compared as names are: "Alpha" and "ALPHA" are one
 * name), its key; a former name, its key with a note; anything else refused with the row, the
 * cell and its value.
 */
export function resolveRowCompany(
  row: Pick<OutboxRow, "rowNumber" | "cells">,
  directory: CompanyDirectory,
  language: Language,
): RowCompany {
  const value = cellText(row.cells.company);
  const live = liveCompanies(directory.entries);
  // The message names the cell, not the row: where it is listed, the row number goes before it.
  const params = {
    cell: `${columnLetters(columnNumber("company"))}${row.rowNumber}`,
    value,
    names: live.map((e) => e.name || translate(language, "outbox.company.noCompany")).join(", "),
  };
  if (value === "") {
    // A row of the one-company days, left empty, meant the first company: once the document
    // has had several, it is never taken for whichever company is left.
    const only = companyOfEmptyCell(directory);
    if (only) return { ok: true, key: only.key, name: only.name };
    return { ok: false, message: translate(language, "outbox.company.empty", params) };
  }
  const named = companyByName(value, directory.entries);
  if (named.found === "current") return { ok: true, key: named.company.key, name: named.company.name };
  if (named.found === "former")
    return {
      ok: true,
      key: named.company.key,
      name: named.company.name,
      note: translate(language, "outbox.company.former", { value, name: named.company.name }),
    };
  return {
    ok: false,
    message: translate(
      language,
      named.found === "removed" ? "outbox.company.removed" : "outbox.company.unknown",
      params,
    ),
  };
}
