/**
 * The sidebar forms' server side, as plain functions: check what a form sent (anyone who can
 * open a sidebar can call its functions with anything), check the request with the contract,
 * send it through the same write path as the Outbox, and when the outcome is unknown read the
 * service once to say whether it was applied. Never re-sends by itself.
 */
import type { Fund } from "../api";
import { tolerate } from "../api/errors";
import type { NumberLocale } from "../api/money";
import { dayOf } from "../sheets/cells";
import { DATE_TIME, type DateFormatter } from "./cells";
import { requestWords } from "./describe";
import { fundStatusWords, IDEMPOTENT_OPERATIONS, type OutboxOperation } from "./operations";
import {
  blocks,
  finishedRecord,
  inFlightUntil,
  isUnsettled,
  type RecordStore,
  recordCompany,
  recordSnapshot,
  recordsToPrune,
  sendingRecord,
  type WriteRecord,
} from "./records";
import { checkWrite, type FieldProblem, type ServiceInput, type WriteRequest } from "./requests";
import { writeFailureOf } from "./service";
import { type FundState, shows } from "./snapshot";
import {
  type FormWords,
  type FundView,
  type FundWords,
  type OutboxValue,
  type OutboxWords,
  saidIn,
  sayFund,
} from "./words";
import {
  sendWrite,
  settleInterruptedWrite,
  type Verdict,
  type WriteContext,
  type WriteResult,
} from "./write";

export type { FundView } from "./words";

export interface FormContext extends WriteContext {
  /** How the form's answers, its records' and its audit notes say what happened (./words.ts). */
  words: FormWords;
  adminId: number | null;
  /** Why `adminId` may not go with this user's writes (CheckOptions.adminIssue). */
  adminIssue?: string | null;
  /** The number format the user types amounts in ("1234,50" with "es"). */
  numbers: NumberLocale;
  newKey: () => string;
  applyResult: (result: WriteResult) => void;
  /** The add-on's records of writes, shared with the Outbox. */
  records: RecordStore;
  /** Formats times in the spreadsheet's zone. */
  format: DateFormatter;
  /** Who sends (a digest of the user): only they may acknowledge a write of theirs. */
  by?: string;
  /** The request id the page sent, kept in the write's record (a repeated id gets its answer). */
  requestId?: string;
  /**
   * The key of the company the form acts on, whose client `service` is; absent: the first
   * ("c0"). Kept in the write's record (when not c0); only its records hold its funds.
   */
  company?: string;
}

export type FormOutcome =
  | { kind: "invalid"; problems: FieldProblem[] }
  | { kind: "done"; message: string; fund?: FundView }
  | { kind: "refused"; message: string }
  | { kind: "unknown"; applied: boolean | null; message: string; fund?: FundView };

/** A fund as words, for the Fund sidebar's view (./words.ts says it). */
export function fundWords(fund: FundState): FundWords {
  const record: Fund | undefined = fund.record;
  return {
    id: fund.id,
    title: fund.title,
    code: fund.code,
    currency: fund.currency,
    status: fund.status,
    statusLabel: fundStatusWords(fund.status),
    balanceCents: fund.balance,
    deposits: fund.deposits,
    charges: fund.charges,
    employeeId: fund.employeeId,
    flexible: fund.flexible,
    autoBlock: record?.automaticBlock ?? false,
    expirationDate: dayOf(record?.expirationDate ?? ""),
    lastMovements: fund.transactions
      .slice(-5)
      .reverse()
      .map((t) => ({ type: t.type, amount: t.amount, date: dayOf(t.date) })),
  };
}

/** A fund as the Fund sidebar shows it, said at once (`fundWords` said by ./words.ts). */
export const fundView = saidIn(fundWords, sayFund);

/** The fields each form may send, in the service's names. */
export const FORM_FIELDS: Record<OutboxOperation, readonly string[]> = {
  deposit: ["Id", "DepositAmount"],
  withdraw: ["Id", "WithdrawAmount"],
  setFundStatus: ["Id", "FundStatus"],
  updateFund: [
    "Id",
    "FundName",
    "FundCode",
    "FundComment",
    "FundFlexibility",
    "FundAutoDeposit",
    "FundAutoBlock",
    "FundExpirationDate",
  ],
  createFund: [
    "IdEmployee",
    "FundName",
    "FundCurrency",
    "FundAmount",
    "FundCode",
    "FundComment",
    "FundFlexibility",
    "FundAutoDeposit",
    "FundAutoBlock",
    "FundExpirationDate",
  ],
  markIntegrated: ["Id", "IntegrationCode", "IntegrationDate"],
  markNotIntegrated: ["Id", "IntegrationCode"],
  setCustomStatus: ["Id", "CustomStatus", "CustomMessage"],
};

