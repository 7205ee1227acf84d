/**
 * Which row owns which of the add-on's records, and how a row that owns none stands to them
 * (a new operation, the same as a write not settled yet, or the same as a done write). Pure:
 * the run and the preview decide by the same rules.
 */

import { FIRST_COMPANY_KEY } from "../../company/model";
import { cellText } from "../cells";
import { type CompanyDirectory, companyOfRow } from "../companies";
import { changedColumns, isUnsettled, recordCompany, type WriteRecord } from "../records";
import type { WriteRequest } from "../requests";
import { type OutboxRow, requestCells } from "../rows";

/**
 * The company a row's Company cell names, as compared with the company a record's write went
 * to (null: a cell that names no company, live or removed). The Company cell is part of a row's
 * request: a row shows a write only when it names the company the write went to.
 */
export type CompanyKeyOf = (row: Pick<OutboxRow, "rowNumber" | "cells">) => string | null;

/**
 * A directory's `CompanyKeyOf`: a current or former name gives its company's key, and so does a
 * removed company's name (its rows' cells were not edited when it was removed). An empty cell
 * that names no company now (the document has had several) is the first company's: every row
 * of the one-company days reads so, as every record of them does; it sends nothing.
 */
export function companyKeys(directory: CompanyDirectory): CompanyKeyOf {
  const everyCompany: CompanyDirectory = {
    entries: directory.entries.map((e) => ({ ...e, removed: false })),
    several: true,
  };
  return (row) => {
    const named = companyOfRow(row, directory);
    if (named.ok) return named.key;
    if (cellText(row.cells.company) === "") return FIRST_COMPANY_KEY;
    const removed = companyOfRow(row, everyCompany);
    return removed.ok ? removed.key : null;
  };
}

/**
 * A row's request cells and a record's, each with its Company when the row names another
 * company than the record's write went to (the record's as its company's name, the row's as
 * typed), and the columns that differ: what an edited row is told, the Company cell included.
 */
export function changesSince(
  record: WriteRecord,
  row: Pick<OutboxRow, "rowNumber" | "cells" | "operation">,
  keyOf: CompanyKeyOf,
  nameOf: (key: string) => string,
): { before: Record<string, string>; now: Record<string, string>; changed: string[] } {
  const moved = keyOf(row) !== recordCompany(record);
  const before = { ...(record.cells ?? {}), ...(moved ? { company: nameOf(recordCompany(record)) } : {}) };
  const now = { ...requestCells(row), ...(moved ? { company: cellText(row.cells.company) } : {}) };
  const changed = changedColumns(before, now);
  // The same text naming another company now (names traded in the list) is a change too.
  return { before, now, changed: moved && !changed.includes("company") ? [...changed, "company"] : changed };
}

/**
 * Which row owns each recorded key. A row owns a record only when it carries the record's key
 * and its request cells equal the cells the record was sent from, its Company naming the
 * company the write went to (`keyOf`); the first such row owns it,
 * any other row with that key is a copy, and a copy is a new operation. A form's record carries
 * no cells and is owned by no row: a key copied from the Audit sheet onto a row makes nothing
 * of the form's write the row's.
 *
 * Then a row still showing the Done, Sending or Unknown the add-on wrote but whose key cell is
 * empty (cleared, or the visible columns sorted without the hidden ones) is its write's row:
 * the record no other row owns with the same cells and company, nearest the row it was written
 * to. Last, a
 * record left without a row goes to the first row carrying its key that owns nothing (a row
 * edited after it was sent, or sorted): that row is settled for what was sent and sends nothing
 * for what it shows. Any other row carrying the key of a write whose cells it does not show
 * sends nothing either (`mismatchOf`).
 */
export function ownersOfKeys(
  rows: readonly OutboxRow[],
  records: ReadonlyMap<string, WriteRecord>,
  keyOf: CompanyKeyOf,
): Map<string, OutboxRow> {
  const owners = new Map<string, OutboxRow>();
  const owning = new Set<OutboxRow>();
  const own = (key: string, row: OutboxRow) => {
    owners.set(key, row);
    owning.add(row);
  };
  for (const row of rows) {
    const record = records.get(row.operationKey);
    if (!record?.cells || row.isEmpty || owners.has(record.key)) continue;
    if (showsWrite(record, row, keyOf)) own(record.key, row);
  }
  const keyless = rows
    .filter((r) => r.operationKey === "" && !r.isEmpty && /^(Done|Sending|Unknown)$/.test(`${r.state}`))
    .map((row) => ({ row, cells: requestCells(row), company: keyOf(row) }));
  for (const record of keyless.length > 0 ? records.values() : []) {
    if (owners.has(record.key) || !record.cells || record.state === "refused") continue;
    const off = (r: OutboxRow) => Math.abs(r.rowNumber - (record.row ?? r.rowNumber));
    let found: OutboxRow | undefined;
    for (const { row, cells, company } of keyless)
      if (
        company === recordCompany(record) &&
        sameCells(record.cells, cells) &&
        (!found || off(row) < off(found))
      )
        found = row;
    if (found) {
      own(record.key, found);
      keyless.splice(
        keyless.findIndex((k) => k.row === found),
        1,
      );
    }
  }
  for (const row of rows) {
    const record = records.get(row.operationKey);
    if (!record?.cells || row.isEmpty || owners.has(record.key) || owning.has(row)) continue;
    own(record.key, row);
  }
  return owners;
}

