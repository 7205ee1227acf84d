/**
 * The one write path shared by the Outbox and the sidebar forms: take what is needed to settle
 * the write later (a fresh snapshot for writes that are not idempotent), record the write as
 * Sending, send it once, and classify the end as done, refused or unknown. Settling a write
 * whose outcome was unknown reads the service again; it never re-sends a money movement blindly.
 */
import type { ServiceReason } from "../api/errors";
import type { FundTotals, Movement } from "../api/money";
import type { Words } from "../i18n/words";
import { IDEMPOTENT_OPERATIONS, MONEY_OPERATIONS } from "./operations";
import type { WriteRequest } from "./requests";
import { AMOUNT_FIELD } from "./requests";
import {
  answerShowsMovement,
  answerShowsNewFund,
  type FundListItem,
  type FundState,
  findCreatedFund,
  fundIdentity,
  markFund,
  markNewFund,
  matchingGrowth,
  otherFundThan,
  otherReportThan,
  pageReachesMark,
  type ReportState,
  reportIdentity,
  type Snapshot,
  shows,
} from "./snapshot";

/** What a report write returns, normalised. */
export interface ReportResult {
  id: number;
  title: string;
  reportNumber: string;
  integrated?: boolean;
  integrationCode?: string;
  integrationDate?: string;
  customStatus?: string;
}

export type WriteResult = { kind: "fund"; fund: FundState } | { kind: "report"; report: ReportResult };

/**
 * How a write failed. "refused": the service answered and did not apply it (or it was never
 * sent). "unknown": it may have been applied (timeout, dropped connection, a 5xx after sending).
 */
export interface WriteFailure {
  outcome: "refused" | "unknown";
  /** The technical text (the audit's, a message's details). */
  message: string;
  status?: number;
  /** The service's reason, when it answered with its words (src/api/plain.ts renders it). */
  reason?: ServiceReason;
}

export function isWriteFailure(value: unknown): value is WriteFailure {
  return (
    typeof value === "object" &&
    value !== null &&
    ((value as WriteFailure).outcome === "refused" || (value as WriteFailure).outcome === "unknown") &&
    typeof (value as WriteFailure).message === "string"
  );
}

/** The service, as the write path needs it. Every method throws a WriteFailure on failure. */
export interface ServicePort {
  getFund(id: number): FundState;
  getReport(id: number): ReportState;
  /** One page of getFunds ordered by creation date, newest first; `pages` may be fractional (the total over 100). */
  listFundsNewestFirst(page: number): { funds: FundListItem[]; pages: number };
  send(request: WriteRequest): WriteResult;
}

/** Where each write is told before it is sent and after it ended (the audit sheet). */
export interface AuditPort {
  /** `fund`: the fund's name and currency when it was read just before (money movements). */
  beforeWrite(entry: {
    key: string;
    request: WriteRequest;
    fund?: { title: string; currency: string };
  }): unknown;
  afterWrite(
    handle: unknown,
    end: { outcome: "ok" | "refused" | "unknown"; message: string; recordId?: number | null },
  ): void;
  /** A line of the story that is not a call: a reconciliation's verdict. */
  note(entry: { key: string; request: WriteRequest; message: string; recordId?: number | null }): void;
}

export type WriteEnd =
  | { status: "done"; result: WriteResult; snapshot: Snapshot }
  | { status: "refused"; message: string; reason?: ServiceReason; snapshot: Snapshot }
  | { status: "unknown"; message: string; snapshot: Snapshot };

/**
 * How the write path says what it puts into a row, a form's answer and the audit as it goes: a
 * write refused before sending, an answer that does not show the write, a verdict read. The
 * Outbox run's words module makes it (./run/words.ts, `runWords`).
 */
export interface WriteWords {
  say(words: Words): string;
  /** Why a fund's totals after a movement could not be read exactly (the contract's check), or null. */
  totalsAfter(field: string, totals: FundTotals, movement: Movement, amountCents: number): string | null;
}

