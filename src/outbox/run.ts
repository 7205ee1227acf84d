/**
 * A run of the Outbox: rows in order, each Pending row sent once (Sending written and flushed
 * before the call), each row left in Sending or Unknown by an earlier run settled against the
 * service first. Writes only the add-on's cells of a row, found again by its operation key
 * just before writing, so rows users edit or move during a run keep their edits.
 */

import { formatCents } from "../api";
import { type Language, type StringKey, translate } from "../ui/strings";
import type { DateFormatter } from "./cells";
import type { CellValue, OwnedCells } from "./columns";
import { type OutboxState, stateLabel } from "./operations";
import type { WriteRequest } from "./requests";
import { fingerprint, type OutboxRow, readOutboxRow, requestFromRow } from "./rows";
import { type Snapshot, serializeSnapshot } from "./snapshot";
import {
  isWriteFailure,
  sendWrite,
  settleInterruptedWrite,
  type WriteContext,
  type WriteEnd,
  type WriteResult,
} from "./write";

/** The Outbox sheet as a run needs it. Row numbers are 1-based; row 1 holds the headers. */
export interface OutboxSheetPort {
  lastRow(): number;
  readRow(rowNumber: number): CellValue[];
  /** The operation key of every row from row 2 on, to find a row that moved. */
  readOperationKeys(): string[];
  writeOwned(rowNumber: number, cells: OwnedCells): void;
  /** Makes what was written visible to others before a call is made. */
  flush(): void;
}

export interface RunContext extends WriteContext {
  sheet: OutboxSheetPort;
  language: Language;
  format: DateFormatter;
  newKey: () => string;
  /** The administrator id used for writes (settings); null when none is set. */
  adminId: number | null;
  /** Stop between rows once this many milliseconds have passed since the run started. */
  budgetMs: number;
  /**
   * When the execution started (ms), if before the run itself: the time limit counts the whole
   * execution, including the preview's reads and the confirmation. Defaults to the run's start.
   */
  startedAt?: number;
  /** Brings the Funds or Expense reports sheet in line with a write's response. */
  applyResult?: (result: WriteResult) => void;
}

export interface RowOutcome {
  rowNumber: number;
  state: OutboxState;
  message: string;
}

export interface RunSummary {
  done: number;
  refused: number;
  unknown: number;
  /** Rows left for a later run (waiting on another row, or not reached before the time limit). */
  skipped: number;
  stoppedForTime: boolean;
  rows: RowOutcome[];
}

/**
 * Milliseconds a run may use before it stops between rows, out of an execution limit of
 * `limitMs` (Google's 6 minutes, or less when the document asks for less): two thirds, so that
 * one more row (a snapshot read and a write, each up to a minute when the service is slow) and
 * the closing writes still fit. 6 minutes give 4.
 */
export function outboxBudgetMs(limitMs: number): number {
  return Math.floor((limitMs * 2) / 3);
}

type Counted = "done" | "refused" | "unknown" | "skipped";

