/**
 * Phase 1: the writes left unsettled by an earlier run or a form, oldest first, settled before
 * any row is sent (`settle.ts`): nothing on their fund or report is sent before them.
 */

import { isUnsettled, recordCompany } from "../records";
import type { RunContext } from "./context";
import { holdIn, landingMessage } from "./holds";
import { settleRecord } from "./settle";
import { currentRow } from "./sheet";
import { outcome, outOfTime, ownerOf, type RunState } from "./state";

/** Settles each unsettled write; false when the run's time ran out first. */
export function settleUnsettled(context: RunContext, state: RunState): boolean {
  const unsettled = [...state.records.values()]
    .filter(isUnsettled)
    .sort((a, b) => (a.sentAt ?? 0) - (b.sentAt ?? 0));
  for (const rec of unsettled) {
    if (outOfTime(context, state)) return false;
    const item = ownerOf(state, rec);
    if (item) item.handled = true;
    const row = item ? currentRow(context, state, item) : null;
    if (item && !row) {
      // The row changed during this run: settle it at the next run, with the preview's eyes on it.
      holdIn(state, rec.request, recordCompany(rec), landingMessage(context, rec));
      outcome(state, item.row.rowNumber, "Unknown", "", "skipped");
      continue;
    }
    settleRecord(context, state, rec, row);
  }
  return true;
}