export interface WriteContext {
  service: ServicePort;
  audit: AuditPort;
  now: () => Date;
  /** Says the write path's messages: the Outbox run's (`runWords`) or a form's (`formWords`). */
  words: WriteWords;
  /** How those messages name a field (CheckOptions.fieldName); as the service does when absent. */
  fieldName?: (field: string) => string;
  /** How long a sent request may still land (records.ts); IN_FLIGHT_WINDOW_MS when absent. */
  inFlightWindowMs?: number;
}

function failureOf(error: unknown): WriteFailure {
  if (isWriteFailure(error)) return error;
  // Anything else thrown while a request was in flight may have happened after sending.
  return { outcome: "unknown", message: error instanceof Error ? error.message : String(error) };
}

/** Reads what must be known before sending so that an interrupted write can be settled. */
export function takeSnapshot(
  context: WriteContext,
  request: WriteRequest,
  key: string,
  read: { fund?: { title: string; currency: string } } = {},
): Snapshot {
  const snapshot: Snapshot = { key, at: context.now().toISOString(), request };
  if (MONEY_OPERATIONS.has(request.operation) && "fundId" in request && "amount" in request) {
    const fund = context.service.getFund(request.fundId);
    read.fund = { title: fund.title, currency: fund.currency };
    if (fund.unreadableTotals !== undefined) throw { outcome: "refused", message: fund.unreadableTotals };
    // The fund's totals after this movement must still be readable exactly, or the write could
    // never be confirmed by reading the fund again.
    const deposit = request.operation === "deposit";
    const field = deposit ? AMOUNT_FIELD.deposit : AMOUNT_FIELD.withdraw;
    const issue = context.words.totalsAfter(
      context.fieldName?.(field) ?? field,
      { depositsCents: fund.deposits, withdrawalsCents: fund.charges, balanceCents: fund.balance },
      deposit ? "deposit" : "withdrawal",
      request.amount,
    );
    if (issue !== null) throw { outcome: "refused", message: issue } satisfies WriteFailure;
    snapshot.fund = markFund(fund, request);
  } else if (request.operation === "createFund") {
    snapshot.newFund = markNewFund(context.service.listFundsNewestFirst(1).funds);
  } else {
    // A fund's update or status, a report's mark: what it showed before, so that a refusal
    // answered after the change took effect is found out, and which fund or report it was, so
    // that only a read of that same one settles it.
    const target = readTarget(context, request);
    snapshot.had = shows(request, target);
    snapshot.target =
      "reportId" in request
        ? { report: reportIdentity(request.reportId, target as ReportState) }
        : { fund: fundIdentity(target as FundState) };
  }
  return snapshot;
}

/** The fund or report `request` acts on, read fresh. */
function readTarget(context: WriteContext, request: WriteRequest): FundState | ReportState {
  const { service } = context;
  return "reportId" in request
    ? service.getReport(request.reportId)
    : service.getFund((request as { fundId: number }).fundId);
}

/** Whether the fund or report, read fresh, shows what `request` asks for. */
function showsNow(context: WriteContext, request: WriteRequest): boolean {
  return shows(request, readTarget(context, request));
}

/**
 * Why the fund or report read now is not the one the write was sent to (another account's,
 * reached by a token saved under the wrong company, or another service under the URL), as a
 * verdict that settles nothing and sends nothing; null when it is the same (or the record is
 * from before the target was kept).
 */
function otherTarget(
  context: WriteContext,
  snapshot: Snapshot,
  request: WriteRequest,
  fresh: FundState | ReportState,
): Verdict | null {
  const target = snapshot.target ?? (snapshot.fund ? { fund: snapshot.fund } : undefined);
  if (!target) return null;
  const id = "reportId" in request ? request.reportId : (request as { fundId: number }).fundId;
  const differs =
    "report" in target
      ? otherReportThan(target.report, id, fresh as ReportState)
      : otherFundThan(target.fund, fresh as FundState);
  if (differs.length === 0) return null;
  return {
    verdict: "cannotTell",
    otherFund: true,
    message: context.words.say({
      key: "report" in target ? "outbox.msg.otherReport" : "outbox.msg.otherFund",
      params: { id, differs: differs.join(", ") },
    }),
  };
}

