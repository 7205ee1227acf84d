/**
 * The API client's call reports turned into audit rows: a write's `before` opens its row (on
 * the sheet before the request leaves), its `after` completes it; a read's `after` is kept for
 * the batch written at the end of the run. Also counts the HTTP requests made, retries included.
 *
 * A write's two reports are paired by the client's call id, the one thing both carry alike
 * (the record id of a created fund, for one, is known only after).
 */
import type { CallEvent } from "../api/client";
import { type AuditCall, type AuditCompany, type AuditHandle, type AuditLog, auditCompanyCell } from "./log";

export interface CallAudit {
  onCall(event: CallEvent): void;
  /** HTTP requests reported so far (every attempt counts: each is a UrlFetch call). */
  requests(): number;
}

export interface CallAuditOptions {
  /**
   * Changes what a write's row says before it is opened (the Outbox names the row and the
   * target it writes for). Reads are recorded as the client reports them.
   */
  describeWrite?: (call: AuditCall, event: CallEvent) => AuditCall;
}

/** The key pairing a call's reports: the client's call id, else what both reports share. */
function pairKey(event: CallEvent): string {
  return event.callId ?? `${event.endpoint}#${event.attempt}`;
}

/**
 * Turns the client's call reports into rows of `log`, each naming `action()` and, when given,
 * the company the client calls (`Name (key)`; see auditCompanyCell).
 */
export function callAudit(
  log: AuditLog,
  action: () => string,
  company?: AuditCompany | null,
  options: CallAuditOptions = {},
): CallAudit {
  const companyCell = auditCompanyCell(company);
  const open = new Map<string, AuditHandle>();
  let requests = 0;
  return {
    onCall(event) {
      const key = pairKey(event);
      const call: AuditCall = {
        action: action(),
        ...(companyCell ? { company: companyCell } : {}),
        method: event.method,
        endpoint: event.endpoint,
        params: event.params,
        recordId: event.recordId ?? null,
      };
      if (event.phase === "before") {
        if (event.kind === "write") {
          open.set(key, log.begin(options.describeWrite ? options.describeWrite(call, event) : call));
        }
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
