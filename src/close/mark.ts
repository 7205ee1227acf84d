/**
 * The marking of the month-end close: every report of an approved journal marked integrated
 * with its voucher's code (setExpenseReportIntegration), with the write-back's guarantees.
 *
 * - A report is read before it is marked: one already integrated with the voucher's code is done
 *   without a call; one integrated meanwhile under another code is named, never overwritten.
 * - A record of the batch (document properties, `MarkRecordStore`) is stored before its calls
 *   leave, and kept for the marks whose outcome is not known yet.
 * - A report counts as done only once a read shows it integrated with that code.
 * - A call interrupted (no answer, 5xx, the execution stopped) is settled by reading: while its
 *   request may still land (the in-flight window of the Outbox's records) a report not showing the
 *   mark is left unknown and not sent again; after it, a report still not marked is free to be
 *   sent, since that request can no longer land. So a report is never marked twice.
 * - The service has no bulk call: the marks of one company go in batches of `batchSize`, each
 *   batch one fetchAll of reads, one of writes (and one more for the writes a 404/405 sends by
 *   POST), one of reads back.
 * - Between batches the time budget is asked; past it, the marks not reached are handed back
 *   (`remaining`) for the next execution to go on from (a continuation calls this again with them).
 *
 * Every call goes through the company's client: the Audit sheet gets each one through the
 * client's call observer (`callAudit`), as for the Outbox.
 */
import type { BatchResult, Client } from "../api/client";
import { type ApiError, HttpError } from "../api/errors";
import type { ExpenseReport } from "../api/types";
import type { TimeBudget } from "../longrun/budget";
import { IN_FLIGHT_WINDOW_MS } from "../outbox/records";
import type { CloseMark, MarkOutcome, MarkReason } from "./types";

/** What the marking needs of a company's client. */
export type MarkClient = Pick<Client, "readMany" | "writeMany">;

/** One mark of a stored record: sent (or about to be) and not settled yet. */
export interface RecordedMark {
  reportId: number;
  voucher: string;
  date: string;
}

/** A batch's record, stored before its calls leave; dropped once every mark in it is settled. */
export interface MarkRecord {
  key: string;
  company: string;
  /** "undo": the batch set its reports not integrated (undo.ts); absent: it marked them. */
  mode?: MarkMode;
  /** When the batch left (ms since the epoch). */
  sentAt: number;
  marks: RecordedMark[];
}

/** Where the records live: document properties in Apps Script, a map in tests. */
export interface MarkRecordStore {
  all(): MarkRecord[];
  put(record: MarkRecord): void;
  remove(key: string): void;
}

/**
 * The prefix of a mark record's key: `close.mark.<company>.<mode>.<first report id>.<sent at>`.
 * The mode and the time keep a mark's and an undo's records of the same report apart, and a
 * record still held apart from a later batch that starts with the same report (a voucher
 * marked, undone and marked again).
 */
export const MARK_RECORD_PREFIX = "close.mark.";

/** Marks per batch (one fetchAll each way), as the refresh's requests per batch. */
export const MARK_BATCH_SIZE = 25;

export interface MarkDeps {
  /** The client of a company key (its token, its URL, its call observer). */
  clientOf(company: string): MarkClient;
  records: MarkRecordStore;
  clock: { now(): number };
  /** Asked between batches; absent: no limit. */
  budget?: Pick<TimeBudget, "shouldStop">;
  batchSize?: number;
  /** How long a request may still land after it left (IN_FLIGHT_WINDOW_MS by default). */
  windowMs?: number;
  /**
   * Four eyes: who approved the journal and who marks now; the same person is refused every
   * mark, before any call.
   */
  fourEyes?: { approvedBy: string; markedBy: string };
}

export interface MarkResult {
  /** One outcome per mark handled in this execution, in the order of the marks. */
  outcomes: MarkOutcome[];
  /** The marks not reached before the time budget ran out: the next execution goes on with them. */
  remaining: CloseMark[];
  mustContinue: boolean;
}

