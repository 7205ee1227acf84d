/**
 * The company of each Outbox row (pure). A row names its company in the Company cell, by name:
 * the name is matched against the document's companies (handed in as plain data by app/, which
 * reads the registry), and the row goes to that company's key, whose connection alone may send
 * it. A cell that names no live company, or is empty while there are several, is refused: a row
 * is never sent with another company's token.
 */
import { type Language, translate } from "../i18n";
import { columnLetters } from "../sheets/formulas";
import { cellText } from "./cells";
import { columnNumber } from "./columns";
import type { OutboxRow } from "./rows";

/** The first company's key: every record and row from before companies is its. */
export const FIRST_COMPANY = "c0";

/** A company as the Outbox needs it: its key for ever, its name now and before, removed or not. */
export interface DirectoryEntry {
  key: string;
  name: string;
  formerNames: readonly string[];
  removed?: boolean;
}

/** The document's companies, in display order (removed ones too). */
export interface CompanyDirectory {
  entries: readonly DirectoryEntry[];
  /**
   * True once the document has had a second company (never reset): an empty Company cell then
   * means no company, even when one is left.
   */
  several?: boolean;
}

/** A directory of the first company alone, unnamed: what a document without companies reads as. */
export const ONE_COMPANY: CompanyDirectory = { entries: [{ key: FIRST_COMPANY, name: "", formerNames: [] }] };

export type RowCompany =
  | { ok: true; key: string; name: string /** Set when the cell holds a former name. */; note?: string }
  | { ok: false; message: string };

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The live companies of a directory. */
export function liveCompanies(directory: CompanyDirectory): DirectoryEntry[] {
  return directory.entries.filter((e) => !e.removed);
}

/** Whether the directory lists more than one live company (rows must then name theirs). */
export function severalCompanies(directory: CompanyDirectory): boolean {
  return liveCompanies(directory).length > 1;
}

/**
 * The company a row's Company cell names: empty with one live company (in a document that never
 * had several), that one; a current name
 * (trimmed, either case), its key; a former name, its key with a note; anything else refused
 * with the row, the cell and its value.
 */
export function resolveRowCompany(
  row: Pick<OutboxRow, "rowNumber" | "cells">,
  directory: CompanyDirectory,
  language: Language,
): RowCompany {
  const value = cellText(row.cells.company);
  const live = liveCompanies(directory);
  // The message names the cell, not the row: where it is listed, the row number goes before it.
  const params = {
    cell: `${columnLetters(columnNumber("company"))}${row.rowNumber}`,
    value,
    names: live.map((e) => e.name || translate(language, "outbox.company.noCompany")).join(", "),
  };
  if (value === "") {
    // A row of the one-company days, left empty, meant the first company: once the document
    // has had several, it is never taken for whichever company is left.
    const only = live.length === 1 && !directory.several ? live[0] : undefined;
    if (only) return { ok: true, key: only.key, name: only.name };
    return { ok: false, message: translate(language, "outbox.company.empty", params) };
  }
  const current = live.find((e) => e.name !== "" && same(e.name, value));
  if (current) return { ok: true, key: current.key, name: current.name };
  const former = live.find((e) => e.formerNames.some((n) => same(n, value)));
  if (former)
    return {
      ok: true,
      key: former.key,
      name: former.name,
      note: translate(language, "outbox.company.former", { value, name: former.name }),
    };
  const removed = directory.entries.find(
    (e) => e.removed && (same(e.name, value) || e.formerNames.some((n) => same(n, value))),
  );
  return {
    ok: false,
    message: translate(language, removed ? "outbox.company.removed" : "outbox.company.unknown", params),
  };
}
