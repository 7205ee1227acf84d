/**
 * Phase 2: the rows, in order. A row that owns a done write stays Done (flagged if edited); one
 * that owns a refused write is sent again once edited; one that owns an unsettled write was
 * taken in phase 1; a row showing Sending, Unknown or Done that no record explains is refused;
 * anything else is a new operation (`new-operation.ts`). Each row is read again first: a row
 * changed during the run is left for the next run and its preview.
 */

import { FIRST_COMPANY_KEY } from "../../company/model";
import { changedColumns, recordCompany, type WriteRecord } from "../records";
import { type OutboxRow, requestCells } from "../rows";
import type { RunContext } from "./context";
import { sendNew } from "./new-operation";
import { changesSince, likenessOf } from "./ownership";
import { companyName, companyOf, portOf } from "./ports";
import { buildRequest } from "./send";
import { currentRow, retireKey, writeRow } from "./sheet";
import {
  day,
  earlier,
  type Item,
  nowMs,
  outcome,
  outOfTime,
  type RunState,
  sentTextIn,
  words,
} from "./state";

/** Takes each row not handled yet, in order, until the run's time is up. */
export function runRowsInOrder(context: RunContext, state: RunState): void {
  for (const item of state.items) {
    if ((item.handled && !state.requeued.has(item)) || item.row.isEmpty) continue;
    if (outOfTime(context, state)) break;
    rowInOrder(context, state, item);
  }
}

/** One row, read again. */
export function rowInOrder(context: RunContext, state: RunState, item: Item): void {
  const row = currentRow(context, state, item);
  if (!row) return; // Changed during the run: the next run (and its preview) takes it.
  if (state.requeued.has(item)) {
    sendNew(context, state, row);
    return;
  }
  const rec = state.ownedBy.get(item.row) ?? state.records.get(row.operationKey);
  const owned = rec !== undefined && state.owners.get(rec.key) === item.row;
  if (owned && rec.state === "done") {
    keepDone(context, state, row, rec);
    return;
  }
  if (owned && rec.state === "refused") {
    const unchanged = rec.cells !== undefined && changedColumns(rec.cells, requestCells(row)).length === 0;
    if (unchanged && row.state === "Refused") return;
    if (row.state === "Done") {
      // A Done on a refused write's row (typed, or a done row's visible cells sorted onto it)
      // stands for no write: flagged and refused again, never taken as done nor sent. Unchanged,
      // it keeps the key (it is that write's row, refused); edited, it gives it up, or its next
      // run would take it for the refused row edited to be sent again.
      refuseDone(context, state, row, unchanged ? rec.key : "");
      return;
    }
    if (unchanged && row.state !== "Pending") return;
    // Settled by hand as Refused: kept, so the resend is taken as the same as that write. Any
    // copy of the row carrying its key gives it up first (retireKey): a Done sorted onto one
    // later must not pass for an old Done whose record was pruned.
    if (!rec.byHand) retireKey(context, state, rec.key);
    sendNew(context, state, row);
    return;
  }
  if (owned) return; // Unsettled: taken in phase 1 and left for a later run.
  // A copy of a refused write's key showing Done (a done row's cells sorted onto it) stands
  // for no write either: flagged, its key given up, never sent.
  if (rec?.state === "refused" && rec.cells && row.state === "Done") {
    refuseDone(context, state, row, "");
    return;
  }
  // (A row whose key names another write, whose cells it does not show, was marked in phase 0.)
  if (refusedForNoRecord(context, state, row, rec)) return;
  // Pending, or a copy of another row's key: a new operation.
  sendNew(context, state, row);
}

/** A row showing a Done that stands for no write: Refused, with `key` (or none), never sent. */
function refuseDone(context: RunContext, state: RunState, row: OutboxRow, key: string): void {
  const message = words(context)("outbox.msg.doneNoKey");
  writeRow(context, row, "Refused", message, key);
  outcome(state, row.rowNumber, "Refused", message, "refused");
}

