/**
 * Writes as words, for row messages, the preview and the confirmation: what a request does
 * ("Deposit 50.00 to fund 5010") and which of a row's cells changed since it was sent ("Amount
 * was changed from “50.00” to “70.00”"), as data (`OutboxWords`) that ./words.ts says.
 */
import type { Said } from "../i18n/words";
import { headerKey, type OutboxColumn } from "./columns";
import { fundStatusWords } from "./operations";
import type { WriteRequest } from "./requests";
import {
  type Count,
  type OutboxWords,
  type RequestDetail,
  saidIn,
  sayChanges,
  sayDetails,
  sayInFull,
  sayOutbox,
  sayTooLong,
} from "./words";

/** What a request does, in a short phrase; `currency` is added to amounts when known. */
export function requestWords(request: WriteRequest, currency?: string | null): OutboxWords {
  const money = (cents: number, code?: string | null) => ({ cents, currency: code });
  switch (request.operation) {
    case "deposit":
      return {
        key: "outbox.describe.deposit",
        params: { amount: money(request.amount, currency), id: request.fundId },
      };
    case "withdraw":
      return {
        key: "outbox.describe.withdraw",
        params: { amount: money(request.amount, currency), id: request.fundId },
      };
    case "createFund":
      return {
        key: "outbox.describe.createFund",
        params: {
          name: request.name,
          employee: request.employeeId,
          amount: money(request.amount, request.currency),
        },
      };
    case "updateFund":
      return { key: "outbox.describe.updateFund", params: { id: request.fundId } };
    case "setFundStatus":
      return {
        key: "outbox.describe.setFundStatus",
        params: { id: request.fundId, status: fundStatusWords(request.status) },
      };
    case "markIntegrated":
      return {
        key: "outbox.describe.markIntegrated",
        params: { id: request.reportId, code: request.code },
      };
    case "markNotIntegrated":
      return { key: "outbox.describe.markNotIntegrated", params: { id: request.reportId } };
    case "setCustomStatus":
      return {
        key: "outbox.describe.setCustomStatus",
        params: { id: request.reportId, status: request.status },
      };
  }
}

/**
 * A request's other fields, as its columns name them ("Fund code “V-1”, Flexible Yes"): with
 * `requestWords`, everything a confirmation shows of a write that is about to be sent.
 */
export function requestDetailList(request: WriteRequest): RequestDetail[] {
  const out: RequestDetail[] = [];
  const text = (column: OutboxColumn, value: string | undefined) => {
    if (value !== undefined) out.push({ label: headerKey(column), text: value });
  };
  const flag = (column: OutboxColumn, value: boolean | undefined) => {
    if (value !== undefined) out.push({ label: headerKey(column), flag: value });
  };
  if (request.operation === "updateFund") text("fundName", request.name);
  if (request.operation === "createFund" || request.operation === "updateFund") {
    text("fundCode", request.code);
    text("fundComment", request.comment);
    flag("flexible", request.flexible);
    flag("autoDeposit", request.autoDeposit);
    flag("autoBlock", request.autoBlock);
    text("expirationDate", request.expirationDate);
  }
  if (request.operation === "markIntegrated") text("integrationDate", request.date);
  if (request.operation === "setCustomStatus") text("customMessage", request.message);
  return out;
}

/** "Fund name holds 10,000 characters": a cell too long for a row's record, for its messages. */
export function tooLongValues(tooLong: { column: string; length: number }): { column: Said; length: Count } {
  return { column: { say: headerKey(tooLong.column as OutboxColumn) }, length: { count: tooLong.length } };
}

/** "Amount was changed from “50.00” to “70.00”", one clause per changed column. */
export function changeWords(
  before: Record<string, string>,
  now: Record<string, string>,
  columns: readonly string[],
): OutboxWords[] {
  return columns.map((column) => ({
    key: "outbox.msg.changed",
    params: {
      column: { say: column === "operation" ? "outbox.col.operation" : headerKey(column as OutboxColumn) },
      from: before[column] ?? "",
      to: now[column] ?? "",
    },
  }));
}

// The same, said at once: the forms the Outbox run's and preview's callers use.

export const describeRequest = saidIn(requestWords, sayOutbox);
export const requestDetails = saidIn(requestDetailList, sayDetails);
export const tooLongParams = saidIn(tooLongValues, sayTooLong);
/** What a request does and every field it sends, for the confirmation's list. */
export const describeInFull = saidIn(
  (request: WriteRequest, currency?: string | null) => ({
    words: requestWords(request, currency),
    details: requestDetailList(request),
  }),
  sayInFull,
);
export const describeChanges = saidIn(changeWords, sayChanges);
