/**
 * Sending a row's request once: what is read just before sending is checked against what the
 * confirmation showed, the record is stored and the row marked Sending (flushed) before the
 * call, and the row shows how the call ended. Also what every phase builds a request or a
 * refusal of a row with.
 */

import { tolerate } from "../../api/errors";
import { blocks, sendingRecord, type WriteRecord } from "../records";
import type { WriteRequest } from "../requests";
import { type OutboxRow, requestCells, requestFromRow, typedCurrencyDiffers } from "../rows";
import type { Snapshot } from "../snapshot";
import { isWriteFailure, sendWrite, type WriteEnd, type WriteFailure, type WriteResult } from "../write";
import { confirmationKey, FUND_NOT_FOUND } from "./confirmations";
import type { CompanyPort, RunContext, RunSaid } from "./context";
import { holdIn, landingMessage, waitForRow } from "./holds";
import { writingTo } from "./ports";
import { retireKey, writeRow } from "./sheet";
import {
  type Counted,
  finishRecord,
  nowMs,
  outcome,
  putRecord,
  type RunState,
  sentTextIn,
  words,
} from "./state";

/** The row's request as its cells and its company's IdAdmin make it, or why it cannot be made. */
export function buildRequest(
  context: RunContext,
  row: OutboxRow,
  port: Pick<CompanyPort, "adminId" | "adminIssue">,
): { ok: true; request: WriteRequest } | { ok: false; message: string } {
  const built = requestFromRow(row, {
    format: context.format,
    now: context.now(),
    adminId: port.adminId,
    adminIssue: port.adminIssue || null,
  });
  return built.ok
    ? { ok: true, request: built.request }
    : { ok: false, message: context.words.problems(built.problems) };
}

/** An invalid row: Refused with why, its record keeping the cells (an edit makes it pending again). */
export function refuseInvalid(context: RunContext, state: RunState, row: OutboxRow, problems: string): void {
  const message = words(context)("outbox.msg.invalid", { message: problems });
  const key = context.newKey();
  putRecord(context, state, {
    key,
    state: "refused",
    source: "outbox",
    operation: row.operation ?? "deposit",
    cells: requestCells(row),
    row: row.rowNumber,
    finishedAt: nowMs(context),
  });
  writeRow(context, row, "Refused", message, key);
  outcome(state, row.rowNumber, "Refused", message, "refused");
}

/**
 * Sends a row's request once: record first, then the row's Sending (flushed), then the call.
 * `supersedes`: the record of the attempt this one replaces, dropped once the row carries the
 * new key.
 */
export function send(
  context: RunContext,
  state: RunState,
  row: OutboxRow,
  request: WriteRequest,
  key: string,
  company: string,
  port: CompanyPort,
  supersedes?: string,
): void {
  const t = words(context);
  const cells = requestCells(row);
  let written: WriteRecord | null = null;
  let blockedBy: WriteRecord | undefined;
  let end: WriteEnd;
  try {
    end = sendWrite(writingTo(context, port), request, key, (snapshot) => {
      // A sidebar's write made since the run read the records (a report mark takes no lock):
      // read them again just before sending, and wait for one that may still land.
      blockedBy = context.records.all().find((r) => !state.records.has(r.key) && blocks(r, request, company));
      if (blockedBy) throw new Error(landingMessage(context, blockedBy));
      checkFund(context, state, row, company, snapshot);
      written = sendingRecord(
        snapshot,
        request,
        "outbox",
        nowMs(context),
        { number: row.rowNumber, cells },
        context.inFlightWindowMs,
        company,
      );
      putRecord(context, state, written);
      writeRow(
        context,
        row,
        "Sending",
        t("outbox.msg.sending"),
        key,
        sentTextIn(context, state, request, company),
      );
      // The settled attempt's record goes only once the row carries the new key: an execution
      // stopped in between leaves the row recognisable, never a row whose key has no record.
      if (supersedes !== undefined) retireKey(context, state, supersedes, key);
      context.sheet.flush();
    });
  } catch (error) {
    if (isWriteFailure(error) && error.outcome === "refused") {
      // The service answered that the fund cannot be read (unknown id, no permission), or the
      // write would leave the fund unreadable: nothing was sent.
      const message = t("outbox.msg.refused", {
        message: context.words.refusal(error),
      });
      putRecord(context, state, {
        key,
        state: "refused",
        source: "outbox",
        operation: request.operation,
        cells,
        row: row.rowNumber,
        finishedAt: nowMs(context),
      });
      writeRow(context, row, "Refused", message, key);
      outcome(state, row.rowNumber, "Refused", message, "refused");
      return;
    }
    if (written) throw error; // Not a failure of the read before sending: let it surface.
    notSent(context, state, row, request, company, blockedBy, error);
    return;
  }
  const sending = written as WriteRecord | null;
  if (!sending) return;
  ended(context, state, row, request, key, company, sending, end);
}

/**
 * The fund read just before sending, checked against what the confirmation showed: in another
 * currency, or closed or blocked when the confirmation did not show it so, nothing is sent
 * (thrown as why).
 */
