/**
 * The Outbox's columns are read by position: a column a user inserted, deleted or moved shifts
 * what each position holds (an amount read as a state, a key read from a time), so a done row
 * could be sent again or a user's column overwritten. Before a preview or a run, row 1 must
 * show each header where the add-on put it (either language).
 */
import { type Language, translate } from "../ui/strings";
import { type CellValue, headerKey, OUTBOX_COLUMNS } from "./columns";

/** Earlier names of the read-only column at the right, still accepted there. */
const EARLIER_SNAPSHOT_HEADERS = ["Snapshot (add-on)", "Instantánea (complemento)", ""];

function letter(column: number): string {
  let n = column;
  let out = "";
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** Why the Outbox's header row says its columns moved, or null when every header is in place. */
export function outboxHeaderProblem(headers: readonly CellValue[], language: Language): string | null {
  for (let i = 0; i < OUTBOX_COLUMNS.length; i += 1) {
    const column = OUTBOX_COLUMNS[i] as (typeof OUTBOX_COLUMNS)[number];
    const expected = [translate("en", headerKey(column)), translate("es", headerKey(column))];
    const value = headers[i];
    const found = value === undefined || value === null ? "" : String(value).trim();
    if (expected.includes(found)) continue;
    if (column === "snapshot" && EARLIER_SNAPSHOT_HEADERS.includes(found)) continue;
    return translate(language, "outbox.columnsMoved", {
      column: letter(i + 1),
      expected: translate(language, headerKey(column)),
      found,
    });
  }
  return null;
}