export type Submission =
  | { ok: true; fields: ServiceInput; requestId: string }
  | { ok: false; detail: string };

/**
 * What a form sent, checked for shape before anything else: a plain object with a request id
 * and only the operation's fields, each text, a number or a yes/no.
 */
export function readSubmission(
  operation: OutboxOperation,
  raw: unknown,
  extra: readonly string[] = [],
): Submission {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return { ok: false, detail: "not a form" };
  const { requestId, fields } = raw as { requestId?: unknown; fields?: unknown };
  if (typeof requestId !== "string" || !/^[\w-]{8,64}$/.test(requestId))
    return { ok: false, detail: "requestId" };
  if (typeof fields !== "object" || fields === null || Array.isArray(fields))
    return { ok: false, detail: "fields" };
  const allowed = new Set([...FORM_FIELDS[operation], ...extra]);
  const out: ServiceInput = {};
  for (const [key, value] of Object.entries(fields as Record<string, unknown>)) {
    if (!allowed.has(key)) return { ok: false, detail: key };
    if (typeof value !== "string" && typeof value !== "boolean" && typeof value !== "number") {
      return { ok: false, detail: key };
    }
    if (typeof value === "string" && value.length > 2000) return { ok: false, detail: key };
    out[key] = value;
  }
  return { ok: true, fields: out, requestId };
}

/**
 * Settles, by reading, the unsettled writes that stand in the way of `request` and came from a
 * form (an Outbox row's write is settled by the Outbox run, which also updates its row). Returns
 * why the request must wait (null when nothing stands in its way any more) and what was settled;
 * what was settled is also pushed onto `settled` as it happens, so a caller still has it when a
 * later read throws.
 */
export function settleBlockingWrites(
  context: FormContext,
  request: WriteRequest,
  settled: string[] = [],
): { held: string | null; settled: string[] } {
  const say = (key: OutboxWords["key"], params: Record<string, OutboxValue> = {}) =>
    context.words.say({ key, params });
  const now = context.now().getTime();
  const until = (record: WriteRecord) =>
    context.format(new Date(inFlightUntil(record)), DATE_TIME).slice(11, 16);
  const blocking = context.records
    .all()
    .filter((record) => blocks(record, request, context.company))
    .sort((a, b) => (a.sentAt ?? 0) - (b.sentAt ?? 0));
  for (const record of blocking) {
    const sent = sentWords(record);
    const onReport = record.request !== undefined && "reportId" in record.request;
    if (record.source === "outbox")
      return {
        held: say(onReport ? "form.heldByOutboxReport" : "form.heldByOutbox", {
          sent,
          row: record.row ?? "?",
        }),
        settled,
      };
    if (now < inFlightUntil(record))
      return {
        held: say(onReport ? "form.heldByLandingReport" : "form.heldByLanding", {
          sent,
          until: until(record),
        }),
        settled,
      };
    if (record.checkFund !== undefined) return { held: checkFundHeld(context, record), settled };
    const verdict = settleFormWrite(context, record);
    const note = (message: string, recordId?: number | null) =>
      record.request &&
      context.audit.note({ key: record.key, request: record.request, message, recordId: recordId ?? null });
    if (verdict.verdict === "applied") {
      const message = say("form.settledApplied", { sent });
      settled.push(message);
      note(message, verdict.createdFundId ?? verdict.fund?.id ?? null);
      finishFormWrite(context, record, "done", message);
      const fund = verdict.fund;
      // The Funds sheet is a view of the service: a protected or missing range loses nothing,
      // and the next refresh writes it.
      if (fund) tolerate("derived only", () => context.applyResult({ kind: "fund", fund }), undefined);
    } else if (verdict.verdict === "notApplied" || verdict.verdict === "resend") {
      const message = say("form.settledNotApplied", { sent });
      settled.push(message);
      note(message);
      finishFormWrite(context, record, "refused", message);
    } else if (verdict.otherFund) {
      // The read reached another fund or report of the same Id (the token in use opens another
      // account): nothing is concluded, the record stays as it is, to be settled by a read of
      // the company's own account; the fund or report stays held meanwhile.
      note(verdict.message);
      return { held: say("form.heldOtherAccount", { sent, message: verdict.message }), settled };
    } else {
      // Only a person can tell, and a form has no row to type it in: its writer is told, and
      // the fund stays held until they acknowledge having checked it (acknowledgeCheckedWrite).
      note(verdict.message);
      const kept = { ...record, state: "unknown" as const, checkFund: verdict.message };
      context.records.put(kept);
      return { held: checkFundHeld(context, kept), settled };
    }
  }
  return { held: null, settled };
}

