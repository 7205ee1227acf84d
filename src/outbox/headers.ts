/**
 * The Outbox's columns are read by position: a column a user inserted, deleted or moved shifts
 * what each position holds (an amount read as a state, a key read from a time), so a done row
 * could be sent again or a user's column overwritten. Before a preview or a run, row 1 must
 * show each header where the add-on put it (either language).
 */
import { type Language, translate } from "../i18n";
import { type CellValue, headerKey, OUTBOX_COLUMNS } from "./columns";

/** Why the Outbox's header row says its columns moved, or null when every header is in place. */
export function outboxHeaderProblem(headers: readonly CellValue[], language: Language): string | null {
  // The last column (what was sent, for reading only) had other names before; it is not read.
  for (let i = 0; i < OUTBOX_COLUMNS.length - 1; i += 1) {
    const column = OUTBOX_COLUMNS[i] as (typeof OUTBOX_COLUMNS)[number];
    const expected = [translate("en", headerKey(column)), translate("es", headerKey(column))];
    const value = headers[i];
    const found = String(value == null ? "" : value).trim();
    if (expected.includes(found)) continue;
    return translate(language, "outbox.columnsMoved", {
      column: String.fromCharCode(65 + i), // 22 columns: A to V
      expected: translate(language, headerKey(column)),
      found,
    });
  }
  return null;
}
