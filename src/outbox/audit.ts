/**
 * How writes reach the audit sheet: the client reports each call (a write just before it is
 * sent and again when it ended) and the audit's observer turns those reports into rows; this
 * names each row after the operation and its key, so the audit tells which Outbox row or form
 * asked for the call, and adds the verdicts on interrupted writes, which are not calls.
 */
import type { CallEvent } from "../api";
import {
  type AuditCall,
  type AuditCompany,
  type AuditHandle,
  type AuditLog,
  type AuditResult,
  auditCompanyCell,
} from "../audit/log";
import { callAudit } from "../audit/observer";
import type { Words } from "../i18n/words";
import type { OutboxOperation } from "./operations";
import { ENDPOINT_OF, targetOf, type WriteRequest } from "./requests";
import type { AuditPort, WriteFailure } from "./write";

export interface WriteAudit {
  port: AuditPort;
  /** Give to the client as `onCall`. */
  onCall(event: CallEvent): void;
  /** Appends the reads recorded so far (one batch). */
  flushReads(): void;
  /** HTTP requests reported so far (each is a UrlFetch call). */
  requests(): number;
}

/** How the audit of writes says its rows in the user's words (./run/words.ts, `auditWords`). */
export interface AuditWords {
  say(words: Words): string;
  /** An operation's label. */
  operation(operation: OutboxOperation): string;
}

/** What a write acts on (as words) and the money it moves, in the audit's own columns. */
export function writeTarget(
  request: WriteRequest,
  fund?: { title: string; currency: string },
): { target: Words } & Pick<AuditCall, "amountCents" | "currency"> {
  switch (request.operation) {
    case "createFund":
      return {
        target: { key: "audit.target.newFund", params: { name: request.name, id: request.employeeId } },
        amountCents: request.amount,
        currency: request.currency,
      };
    case "markIntegrated":
    case "markNotIntegrated":
    case "setCustomStatus":
      return { target: { key: "audit.target.report", params: { id: request.reportId } } };
    default: {
      const name = request.operation === "updateFund" ? request.name : fund?.title;
      const target: Words = name
        ? { key: "audit.target.fundNamed", params: { id: request.fundId, name } }
        : { key: "audit.target.fund", params: { id: request.fundId } };
      return "amount" in request
        ? { target, amountCents: request.amount, currency: fund?.currency ?? "" }
        : { target };
    }
  }
}

/** The audit's "Action" for a write: the operation in the user's words and its key. */
export function writeAction(words: AuditWords, request: WriteRequest, key: string): string {
  return `${words.operation(request.operation)} · ${key}`;
}

/** The audit of an Outbox run or a form's writes, said by `words`; each row names `company` when given. */
export function writeAudit(log: AuditLog, words: AuditWords, company?: AuditCompany | null): WriteAudit {
  let current: { key: string; request: WriteRequest; fund?: { title: string; currency: string } } | null =
    null;
  // A write's row is completed once the write path has judged the answer (a refusal the fund
  // contradicts is unknown; an answer that does not show the change is not done).
  let answered: { handle: AuditHandle; result: AuditResult } | null = null;
  const judged: AuditLog = {
    ...log,
    begin(call) {
      let handle: AuditHandle;
      try {
        handle = log.begin(call);
      } catch (error) {
        // No row on the audit, no request: the write is refused before it leaves.
        throw { outcome: "refused", message: `${(error as Error).message}` } satisfies WriteFailure;
      }
      return {
        complete(result) {
          if (current) answered = { handle, result };
          else handle.complete(result);
        },
      };
    },
  };
  // Reads outside a write (the preview's, a fund's before its movement, a form's view): "Reads".
  const reads = words.say({ key: "audit.reads.action" });
  // The target's words said, for the audit's column.
  const said = (request: WriteRequest, fund?: { title: string; currency: string }) => {
    const { target, ...money } = writeTarget(request, fund);
    return { target: words.say(target), ...money };
  };
  const calls = callAudit(
    judged,
    () => (current ? writeAction(words, current.request, current.key) : reads),
    company,
    {
      // The row names the Outbox row or form the write is for, and its target even when the
      // client knows the record only from the answer (a created fund).
      describeWrite: (call) =>
        current
          ? {
              ...call,
              recordId: call.recordId ?? targetOf(current.request),
              ...said(current.request, current.fund),
            }
          : call,
    },
  );
  return {
    port: {
      beforeWrite(entry) {
        current = entry;
        return entry;
      },
      afterWrite(_handle, end) {
        current = null;
        if (!answered) return;
        const { handle, result } = answered;
        answered = null;
        handle.complete(
          end.outcome === result.outcome ? result : { ...result, outcome: end.outcome, message: end.message },
        );
      },
      note(entry) {
        log
          .begin({
            action: `${writeAction(words, entry.request, entry.key)} · ${entry.message}`,
            company: auditCompanyCell(company),
            method: "-",
            endpoint: ENDPOINT_OF[entry.request.operation],
            recordId: entry.recordId ?? targetOf(entry.request),
            // Not a call: no amount, so the column adds up to the money actually sent.
            target: words.say(writeTarget(entry.request).target),
          })
          .complete({ outcome: "ok", message: entry.message, durationMs: 0 });
      },
    },
    onCall: (event) => calls.onCall(event),
    flushReads: () => log.flush(),
    requests: () => calls.requests(),
  };
}
