/**
 * The preview's second phase: the rows in order, decided as the run decides them
 * (`../run/in-order.ts`): a done row stays done (flagged if edited), an unsettled one was listed
 * in the first phase, a row no record explains is flagged, and a new operation is checked,
 * listed for the confirmation and added to the totals, with what its fund says of it.
 */

import { FIRST_COMPANY_KEY } from "../../company/model";
import { companyOfRow } from "../companies";
import { MONEY_OPERATIONS } from "../operations";
import { cellTooLongToRecord, changedColumns, type WriteRecord } from "../records";
import type { WriteRequest } from "../requests";
import { type OutboxRow, requestCells, requestFromRow, typedCurrencyDiffers } from "../rows";
import { confirmationKey, FUND_NOT_FOUND } from "../run/confirmations";
import { changesSince, likenessOf, mismatchOf } from "../run/ownership";
import { addTotal, confirm, nameOf, ownerOf, type PreviewState, stamp } from "./state";
import type { SameAs } from "./types";

export function previewRows(state: PreviewState): void {
  for (const row of state.rows) {
    if (row.isEmpty) continue;
    previewRow(state, row);
  }
}

function previewRow(state: PreviewState, row: OutboxRow): void {
  const record = state.ownedBy.get(row) ?? state.records.get(row.operationKey);
  const owned = record !== undefined && ownerOf(state, record.key) === row;
  if (owned && record.state === "done") {
    doneRow(state, row, record);
    return;
  }
  if (owned && record.state === "refused") {
    const unchanged =
      record.cells !== undefined && changedColumns(record.cells, requestCells(row)).length === 0;
    // A Done on a refused write's row stands for no write: flagged, as the run refuses it.
    if (row.state === "Done") {
      state.preview.warnings.push({ kind: "doneNoKey", rowNumber: row.rowNumber });
      return;
    }
    if (unchanged && row.state !== "Pending") return;
  } else if (owned) {
    return; // Unsettled: listed in the first phase.
  } else if (record?.state === "refused" && record.cells && row.state === "Done") {
    // A copy of a refused write's key showing Done: flagged, as the run refuses it.
    state.preview.warnings.push({ kind: "doneNoKey", rowNumber: row.rowNumber });
    return;
  } else if (flaggedUnowned(state, row, record)) {
    return;
  }
  previewNew(state, row);
}

/** A row that owns a done write: flagged if edited since, its State cleared, or its key lost. */
function doneRow(state: PreviewState, row: OutboxRow, record: WriteRecord): void {
  const { warnings } = state.preview;
  const doneAt = stamp(state, record.finishedAt ?? 0).slice(0, 16);
  // The Company cell counts: a Done row naming another company than its write went to was edited.
  const { before, now, changed } = record.cells
    ? changesSince(record, row, state.companyKey, (key) => nameOf(state, key))
    : { before: {}, now: {}, changed: [] };
  if (changed.length > 0) {
    warnings.push({
      kind: "editedDone",
      rowNumber: row.rowNumber,
      doneAt,
      changes: { before, now, columns: changed },
    });
  } else if (row.state !== "Done") {
    warnings.push({ kind: "restoreDone", rowNumber: row.rowNumber, doneAt });
  } else if (row.operationKey !== record.key) {
    warnings.push({ kind: "keyRestored", rowNumber: row.rowNumber, doneAt });
  }
}

/**
 * A row that owns no record: flagged (and true) when its key names another write whose cells it
 * does not show, or when it shows Sending, Unknown or Done with no record behind it and is no
 * copy of a recorded write; true too when it is left as it is (no State, Done, Refused).
 */
function flaggedUnowned(state: PreviewState, row: OutboxRow, record: WriteRecord | undefined): boolean {
  const mismatch = mismatchOf(row, state.owners, state.records, state.companyKey);
  if (mismatch) {
    const sent = mismatch.request ?? mismatch.cells?.operation ?? "";
    state.preview.warnings.push({ kind: "sortedOrEdited", rowNumber: row.rowNumber, sent });
    return true;
  }
  // A form's record carries no cells: its key on a row names nothing of the row's.
  const key = record !== undefined && !record.cells ? "" : row.operationKey;
  if (!((record === undefined && !state.owners.has(key)) || key === "")) return false;
  // Done with no key was never written by the add-on (every Done it writes carries one): most
  // often a done row's visible cells pasted on a new line. Flagged, never taken as done nor sent.
  const doneWithoutKey = row.state === "Done" && key === "";
  if (row.state === null || (row.state === "Done" && !doneWithoutKey) || row.state === "Refused") return true;
  // Its visible cells copied from a row with a record (no key): taken as a copy of the
  // whole row would be, the same as that write.
  const built = key === "" ? requestFromRow(row, state.context) : null;
  const copied =
    built !== null && likenessOf(row, built.ok ? built.request : null, state.recordList).kind !== "new";
  if ((row.state === "Sending" || row.state === "Unknown" || doneWithoutKey || key !== "") && !copied) {
    state.preview.warnings.push({
      kind: doneWithoutKey ? "doneNoKey" : "noRecord",
      rowNumber: row.rowNumber,
    });
    return true;
  }
  return false;
}

/**
 * A new operation (pending, an edited refused row, or a copy of another row's key), to the
 * company its Company cell names; a row naming none that is live is refused, as the run does.
 */
