/**
 * The audit log: one row per call the add-on makes to the service, from any path.
 *
 * A write is recorded before it is sent (`begin` appends a row whose outcome is "sending" and
 * flushes it) and completed after (`complete` fills in the same row), so a run killed between
 * the two still leaves its trace. Reads are summed up in one row per run (which endpoints, how
 * many calls and pages, the time they took, how they ended), written at the first `flush` and
 * brought up to date by the next ones; with `reads: "every"` each read gets a row of its own,
 * appended in one batch (`flush`).
 * The sheet behind it is reached through an `AuditSink`, so this runs in tests without Sheets.
 */
import { type Language, translate } from "../i18n";
import type { AuditRowSource } from "../sheets/columns";
import { redactedParameters, redactText } from "./redact";

export type AuditSource = "menu" | "sidebar" | "outbox" | "schedule";
/** "sending" only ever shows on a row whose call never finished (the run was stopped). */
export type AuditOutcome = "ok" | "refused" | "error" | "unknown" | "sending";

/** A company as the audit names it: its key and its name at the time of the call. */
export interface AuditCompany {
  key: string;
  name: string;
}

/**
 * The audit's Company cell: `Name (key)`, "Alpha (c7k2p0qx)": the name as it was then, the key
 * for ever (a later rename or a reused name cannot make the row speak of another company). A
 * company without a name is a one-company document's first, never named: its user has no
 * company to tell apart, so the cell stays empty, as on rows written before the column.
 */
export function auditCompanyCell(company: AuditCompany | null | undefined): string {
  if (!company || company.name === "") return "";
  return `${company.name} (${company.key})`;
}

/** What is about to be called. */
export interface AuditCall {
  /** What the user asked for, in their words ("Refresh funds", "Deposit"). */
  action: string;
  /** The company it goes to, as its cell shows it (auditCompanyCell); "" or absent: not said. */
  company?: string;
  method: string;
  endpoint: string;
  params?: unknown;
  recordId?: string | number | null;
  /** What a write acts on, in words ("Fund 12 · Petty cash"). */
  target?: string;
  /** A movement's amount, integer cents, and its currency when known. */
  amountCents?: number | null;
  currency?: string;
}

/** How a call ended. */
export interface AuditResult {
  outcome: Exclude<AuditOutcome, "sending">;
  httpStatus?: number | null;
  message?: string;
  durationMs?: number | null;
  /** The id of the record the call touched or created, when known only afterwards. */
  recordId?: string | number | null;
}

export interface AuditSink {
  /** Appends rows at the end; returns the sheet row number of the first one. */
  append(rows: readonly AuditRowSource[]): number;
  /** Rewrites the row at `rowNumber` (one the sink returned from append). */
  update(rowNumber: number, row: AuditRowSource): void;
  /** Makes what was written visible to every other execution (SpreadsheetApp.flush). */
  flush(): void;
}

export interface AuditContext {
  /** Who: the user's email, their temporary key, or "schedule (<creator>)". */
  user: string;
  source: AuditSource;
  /** Values never to show (the access token). */
  secrets: readonly string[];
  now: () => Date;
  /** "summed" (the default): one row for all the reads of a run; "every": one row per read. */
  reads?: AuditReads;
  /** The language of the summed row's message. */
  language?: Language;
}

export type AuditReads = "summed" | "every";

export interface AuditHandle {
  complete(result: AuditResult): void;
}

export interface AuditLog {
  /** Records a write before it is sent; the row is on the sheet when this returns. */
  begin(call: AuditCall): AuditHandle;
  /** Records a finished read (kept until `flush`). */
  recordRead(call: AuditCall, result: AuditResult, startedAt?: Date): void;
  /** Records finished reads (kept until `flush`). */
  recordReads(entries: readonly { call: AuditCall; result: AuditResult; startedAt?: Date }[]): void;
  /** Appends the reads recorded so far in one batch. */
  flush(): void;
  /** Reads waiting for `flush`. */
  pending(): number;
}

/** An audit row for a call and (when finished) its result, with secrets removed. */
export function auditRow(
  context: AuditContext,
  call: AuditCall,
  result: AuditResult | null,
  timestamp: Date,
): AuditRowSource {
  const clean = (text: string) => redactText(text, context.secrets).slice(0, 5000);
  const recordId = result?.recordId ?? call.recordId;
  return {
    timestamp,
    user: context.user,
    source: context.source,
    action: clean(call.action),
    company: clean(call.company || ""),
    target: clean(call.target || ""),
    amountCents: call.amountCents ?? null,
    currency: clean(call.currency || ""),
    method: call.method.toUpperCase(),
    endpoint: call.endpoint,
    parameters: redactedParameters(call.params, context.secrets),
    httpStatus: result?.httpStatus ?? null,
    outcome: result ? result.outcome : "sending",
    message: clean(result?.message ?? ""),
    durationMs: result?.durationMs ?? null,
    recordId: recordId === null || recordId === undefined ? "" : String(recordId),
  };
}

/** Outcomes from the best to the worst: a summed row shows the worst of its reads. */
const WORSE: readonly string[] = ["ok", "unknown", "refused", "error"];