/**
 * What an interrupted form write was, read once it can no longer land. A status change, update
 * or report mark is applied when the fund or report shows it, else not (sending it again is
 * for the person to choose: a form has no row that asks for it).
 */
function settleFormWrite(context: FormContext, record: WriteRecord): Verdict {
  const verdict = settleInterruptedWrite(context, recordSnapshot(record));
  const request = record.request;
  if (verdict.verdict !== "resend" || !request) return verdict;
  // The fund or report as settling read it (and checked it is the one the write went to).
  if ("reportId" in request)
    return shows(request, verdict.fresh ?? context.service.getReport(request.reportId))
      ? { verdict: "applied", fund: null }
      : { verdict: "notApplied" };
  const fund =
    (verdict.fresh as FundState | undefined) ??
    context.service.getFund((request as { fundId: number }).fundId);
  return shows(request, fund) ? { verdict: "applied", fund } : { verdict: "notApplied" };
}

/** Why a fund waits for a form write only a person can settle: told to its writer, or to a colleague. */
function checkFundHeld(context: FormContext, record: WriteRecord): string {
  const mine = record.by !== undefined && record.by === context.by;
  return context.words.say({
    key: mine ? "form.heldCannotTell" : "form.heldByColleague",
    params: { sent: sentWords(record), message: record.checkFund ?? "" },
  });
}

/** What a recorded write sent, as words (its operation's name when the record keeps no request). */
function sentWords(record: WriteRecord): OutboxValue {
  return record.request
    ? requestWords(record.request, recordSnapshot(record).fund?.currency)
    : record.operation;
}

/**
 * A form write ended: its record stays, finished, with the answer its page was given (a repeated
 * request id gets it back), bounded with the other finished records.
 */
function finishFormWrite(
  context: FormContext,
  record: WriteRecord,
  state: "done" | "refused",
  answer: string,
): void {
  context.records.put({ ...finishedRecord(record, state, context.now().getTime()), answer });
  for (const key of recordsToPrune(context.records.all())) context.records.remove(key);
}

/** The form writes on `fundId` only a person can settle whose writer is this user: theirs to acknowledge. */
export function checksToAcknowledge(
  context: FormContext,
  fundId: number,
): { key: string; sent: string; message: string }[] {
  return context.records
    .all()
    .filter(
      (r) =>
        r.source === "form" &&
        isUnsettled(r) &&
        r.checkFund !== undefined &&
        r.fundId === fundId &&
        recordCompany(r) === recordCompany(context) &&
        r.by !== undefined &&
        r.by === context.by,
    )
    .map((r) => ({
      key: r.key,
      sent: r.request
        ? context.words.say(requestWords(r.request, recordSnapshot(r).fund?.currency))
        : r.operation,
      message: r.checkFund ?? "",
    }));
}

/**
 * The writer of a form write only a person can settle says they checked the fund: the record
 * goes (noted in the audit) and the fund is no longer held. Anyone else is refused.
 */
export function acknowledgeCheckedWrite(context: FormContext, key: string): FormOutcome {
  const say = (k: OutboxWords["key"], params: Record<string, OutboxValue> = {}) =>
    context.words.say({ key: k, params });
  const record = context.records.get(key);
  if (record?.source !== "form" || !isUnsettled(record) || record.checkFund === undefined)
    return { kind: "refused", message: say("form.acknowledge.none") };
  const sent = sentWords(record);
  if (record.by === undefined || record.by !== context.by)
    return { kind: "refused", message: say("form.heldByColleague", { sent, message: record.checkFund }) };
  const message = say("form.acknowledge.done", { sent });
  if (record.request) context.audit.note({ key, request: record.request, message, recordId: null });
  context.records.remove(key);
  return { kind: "done", message };
}