const markKey = (company: string, reportId: number) => `${company}\u0000${reportId}`;
/** A mark's outcome's key: its report and its voucher (a report given twice gets one per voucher). */
const outcomeKey = (m: Pick<CloseMark, "company" | "reportId" | "voucher">) =>
  `${markKey(m.company, m.reportId)}\u0000${m.voucher}`;

/** Marking a voucher's reports integrated, or undoing it (IntegrationStatus 0). */
export type MarkMode = "mark" | "undo";

/** Integrated, and with which code; null when not integrated. */
function integrationOf(report: ExpenseReport): string | null {
  return report.integrationDate !== null ? report.integrationExternalCode : null;
}

/** Why a read or write failed, in the service's words (no token: the client's errors carry none). */
function reasonOf(error: ApiError): string {
  return error.message;
}

/**
 * Marks `marks` integrated with their vouchers' codes. Safe to call again with the same marks
 * (after a stop, a failure, a kill): what is done is read as done and never sent again.
 */
export function markVouchers(marks: readonly CloseMark[], deps: MarkDeps): MarkResult {
  return runMarks(marks, "mark", deps);
}

/**
 * The engine of both the marking and the undo (`mode` "undo": the reports set not integrated,
 * done once a read shows them so; one integrated meanwhile under another code is named).
 */
export function runMarks(marks: readonly CloseMark[], mode: MarkMode, deps: MarkDeps): MarkResult {
  const outcomes = new Map<string, MarkOutcome>();
  const result = (remaining: CloseMark[]): MarkResult => ({
    outcomes: marks.flatMap((m) => {
      const o = outcomes.get(outcomeKey(m));
      return o ? [o] : [];
    }),
    remaining,
    mustContinue: remaining.length > 0,
  });
  if (deps.fourEyes && deps.fourEyes.approvedBy === deps.fourEyes.markedBy) {
    for (const m of marks) {
      outcomes.set(outcomeKey(m), {
        kind: "refused",
        reportId: m.reportId,
        voucher: m.voucher,
        reason: { code: "fourEyes", who: deps.fourEyes.markedBy },
      });
    }
    return result([]);
  }
  const held = settleRecords(deps);
  const batchSize = Math.max(1, deps.batchSize ?? MARK_BATCH_SIZE);
  // A report in two vouchers is marked with neither: the journal is wrong.
  const vouchersOf = new Map<string, string[]>();
  for (const m of marks) {
    const key = markKey(m.company, m.reportId);
    vouchersOf.set(key, [...(vouchersOf.get(key) ?? []), m.voucher]);
  }
  const work: CloseMark[] = [];
  for (const m of marks) {
    const key = markKey(m.company, m.reportId);
    const vouchers = vouchersOf.get(key) ?? [];
    const base = { reportId: m.reportId, voucher: m.voucher };
    if (vouchers.length > 1) {
      const reason: MarkReason = { code: "twoVouchers", report: m.reportNumber, vouchers };
      outcomes.set(outcomeKey(m), { kind: "refused", ...base, reason });
      continue;
    }
    const heldFor = held.get(key);
    if (heldFor) {
      outcomes.set(outcomeKey(m), { kind: "unknown", ...base, reason: heldFor });
      continue;
    }
    work.push(m);
  }
  const batches = batchesOf(work, batchSize);
  deps.budget?.shouldStop(); // the budget measures a batch from here
  for (const [i, batch] of batches.entries()) {
    // The first batch always goes: each execution gets somewhere.
    if (i > 0 && deps.budget?.shouldStop()) return result(batches.slice(i).flat());
    for (const outcome of markBatch(batch, mode, deps)) {
      outcomes.set(outcomeKey({ company: batch[0]?.company ?? "", ...outcome }), outcome);
    }
  }
  return result([]);
}

