/**
 * Settling an unsettled write (its record says "sending" or "unknown") by reading the service,
 * through the port of the company it went to, once the window in which it could still land has
 * passed: applied, it is Done; not applied (or idempotent), its row may be sent again, but only
 * as it is now and as the confirmation showed it; when reading cannot tell, only a State typed
 * by hand (and confirmed) settles it. Until then its fund or report is held.
 */

import { cellText } from "../cells";
import {
  changedColumns,
  finishedRecord,
  inFlightUntil,
  recordCompany,
  recordSnapshot,
  type WriteRecord,
} from "../records";
import type { WriteRequest } from "../requests";
import { type OutboxRow, requestCells } from "../rows";
import { settleInterruptedWrite, type Verdict } from "../write";
import { takeConfirmed } from "./confirmations";
import type { CompanyPort, RunContext } from "./context";
import { heldFor, holdIn, landingMessage, waitForRow } from "./holds";
import { companyName, companyOf, portOf, writingTo } from "./ports";
import { buildRequest, errorText, refuseInvalid, send, updateSheets } from "./send";
import { retireKey, writeRow } from "./sheet";
import {
  clock,
  day,
  finishRecord,
  nowMs,
  outcome,
  ownerOf,
  putRecord,
  type RunState,
  sentTextIn,
  words,
} from "./state";

/** An unsettled write being settled: its record, its row (null when no row owns it), where it went. */
interface Settling {
  rec: WriteRecord;
  row: OutboxRow | null;
  request: WriteRequest;
  /** The company it was sent to: settled through that company's port, or not yet. */
  company: string;
  /** The fund as read before it was sent (its currency names the amounts). */
  mark: ReturnType<typeof recordSnapshot>["fund"];
}

/** The write's verdict read, and how its row differs from what was sent. */
interface Read extends Settling {
  port: CompanyPort;
  /** The columns changed since it was sent (the Company cell naming another company counts). */
  changed: string[];
  changes: string;
}

/** Settles one unsettled write, or holds its fund or report until it can be. */
export function settleRecord(
  context: RunContext,
  state: RunState,
  rec: WriteRecord,
  row: OutboxRow | null,
): void {
  const t = words(context);
  const mark = recordSnapshot(rec).fund;
  const s: Settling = { rec, row, request: rec.request as WriteRequest, company: recordCompany(rec), mark };
  if (mark?.currency) state.currencies.set(`${s.company}|${mark.id}`, mark.currency);
  const waitingOn = heldFor(state, rec.request, s.company);
  if (waitingOn !== undefined) {
    if (row) outcome(state, row.rowNumber, "Unknown", waitingOn, "skipped");
    return;
  }
  if (nowMs(context) < inFlightUntil(rec)) {
    leaveUnknown(
      context,
      state,
      s,
      t("outbox.msg.waitingForLanding", { until: clock(context, inFlightUntil(rec)) }),
    );
    return;
  }
  const port = portOf(context, state, s.company);
  if ("unusable" in port) {
    leaveUnknown(context, state, s, t("outbox.company.settleUnusable", { message: port.unusable }));
    return;
  }
  let verdict: Verdict;
  try {
    verdict = settleInterruptedWrite(writingTo(context, port), recordSnapshot(rec));
  } catch (error) {
    leaveUnknown(context, state, s, t("outbox.msg.checkFailed", { message: errorText(error) }));
    return;
  }
  const read: Read = { ...s, port, ...changesOf(context, s) };
  if (verdict.verdict === "cannotTell") {
    cannotTell(context, state, read, verdict);
    return;
  }
  // An update edited since is sent as its row is now, whether or not the first one landed.
  if (verdict.verdict === "applied" && !(read.changed.length > 0 && s.request.operation === "updateFund")) {
    applied(context, state, read, verdict);
    return;
  }
  notApplied(context, state, read, verdict.verdict !== "notApplied");
}

/** How the row differs from the cells the write was sent from (none without a row or cells). */
function changesOf(
  context: RunContext,
  { rec, row, company }: Settling,
): { changed: string[]; changes: string } {
  // The row's Company naming another company now counts as a change of the row.
  const rowCompany = row ? companyOf(context, row) : null;
  const moved = rowCompany !== null && (!rowCompany.ok || rowCompany.key !== company);
  const before = moved ? { ...rec.cells, company: companyName(context, company) } : (rec.cells ?? {});
  const nowCells = row
    ? { ...requestCells(row), ...(moved ? { company: cellText(row.cells.company) } : {}) }
    : null;
  const changed = row && rec.cells ? changedColumns(before, nowCells as Record<string, string>) : [];
  const changes = row && rec.cells ? context.words.changes(before, nowCells ?? {}, changed) : "";
  return { changed, changes };
}

/** Left unsettled: its row (if any) says why, and its fund or report is held. */
function leaveUnknown(context: RunContext, state: RunState, s: Settling, message: string): void {
  const { rec, row } = s;
  if (row) {
    writeRow(context, row, "Unknown", message, rec.key, sentTextIn(context, state, s.request, s.company));
    outcome(state, row.rowNumber, "Unknown", message, "unknown");
  }
  holdIn(
    state,
    rec.request,
    s.company,
    row ? waitForRow(context, rec.request, row.rowNumber) : landingMessage(context, rec),
  );
}

function note(r: Read, message: string, recordId?: number | null): void {
  r.port.audit.note({ key: r.rec.key, request: r.request, message, recordId: recordId ?? null });
}

/**
 * Only a person can tell. A State of Done or Refused typed by hand settles it, nothing sent,
 * when the confirmation named it so: any editor can type a State.
 */
