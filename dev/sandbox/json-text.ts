/** The JSON text of every answer of the sandbox. */
import { randomUUID } from "node:crypto";

/** Members that carry money: written with two decimals, as the spec types them. */
const AMOUNT_MEMBERS = new Set([
  "Deposits",
  "Withdrawals",
  "Charges",
  "Balance",
  "TransactionAmount",
  "ReportTotal",
  "ReportTotalApproved",
]);
/** Marks an amount inside the JSON text; random per process so that no client text can mimic it. */
const AMOUNT_MARK = `amount-${randomUUID()}:`;
const AMOUNT_MARKED = new RegExp(`"${AMOUNT_MARK}(-?\\d+\\.\\d{2})"`, "g");

/**
 * JSON text whose amounts read `1234.50` rather than `1234.5`: still JSON numbers, with the two
 * decimals the spec gives them. Amounts are already whole cents, so toFixed(2) only adds zeros.
 */
export function jsonText(body: unknown): string {
  const text = JSON.stringify(body, (key, value) =>
    AMOUNT_MEMBERS.has(key) && typeof value === "number" && Number.isFinite(value)
      ? `${AMOUNT_MARK}${value.toFixed(2)}`
      : value,
  );
  return text.replace(AMOUNT_MARKED, "$1");
}
