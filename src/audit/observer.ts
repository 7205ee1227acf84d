/**
 * The API client's call reports turned into audit rows: a write's `before` opens its row (on
 * the sheet before the request leaves), its `after` completes it; a read's `after` is kept for
 * the batch written at the end of the run. Also counts the HTTP requests made, retries included.
 */
import type { CallEvent } from "../api/client";
import type { AuditHandle, AuditLog } from "./log";

export interface CallAudit {
  onCall(event: CallEvent): void;
  /** HTTP requests reported so far (every attempt counts: each is a UrlFetch call). */
  requests(): number;
}

export function callAudit(log: AuditLog, action: () => string): CallAudit {
  const open = new Map<string, AuditHandle>();
  let requests = 0;
  return {
    onCall(event) {
      const key = `${event.endpoint}#${event.attempt}#${event.recordId ?? ""}`;
      const call = {
        action: action(),
        method: event.method,
        endpoint: event.endpoint,
        params: event.params,
        recordId: event.recordId ?? null,
      };
      if (event.phase === "before") {
        if (event.kind === "write") open.set(key, log.begin(call));
        return;
      }
      requests++;
      const result = {
        outcome: event.outcome ?? "unknown",
        httpStatus: event.status ?? null,
        message: event.message ?? "",
        durationMs: event.durationMs ?? null,
        recordId: event.recordId ?? null,
      };
      const handle = open.get(key);
      if (handle) {
        open.delete(key);
        handle.complete(result);
      } else {
        log.recordRead(call, result, new Date(event.at - (event.durationMs ?? 0)));
      }
    },
    requests: () => requests,
  };
}