function cannotTell(
  context: RunContext,
  state: RunState,
  r: Read,
  verdict: Extract<Verdict, { verdict: "cannotTell" }>,
): void {
  const t = words(context);
  const { rec, row, company } = r;
  const sent = () => sentTextIn(context, state, r.request, company);
  if (row && (row.state === "Done" || row.state === "Refused")) {
    if (!takeConfirmed(state.confirmations, row, { byHand: rec.key, state: row.state }, company)) {
      const message = t("outbox.msg.byHandNotConfirmed", {
        state: context.words.state(row.state),
      });
      if (rec.state !== "unknown") putRecord(context, state, { ...rec, state: "unknown" });
      writeRow(context, row, row.state, message, rec.key, sent());
      outcome(state, row.rowNumber, row.state, message, "skipped");
      holdIn(state, rec.request, company, waitForRow(context, rec.request, row.rowNumber));
      return;
    }
    const message = t("outbox.msg.settledByHand", {
      state: context.words.state(row.state),
      date: day(context, nowMs(context)),
    });
    // Refused by hand may still have landed: it stays a "same as" candidate for a resend.
    if (row.state === "Done") finishRecord(context, state, rec, "done");
    else putRecord(context, state, { ...finishedRecord(rec, "refused", nowMs(context)), byHand: true });
    note(r, message);
    writeRow(context, row, row.state, message, rec.key, sent());
    outcome(state, row.rowNumber, row.state, message, row.state === "Done" ? "done" : "refused");
    return;
  }
  const message = t("outbox.msg.cannotTell", {
    message: verdict.tooMany ? t("outbox.msg.tooMany") : verdict.message,
  });
  if (rec.state !== "unknown") putRecord(context, state, { ...rec, state: "unknown" });
  note(r, message);
  leaveUnknown(context, state, r, message);
}

/** Applied: Done, saying how it was found (and what was edited since, sending nothing more). */
function applied(
  context: RunContext,
  state: RunState,
  r: Read,
  verdict: Extract<Verdict, { verdict: "applied" }>,
): void {
  const t = words(context);
  const { rec, row, request, company } = r;
  const recordId = verdict.createdFundId ?? verdict.fund?.id ?? null;
  let message: string;
  if (r.changed.length > 0) {
    message = t("outbox.msg.doneEdited", {
      sent: sentTextIn(context, state, request, company),
      changes: r.changes,
    });
  } else if (verdict.createdFundId !== undefined) {
    message = t("outbox.msg.reconciledCreated", { id: verdict.createdFundId });
  } else if (verdict.byCount && "amount" in request) {
    message = t("outbox.msg.appliedByCount", {
      movement: t(request.operation === "deposit" ? "outbox.movement.1" : "outbox.movement.2"),
      amount: { cents: request.amount, currency: verdict.fund?.currency ?? r.mark?.currency },
      id: rec.fundId ?? "",
    });
  } else {
    message = t("outbox.msg.reconciledApplied");
  }
  finishRecord(context, state, rec, "done");
  note(r, message, recordId);
  if (row) {
    writeRow(context, row, "Done", message, rec.key, sentTextIn(context, state, request, company));
    outcome(state, row.rowNumber, "Done", message, "done");
  }
  if (verdict.fund) updateSheets(context, state, { kind: "fund", fund: verdict.fund }, company);
}

/**
 * Not applied, or idempotent: the row may be sent, but only as it is now, and only as the
 * confirmation showed it (an interrupted write sent again).
 */
function notApplied(context: RunContext, state: RunState, r: Read, idempotent: boolean): void {
  const t = words(context);
  const { rec, row, request, company, port } = r;
  if (!row) {
    retireKey(context, state, rec.key);
    note(r, t(idempotent ? "outbox.note.orphanResend" : "outbox.note.orphanNotApplied"));
    return;
  }
  if (r.changed.length > 0) {
    if (idempotent) {
      retireKey(context, state, rec.key);
      // Sending the row as it is now is what its new cells ask for; it runs with the others.
      note(r, t("outbox.note.orphanResend"));
      const item = ownerOf(state, rec);
      if (item) state.requeued.add(item);
      return;
    }
    const message = t("outbox.msg.notAppliedEdited", {
      sent: sentTextIn(context, state, request, company),
      changes: r.changes,
    });
    note(r, t("outbox.note.editedNotApplied"));
    // A fresh, empty key: the next run sees a new row and its preview lists it. The record
    // goes after the row is written, so a stop in between leaves nothing unexplained.
    writeRow(context, row, "Pending", message, "", "");
    retireKey(context, state, rec.key);
    outcome(state, row.rowNumber, "Pending", message, "skipped");
    return;
  }
  const built = buildRequest(context, row, port);
  if (!built.ok) {
    retireKey(context, state, rec.key);
    refuseInvalid(context, state, row, built.message);
    return;
  }
  if (!takeConfirmed(state.confirmations, row, { interrupted: rec.key }, company)) {
    // Settled again by the next run, whose preview lists it.
    const message = t("outbox.msg.notConfirmed");
    writeRow(context, row, "Unknown", message, rec.key, sentTextIn(context, state, request, company));
    outcome(state, row.rowNumber, "Unknown", message, "skipped");
    holdIn(state, rec.request, company, waitForRow(context, rec.request, row.rowNumber));
    return;
  }
  note(r, t(idempotent ? "outbox.note.resend" : "outbox.note.notAppliedResend"));
  // A fresh key per attempt keeps each attempt's audit entries apart; the row keeps the latest.
  send(context, state, row, built.request, context.newKey(), company, port, rec.key);
}
