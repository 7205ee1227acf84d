/**
 * The rows on the sheet during a run: a row read again before it is acted on (found again if
 * rows were inserted or deleted), and the add-on's block of a row written, found again by
 * operation key just before writing, so edits and inserted rows during a run are kept.
 */

import type { CellValue } from "../columns";
import type { OutboxState } from "../operations";
import { type OutboxRow, readOutboxRow } from "../rows";
import type { OutboxSheetPort, RunContext } from "./context";
import { dropRecord, type Item, identityOf, type RunState } from "./state";

/** The item's row as it is now, read again; null when it changed or moved out of reach. */
export function currentRow(
  context: RunContext,
  state: Pick<RunState, "items" | "positionsStale">,
  item: Item,
): OutboxRow | null {
  const fresh = readOutboxRow(context.sheet.readRow(item.row.rowNumber), item.row.rowNumber);
  if (identityOf(fresh) === item.identity) return fresh;
  if (!state.positionsStale) {
    // Rows were inserted or deleted during the run: find every row again, in order.
    state.positionsStale = true;
    const now = context.sheet.readAll().map((values, i) => readOutboxRow(values, i + 2));
    let from = 0;
    for (const it of state.items) {
      const index = now.findIndex((r, i) => i >= from && identityOf(r) === it.identity);
      if (index >= 0) {
        it.row.rowNumber = index + 2;
        from = index + 1;
      }
    }
    state.positionsStale = false;
    const again = readOutboxRow(context.sheet.readRow(item.row.rowNumber), item.row.rowNumber);
    if (identityOf(again) === item.identity) return again;
  }
  return null;
}

/**
 * Writes the add-on's cells of a row (State, Result, Time, Operation key, Sent) where the row
 * is now; nothing when it was deleted during the run (the audit keeps the story).
 */
export function writeRow(
  context: RunContext,
  row: OutboxRow,
  shown: OutboxState,
  message: string,
  key: string,
  sent = "",
): void {
  const rowNumber = locate(context.sheet, row, key);
  if (rowNumber === null) return;
  context.sheet.writeOwned(rowNumber, {
    state: context.words.state(shown),
    result: message,
    time: context.now(),
    operationKey: key,
    snapshot: sent,
  });
  row.rowNumber = rowNumber;
  row.operationKey = key;
}

/**
 * Where the row is now: its expected row if that still carries its key, else the row that
 * carries the key. Before a key was written (or when it is not found), the row with the same
 * key as when read and the same request cells, nearest its expected place: a row inserted or
 * deleted above must not take another row's state and key. A row edited meanwhile is found at
 * its expected place if that still carries the key it was read with. null if it is gone.
 */
function locate(sheet: OutboxSheetPort, row: OutboxRow, key: string): number | null {
  const expected = row.rowNumber;
  const keyWhenRead = row.operationKey;
  const keys = sheet.readOperationKeys();
  const at = (rowNumber: number) => keys[rowNumber - 2] ?? "";
  // Found by the key it carries; a row given a key it did not carry (a new write, or its key put
  // back) is found as read: another row carrying that key is not this one.
  if (key !== "" && key === keyWhenRead) {
    if (at(expected) === key) return expected;
    const index = keys.indexOf(key);
    if (index >= 0) return index + 2;
  }
  const identity = identityOf(row);
  const same = (rowNumber: number, values: CellValue[]) =>
    identityOf(readOutboxRow(values, rowNumber)) === identity;
  if (at(expected) === keyWhenRead && same(expected, sheet.readRow(expected))) return expected;
  const all = sheet.readAll();
  let found: number | null = null;
  for (let i = 0; i < all.length; i += 1) {
    const rowNumber = i + 2;
    if (at(rowNumber) !== keyWhenRead || !same(rowNumber, all[i] as CellValue[])) continue;
    if (found === null || Math.abs(rowNumber - expected) < Math.abs(found - expected)) found = rowNumber;
  }
  if (found !== null) return found;
  return at(expected) === keyWhenRead ? expected : null;
}

/**
 * Drops a write's record once it is settled and sent again under a new key, or found not
 * applied. Other rows may still carry its key: rows refused for showing other cells (phase 0)
 * and copies of its row. Left so, a Done later sorted onto one of them would pass for an old
 * Done whose record was pruned: they take the key of the write that replaced it, or none,
 * before the record goes. The write's own row is its caller's to write.
 */
export function retireKey(context: RunContext, state: RunState, key: string, successor = ""): void {
  const own = state.owners.get(key);
  for (const item of state.items) {
    if (item.row === own || item.row.operationKey !== key) continue;
    const row = currentRow(context, state, item);
    if (row?.state == null) continue;
    writeRow(context, row, row.state, row.result, successor);
    item.identity = identityOf(row);
  }
  dropRecord(context, state, key);
}