/**
 * A row that owns a done write: Done it stays. Edited since, it says so and nothing is sent;
 * its State cleared, Done comes back; showing Done without this key, it gets the key back and
 * says so: it is never taken as done in silence.
 */
function keepDone(context: RunContext, state: RunState, row: OutboxRow, rec: WriteRecord): void {
  const t = words(context);
  // The Company cell counts: a Done row naming another company than its write went to was edited.
  const { before, now, changed } = rec.cells
    ? changesSince(rec, row, state.companyKey, (key) => companyName(context, key))
    : { before: {}, now: {}, changed: [] };
  const date = day(context, rec.finishedAt ?? rec.sentAt ?? nowMs(context));
  const desc = rec.request
    ? sentTextIn(context, state, rec.request, recordCompany(rec))
    : (rec.cells?.operation ?? "");
  const message =
    changed.length > 0
      ? t("outbox.msg.doneEditedLater", {
          sent: desc,
          date,
          changes: context.words.changes(before, now, changed),
        })
      : row.state !== "Done"
        ? t("outbox.msg.doneRestored", { date })
        : null;
  const adopted =
    message === null && row.operationKey !== rec.key ? t("outbox.msg.doneKeyRestored", { date }) : null;
  const shown = message ?? adopted;
  if (shown !== null && (row.state !== "Done" || row.result !== shown || row.operationKey !== rec.key)) {
    writeRow(context, row, "Done", shown, rec.key, desc);
    outcome(state, row.rowNumber, "Done", shown, null);
  }
}

/**
 * A row that owns no record but shows Sending, Unknown or Done, or carries a key no record
 * (and no row) has: from before records were kept, pruned, or typed by someone. Refused and
 * never sent, unless it is a copy of a recorded write (its visible cells copied, no key), which
 * is taken as the same as that write. True when the row was refused, or is left as it is.
 */
function refusedForNoRecord(
  context: RunContext,
  state: RunState,
  row: OutboxRow,
  rec: WriteRecord | undefined,
): boolean {
  // A form's record carries no cells: its key on a row names nothing of the row's (even once
  // the record was settled and dropped in this run).
  const named = rec ?? state.atStart.get(row.operationKey);
  const key = named !== undefined && !named.cells ? "" : row.operationKey;
  // A key another row owns is a copy even if its record was pruned since the run began.
  if (!((rec === undefined && !state.owners.has(key)) || key === "")) return false;
  // Done with no key was never written by the add-on (every Done it writes carries one): most
  // often a done row's visible cells pasted on a new line. Flagged, never taken as done nor sent.
  const doneWithoutKey = row.state === "Done" && key === "";
  if (row.state === null || (row.state === "Done" && !doneWithoutKey) || row.state === "Refused") return true;
  // Its visible cells copied from a row with a record (no key): taken as a copy of the whole
  // row would be, the same as that write.
  const probe = companyOf(context, row);
  // (Only compared with earlier writes: nothing is sent from here.)
  const probePort = probe.ok && key === "" ? portOf(context, state, probe.key) : null;
  const built =
    key === ""
      ? buildRequest(
          context,
          row,
          probePort && !("unusable" in probePort) ? probePort : { ...context, adminIssue: null },
        )
      : null;
  const copied =
    built !== null &&
    likenessOf(row, built.ok ? built.request : null, earlier(state), probe.ok ? probe.key : FIRST_COMPANY_KEY)
      .kind !== "new";
  if ((row.state === "Sending" || row.state === "Unknown" || doneWithoutKey || key !== "") && !copied) {
    const message = words(context)(doneWithoutKey ? "outbox.msg.doneNoKey" : "outbox.msg.noRecord");
    // Its key goes: it names no record, and a Done sorted onto this row later must not pass
    // for an old Done whose record was pruned.
    writeRow(context, row, "Refused", message, "");
    outcome(state, row.rowNumber, "Refused", message, "refused");
    return true;
  }
  return false;
}
