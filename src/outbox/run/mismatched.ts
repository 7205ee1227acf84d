/**
 * Phase 0: rows whose key names another write, whose cells they do not show (the sheet sorted
 * without its hidden columns, or a row copied with its key and edited). Nothing is sent for
 * them, and nothing they say invites sending a done operation again. Marked before any write is
 * settled: settling may drop or replace that record (not applied, sent again under a new key),
 * and a row left Done with the key of a record gone looks like an old, pruned Done.
 */

import { recordCompany } from "../records";
import type { RunContext } from "./context";
import { mismatchOf } from "./ownership";
import { writeRow } from "./sheet";
import { outcome, type RunState, sentTextIn, words } from "./state";

export function markMismatchedRows(context: RunContext, state: RunState): void {
  const t = words(context);
  for (const item of state.items) {
    if (item.row.isEmpty) continue;
    const mismatch = mismatchOf(item.row, state.owners, state.records, state.companyKey);
    if (!mismatch) continue;
    item.handled = true;
    const row = item.row;
    const message = t("outbox.msg.sortedOrEdited", {
      sent: mismatch.request
        ? sentTextIn(context, state, mismatch.request, recordCompany(mismatch))
        : (mismatch.cells?.operation ?? ""),
    });
    if (row.state !== "Refused" || row.result !== message) {
      writeRow(context, row, "Refused", message, row.operationKey);
      outcome(state, row.rowNumber, "Refused", message, "refused");
    }
  }
}