/** The marks in batches of one company each, in the order of the marks within a company. */
function batchesOf(marks: readonly CloseMark[], size: number): CloseMark[][] {
  const byCompany = new Map<string, CloseMark[]>();
  for (const m of marks) {
    const list = byCompany.get(m.company) ?? [];
    list.push(m);
    byCompany.set(m.company, list);
  }
  const out: CloseMark[][] = [];
  for (const list of byCompany.values()) {
    for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  }
  return out;
}

/**
 * Settles the stored records by reading their reports. A mark a read shows integrated (under
 * any code) is settled (the batch that reads it again names it); one not integrated once its
 * request can no longer land is free; one not integrated while it may still land, or that could
 * not be read, stays recorded and is held: answers why, by company and report.
 */
function settleRecords(deps: MarkDeps): Map<string, MarkReason> {
  const held = new Map<string, MarkReason>();
  const windowMs = deps.windowMs ?? IN_FLIGHT_WINDOW_MS;
  const now = deps.clock.now();
  const records = deps.records.all().filter((r) => r.key.startsWith(MARK_RECORD_PREFIX));
  const byCompany = new Map<string, MarkRecord[]>();
  for (const r of records) byCompany.set(r.company, [...(byCompany.get(r.company) ?? []), r]);
  for (const [company, list] of byCompany) {
    const ids = [...new Set(list.flatMap((r) => r.marks.map((m) => m.reportId)))];
    const reads = readReports(deps.clientOf(company), ids);
    for (const record of list) {
      const inFlight = now < record.sentAt + windowMs;
      const kept = record.marks.filter((m) => {
        const read = reads.get(m.reportId);
        // Landed: a mark shows (under any code); an undo no longer shows its code.
        const code = read?.ok ? integrationOf(read.value) : undefined;
        if (read?.ok && (record.mode === "undo" ? code !== m.voucher : code !== null)) return false;
        if (read?.ok && !inFlight) return false;
        const until = new Date(record.sentAt + windowMs).toISOString();
        held.set(
          markKey(company, m.reportId),
          read?.ok
            ? { code: "mayStillLand", sentAt: new Date(record.sentAt).toISOString(), until }
            : { code: "sentNotRead", message: read ? reasonOf(read.error) : "" },
        );
        return true;
      });
      if (kept.length === 0) deps.records.remove(record.key);
      else if (kept.length !== record.marks.length) deps.records.put({ ...record, marks: kept });
    }
  }
  return held;
}

/** Reads reports by Id in one batch: each Id's result. */
function readReports(
  client: MarkClient,
  ids: readonly number[],
): Map<number, BatchResult<"getExpenseReport">> {
  const out = new Map<number, BatchResult<"getExpenseReport">>();
  if (ids.length === 0) return out;
  const results = client.readMany(
    "getExpenseReport",
    ids.map((Id) => ({ Id })),
  );
  ids.forEach((id, i) => {
    out.set(id, results[i] as BatchResult<"getExpenseReport">);
  });
  return out;
}

/** Why the report read is not the one the mark was made for (its number or currency); null when it is. */
function otherReport(m: CloseMark, read: ExpenseReport): MarkReason | null {
  const number = m.reportNumber !== "" && read.reportNumber !== m.reportNumber;
  const currency = m.currency !== "" && read.currency !== "" && read.currency !== m.currency;
  if (!number && !currency) return null;
  return {
    code: "otherReport",
    reportId: m.reportId,
    number: read.reportNumber,
    currency: read.currency,
    expectedNumber: m.reportNumber,
    expectedCurrency: m.currency,
  };
}

