/**
 * What a confirmation confirms: each row's request cells, its company and how it was shown.
 * A run sends a row only as the person confirming saw it, each confirmation at most once.
 */

import { FIRST_COMPANY_KEY } from "../../company/model";
import { type OutboxRow, requestCells } from "../rows";

/**
 * The currency a confirmation names for a movement whose fund it did not find (shown as "fund
 * not found"): no fund has it, so such a row is sent only after a confirmation that found it.
 */
export const FUND_NOT_FOUND = "?";

/**
 * A row's request cells and the company they go to, as the confirmation showed them (the first
 * company's as they always were).
 */
export function confirmationKey(
  row: Pick<OutboxRow, "cells" | "operation">,
  company = FIRST_COMPANY_KEY,
): string {
  return company === FIRST_COMPANY_KEY
    ? JSON.stringify(requestCells(row))
    : JSON.stringify([company, requestCells(row)]);
}

/**
 * What a confirmation confirms of a row: its request cells and how it was shown (a new
 * operation, the same as a done write, or an interrupted write sent again), so a row is sent
 * only as what the person confirming saw, and each interrupted write's confirmation is its own.
 */
export function confirmedAs(
  row: OutboxRow,
  as: "new" | { sameAs: string } | { interrupted: string } | { byHand: string; state: "Done" | "Refused" },
  company = FIRST_COMPANY_KEY,
): string {
  const how =
    as === "new"
      ? "new"
      : "sameAs" in as
        ? `same:${as.sameAs}`
        : "byHand" in as
          ? `byHand:${as.state}:${as.byHand}`
          : `interrupted:${as.interrupted}`;
  return company === FIRST_COMPANY_KEY
    ? JSON.stringify([how, requestCells(row)])
    : JSON.stringify([how, requestCells(row), company]);
}

/** How a row was shown to the person confirming (`confirmedAs`). */
export type ShownAs = Parameters<typeof confirmedAs>[1];

/**
 * What the user confirmed, each confirmation counted (a row shown twice may be sent twice);
 * null when there is no confirmation to hold to (every row may be sent).
 */
export type Confirmations = Map<string, number> | null;

export function countConfirmations(confirmed: readonly string[] | undefined): Confirmations {
  if (confirmed === undefined) return null;
  const counts = new Map<string, number>();
  for (const key of confirmed) counts.set(key, (counts.get(key) || 0) + 1);
  return counts;
}

/** Whether the row was confirmed as shown, using that confirmation up. */
export function takeConfirmed(
  confirmations: Confirmations,
  row: OutboxRow,
  as: ShownAs = "new",
  company = FIRST_COMPANY_KEY,
): boolean {
  if (confirmations === null) return true;
  const key = confirmedAs(row, as, company);
  const left = confirmations.get(key) || 0;
  if (left === 0) return false;
  confirmations.set(key, left - 1);
  return true;
}