function recordIdOf(result: WriteResult): number {
  return result.kind === "fund" ? result.fund.id : result.report.id;
}

/**
 * Sends one write. `onSending` runs after the snapshot is taken and before the audit entry
 * and the call: the outbox writes the row's Sending state there (and flushes). A failure to
 * take the snapshot is thrown (nothing was sent).
 */
export function sendWrite(
  context: WriteContext,
  request: WriteRequest,
  key: string,
  onSending: (snapshot: Snapshot) => void = () => {},
): WriteEnd {
  const read: { fund?: { title: string; currency: string } } = {};
  const snapshot = takeSnapshot(context, request, key, read);
  onSending(snapshot);
  const handle = context.audit.beforeWrite({ key, request, ...read });
  try {
    const result = context.service.send(request);
    const unshown = answerMisses(context, snapshot, result);
    if (unshown) throw { outcome: "unknown", message: unshown } satisfies WriteFailure;
    context.audit.afterWrite(handle, { outcome: "ok", message: "", recordId: recordIdOf(result) });
    return { status: "done", result, snapshot };
  } catch (error) {
    const failure = checkedRefusal(context, snapshot, failureOf(error));
    context.audit.afterWrite(handle, { outcome: failure.outcome, message: failure.message });
    return failure.outcome === "refused"
      ? {
          status: "refused",
          message: failure.message,
          ...(failure.reason ? { reason: failure.reason } : {}),
          snapshot,
        }
      : { status: "unknown", message: failure.message, snapshot };
  }
}

/**
 * Why a money write's answer (HTTP 200) does not show what was sent, or null when it shows it:
 * a deposit or withdrawal must show exactly one more movement of its type and amount than the
 * mark (and its total grown by the amount), a creation the new fund sent. The answer alone is
 * believed for nothing else: the write is unknown, settled by reading as an interrupted one.
 */
function answerMisses(context: WriteContext, snapshot: Snapshot, result: WriteResult): string | null {
  const { request } = snapshot;
  if (!request || result.kind !== "fund") return null;
  const t = (key: "outbox.msg.answerWithoutMovement" | "outbox.msg.answerWithoutNewFund") =>
    context.words.say({ key, params: { id: result.fund.id } });
  if (snapshot.fund && MONEY_OPERATIONS.has(request.operation) && request.operation !== "createFund")
    return answerShowsMovement(snapshot.fund, result.fund, request)
      ? null
      : t("outbox.msg.answerWithoutMovement");
  if (snapshot.newFund && request.operation === "createFund")
    return answerShowsNewFund(snapshot.newFund, result.fund, request)
      ? null
      : t("outbox.msg.answerWithoutNewFund");
  return null;
}

/**
 * A refusal answered after the request reached the service (a 4xx, an error inside a 200) is
 * taken at its word only once the fund (or the newest funds) shows nothing of it: a movement or
 * creation found anyway, or a read that failed on the way, is unknown, settled as any
 * interrupted write, never shown refused.
 */
function checkedRefusal(context: WriteContext, snapshot: Snapshot, failure: WriteFailure): WriteFailure {
  const { request, had } = snapshot;
  if (failure.outcome !== "refused" || !failure.status || !request) return failure;
  let seen: string;
  try {
    if (
      had !== undefined
        ? had || !showsNow(context, request)
        : (!snapshot.fund && !snapshot.newFund) ||
          settleInterruptedWrite(context, snapshot).verdict === "notApplied"
    )
      return failure;
    seen = context.words.say({ key: "outbox.msg.refusedYetApplied" });
  } catch (error) {
    // A read refused outright (the fund gone) lets the refusal stand; one that failed on the
    // way (a timeout, a 5xx) shows nothing, so the outcome stays unknown.
    const read = failureOf(error);
    if (read.outcome === "refused") return failure;
    seen = read.message;
  }
  return { outcome: "unknown", message: `${failure.message}; ${seen}`, status: failure.status };
}

