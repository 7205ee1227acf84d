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
