/**
 * How writes reach the audit sheet: the client reports each call (a write just before it is
 * sent and again when it ended); this ties those reports to the operation and its key, so the
 * audit tells which Outbox row or form asked for the call, and adds the verdicts on
 * interrupted writes, which are not calls of their own.
 */
import type { CallEvent } from "../api";
import type { AuditHandle, AuditLog } from "../audit/log";
import type { Language } from "../ui/strings";
import { operationLabel } from "./operations";
import { ENDPOINT_OF, targetOf, type WriteRequest } from "./requests";
import type { AuditPort } from "./write";

export interface WriteAudit {
  port: AuditPort;
  /** Give to the client as `onCall`. */
  onCall(event: CallEvent): void;
  /** Appends the reads recorded so far (one batch). */
  flushReads(): void;
}

export function writeAudit(log: AuditLog, language: Language): WriteAudit {
  let current: { key: string; request: WriteRequest } | null = null;
  const open = new Map<string, AuditHandle>();
  const action = (request: WriteRequest, key: string) =>
    `${operationLabel(language, request.operation)} · ${key}`;

  return {
    port: {
      beforeWrite(entry) {
        current = entry;
        return entry;
      },
      afterWrite() {
        current = null;
      },
      note(entry) {
        log
          .begin({
            action: `${action(entry.request, entry.key)} · ${entry.message}`,
            method: "-",
            endpoint: ENDPOINT_OF[entry.request.operation],
            recordId: entry.recordId ?? targetOf(entry.request),
          })
          .complete({ outcome: "ok", message: entry.message, durationMs: 0 });
      },
    },
    onCall(event) {
      const handleKey = `${event.endpoint}#${event.attempt}`;
      if (event.kind === "write" && event.phase === "before") {
        const handle = log.begin({
          action: current ? action(current.request, current.key) : event.endpoint,
          method: event.method,
          endpoint: event.endpoint,
          params: event.params,
          recordId: event.recordId ?? null,
        });
        open.set(handleKey, handle);
        return;
      }
      const result = {
        outcome: event.outcome === undefined ? ("error" as const) : event.outcome,
        httpStatus: event.status ?? null,
        message: event.message ?? "",
        durationMs: event.durationMs ?? null,
        recordId: event.recordId ?? null,
      };
      if (event.kind === "write") {
        open.get(handleKey)?.complete(result);
        open.delete(handleKey);
        return;
      }
      log.recordRead(
        { action: event.endpoint, method: event.method, endpoint: event.endpoint, params: event.params },
        result,
        new Date(event.at - (event.durationMs ?? 0)),
      );
    },
    flushReads() {
      log.flush();
    },
  };
}