/** Runs the Outbox. The caller holds the document lock and asked for confirmation before taking it. */
export function runOutbox(context: RunContext): RunSummary {
  const started = context.startedAt ?? context.now().getTime();
  const summary: RunSummary = {
    done: 0,
    refused: 0,
    unknown: 0,
    skipped: 0,
    stoppedForTime: false,
    rows: [],
  };
  const t = (key: StringKey, params: Record<string, string | number> = {}) =>
    translate(context.language, key, params);
  // A fund whose earlier row is unsettled: later rows on it wait, so that a settled row's
  // snapshot never counts another row's movement as its own.
  const unsettledFunds = new Map<number, number>();

  const record = (rowNumber: number, state: OutboxState, message: string, counted: Counted | null) => {
    summary.rows.push({ rowNumber, state, message });
    if (counted) summary[counted] += 1;
  };

  const write = (
    row: OutboxRow,
    state: OutboxState,
    message: string,
    key: string,
    snapshot: Snapshot | null,
  ) => {
    const rowNumber = locate(context.sheet, row.rowNumber, key, row.operationKey);
    if (rowNumber === null) return; // The row was deleted during the run; the audit keeps the story.
    context.sheet.writeOwned(rowNumber, {
      state: stateLabel(context.language, state),
      result: message,
      time: context.now(),
      operationKey: key,
      snapshot: snapshot ? serializeSnapshot(snapshot) : "",
    });
    row.rowNumber = rowNumber;
  };

  const settle = (row: OutboxRow, end: WriteEnd, key: string, request: WriteRequest, prefix = ""): void => {
    if (end.status === "done") {
      const message = prefix || doneMessage(t, end.result, request, context.language);
      write(row, "Done", message, key, { key, at: end.snapshot.at, fingerprint: fingerprint(row) });
      context.applyResult?.(end.result);
      record(row.rowNumber, "Done", message, "done");
    } else if (end.status === "refused") {
      const message = t("outbox.msg.refused", { message: end.message });
      write(row, "Refused", message, key, { key, at: end.snapshot.at, fingerprint: fingerprint(row) });
      record(row.rowNumber, "Refused", message, "refused");
    } else {
      const message = t("outbox.msg.unknown", { message: end.message });
      write(row, "Unknown", message, key, end.snapshot);
      blockFund(request, row.rowNumber);
      record(row.rowNumber, "Unknown", message, "unknown");
    }
  };

  const blockFund = (request: WriteRequest | undefined, rowNumber: number) => {
    if (request && "fundId" in request && !unsettledFunds.has(request.fundId)) {
      unsettledFunds.set(request.fundId, rowNumber);
    }
  };

  const send = (row: OutboxRow, request: WriteRequest, key: string): void => {
    let end: WriteEnd;
    try {
      end = sendWrite(context, request, key, (snapshot) => {
        write(row, "Sending", t("outbox.msg.sending"), key, snapshot);
        context.sheet.flush();
      });
    } catch (error) {
      if (isWriteFailure(error) && error.outcome === "refused") {
        // The service answered that the fund cannot be read (unknown id, no permission):
        // nothing was sent, and sending would be refused the same way.
        const message = t("outbox.msg.refused", { message: error.message });
        write(row, "Refused", message, key, {
          key,
          at: context.now().toISOString(),
          fingerprint: fingerprint(row),
        });
        record(row.rowNumber, "Refused", message, "refused");
        return;
      }
      // The snapshot could not be read: nothing was sent, the row stays Pending.
      const message = t("outbox.msg.checkFailed", { message: errorText(error) });
      write(row, "Pending", message, row.operationKey, row.snapshot);
      blockFund(request, row.rowNumber);
      record(row.rowNumber, "Pending", message, "skipped");
      return;
    }
    settle(row, end, key, request);
  };

  // The last row is read again each time: users may add or insert rows during the run.
  for (let rowNumber = 2; rowNumber <= context.sheet.lastRow(); rowNumber += 1) {
    if (context.now().getTime() - started >= context.budgetMs) {
      summary.stoppedForTime = true;
      break;
    }
    const row = readOutboxRow(context.sheet.readRow(rowNumber), rowNumber);
    if (row.isEmpty || row.state === null) continue;
    const state =
      row.state === "Refused" && row.snapshot?.fingerprint !== fingerprint(row) ? "Pending" : row.state;
    if (state === "Done" || state === "Refused") continue;

    if (state === "Pending") {
      const built = requestFromRow(row, {
        format: context.format,
        now: context.now(),
        adminId: context.adminId,
        language: context.language,
      });
      if (!built.ok) {
        const message = t("outbox.msg.invalid", { message: built.problems.map((p) => p.message).join("; ") });
        const key = row.operationKey || context.newKey();
        write(row, "Refused", message, key, {
          key,
          at: context.now().toISOString(),
          fingerprint: fingerprint(row),
        });
        record(row.rowNumber, "Refused", message, "refused");
        continue;
      }
      const waitingOn =
        fundOf(built.request) === null ? undefined : unsettledFunds.get(fundOf(built.request)!);
      if (waitingOn !== undefined) {
        const message = t("outbox.msg.waitingForRow", { row: waitingOn });
        write(row, "Pending", message, row.operationKey, row.snapshot);
        record(row.rowNumber, "Pending", message, "skipped");
        continue;
      }
      send(row, built.request, context.newKey());
      continue;
    }

    // Sending or Unknown: left by an interrupted run. Settle before anything else is sent.
    const request = row.snapshot?.request;
    const key = row.snapshot?.key || row.operationKey || context.newKey();
    const fundId = request ? fundOf(request) : null;
    const waitingOn = fundId === null ? undefined : unsettledFunds.get(fundId);
    if (waitingOn !== undefined) {
      record(row.rowNumber, state, t("outbox.msg.waitingForRow", { row: waitingOn }), "skipped");
      continue;
    }
    let verdict: ReturnType<typeof settleInterruptedWrite>;
    try {
      verdict = settleInterruptedWrite(context, row.snapshot);
    } catch (error) {
      const message = t("outbox.msg.checkFailed", { message: errorText(error) });
      write(row, "Unknown", message, key, row.snapshot);
      blockFund(request, row.rowNumber);
      record(row.rowNumber, "Unknown", message, "unknown");
      continue;
    }
    if (verdict.verdict === "cannotTell" || !request) {
      const message = t("outbox.msg.unknown", {
        message: verdict.verdict === "cannotTell" ? verdict.message : "",
      });
      write(row, "Unknown", message, key, row.snapshot);
      blockFund(request, row.rowNumber);
      record(row.rowNumber, "Unknown", message, "unknown");
      continue;
    }
    if (verdict.verdict === "applied") {
      const message =
        verdict.createdFundId !== undefined
          ? t("outbox.msg.reconciledCreated", { id: verdict.createdFundId })
          : t("outbox.msg.reconciledApplied");
      context.audit.note({
        key,
        request,
        message,
        recordId: verdict.createdFundId ?? verdict.fund?.id ?? null,
      });
      write(row, "Done", message, key, {
        key,
        at: context.now().toISOString(),
        fingerprint: fingerprint(row),
      });
      if (verdict.fund) context.applyResult?.({ kind: "fund", fund: verdict.fund });
      record(row.rowNumber, "Done", message, "done");
      continue;
    }
    context.audit.note({
      key,
      request,
      message:
        verdict.verdict === "resend"
          ? "interrupted idempotent write: sending it again"
          : "interrupted write was not applied (checked against the snapshot): sending it now",
    });
    // A fresh key per attempt keeps each attempt's audit entries apart; the row keeps the latest.
    send(row, request, context.newKey());
  }
  return summary;
}