/**
 * Checks and sends one write from a form. An earlier write on the same fund or report whose
 * answer never came is settled first (never before its request could still land); an unknown
 * outcome is recorded and left for later, never re-sent by a second click.
 */
export function submitWrite(
  context: FormContext,
  operation: OutboxOperation,
  fields: ServiceInput,
): FormOutcome {
  const { words } = context;
  // The plain sentence first, the service's own words after it (src/api/plain.ts).
  const details = (key: OutboxWords["key"], detail: string, params?: Record<string, OutboxValue>) =>
    words.details({ key, ...(params ? { params } : {}) }, detail);
  // Amounts are read as the user types numbers (a decimal comma in Spanish).
  const checked = checkWrite(operation, fields, {
    adminId: context.adminId,
    adminIssue: context.adminIssue || null,
    typed: context.numbers,
  });
  if (!checked.ok)
    return {
      kind: "invalid",
      problems: checked.problems.map((p) => ({ field: p.field, message: words.problem(p) })),
    };
  const request = checked.request;
  // An earlier write on the same fund or report that may still land would be counted as this
  // one, or undo it: an Outbox row's is settled by the Outbox, a form's here, first.
  const settled: string[] = [];
  let settling: ReturnType<typeof settleBlockingWrites>;
  try {
    settling = settleBlockingWrites(context, request, settled);
  } catch (error) {
    // What was settled before the read failed is told: it changed the records.
    const failed = settled.length === 0 ? "form.notSentPlain" : "form.notSentAfterSettled";
    return {
      kind: "refused",
      message: [...settled, details(failed, writeFailureOf(error).message)].join(" "),
    };
  }
  const notice = settling.settled.join(" ");
  if (settling.held !== null)
    return { kind: "refused", message: [notice, settling.held].filter((m) => m !== "").join(" ") };
  // A money movement or fund creation is not sent in the click that settled an earlier one:
  // the user reads what became of it first (the form may still show the same amount), and
  // presses again knowingly.
  const keep = !IDEMPOTENT_OPERATIONS.has(operation);
  if (keep && notice !== "")
    return { kind: "refused", message: `${notice} ${words.say({ key: "form.settledNotSent" })}` };
  const key = context.newKey();
  let sending: WriteRecord | null = null;
  let end: ReturnType<typeof sendWrite>;
  try {
    end = sendWrite(context, request, key, (snapshot) => {
      sending = sendingRecord(
        snapshot,
        request,
        "form",
        context.now().getTime(),
        undefined,
        context.inFlightWindowMs,
      );
      if (context.by !== undefined) sending.by = context.by;
      if (context.requestId !== undefined) sending.requestId = context.requestId;
      if (recordCompany(context) !== recordCompany({})) sending.company = recordCompany(context);
      context.records.put(sending);
    });
  } catch (error) {
    // Reading the fund before sending failed: nothing was sent.
    const failure = writeFailureOf(error);
    return failure.outcome === "refused"
      ? { kind: "refused", message: words.refusal(failure) }
      : { kind: "refused", message: details("form.notSentPlain", failure.message) };
  }
  const record = sending as WriteRecord | null;
  const withNotice = (message: string) => (notice === "" ? message : `${notice} ${message}`);
  // A status change, update or mark leaves no finished record (sending it again moves nothing);
  // a money movement or fund creation (`keep`) keeps one with its answer, for a repeated request id.
  if (end.status === "done") {
    const message = withNotice(words.say(doneWords(end.result, request)));
    // Finished right after the send: an execution stopped before this leaves the record
    // unsettled, so the call retried or a new click waits for it to be settled, never moving
    // the money twice.
    if (record) {
      if (keep) finishFormWrite(context, record, "done", message);
      else context.records.remove(record.key);
    }
    // Then the sheet, a view of the service: a protected or missing range loses nothing (the
    // write is done and recorded), and the next refresh writes it.
    const result = end.result;
    tolerate("derived only", () => context.applyResult(result), undefined);
    return { kind: "done", message, ...fundOf(end.result, context) };
  }
  if (end.status === "refused") {
    const message = withNotice(words.refusal(end, end.snapshot.fund?.currency));
    if (record) {
      if (keep) finishFormWrite(context, record, "refused", message);
      else context.records.remove(record.key);
    }
    return { kind: "refused", message };
  }
  if (!record) {
    return { kind: "unknown", applied: null, message: details("form.unknownReportPlain", end.message) };
  }
  // It may still land: remember it, and settle it only once that can no longer happen.
  context.records.put({ ...(record as WriteRecord), state: "unknown" });
  const until = context.format(new Date(inFlightUntil(record)), DATE_TIME).slice(11, 16);
  return {
    kind: "unknown",
    applied: null,
    message: withNotice(
      details(
        "reportId" in request ? "form.unknownWaitingReportPlain" : "form.unknownWaitingPlain",
        end.message,
        { sent: requestWords(request, end.snapshot.fund?.currency), until },
      ),
    ),
  };
}

