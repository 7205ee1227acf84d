/**
 * The audit log: one row per call the add-on makes to the service, from any path.
 *
 * A write is recorded before it is sent (`begin` appends a row whose outcome is "sending" and
 * flushes it) and completed after (`complete` fills in the same row), so a run killed between
 * the two still leaves its trace. Reads are collected and appended in one batch (`flush`).
 * The sheet behind it is reached through an `AuditSink`, so this runs in tests without Sheets.
 */
import type { AuditRowSource } from "../sheets/columns";
import { redactedParameters, redactText } from "./redact";

export type AuditSource = "menu" | "sidebar" | "outbox" | "schedule";
/** "sending" only ever shows on a row whose call never finished (the run was stopped). */
export type AuditOutcome = "ok" | "refused" | "error" | "unknown" | "sending";

/** What is about to be called. */
export interface AuditCall {
  /** What the user asked for, in their words ("Refresh funds", "Deposit"). */
  action: string;
  method: string;
  endpoint: string;
  params?: unknown;
  recordId?: string | number | null;
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
}

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

export function createAuditLog(sink: AuditSink, context: AuditContext): AuditLog {
  const reads: AuditRowSource[] = [];
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
      reads.push(auditRow(context, call, result, startedAt ?? context.now()));
    },
    recordReads(entries) {
      for (const e of entries) log.recordRead(e.call, e.result, e.startedAt);
    },
    flush() {
      if (reads.length === 0) return;
      sink.append(reads.splice(0, reads.length));
    },
    pending: () => reads.length,
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