function fundOf(request: WriteRequest): number | null {
  return "fundId" in request ? request.fundId : null;
}

function errorText(error: unknown): string {
  if (isWriteFailure(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export function doneMessage(
  t: (key: StringKey, params?: Record<string, string | number>) => string,
  result: WriteResult,
  request: WriteRequest,
  language: Language = "en",
): string {
  if (result.kind === "fund" && request.operation === "createFund") {
    return t("outbox.msg.createdFund", { id: result.fund.id });
  }
  if (result.kind === "report") return t("outbox.msg.doneReport", { id: result.report.id });
  return t("outbox.msg.doneFund", {
    id: result.fund.id,
    balance: formatCents(result.fund.balance, { language }),
    currency: result.fund.currency,
  });
}

/**
 * Where the row is now: its expected row if that still carries its key (or, before a key was
 * written, the key it was read with), else the row that carries the key. null if it is gone.
 */
function locate(sheet: OutboxSheetPort, expected: number, key: string, keyWhenRead: string): number | null {
  const keys = sheet.readOperationKeys();
  const at = (rowNumber: number) => keys[rowNumber - 2] ?? "";
  if (key !== "") {
    if (at(expected) === key) return expected;
    const index = keys.indexOf(key);
    if (index >= 0) return index + 2;
  }
  return at(expected) === keyWhenRead ? expected : null;
}