/** One batch of one company: read, record, write, read back. */
function markBatch(batch: readonly CloseMark[], mode: MarkMode, deps: MarkDeps): MarkOutcome[] {
  const out = new Map<string, MarkOutcome>();
  const company = (batch[0] as CloseMark).company;
  const client = deps.clientOf(company);
  const set = (m: CloseMark, outcome: MarkOutcome) => out.set(markKey(m.company, m.reportId), outcome);
  const before = readReports(
    client,
    batch.map((m) => m.reportId),
  );
  const toSend: CloseMark[] = [];
  for (const m of batch) {
    const read = before.get(m.reportId) as BatchResult<"getExpenseReport">;
    const base = { reportId: m.reportId, voucher: m.voucher };
    if (!read.ok) {
      const notFound = read.error instanceof HttpError && read.error.status === 404;
      set(
        m,
        notFound
          ? { kind: "refused", ...base, reason: { code: "service", message: reasonOf(read.error) } }
          : { kind: "unknown", ...base, reason: { code: "notRead", message: reasonOf(read.error) } },
      );
      continue;
    }
    // The report read must be the journal's (its number and currency as booked): an Id that
    // reads as another report (another account's, or a cell edited) is never marked.
    const other = otherReport(m, read.value);
    if (other) {
      set(m, { kind: "refused", ...base, reason: other });
      continue;
    }
    const code = integrationOf(read.value);
    const settled = settledBy(mode, m, code);
    if (settled) set(m, settled);
    else toSend.push(m);
  }
  if (toSend.length === 0) return [...out.values()];
  const sentAt = deps.clock.now();
  const record: MarkRecord = {
    key: `${MARK_RECORD_PREFIX}${company}.${mode}.${(toSend[0] as CloseMark).reportId}.${sentAt}`,
    company,
    ...(mode === "undo" ? { mode } : {}),
    sentAt,
    marks: toSend.map((m) => ({ reportId: m.reportId, voucher: m.voucher, date: m.integrationDate })),
  };
  deps.records.put(record);
  const written = client.writeMany(
    "setExpenseReportIntegration",
    toSend.map((m) =>
      mode === "undo"
        ? { Id: m.reportId, IntegrationStatus: 0 }
        : {
            Id: m.reportId,
            IntegrationStatus: 1,
            IntegrationCode: m.voucher,
            IntegrationDate: m.integrationDate,
          },
    ),
  );
  const toRead: Array<{ mark: CloseMark; why: MarkReason }> = [];
  toSend.forEach((m, i) => {
    const answer = written[i] as BatchResult<"setExpenseReportIntegration">;
    if (!answer.ok && answer.error.outcome === "refused") {
      const reason: MarkReason = { code: "service", message: reasonOf(answer.error) };
      set(m, { kind: "refused", reportId: m.reportId, voucher: m.voucher, reason });
    } else {
      toRead.push({
        mark: m,
        why: answer.ok ? { code: "notShownYet" } : { code: "lost", message: reasonOf(answer.error) },
      });
    }
  });
  const after = readReports(
    client,
    toRead.map((t) => t.mark.reportId),
  );
  const unsettled = new Set<number>();
  for (const { mark: m, why } of toRead) {
    const read = after.get(m.reportId) as BatchResult<"getExpenseReport">;
    const base = { reportId: m.reportId, voucher: m.voucher };
    const settled = read.ok ? settledBy(mode, m, integrationOf(read.value)) : null;
    if (settled) set(m, settled);
    else {
      unsettled.add(m.reportId);
      const reason: MarkReason = read.ok
        ? why
        : { code: "notReadBack", first: why, message: reasonOf(read.error) };
      set(m, { kind: "unknown", ...base, reason });
    }
  }
  const kept = record.marks.filter((m) => unsettled.has(m.reportId));
  if (kept.length === 0) deps.records.remove(record.key);
  else deps.records.put({ ...record, marks: kept });
  return [...out.values()];
}

/**
 * What a read settles, or null when the call is (still) to be made: a mark is done once the
 * report shows its code, an undo once it shows none; another code is named either way.
 */
function settledBy(mode: MarkMode, m: CloseMark, code: string | null): MarkOutcome | null {
  const base = { reportId: m.reportId, voucher: m.voucher };
  if (mode === "mark") {
    if (code === m.voucher) return { kind: "done", ...base };
    return code === null ? null : { kind: "otherCode", ...base, code };
  }
  if (code === null) return { kind: "done", ...base };
  return code === m.voucher ? null : { kind: "otherCode", ...base, code };
}
