/**
 * The data sheets the Summary tests read (test/fixtures/summary/sheets.json): the Funds, Fund
 * transactions and Expense reports columns, the day they were read and the refresh's window.
 */
import { readFileSync } from "node:fs";
import type { ColumnsByKey } from "../../src/summary/records";

export interface SummarySheets {
  today: string;
  window: { since: string; until: string };
  funds: ColumnsByKey;
  transactions: ColumnsByKey;
  reports: ColumnsByKey;
}

export function summarySheets(): SummarySheets {
  return JSON.parse(
    readFileSync(new URL("../fixtures/summary/sheets.json", import.meta.url), "utf8"),
  ) as SummarySheets;
}

/** A date as the sheets write it (YYYY-MM-DD, UTC). */
export const day = (d: Date) => d.toISOString().slice(0, 10);
