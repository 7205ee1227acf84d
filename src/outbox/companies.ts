/**
 * The company of each Outbox row (pure). A row names its company in the Company cell, by name:
 * the name is matched against the document's companies (handed in as plain data by app/, which
 * reads the registry), and the row goes to that company's key, whose connection alone may send
 * it. A cell that names no live company, or is empty while there are several, is refused: a row
 * is never sent with another company's token. The refusal is a code and its values, said by
 * ./companies/words.ts.
 */
import { type CompanyDirectory, companyByName, companyOfEmptyCell, liveCompanies } from "../company/model";
import type { Words } from "../i18n/words";
import { columnLetters } from "../sheets/formulas";
import { cellText } from "./cells";
import { columnNumber } from "./columns";
import type { CompanyRefused } from "./companies/words";
import type { OutboxRow } from "./rows";

export { ONE_COMPANY } from "../company/model";
export type { CompanyDirectory };

/** The company a row goes to, or why its Company cell names none (said by ./companies/words.ts). */
export type CompanyOfRow =
  | { ok: true; key: string; name: string /** Set when the cell holds a former name. */; note?: Words }
  | { ok: false; refused: CompanyRefused };

/**
 * The company a row's Company cell names: empty with one live company (in a document that never
 * had several), that one; a current name (compared as names are: "Alpha" and "ALPHA" are one
 * name), its key; a former name, its key with a note; anything else refused with the row, the
 * cell and its value.
 */
export function companyOfRow(
  row: Pick<OutboxRow, "rowNumber" | "cells">,
  directory: CompanyDirectory,
): CompanyOfRow {
  const value = cellText(row.cells.company);
  const live = liveCompanies(directory.entries);
  // The refusal names the cell, not the row: where it is listed, the row number goes before it.
  const refused = (reason: CompanyRefused["reason"]): CompanyOfRow => ({
    ok: false,
    refused: {
      reason,
      cell: `${columnLetters(columnNumber("company"))}${row.rowNumber}`,
      value,
      names: live.map((e) => e.name),
    },
  });
  if (value === "") {
    // A row of the one-company days, left empty, meant the first company: once the document
    // has had several, it is never taken for whichever company is left.
    const only = companyOfEmptyCell(directory);
    return only ? { ok: true, key: only.key, name: only.name } : refused("empty");
  }
  const named = companyByName(value, directory.entries);
  if (named.found === "current") return { ok: true, key: named.company.key, name: named.company.name };
  if (named.found === "former")
    return {
      ok: true,
      key: named.company.key,
      name: named.company.name,
      note: { key: "outbox.company.former", params: { value, name: named.company.name } },
    };
  return refused(named.found === "removed" ? "removed" : "unknown");
}
