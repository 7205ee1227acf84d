/**
 * The preview's first phase: the writes left unsettled, oldest first, as the run takes them.
 * Each is listed to settle; an unchanged row's write may be sent again, so the confirmation
 * names it (and a State typed by hand on it), its fund's status and its money.
 */

import { FIRST_COMPANY_KEY } from "../../company/model";
import { changedColumns, inFlightUntil, isUnsettled, recordCompany } from "../records";
import { requestCells } from "../rows";
import { confirmationKey, confirmedAs } from "../run/confirmations";
import { addTotal, confirm, currencyOf, ownerOf, type PreviewState, stamp } from "./state";
import type { ToSettle } from "./types";

export function previewUnsettled(state: PreviewState): void {
  const { preview } = state;
  const now = state.context.now.getTime();
  const unsettled = state.recordList.filter(isUnsettled).sort((a, b) => (a.sentAt ?? 0) - (b.sentAt ?? 0));
  for (const record of unsettled) {
    if (!record.request) continue;
    const company = recordCompany(record);
    const row = ownerOf(state, record.key);
    const until = inFlightUntil(record);
    const changed = row && record.cells ? changedColumns(record.cells, requestCells(row)) : [];
    const settle: ToSettle = {
      ...(company === FIRST_COMPANY_KEY ? {} : { company }),
      rowNumber: row?.rowNumber ?? null,
      request: record.request,
      waitingUntil: until > now ? stamp(state, until).slice(11, 16) : null,
      changes:
        row && record.cells && changed.length > 0
          ? { before: record.cells, now: requestCells(row), columns: changed }
          : null,
    };
    if (row && changed.length === 0 && (row.state === "Done" || row.state === "Refused")) {
      settle.byHand = row.state;
      preview.confirmed.push(confirmedAs(row, { byHand: record.key, state: row.state }, company));
    }
    preview.toSettle.push(settle);
    if (row && changed.length === 0)
      confirm(state, row, record.request, { interrupted: record.key }, company);
    // A resend of it goes only to a fund whose status is the one this confirmation names (a
    // fund not found counts as open: the currency check holds that row).
    if (row && changed.length === 0 && "amount" in record.request && "fundId" in record.request) {
      const fundId = record.request.fundId;
      const status = state.fundFacts(fundId, company)?.status ?? 1;
      preview.statuses[confirmationKey(row, company)] = status;
      if (status !== 1)
        preview.warnings.push({
          kind: status === 2 ? "closedFund" : status === 3 ? "blockedFund" : "notOpenFund",
          rowNumber: row.rowNumber,
          fundId,
          status,
        });
    }
    // Money that may move again: an unchanged row whose write turns out not to have been applied.
    if (row && changed.length === 0 && "amount" in record.request) {
      addTotal(
        state,
        record.request.operation,
        currencyOf(state, record.request, company),
        record.request.amount,
        company,
      );
    }
  }
}