function fundOf(result: WriteResult, context: FormContext): { fund?: FundView } {
  return result.kind === "fund" ? { fund: context.words.fund(fundWords(result.fund)) } : {};
}

/** What a form's write did, as its answer says. */
export function doneWords(result: WriteResult, request: WriteRequest): OutboxWords {
  if (result.kind === "report") return { key: "form.done.report", params: { id: result.report.id } };
  if (request.operation === "createFund")
    return { key: "form.done.created", params: { id: result.fund.id, employee: request.employeeId } };
  return {
    key: "form.done.fund",
    params: { id: result.fund.id, balance: { cents: result.fund.balance, currency: result.fund.currency } },
  };
}

/** Results of recent form submissions by request id, so that a double send shows the first result. */
export interface RecentSubmissions {
  get(requestId: string): FormOutcome | "pending" | null;
  put(requestId: string, value: FormOutcome | "pending"): void;
}

/**
 * What the add-on's records say of a request id this user's page sent: the answer of the write it
 * made, "pending" while that write is unsettled, null when no record carries it. Kept as long as
 * the record (finished ones are bounded), unlike the cache of recent submissions.
 */
export function recordedOutcome(
  records: RecordStore,
  by: string,
  requestId: string,
  words: FormWords,
): FormOutcome | "pending" | null {
  const record = records.all().find((r) => r.source === "form" && r.requestId === requestId && r.by === by);
  if (!record) return null;
  if (isUnsettled(record)) return "pending";
  // Settled by an Outbox run, which gives no form's answer: said as a form sent already.
  const message = record.answer ?? words.say({ key: "form.duplicate" });
  return record.state === "done" ? { kind: "done", message } : { kind: "refused", message };
}

/**
 * Recent submissions as the records tell them first (an execution stopped between finishing a
 * write's record and caching its answer leaves the cache saying "pending"), then the cache (a
 * write that keeps no record: refused before sending, a mark done).
 */
export function recordedSubmissions(
  cache: RecentSubmissions,
  records: RecordStore,
  by: string,
  words: FormWords,
): RecentSubmissions {
  return {
    get: (requestId) => recordedOutcome(records, by, requestId, words) ?? cache.get(requestId),
    put: (requestId, value) => cache.put(requestId, value),
  };
}

/** What a repeated request id gets: the first result, or "already sending"; null for a new id. */
export function repeatedOutcome(
  recent: RecentSubmissions,
  requestId: string,
  words: FormWords,
): (FormOutcome & { repeated: true }) | null {
  const previous = recent.get(requestId);
  if (previous === "pending")
    return { kind: "unknown", applied: null, message: words.say({ key: "form.sending" }), repeated: true };
  return previous ? { ...previous, repeated: true } : null;
}

/** Runs `send` once per request id: a repeated id gets the first result (or "already sending"). */
export function once(
  recent: RecentSubmissions,
  requestId: string,
  words: FormWords,
  send: () => FormOutcome,
): FormOutcome & { repeated?: boolean } {
  const repeated = repeatedOutcome(recent, requestId, words);
  if (repeated) return repeated;
  recent.put(requestId, "pending");
  const outcome = send();
  recent.put(requestId, outcome);
  return outcome;
}