/** All the reads of a run so far, as one row adds them up. */
interface ReadSum {
  /** What the user asked for, each once ("Refresh all"; an Outbox run's writes the reads were for). */
  actions: string[];
  /** The companies read from, each once. */
  companies: string[];
  startedAt: Date;
  methods: string[];
  endpoints: string[];
  calls: number;
  pages: number;
  failed: number;
  durationMs: number;
  outcome: AuditResult["outcome"];
  httpStatus: number | null;
  message: string;
}

function addRead(sum: ReadSum | null, call: AuditCall, result: AuditResult, startedAt: Date): ReadSum {
  const next: ReadSum = sum || {
    actions: [],
    companies: [],
    startedAt,
    methods: [],
    endpoints: [],
    calls: 0,
    pages: 0,
    failed: 0,
    durationMs: 0,
    outcome: "ok",
    httpStatus: null,
    message: "",
  };
  const add = (list: string[], item: string) => list.includes(item) || list.push(item);
  add(next.actions, call.action);
  if (call.company) add(next.companies, call.company);
  add(next.methods, call.method.toUpperCase());
  add(next.endpoints, call.endpoint);
  next.calls++;
  next.durationMs += result.durationMs || 0;
  if (result.outcome === "ok") next.pages++;
  else {
    next.failed++;
    next.httpStatus = result.httpStatus || null;
    next.message = result.message || "";
  }
  if (WORSE.indexOf(result.outcome) > WORSE.indexOf(next.outcome)) next.outcome = result.outcome;
  return next;
}

/** The one row of a run's reads. */
function sumRow(context: AuditContext, sum: ReadSum): AuditRowSource {
  const language = context.language ?? "en";
  const counts = translate(language, "audit.reads.summed", { calls: sum.calls, pages: sum.pages });
  const failed =
    sum.failed > 0
      ? ` ${translate(language, "audit.reads.failed", { n: sum.failed, message: sum.message })}`
      : "";
  return auditRow(
    context,
    {
      action: sum.actions.join("; "),
      company: sum.companies.join("; "),
      method: sum.methods.join(", "),
      endpoint: sum.endpoints.join(", "),
    },
    {
      outcome: sum.outcome,
      httpStatus: sum.httpStatus,
      message: `${counts}${failed}`,
      durationMs: sum.durationMs,
    },
    sum.startedAt,
  );
}

export function createAuditLog(sink: AuditSink, context: AuditContext): AuditLog {
  const reads: AuditRowSource[] = [];
  const summed = (context.reads ?? "summed") === "summed";
  let sum: ReadSum | null = null;
  /** The summed row on the sheet, once written, and whether reads came since. */
  let sumRowNumber: number | null = null;
  let sumChanged = false;
  const log: AuditLog = {
    begin(call) {
      const started = context.now();
      const rowNumber = sink.append([auditRow(context, call, null, started)]);
      sink.flush();
      let done = false;
      return {
        complete(result) {
          if (done) return;
          done = true;
          const durationMs = result.durationMs ?? context.now().getTime() - started.getTime();
          sink.update(rowNumber, auditRow(context, call, { ...result, durationMs }, started));
        },
      };
    },
    recordRead(call, result, startedAt) {
      if (summed) {
        sum = addRead(sum, call, result, startedAt ?? context.now());
        sumChanged = true;
        return;
      }
      reads.push(auditRow(context, call, result, startedAt ?? context.now()));
    },
    recordReads(entries) {
      for (const e of entries) log.recordRead(e.call, e.result, e.startedAt);
    },
    flush() {
      if (sum && sumChanged) {
        sumChanged = false;
        // Written at the first flush, so a run stopped later still leaves its trace; updated after.
        if (sumRowNumber === null) sumRowNumber = sink.append([sumRow(context, sum)]);
        else sink.update(sumRowNumber, sumRow(context, sum));
      }
      if (reads.length === 0) return;
      sink.append(reads.splice(0, reads.length));
    },
    pending: () => reads.length + (sumChanged ? 1 : 0),
  };
  return log;
}

/**
 * How many rows to move to the archive and drop from it so neither grows without bound: past
 * `maxRows`, the oldest rows go to the archive until a fifth of the room is free again; the
 * archive past `maxArchiveRows` loses its oldest rows.
 */
export function planRotation(
  rows: number,
  archiveRows: number,
  limits: { maxRows: number; maxArchiveRows: number },
): { moveToArchive: number; dropFromArchive: number } {
  if (rows <= limits.maxRows) return { moveToArchive: 0, dropFromArchive: 0 };
  const keep = Math.floor(limits.maxRows * 0.8);
  const moveToArchive = rows - keep;
  const dropFromArchive = Math.max(
    0,
    Math.min(archiveRows, archiveRows + moveToArchive - limits.maxArchiveRows),
  );
  return { moveToArchive, dropFromArchive };
}

/** Default bounds: 13 columns × (50,000 + 200,000) rows stays far below 10 million cells. */
export const AUDIT_LIMITS = { maxRows: 50_000, maxArchiveRows: 200_000 } as const;