export type Verdict =
  /**
   * The interrupted write was applied: nothing to send. `byCount` when only the count of the
   * fund's movements of that type and amount says so (the service's movements carry no id).
   */
  | { verdict: "applied"; fund: FundState | null; createdFundId?: number; byCount?: boolean }
  /** It was not applied: it may be sent (once). */
  | { verdict: "notApplied" }
  /** Idempotent: sending it again is harmless. `fresh`: the fund or report as read to tell. */
  | { verdict: "resend"; fresh?: FundState | ReportState }
  /** Nothing recorded to compare with, or more movements than one request explains: only a person can tell. */
  | { verdict: "cannotTell"; message: string; tooMany?: boolean; otherFund?: boolean };

/** An idempotent write recorded before its target's identity was kept: nothing read, nothing sent. */
function withoutIdentity(context: WriteContext, request: WriteRequest): Verdict {
  const report = "reportId" in request;
  const id = report ? request.reportId : (request as { fundId: number }).fundId;
  return {
    verdict: "cannotTell",
    message: context.words.say({
      key: report ? "outbox.msg.noReportIdentity" : "outbox.msg.noFundIdentity",
      params: { id },
    }),
  };
}

/** Decides whether an interrupted write was applied, by reading the service again. */
export function settleInterruptedWrite(context: WriteContext, snapshot: Snapshot | null): Verdict {
  const request = snapshot?.request;
  if (!snapshot || !request)
    return { verdict: "cannotTell", message: "no snapshot was recorded before sending" };
  if (IDEMPOTENT_OPERATIONS.has(request.operation)) {
    // Read when the record knows which fund or report it went to; another fund or report under
    // the Id settles nothing, sends nothing. A record from before that was kept names none: no
    // read can tell the record under its Id is the one it was sent to, so only a person can.
    if (snapshot.target === undefined && !snapshot.fund) return withoutIdentity(context, request);
    const fresh = readTarget(context, request);
    const other = otherTarget(context, snapshot, request, fresh);
    if (other) return other;
    if (request.operation === "updateFund" && shows(request, fresh))
      return { verdict: "applied", fund: fresh as FundState };
    return { verdict: "resend", fresh };
  }
  if (MONEY_OPERATIONS.has(request.operation) && "fundId" in request) {
    if (!snapshot.fund) return { verdict: "cannotTell", message: "no snapshot of the fund was recorded" };
    const fresh = context.service.getFund(request.fundId);
    // Another fund under the same Id (another account's, reached by a token saved under the
    // wrong company, or another service under the URL) settles nothing and sends nothing.
    const other = otherTarget(context, snapshot, request, fresh);
    if (other) return other;
    const growth = matchingGrowth(snapshot.fund, fresh, request);
    if (growth === 1) return { verdict: "applied", fund: fresh, byCount: true };
    // No new movement of the amount, yet the total it goes into grew by as much: the answer's
    // movements are not all there (null, or only the last ones), so the count cannot tell.
    const mark = snapshot.fund;
    const grew =
      request.operation === "deposit" ? fresh.deposits - mark.deposits : fresh.charges - mark.charges;
    if (growth === 0 && "amount" in request && grew >= request.amount && !fresh.unreadableTotals)
      return {
        verdict: "cannotTell",
        message: "the fund's totals grew by the amount, but its movements do not show it: check the fund",
      };
    if (growth === 0) return { verdict: "notApplied" };
    return {
      verdict: "cannotTell",
      message: "more matching movements than expected: check the fund",
      tooMany: true,
    };
  }
  if (request.operation === "createFund") {
    const mark = snapshot.newFund;
    if (!mark) return { verdict: "cannotTell", message: "no snapshot of the funds was recorded" };
    for (let page = 1; ; page += 1) {
      const { funds, pages } = context.service.listFundsNewestFirst(page);
      const created = findCreatedFund(mark, funds, request);
      if (created) return { verdict: "applied", fund: null, createdFundId: created.id };
      if (funds.length === 0 || page >= pages || !pageReachesMark(mark, funds))
        return { verdict: "notApplied" };
    }
  }
  return { verdict: "cannotTell", message: `no way to check ${request.operation}` };
}
