/**
 * A row sent as a new operation (Pending, or carrying a key it does not own): through its own
 * company's port, if its request is valid and fits a record, its fund or report is not held,
 * it is not the same as a write still unsettled, and the confirmation showed it as it is now.
 */

import { blocks, cellTooLongToRecord } from "../records";
import type { WriteRequest } from "../requests";
import { type OutboxRow, requestCells } from "../rows";
import { takeConfirmed } from "./confirmations";
import type { RunContext } from "./context";
import { heldFor } from "./holds";
import { likenessOf } from "./ownership";
import { companyOf, portOf } from "./ports";
import { buildRequest, refuseInvalid, send } from "./send";
import { writeRow } from "./sheet";
import { day, earlier, outcome, ownerOf, type RunState, words } from "./state";

export function sendNew(context: RunContext, state: RunState, row: OutboxRow): void {
  const t = words(context);
  // The row's company first: a row naming none, or one that is not live, is refused; a
  // company this user cannot write to yet leaves it Pending. No other port is ever used.
  const resolved = companyOf(context, row);
  if (!resolved.ok) {
    refuseInvalid(context, state, row, context.words.companyRefused(resolved.refused));
    return;
  }
  const company = resolved.key;
  const port = portOf(context, state, company);
  if ("unusable" in port) {
    const message = t("outbox.company.unusable", { message: port.unusable });
    // With no key: a key it carried named a write that is not this row's (a copy's) or was
    // retired before it came here; kept, a Done sorted onto it later would pass for an old one.
    leavePending(context, state, row, message);
    return;
  }
  const built = buildRequest(context, row, port);
  const tooLong = cellTooLongToRecord(requestCells(row), built.ok ? built.request : undefined);
  if (tooLong) {
    // No record can hold it: refused with no key, so nothing stored and the run goes on.
    const message = t("outbox.msg.cellTooLong", context.words.tooLong(tooLong));
    writeRow(context, row, "Refused", message, "");
    outcome(state, row.rowNumber, "Refused", message, "refused");
    return;
  }
  if (!built.ok) {
    refuseInvalid(context, state, row, built.message);
    return;
  }
  // The same request as an earlier write: it waits for that one, or is sent only when the
  // confirmation showed it as the same as the done one.
  const likeness = likenessOf(row, built.request, earlier(state), company);
  const sameRow = likeness.kind === "new" ? undefined : ownerOf(state, likeness.record)?.row.rowNumber;
  if (likeness.kind === "waits") {
    const message =
      sameRow !== undefined
        ? t("outbox.msg.waitingForSameRow", { row: sameRow })
        : t("outbox.msg.waitingForSame");
    leavePending(context, state, row, message);
    return;
  }
  let waiting = heldFor(state, built.request, company);
  if (built.request.operation === "createFund") {
    // An unsettled creation of the same fund is settled by finding the fund: another one
    // created meanwhile would be taken for it.
    const request = built.request;
    const unsettled = [...state.records.values()].find((r) => blocks(r, request, company));
    const at = unsettled && ownerOf(state, unsettled);
    if (unsettled)
      waiting = at
        ? t("outbox.msg.waitingForRow", { row: at.row.rowNumber })
        : t("outbox.msg.waitingForCreation");
  }
  if (waiting !== undefined) {
    leavePending(context, state, row, waiting);
    return;
  }
  if (
    likeness.kind === "sameAsDone"
      ? !takeConfirmed(state.confirmations, row, { sameAs: likeness.record.key }, company)
      : !takeConfirmed(state.confirmations, row, "new", company)
  ) {
    const message =
      waitedFor(context, state, row, built.request, company) ??
      (likeness.kind === "sameAsDone"
        ? t("outbox.msg.notConfirmedSame", {
            date: day(context, likeness.record.finishedAt ?? likeness.record.sentAt ?? 0),
          })
        : t("outbox.msg.notConfirmed"));
    leavePending(context, state, row, message);
    return;
  }
  send(context, state, row, built.request, context.newKey(), company, port);
}

/**
 * A row that was the same as a write not settled yet when the run was confirmed (so the
 * confirmation showed it waiting, not to be sent), that write settled since by this run: it
 * waits for a confirmation of its own, and says so, naming the write's row.
 */
function waitedFor(
  context: RunContext,
  state: RunState,
  row: OutboxRow,
  request: WriteRequest,
  company: string,
): string | undefined {
  const before = likenessOf(row, request, state.atStart.values(), company);
  if (before.kind !== "waits") return undefined;
  const t = words(context);
  const sameRow = ownerOf(state, before.record)?.row.rowNumber;
  return sameRow !== undefined
    ? t("outbox.msg.sameAsSettledRow", { row: sameRow })
    : t("outbox.msg.sameAsSettled");
}

/** Nothing sent: the row stays Pending, with no key, saying why. */
function leavePending(context: RunContext, state: RunState, row: OutboxRow, message: string): void {
  writeRow(context, row, "Pending", message, "");
  outcome(state, row.rowNumber, "Pending", message, "skipped");
}
