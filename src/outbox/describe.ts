/**
 * Writes in the user's words, for row messages, the preview and the confirmation: what a
 * request does ("Deposit 50.00 to fund 5010") and which of a row's cells changed since it was
 * sent ("Amount was changed from “50.00” to “70.00”").
 */
import { moneyText } from "../api/money";
import { type Language, type StringKey, translate } from "../i18n";
import { headerKey, type OutboxColumn } from "./columns";
import { fundStatusLabel } from "./operations";
import type { WriteRequest } from "./requests";

/** What a request does, in a short phrase; `currency` is added to amounts when known. */
export function describeRequest(language: Language, request: WriteRequest, currency?: string | null): string {
  const t = (key: StringKey, params: Record<string, string | number>) => translate(language, key, params);
  const money = (cents: number, code?: string | null) => moneyText(cents, code, language);
  switch (request.operation) {
    case "deposit":
      return t("outbox.describe.deposit", { amount: money(request.amount, currency), id: request.fundId });
    case "withdraw":
      return t("outbox.describe.withdraw", { amount: money(request.amount, currency), id: request.fundId });
    case "createFund":
      return t("outbox.describe.createFund", {
        name: request.name,
        employee: request.employeeId,
        amount: money(request.amount, request.currency),
      });
    case "updateFund":
      return t("outbox.describe.updateFund", { id: request.fundId });
    case "setFundStatus":
      return t("outbox.describe.setFundStatus", {
        id: request.fundId,
        status: fundStatusLabel(language, request.status),
      });
    case "markIntegrated":
      return t("outbox.describe.markIntegrated", { id: request.reportId, code: request.code });
    case "markNotIntegrated":
      return t("outbox.describe.markNotIntegrated", { id: request.reportId });
    case "setCustomStatus":
      return t("outbox.describe.setCustomStatus", { id: request.reportId, status: request.status });
  }
}

/**
 * A request's other fields, as its columns name them ("Fund code “V-1”, Flexible Yes"): with
 * `describeRequest`, everything a confirmation shows of a write that is about to be sent.
 */
export function requestDetails(language: Language, request: WriteRequest): string {
  const label = (column: OutboxColumn) => translate(language, headerKey(column));
  const out: string[] = [];
  const text = (column: OutboxColumn, value: string | undefined) => {
    if (value !== undefined) out.push(`${label(column)} “${value}”`);
  };
  const flag = (column: OutboxColumn, value: boolean | undefined) => {
    if (value !== undefined)
      out.push(`${label(column)} ${translate(language, value ? "outbox.yes" : "outbox.no")}`);
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
  return out.join(", ");
}

/** "Fund name holds 10,000 characters": a cell too long for a row's record, for its messages. */
export function tooLongParams(
  language: Language,
  tooLong: { column: string; length: number },
): { column: string; length: string } {
  return {
    column: translate(language, headerKey(tooLong.column as OutboxColumn)),
    length: String(tooLong.length).replace(/\B(?=(\d{3})+(?!\d))/g, language === "es" ? "." : ","),
  };
}

/** What a request does and every field it sends, for the confirmation's list. */
export function describeInFull(language: Language, request: WriteRequest, currency?: string | null): string {
  const details = requestDetails(language, request);
  return details === ""
    ? describeRequest(language, request, currency)
    : `${describeRequest(language, request, currency)}: ${details}`;
}

/** "Amount was changed from “50.00” to “70.00”", one clause per changed column, joined. */
export function describeChanges(
  language: Language,
  before: Record<string, string>,
  now: Record<string, string>,
  columns: readonly string[],
): string {
  return columns
    .map((column) =>
      translate(language, "outbox.msg.changed", {
        column:
          column === "operation"
            ? translate(language, "outbox.col.operation")
            : translate(language, headerKey(column as OutboxColumn)),
        from: before[column] ?? "",
        to: now[column] ?? "",
      }),
    )
    .join("; ");
}