function checkFund(
  context: RunContext,
  state: RunState,
  row: OutboxRow,
  company: string,
  snapshot: Snapshot,
): void {
  const t = words(context);
  const shown = context.currencies?.[confirmationKey(row, company)];
  const fund = snapshot.fund;
  if (fund?.currency) state.currencies.set(`${company}|${fund.id}`, fund.currency);
  // A Currency typed on a deposit's or withdrawal's row is the writer's own check: one that is
  // not the fund's is refused naming both, never replaced by the fund's.
  const typed = typedCurrencyDiffers(row, fund?.currency);
  if (typed && fund)
    throw {
      outcome: "refused",
      message: t("outbox.problem.currencyTyped", { typed, id: fund.id, currency: fund.currency ?? "" }),
    } satisfies WriteFailure;
  if (shown && fund && fund.currency !== undefined && shown !== fund.currency) {
    // Nothing recorded, nothing sent: the row stays Pending and its fund waits.
    const params = { id: fund.id, currency: fund.currency, shown };
    throw new Error(
      t(shown === FUND_NOT_FOUND ? "outbox.msg.fundWasNotFound" : "outbox.msg.currencyDiffers", params),
    );
  }
  const status = context.statuses?.[confirmationKey(row, company)];
  if (
    fund &&
    status !== undefined &&
    fund.status !== undefined &&
    fund.status !== 1 &&
    fund.status !== status
  )
    throw new Error(
      t("outbox.msg.statusDiffers", {
        id: fund.id,
        status: context.words.fundStatus(fund.status),
      }),
    );
}

/** Nothing was sent: a write holds the fund or report, or what was read before sending says no. */
function notSent(
  context: RunContext,
  state: RunState,
  row: OutboxRow,
  request: WriteRequest,
  company: string,
  blockedBy: WriteRecord | undefined,
  error: unknown,
): void {
  if (blockedBy) {
    // Nothing recorded, nothing sent: the row stays Pending and its fund or report waits.
    const message = landingMessage(context, blockedBy);
    writeRow(context, row, "Pending", message, row.operationKey);
    holdIn(state, request, company, message);
    outcome(state, row.rowNumber, "Pending", message, "skipped");
    return;
  }
  // The snapshot could not be read: nothing was sent, the row stays Pending.
  const message = words(context)("outbox.msg.checkFailed", { message: errorText(error) });
  writeRow(context, row, "Pending", message, row.operationKey);
  holdIn(state, request, company, waitForRow(context, request, row.rowNumber));
  outcome(state, row.rowNumber, "Pending", message, "skipped");
}

/** The row shows the end of the call with what was sent, and the summary counts it. */
function ended(
  context: RunContext,
  state: RunState,
  row: OutboxRow,
  request: WriteRequest,
  key: string,
  company: string,
  sending: WriteRecord,
  end: WriteEnd,
): void {
  const t = words(context);
  const mark = (shown: "Done" | "Refused" | "Unknown", message: string, counted: Counted) => {
    writeRow(context, row, shown, message, key, sentTextIn(context, state, request, company));
    outcome(state, row.rowNumber, shown, message, counted);
  };
  if (end.status === "done") {
    finishRecord(context, state, sending, "done");
    mark("Done", context.words.say(doneWords(end.result, request)), "done");
    updateSheets(context, state, end.result, company);
  } else if (end.status === "refused") {
    finishRecord(context, state, sending, "refused");
    const plain = context.words.refusal(end, end.snapshot.fund?.currency);
    mark("Refused", t("outbox.msg.refused", { message: plain }), "refused");
  } else {
    putRecord(context, state, { ...sending, state: "unknown" });
    holdIn(state, request, company, waitForRow(context, request, row.rowNumber));
    mark("Unknown", t("outbox.msg.unknown", { message: end.message }), "unknown");
  }
}

/**
 * After a Done: the sheets are a view of the service, so a failure to update them (reported
 * next, in the summary) never stops the run nor turns a write that happened into a failure.
 */
export function updateSheets(
  context: RunContext,
  state: RunState,
  result: WriteResult,
  company: string,
): void {
  const apply = context.applyResult;
  if (!apply) return;
  const refused = tolerate("reported next", () => apply(result, company) ?? "", null);
  if (refused === "") return;
  state.summary.sheetsNotUpdated += 1;
  if (refused !== null) state.summary.sheetsRefused = [...(state.summary.sheetsRefused ?? []), refused];
}

export function errorText(error: unknown): string {
  if (isWriteFailure(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** A Done row's Result as words: the fund created, or the fund's balance, or the report marked. */
export function doneWords(result: WriteResult, request: WriteRequest): RunSaid {
  if (result.kind === "fund" && request.operation === "createFund") {
    return { key: "outbox.msg.createdFund", params: { id: result.fund.id } };
  }
  if (result.kind === "report") return { key: "outbox.msg.doneReport", params: { id: result.report.id } };
  return {
    key: "outbox.msg.doneFund",
    params: {
      id: result.fund.id,
      balance: { cents: result.fund.balance, currency: result.fund.currency },
      currency: result.fund.currency,
    },
  };
}