/**
 * A row carrying the key of a done or unsettled write whose cells it does not show, and that
 * is not that write's row: the sheet was sorted without its hidden columns, or a row was copied
 * with its key and edited. Nothing is sent for it (its cells may be a done operation's, moved).
 */
export function mismatchOf(
  row: OutboxRow,
  owners: ReadonlyMap<string, OutboxRow>,
  records: ReadonlyMap<string, WriteRecord>,
  keyOf: CompanyKeyOf,
): WriteRecord | null {
  const record = records.get(row.operationKey);
  if (!record?.cells || record.state === "refused" || owners.get(record.key) === row) return null;
  return showsWrite(record, row, keyOf) ? null : record;
}

/** How a row that owns no record stands to the add-on's records of earlier writes. */
export type Likeness =
  | { kind: "new" }
  /** The same request as a write not settled yet: it waits until that one is settled. */
  | { kind: "waits"; record: WriteRecord }
  /** The same request as a done write, however old: sent only when confirmed as such. */
  | { kind: "sameAsDone"; record: WriteRecord };

function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
}

/** Cells as one text, an empty cell the same as a missing one (as `changedColumns` compares them). */
function cellsText(cells: Record<string, string>): string {
  return canonical(Object.fromEntries(Object.entries(cells).filter(([, v]) => v !== "")));
}

/** Each record's cells or request as text, worked out once (a batch compares every row with them). */
const recordTexts = new WeakMap<WriteRecord, string | null>();

/**
 * Whether a row's request equals a record's request as sent: an Outbox record by the cells it
 * was sent from (the request is made of them), a form's record by the request itself.
 */
function sameAs(record: WriteRecord, rowCells: string, request: string | null, company: string): boolean {
  // A write refused by the service moved nothing; one settled by hand as Refused may have.
  if (record.state === "refused" && !record.byHand) return false;
  // The same cells sent to another company are another write.
  if (recordCompany(record) !== company) return false;
  let text = recordTexts.get(record);
  if (text === undefined) {
    text = record.cells ? cellsText(record.cells) : record.request ? canonical(record.request) : null;
    recordTexts.set(record, text);
  }
  if (text === null) return false;
  return record.cells ? text === rowCells : request !== null && text === request;
}

/** The unsettled write (first) or the newest done write whose request the row's equals. */
export function likenessOf(
  row: OutboxRow,
  request: WriteRequest | null,
  records: Iterable<WriteRecord>,
  company = FIRST_COMPANY_KEY,
): Likeness {
  const rowCells = cellsText(requestCells(row));
  const requestText = request === null ? null : canonical(request);
  let done: WriteRecord | undefined;
  for (const record of records) {
    if (!sameAs(record, rowCells, requestText, company)) continue;
    if (isUnsettled(record)) return { kind: "waits", record };
    if ((record.finishedAt ?? 0) >= (done?.finishedAt ?? -1)) done = record;
  }
  return done ? { kind: "sameAsDone", record: done } : { kind: "new" };
}

/** The record each row owns (ownersOfKeys, turned around). */
export function ownedRecords(
  owners: ReadonlyMap<string, OutboxRow>,
  records: ReadonlyMap<string, WriteRecord>,
): Map<OutboxRow, WriteRecord> {
  const out = new Map<OutboxRow, WriteRecord>();
  for (const [key, row] of owners) {
    const record = records.get(key);
    if (record) out.set(row, record);
  }
  return out;
}

function sameCells(a: Record<string, string>, b: Record<string, string>): boolean {
  return changedColumns(a, b).length === 0;
}

/**
 * Whether a row shows the cells a write was sent from, its Company naming the company the
 * write went to. A refused write's row is sent again once its cells are edited, as before (a
 * row refused for naming no company has no company on its record).
 */
function showsWrite(record: WriteRecord, row: OutboxRow, keyOf: CompanyKeyOf): boolean {
  if (!record.cells || !sameCells(record.cells, requestCells(row))) return false;
  return record.state === "refused" || keyOf(row) === recordCompany(record);
}
