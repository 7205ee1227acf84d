/**
 * A run of the Outbox. First every write left unsettled by an earlier run or a form (its
 * record says "sending" or "unknown") is settled by reading the service, once the window in
 * which its request could still land has passed; while one is unsettled, no row on its fund is
 * sent, above or below it. Then rows are taken in order: each new operation is sent once, with
 * its record written (and its row marked Sending and flushed) before the call.
 *
 * What a row sends is always what its cells show now; the add-on's record (outside the sheet)
 * only says what was sent before, so a cell can neither change what is sent nor forge what an
 * interrupted write was. Only the add-on's block of a row is written, found again by operation
 * key just before writing, so edits and inserted rows during a run are kept.
 */

import { closeRun } from "./run/close";
import type { RunContext, RunSummary } from "./run/context";
import { runRowsInOrder } from "./run/in-order";
import { markMismatchedRows } from "./run/mismatched";
import { startRun } from "./run/state";
import { settleUnsettled } from "./run/unsettled";

export { confirmationKey, confirmedAs, FUND_NOT_FOUND } from "./run/confirmations";
export {
  type CompanyPort,
  type OutboxSheetPort,
  outboxBudgetMs,
  type RowOutcome,
  type RunContext,
  type RunSummary,
  type RunWords,
  type UnusableCompanyPort,
} from "./run/context";
export { type Likeness, likenessOf, mismatchOf, ownedRecords, ownersOfKeys } from "./run/ownership";
export { companyPort } from "./run/ports";
export { doneWords } from "./run/send";

/**
 * Runs the Outbox. The caller holds the document lock and asked for confirmation before taking
 * it. Each phase reads and changes the run's state (`run/state.ts`) and nothing else.
 */
export function runOutbox(context: RunContext): RunSummary {
  // The rows and the records as they are now, and which row owns which record.
  const state = startRun(context);
  // 0. Rows carrying another write's key without its cells: refused, before anything is settled.
  markMismatchedRows(context, state);
  // 1. Unsettled writes first, oldest first: nothing on their fund is sent before them.
  if (!settleUnsettled(context, state)) return closeRun(context, state);
  // 2. The rows, in order, until the time is up.
  runRowsInOrder(context, state);
  // 3. The records beyond the newest kept are dropped.
  return closeRun(context, state);
}