function previewNew(state: PreviewState, row: OutboxRow): void {
  const { preview } = state;
  const resolved = companyOfRow(row, state.directory);
  if (!resolved.ok) {
    preview.invalid.push({
      rowNumber: row.rowNumber,
      problems: [{ field: "company", refused: resolved.refused }],
    });
    return;
  }
  const company = resolved.key;
  const writer = state.writerOf?.(company);
  if (writer && "unusable" in writer) {
    preview.warnings.push({ kind: "companyUnusable", rowNumber: row.rowNumber, message: writer.unusable });
    return;
  }
  const built = requestFromRow(row, writer ? { ...state.context, ...writer } : state.context);
  // A row too long for its record is refused by the run before anything is stored or sent.
  const tooLong = cellTooLongToRecord(requestCells(row), built.ok ? built.request : undefined);
  if (tooLong) {
    preview.invalid.push({
      rowNumber: row.rowNumber,
      problems: [{ field: tooLong.column, tooLong: tooLong.length }],
    });
    return;
  }
  const likeness = likenessOf(row, built.ok ? built.request : null, state.recordList, company);
  // The row itself when it is the write's own row (settled by hand as Refused, sent again).
  const otherOwner = likeness.kind === "new" ? null : ownerOf(state, likeness.record.key);
  const otherRow = otherOwner === null || otherOwner === row ? null : otherOwner.rowNumber;
  if (likeness.kind === "waits") {
    preview.warnings.push({ kind: "waitsForSame", rowNumber: row.rowNumber, otherRow });
    return;
  }
  const sameAs: SameAs | undefined =
    likeness.kind === "sameAsDone"
      ? {
          otherRow,
          doneAt: stamp(state, likeness.record.finishedAt ?? likeness.record.sentAt ?? 0).slice(0, 16),
          ...(likeness.record.state === "refused" ? { byHand: true } : {}),
        }
      : undefined;
  if (sameAs) preview.warnings.push({ kind: "sameAsDone", rowNumber: row.rowNumber, ...sameAs });
  if (!built.ok) {
    preview.invalid.push({ rowNumber: row.rowNumber, problems: built.problems });
    return;
  }
  const request = built.request;
  const inCompany = company === FIRST_COMPANY_KEY ? {} : { company };
  preview.toSend.push(
    sameAs
      ? { rowNumber: row.rowNumber, request, sameAs, ...inCompany }
      : { rowNumber: row.rowNumber, request, ...inCompany },
  );
  confirm(
    state,
    row,
    request,
    likeness.kind === "sameAsDone" ? { sameAs: likeness.record.key } : "new",
    company,
  );

  const key = targetKey(request, company);
  const earlier = state.seen.get(key);
  if (earlier !== undefined)
    preview.warnings.push({ kind: "duplicate", rowNumber: row.rowNumber, otherRow: earlier });
  else state.seen.set(key, row.rowNumber);
  onItsFund(state, row, request, company);
}

/**
 * What a new operation adds to the totals, and what its fund (as the Funds sheet or a fresh
 * read shows it, changed by the batch's earlier rows) says of it: unknown, not open, a
 * withdrawal above the balance of a fund that is not flexible.
 */
function onItsFund(state: PreviewState, row: OutboxRow, request: WriteRequest, company: string): void {
  const { preview } = state;
  if (request.operation === "createFund") {
    addTotal(state, "createFund", request.currency, request.amount, company);
    return;
  }
  const fundId = "fundId" in request ? request.fundId : null;
  if (fundId === null) {
    addTotal(state, request.operation, null, 0, company);
    return;
  }
  const facts = state.fundFacts(fundId, company);
  if (!facts) {
    preview.warnings.push({ kind: "unknownFund", rowNumber: row.rowNumber, fundId });
    addTotal(
      state,
      request.operation,
      MONEY_OPERATIONS.has(request.operation) ? FUND_NOT_FOUND : null,
      "amount" in request ? request.amount : 0,
      company,
    );
    return;
  }
  const fund = `${company}|${fundId}`;
  const status = state.statuses.get(fund) ?? facts.status;
  if (MONEY_OPERATIONS.has(request.operation)) preview.statuses[confirmationKey(row, company)] = status;
  if (status !== 1 && request.operation !== "setFundStatus") {
    preview.warnings.push({
      kind: status === 2 ? "closedFund" : status === 3 ? "blockedFund" : "notOpenFund",
      rowNumber: row.rowNumber,
      fundId,
      status,
    });
  }
  const typed = typedCurrencyDiffers(row, facts.currency);
  if (typed) {
    preview.invalid.push({
      rowNumber: row.rowNumber,
      problems: [{ field: "currency", typed, fundId, currency: facts.currency }],
    });
    return;
  }
  const balance = state.balances.get(fund) ?? facts.balance;
  if (request.operation === "deposit") {
    state.balances.set(fund, balance + request.amount);
    addTotal(state, "deposit", facts.currency, request.amount, company);
  } else if (request.operation === "withdraw") {
    if (!facts.flexible && request.amount > balance) {
      preview.warnings.push({
        kind: "overBalance",
        rowNumber: row.rowNumber,
        fundId,
        amount: request.amount,
        balance,
        currency: facts.currency,
      });
    }
    state.balances.set(fund, balance - request.amount);
    addTotal(state, "withdraw", facts.currency, request.amount, company);
  } else {
    if (request.operation === "setFundStatus") state.statuses.set(fund, request.status);
    addTotal(state, request.operation, null, 0, company);
  }
}

/** What a request acts on, within its company: two rows on one target are warned of. */
function targetKey(request: WriteRequest, company: string): string {
  return `${company}|${targetOf(request)}`;
}

function targetOf(request: WriteRequest): string {
  switch (request.operation) {
    case "createFund":
      return `createFund:${request.employeeId}:${request.name}:${request.code ?? ""}`;
    case "markIntegrated":
    case "markNotIntegrated":
      // Marking and unmarking the same report in one batch is the same target twice.
      return `integration:${request.reportId}`;
    case "setCustomStatus":
      return `customStatus:${request.reportId}`;
    default:
      return `${request.operation}:${request.fundId}`;
  }
}
