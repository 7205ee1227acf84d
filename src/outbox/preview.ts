/**
 * Preview of an Outbox run: which rows would be sent, which are invalid and why (the same
 * messages as the run and the service), the totals per operation and currency in integer
 * cents, and what deserves a second look. Sends nothing. Its outcome is data; ./preview/words.ts
 * says it.
 */

import { type CompanyDirectory, FIRST_COMPANY_KEY, ONE_COMPANY } from "../company/model";
import { previewRows } from "./preview/rows";
import { currencyOf, nameOf, several, startPreview } from "./preview/state";
import type { FundFacts, MoneyItem, OutboxPreview } from "./preview/types";
import { previewUnsettled } from "./preview/unsettled";
import type { WriteRecord } from "./records";
import type { WriteRequest } from "./requests";
import type { OutboxRow, RowContext } from "./rows";

export type { FundFacts, MoneyItem, OutboxPreview, SameAs, ToSettle, Total, Warning } from "./preview/types";

/**
 * What a run would do, decided the way the run decides it (src/outbox/run.ts): the records of
 * earlier writes, not the rows' State cells, say which rows were sent already.
 */
export function previewOutbox(
  rows: readonly OutboxRow[],
  fundFacts: (fundId: number, company: string) => FundFacts | null,
  context: RowContext,
  recordList: readonly WriteRecord[] = [],
  directory: CompanyDirectory = ONE_COMPANY,
  /**
   * The IdAdmin this user's writes to each company carry, or why they may not write to it now
   * (the run leaves such rows Pending). Absent: `context`'s, for every company.
   */
  writerOf?: (company: string) => Pick<RowContext, "adminId" | "adminIssue"> | { unusable: string },
): OutboxPreview {
  const state = startPreview({ rows, fundFacts, context, recordList, directory, writerOf });
  // 1. Unsettled writes, oldest first, as the run takes them.
  previewUnsettled(state);
  // 2. The rows in order: what each would send, its totals and warnings.
  previewRows(state);
  // 3. The totals, and every write the confirmation names.
  const { preview } = state;
  preview.totals = [...state.totals.values()];
  preview.operations = operationItems(
    preview,
    (request, company) => currencyOf(state, request, company),
    several(state) ? (company) => nameOf(state, company) : null,
  );
  preview.money = preview.operations.filter((item) => "amount" in item.request);
  return preview;
}

/** Every write in the preview that may be sent, rows in order. */
function operationItems(
  preview: OutboxPreview,
  currencyOf: (request: WriteRequest, company: string) => string | null,
  nameOf: ((company: string) => string) | null,
): MoneyItem[] {
  const items: MoneyItem[] = [];
  const named = (company = FIRST_COMPANY_KEY) => (nameOf ? { company: nameOf(company) } : {});
  for (const settle of preview.toSettle) {
    // A write whose row is gone is settled but never sent again.
    if (settle.rowNumber === null) continue;
    items.push({
      ...named(settle.company),
      rowNumber: settle.rowNumber,
      request: settle.request,
      currency: currencyOf(settle.request, settle.company ?? FIRST_COMPANY_KEY),
      interrupted: settle,
    });
  }
  for (const item of preview.toSend) {
    const listed: MoneyItem = {
      ...named(item.company),
      rowNumber: item.rowNumber,
      request: item.request,
      currency: currencyOf(item.request, item.company ?? FIRST_COMPANY_KEY),
    };
    if (item.sameAs) listed.sameAs = item.sameAs;
    items.push(listed);
  }
  return items.sort((a, b) => a.rowNumber - b.rowNumber);
}

/**
 * Writes a dialog lists one by one, at most. Beyond it, the full list goes to the Outbox preview
 * sheet (`outbox.previewSheet.name`) and the dialog says how many and points there: a
 * confirmation always shows every operation, amount and target a person is about to send.
 */
export const DIALOG_LIST_LIMIT = 100;

/** Whether the confirmation's list of writes is on the Outbox preview sheet, not in the dialog. */
export function listedOnSheet(preview: OutboxPreview): boolean {
  return preview.operations.length > DIALOG_LIST_LIMIT;
}
