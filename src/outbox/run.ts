/**
 * A run of the Outbox. First every write left unsettled by an earlier run or a form (its
 * record says "sending" or "unknown") is settled by reading the service, once the window in
 * which its request could still land has passed; while one is unsettled, no row on its fund is
 * sent, above or below it. Then rows are taken in order: each new operation is sent once, with
 * its record written (and its row marked Sending and flushed) before the call.
 *
 * What a row sends is always what its cells show now; the add-on's record (outside the sheet)
 * only says what was sent before, so a cell can neither change what is sent nor forge what an
 * interrupted write was. Only the add-on's block of a row is written, found again by operation
 * key just before writing, so edits and inserted rows during a run are kept.
 */

import { tolerate } from "../api/errors";
import { moneyText } from "../api/money";
import { plainWriteRefusal } from "../api/plain";
import { type Language, type StringKey, translate } from "../i18n";
import { cellText, DATE_TIME, type DateFormatter } from "./cells";
import type { CellValue, OwnedCells } from "./columns";
import { type CompanyDirectory, FIRST_COMPANY, ONE_COMPANY, resolveRowCompany } from "./companies";
import { describeChanges, describeRequest, tooLongParams } from "./describe";
import { fundStatusLabel, type OutboxState, stateLabel } from "./operations";
import {
  blocks,
  cellTooLongToRecord,
  changedColumns,
  finishedRecord,
  inFlightUntil,
  isUnsettled,
  MAX_FINISHED_RECORDS,
  type RecordStore,
  recordCompany,
  recordSnapshot,
  recordsToPrune,
  sendingRecord,
  type WriteRecord,
} from "./records";
import type { WriteRequest } from "./requests";
import {
  fieldLabel,
  type OutboxRow,
  problemsText,
  readOutboxRow,
  requestCells,
  requestFromRow,
} from "./rows";
import {
  type AuditPort,
  isWriteFailure,
  type ServicePort,
  sendWrite,
  settleInterruptedWrite,
  type Verdict,
  type WriteContext,
  type WriteEnd,
  type WriteResult,
} from "./write";

/** The Outbox sheet as a run needs it. Row numbers are 1-based; row 1 holds the headers. */
export interface OutboxSheetPort {
  lastRow(): number;
  readRow(rowNumber: number): CellValue[];
  /** Every row from row 2 on (one read). */
  readAll(): CellValue[][];
  /** The operation key of every row from row 2 on, to find a row that moved. */
  readOperationKeys(): string[];
  writeOwned(rowNumber: number, cells: OwnedCells): void;
  /** Makes what was written visible to others before a call is made. */
  flush(): void;
}

/** One company as a run writes to it: its service (this user's token for it), audit and IdAdmin. */
export interface CompanyPort {
  service: ServicePort;
  audit: AuditPort;
  /** The IdAdmin this user's writes to the company carry; null when none is saved. */
  adminId: number | null;
  adminIssue?: string | null;
}

/** A company this user may not write to now (no usable token): why, in their words. */
export interface UnusableCompanyPort {
  unusable: string;
}

export interface RunContext extends WriteContext {
  /**
   * The document's companies: each row's Company cell is resolved against them. Absent: the
   * first company alone, unnamed (every row is its).
   */
  directory?: CompanyDirectory;
  /**
   * The port of each company by key, or why this user may not write to it. Absent: `service`,
   * `audit` and `adminId` are the first company's, and no other company is reachable.
   */
  companies?: (key: string) => CompanyPort | UnusableCompanyPort;
  sheet: OutboxSheetPort;
  /** The add-on's own record of each write, outside the sheet. */
  records: RecordStore;
  language: Language;
  format: DateFormatter;
  newKey: () => string;
  /** The administrator id used for writes (settings); null when none is set. */
  adminId: number | null;
  /** Why `adminId` may not go with this user's writes (CheckOptions.adminIssue). */
  adminIssue?: string | null;
  /** Stop between rows once this many milliseconds have passed since the run started. */
  budgetMs: number;
  /**
   * When the execution started (ms), if before the run itself: the time limit counts the whole
   * execution, including the preview's reads and the confirmation. Defaults to the run's start.
   */
  startedAt?: number;
  /** Brings the Funds or Expense reports sheet in line with a write's response to `company`. */
  applyResult?: (result: WriteResult, company: string) => void;
  /**
   * The rows the user confirmed (the preview's `confirmed`): a row is sent only if its request
   * cells are among them, each once. A row added or edited while the question was open (by
   * anyone) is left Pending for the next preview. Absent: no confirmation to hold to.
   */
  confirmed?: readonly string[];
  /**
   * The currency the confirmation named for each deposit or withdrawal (the preview's
   * `currencies`): a fund read just before sending in another currency sends nothing.
   */
  currencies?: Readonly<Record<string, string>>;
  /**
   * The fund status the confirmation knew for each deposit or withdrawal (the preview's
   * `statuses`): a fund read just before sending closed or blocked when it did not show so
   * sends nothing.
   */
  statuses?: Readonly<Record<string, number>>;
}

export interface RowOutcome {
  rowNumber: number;
  state: OutboxState;
  message: string;
}

export interface RunSummary {
  done: number;
  refused: number;
  unknown: number;
  /** Rows left for a later run (waiting on another row, or not reached before the time limit). */
  skipped: number;
  stoppedForTime: boolean;
  /**
   * Done writes whose Funds or Expense reports row could not be updated from the answer (a
   * protected range, say): the write and its row stand; the next refresh updates the sheet.
   */
  sheetsNotUpdated: number;
  rows: RowOutcome[];
}

/**
 * Milliseconds a run may use before it stops between rows, out of an execution limit of
 * `limitMs` (Google's 6 minutes, or less when the document asks for less): two thirds, so that
 * one more row (a snapshot read and a write, each up to a minute when the service is slow) and
 * the closing writes still fit. 6 minutes give 4.
 */
export function outboxBudgetMs(limitMs: number): number {
  return Math.floor((limitMs * 2) / 3);
}

type Counted = "done" | "refused" | "unknown" | "skipped";

/** A row as read at the start of the run, and where it is now. */
interface Item {
  row: OutboxRow;
  /** Its request cells and key when the run started: how it is recognised if rows move. */
  identity: string;
  handled: boolean;
}

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
  company = FIRST_COMPANY,
): string {
  return company === FIRST_COMPANY
    ? JSON.stringify(requestCells(row))
    : JSON.stringify([company, requestCells(row)]);
}

function identityOf(row: OutboxRow): string {
  return JSON.stringify([row.operationKey, requestCells(row)]);
}

/**
 * Which row owns each recorded key. A row owns a record only when it carries the record's key
 * and its request cells equal the cells the record was sent from; the first such row owns it,
 * any other row with that key is a copy, and a copy is a new operation. A form's record carries
 * no cells and is owned by no row: a key copied from the Audit sheet onto a row makes nothing
 * of the form's write the row's.
 *
 * Then a row still showing the Done, Sending or Unknown the add-on wrote but whose key cell is
 * empty (cleared, or the visible columns sorted without the hidden ones) is its write's row:
 * the record no other row owns with the same cells, nearest the row it was written to. Last, a
 * record left without a row goes to the first row carrying its key that owns nothing (a row
 * edited after it was sent, or sorted): that row is settled for what was sent and sends nothing
 * for what it shows. Any other row carrying the key of a write whose cells it does not show
 * sends nothing either (`mismatchOf`).
 */
export function ownersOfKeys(
  rows: readonly OutboxRow[],
  records: ReadonlyMap<string, WriteRecord>,
): Map<string, OutboxRow> {
  const owners = new Map<string, OutboxRow>();
  const owning = new Set<OutboxRow>();
  const own = (key: string, row: OutboxRow) => {
    owners.set(key, row);
    owning.add(row);
  };
  for (const row of rows) {
    const record = records.get(row.operationKey);
    if (!record?.cells || row.isEmpty || owners.has(record.key)) continue;
    if (sameCells(record.cells, requestCells(row))) own(record.key, row);
  }
  const keyless = rows
    .filter((r) => r.operationKey === "" && !r.isEmpty && /^(Done|Sending|Unknown)$/.test(`${r.state}`))
    .map((row) => ({ row, cells: requestCells(row) }));
  for (const record of keyless.length > 0 ? records.values() : []) {
    if (owners.has(record.key) || !record.cells || record.state === "refused") continue;
    const off = (r: OutboxRow) => Math.abs(r.rowNumber - (record.row ?? r.rowNumber));
    let found: OutboxRow | undefined;
    for (const { row, cells } of keyless)
      if (sameCells(record.cells, cells) && (!found || off(row) < off(found))) found = row;
    if (found) {
      own(record.key, found);
      keyless.splice(
        keyless.findIndex((k) => k.row === found),
        1,
      );
    }
  }
  for (const row of rows) {
    const record = records.get(row.operationKey);
    if (!record?.cells || row.isEmpty || owners.has(record.key) || owning.has(row)) continue;
    own(record.key, row);
  }
  return owners;
}

/**
 * A row carrying the key of a done or unsettled write whose cells it does not show, and that
 * is not that write's row: the sheet was sorted without its hidden columns, or a row was copied
 * with its key and edited. Nothing is sent for it (its cells may be a done operation's, moved).
 */
export function mismatchOf(
  row: OutboxRow,
  owners: ReadonlyMap<string, OutboxRow>,
  records: ReadonlyMap<string, WriteRecord>,
): WriteRecord | null {
  const record = records.get(row.operationKey);
  if (!record?.cells || record.state === "refused" || owners.get(record.key) === row) return null;
  return sameCells(record.cells, requestCells(row)) ? null : record;
}

/** How a row that owns no record stands to the add-on's records of earlier writes. */
export type Likeness =
  | { kind: "new" }
  /** The same request as a write not settled yet: it waits until that one is settled. */
  | { kind: "waits"; record: WriteRecord }
  /** The same request as a done write, however old: sent only when confirmed as such. */
  | { kind: "sameAsDone"; record: WriteRecord };

function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
}

/** Cells as one text, an empty cell the same as a missing one (as `changedColumns` compares them). */
function cellsText(cells: Record<string, string>): string {
  return canonical(Object.fromEntries(Object.entries(cells).filter(([, v]) => v !== "")));
}

/** Each record's cells or request as text, worked out once (a batch compares every row with them). */
const recordTexts = new WeakMap<WriteRecord, string | null>();

/**
 * Whether a row's request equals a record's request as sent: an Outbox record by the cells it
 * was sent from (the request is made of them), a form's record by the request itself.
 */
function sameAs(record: WriteRecord, rowCells: string, request: string | null, company: string): boolean {
  // A write refused by the service moved nothing; one settled by hand as Refused may have.
  if (record.state === "refused" && !record.byHand) return false;
  // The same cells sent to another company are another write.
  if (recordCompany(record) !== company) return false;
  let text = recordTexts.get(record);
  if (text === undefined) {
    text = record.cells ? cellsText(record.cells) : record.request ? canonical(record.request) : null;
    recordTexts.set(record, text);
  }
  if (text === null) return false;
  return record.cells ? text === rowCells : request !== null && text === request;
}

/** The unsettled write (first) or the newest done write whose request the row's equals. */
export function likenessOf(
  row: OutboxRow,
  request: WriteRequest | null,
  records: Iterable<WriteRecord>,
  company = FIRST_COMPANY,
): Likeness {
  const rowCells = cellsText(requestCells(row));
  const requestText = request === null ? null : canonical(request);
  let done: WriteRecord | undefined;
  for (const record of records) {
    if (!sameAs(record, rowCells, requestText, company)) continue;
    if (isUnsettled(record)) return { kind: "waits", record };
    if ((record.finishedAt ?? 0) >= (done?.finishedAt ?? -1)) done = record;
  }
  return done ? { kind: "sameAsDone", record: done } : { kind: "new" };
}

/**
 * What a confirmation confirms of a row: its request cells and how it was shown (a new
 * operation, the same as a done write, or an interrupted write sent again), so a row is sent
 * only as what the person confirming saw, and each interrupted write's confirmation is its own.
 */
export function confirmedAs(
  row: OutboxRow,
  as: "new" | { sameAs: string } | { interrupted: string } | { byHand: string; state: "Done" | "Refused" },
  company = FIRST_COMPANY,
): string {
  const how =
    as === "new"
      ? "new"
      : "sameAs" in as
        ? `same:${as.sameAs}`
        : "byHand" in as
          ? `byHand:${as.state}:${as.byHand}`
          : `interrupted:${as.interrupted}`;
  return company === FIRST_COMPANY
    ? JSON.stringify([how, requestCells(row)])
    : JSON.stringify([how, requestCells(row), company]);
}

/** The record each row owns (ownersOfKeys, turned around). */
export function ownedRecords(
  owners: ReadonlyMap<string, OutboxRow>,
  records: ReadonlyMap<string, WriteRecord>,
): Map<OutboxRow, WriteRecord> {
  const out = new Map<OutboxRow, WriteRecord>();
  for (const [key, row] of owners) {
    const record = records.get(key);
    if (record) out.set(row, record);
  }
  return out;
}

function sameCells(a: Record<string, string>, b: Record<string, string>): boolean {
  return changedColumns(a, b).length === 0;
}

/** Runs the Outbox. The caller holds the document lock and asked for confirmation before taking it. */
export function runOutbox(context: RunContext): RunSummary {
  const started = context.startedAt ?? context.now().getTime();
  const summary: RunSummary = {
    done: 0,
    refused: 0,
    unknown: 0,
    skipped: 0,
    stoppedForTime: false,
    sheetsNotUpdated: 0,
    rows: [],
  };
  const t = (key: StringKey, params: Record<string, string | number> = {}) =>
    translate(context.language, key, params);
  // A refusal before sending names the row's column, not the service's field.
  const writing = { ...context, fieldName: (field: string) => fieldLabel(context.language, field) };
  // Each company's port, asked for once: a row is sent through its company's port or not at all.
  const directory = context.directory ?? ONE_COMPANY;
  const ports = new Map<string, CompanyPort | UnusableCompanyPort>();
  const portOf = (company: string): CompanyPort | UnusableCompanyPort => {
    let port = ports.get(company);
    if (port) return port;
    if (context.companies) port = context.companies(company);
    else if (company === FIRST_COMPANY)
      port = {
        service: context.service,
        audit: context.audit,
        adminId: context.adminId,
        adminIssue: context.adminIssue ?? null,
      };
    else port = { unusable: t("outbox.company.noConnection", { company }) };
    ports.set(company, port);
    return port;
  };
  const writingTo = (port: CompanyPort) => ({ ...writing, service: port.service, audit: port.audit });
  const companyName = (key: string) => directory.entries.find((e) => e.key === key)?.name || key;
  const companyOf = (row: OutboxRow) => resolveRowCompany(row, directory, context.language);
  const nowMs = () => context.now().getTime();
  const clock = (ms: number) => context.format(new Date(ms), DATE_TIME).slice(11, 16);
  const day = (ms: number) => context.format(new Date(ms), DATE_TIME).slice(0, 16);

  const records = new Map(context.records.all().map((r) => [r.key, r]));
  // The writes the confirmation knew of; a row is compared with them as they are now settled.
  const atStart = new Map(records);
  const earlier = () => [...records.values()].filter((r) => atStart.has(r.key));
  const putRecord = (record: WriteRecord) => {
    // Pruned as the run goes too: a batch of thousands of rows would fill the document's
    // properties before the run's end, and every later write would fail on the full store.
    if (records.size > MAX_FINISHED_RECORDS + 100) closeRun();
    records.set(record.key, record);
    context.records.put(record);
  };
  const dropRecord = (key: string) => {
    records.delete(key);
    context.records.remove(key);
  };
  // A write's record goes when it is settled and sent again under a new key, or found not
  // applied. Other rows may still carry its key: rows marked in step 0 (the key without the
  // cells) and copies of its row. Left so, a Done later sorted onto one of them would pass for an
  // old Done whose record was pruned; they take the key of the write that replaced it, or none,
  // before the record goes. The write's own row is its caller's to write.
  const retireKey = (key: string, successor = "") => {
    const own = owners.get(key);
    for (const item of items) {
      if (item.row === own || item.row.operationKey !== key) continue;
      const row = current(item);
      if (row?.state == null) continue;
      write(row, row.state, row.result, successor);
      item.identity = identityOf(row);
    }
    dropRecord(key);
  };

  // What the user confirmed, each once.
  const confirmed = new Map<string, number>();
  for (const key of context.confirmed || []) confirmed.set(key, (confirmed.get(key) || 0) + 1);
  const takeConfirmed = (
    row: OutboxRow,
    as: Parameters<typeof confirmedAs>[1] = "new",
    company = FIRST_COMPANY,
  ): boolean => {
    if (context.confirmed === undefined) return true;
    const key = confirmedAs(row, as, company);
    const left = confirmed.get(key) || 0;
    if (left === 0) return false;
    confirmed.set(key, left - 1);
    return true;
  };

  // Funds on which nothing may be sent in this run, and the message rows on them get.
  // Reports too: a report's later write must not be undone by an earlier one landing after it.
  const held = new Map<string, string>();
  // Per company: equal ids of two companies are two funds.
  const heldKey = (request: WriteRequest | undefined, company: string): string | undefined => {
    if (request === undefined) return undefined;
    if ("fundId" in request) return `${company}|fund:${request.fundId}`;
    return "reportId" in request ? `${company}|report:${request.reportId}` : undefined;
  };
  const holdIn = (request: WriteRequest | undefined, company: string, message: string) => {
    const key = heldKey(request, company);
    if (key !== undefined && !held.has(key)) held.set(key, message);
  };
  const heldFor = (request: WriteRequest | undefined, company: string): string | undefined => {
    const key = heldKey(request, company);
    return key === undefined ? undefined : held.get(key);
  };
  const waitForRow = (request: WriteRequest | undefined, rowNumber: number) =>
    t(request && "reportId" in request ? "outbox.msg.waitingForRowReport" : "outbox.msg.waitingForRow", {
      row: rowNumber,
    });

  const items: Item[] = context.sheet
    .readAll()
    .map((values, i) => readOutboxRow(values, i + 2))
    .map((row) => ({ row, identity: identityOf(row), handled: false }));
  const owners = ownersOfKeys(
    items.map((i) => i.row),
    records,
  );
  const ownedBy = ownedRecords(owners, records);
  const itemOfRow = new Map(items.map((item) => [item.row, item]));
  const owner = (rec: WriteRecord): Item | undefined => {
    const row = owners.get(rec.key);
    return row ? itemOfRow.get(row) : undefined;
  };
  // Rows whose interrupted idempotent write was superseded by an edit: sent as they are now.
  const requeued = new Set<Item>();

  const record = (rowNumber: number, state: OutboxState, message: string, counted: Counted | null) => {
    summary.rows.push({ rowNumber, state, message });
    if (counted) summary[counted] += 1;
  };

  /** The item's row as it is now, read again; null when it changed or moved out of reach. */
  let positionsStale = false;
  const current = (item: Item): OutboxRow | null => {
    const fresh = readOutboxRow(context.sheet.readRow(item.row.rowNumber), item.row.rowNumber);
    if (identityOf(fresh) === item.identity) return fresh;
    if (!positionsStale) {
      // Rows were inserted or deleted during the run: find every row again, in order.
      positionsStale = true;
      const now = context.sheet.readAll().map((values, i) => readOutboxRow(values, i + 2));
      let from = 0;
      for (const it of items) {
        const index = now.findIndex((r, i) => i >= from && identityOf(r) === it.identity);
        if (index >= 0) {
          it.row.rowNumber = index + 2;
          from = index + 1;
        }
      }
      positionsStale = false;
      const again = readOutboxRow(context.sheet.readRow(item.row.rowNumber), item.row.rowNumber);
      if (identityOf(again) === item.identity) return again;
    }
    return null;
  };

  const write = (row: OutboxRow, state: OutboxState, message: string, key: string, sent = "") => {
    const rowNumber = locate(context.sheet, row, key);
    if (rowNumber === null) return; // The row was deleted during the run; the audit keeps the story.
    context.sheet.writeOwned(rowNumber, {
      state: stateLabel(context.language, state),
      result: message,
      time: context.now(),
      operationKey: key,
      snapshot: sent,
    });
    row.rowNumber = rowNumber;
    row.operationKey = key;
  };

  // Each fund's currency as last read: amounts are written in its code and decimals.
  // By company and fund: equal ids of two companies may be funds of two currencies.
  const currencies = new Map<string, string>();
  const sentTextIn = (request: WriteRequest, company: string) =>
    describeRequest(
      context.language,
      request,
      "fundId" in request ? currencies.get(`${company}|${request.fundId}`) : undefined,
    );

  const finish = (rec: WriteRecord, state: "done" | "refused") =>
    putRecord(finishedRecord(rec, state, nowMs()));

  const landingMessage = (rec: WriteRecord) =>
    rec.source === "form"
      ? rec.request && "reportId" in rec.request
        ? t("outbox.msg.heldByReportSidebar", { id: rec.request.reportId })
        : t("outbox.msg.heldBySidebar", { id: rec.fundId ?? "" })
      : t("outbox.msg.heldByLanding", { id: rec.fundId ?? "", until: clock(inFlightUntil(rec)) });

  /** Sends a row's request once: record first, then the row's Sending (flushed), then the call. */
  const send = (
    row: OutboxRow,
    request: WriteRequest,
    key: string,
    company: string,
    port: CompanyPort,
    supersedes?: string,
  ): void => {
    const cells = requestCells(row);
    const sentText = (request: WriteRequest) => sentTextIn(request, company);
    let written: WriteRecord | null = null;
    let blockedBy: WriteRecord | undefined;
    let end: WriteEnd;
    try {
      end = sendWrite(writingTo(port), request, key, (snapshot) => {
        // A sidebar's write made since the run read the records (a report mark takes no lock):
        // read them again just before sending, and wait for one that may still land.
        blockedBy = context.records.all().find((r) => !records.has(r.key) && blocks(r, request, company));
        if (blockedBy) throw new Error(landingMessage(blockedBy));
        const shown = context.currencies?.[confirmationKey(row, company)];
        const fund = snapshot.fund;
        if (fund?.currency) currencies.set(`${company}|${fund.id}`, fund.currency);
        if (shown && fund && fund.currency !== undefined && shown !== fund.currency) {
          // Nothing recorded, nothing sent: the row stays Pending and its fund waits.
          const params = { id: fund.id, currency: fund.currency, shown };
          throw new Error(
            t(shown === FUND_NOT_FOUND ? "outbox.msg.fundWasNotFound" : "outbox.msg.currencyDiffers", params),
          );
        }
        const status = context.statuses?.[confirmationKey(row, company)];
        if (
          fund &&
          status !== undefined &&
          fund.status !== undefined &&
          fund.status !== 1 &&
          fund.status !== status
        )
          throw new Error(
            t("outbox.msg.statusDiffers", {
              id: fund.id,
              status: fundStatusLabel(context.language, fund.status),
            }),
          );
        written = sendingRecord(
          snapshot,
          request,
          "outbox",
          nowMs(),
          { number: row.rowNumber, cells },
          context.inFlightWindowMs,
          company,
        );
        putRecord(written);
        write(row, "Sending", t("outbox.msg.sending"), key, sentText(request));
        // The settled attempt's record goes only once the row carries the new key: an execution
        // stopped in between leaves the row recognisable, never a row whose key has no record.
        if (supersedes !== undefined) retireKey(supersedes, key);
        context.sheet.flush();
      });
    } catch (error) {
      if (isWriteFailure(error) && error.outcome === "refused") {
        // The service answered that the fund cannot be read (unknown id, no permission), or the
        // write would leave the fund unreadable: nothing was sent.
        const message = t("outbox.msg.refused", {
          message: plainWriteRefusal(error.message, context.language),
        });
        putRecord({
          key,
          state: "refused",
          source: "outbox",
          operation: request.operation,
          cells,
          row: row.rowNumber,
          finishedAt: nowMs(),
        });
        write(row, "Refused", message, key);
        record(row.rowNumber, "Refused", message, "refused");
        return;
      }
      if (written) throw error; // Not a failure of the read before sending: let it surface.
      if (blockedBy) {
        // Nothing recorded, nothing sent: the row stays Pending and its fund or report waits.
        const message = landingMessage(blockedBy);
        write(row, "Pending", message, row.operationKey);
        holdIn(request, company, message);
        record(row.rowNumber, "Pending", message, "skipped");
        return;
      }
      // The snapshot could not be read: nothing was sent, the row stays Pending.
      const message = t("outbox.msg.checkFailed", { message: errorText(error) });
      write(row, "Pending", message, row.operationKey);
      holdIn(request, company, waitForRow(request, row.rowNumber));
      record(row.rowNumber, "Pending", message, "skipped");
      return;
    }
    const sending = written as WriteRecord | null;
    if (!sending) return;
    // The row shows the end of the call with what was sent, and the summary counts it.
    const mark = (state: "Done" | "Refused" | "Unknown", message: string, counted: Counted) => {
      write(row, state, message, key, sentText(request));
      record(row.rowNumber, state, message, counted);
    };
    if (end.status === "done") {
      finish(sending, "done");
      mark("Done", doneMessage(t, end.result, request, context.language), "done");
      updateSheets(end.result, company);
    } else if (end.status === "refused") {
      finish(sending, "refused");
      const plain = plainWriteRefusal(end.message, context.language, end.snapshot.fund?.currency);
      mark("Refused", t("outbox.msg.refused", { message: plain }), "refused");
    } else {
      putRecord({ ...sending, state: "unknown" });
      holdIn(request, company, waitForRow(request, row.rowNumber));
      mark("Unknown", t("outbox.msg.unknown", { message: end.message }), "unknown");
    }
  };

  // After a Done: the sheets are a view of the service, so a failure to update them (reported
  // next, in the summary) never stops the run nor turns a write that happened into a failure.
  const updateSheets = (result: WriteResult, company: string) => {
    const apply = context.applyResult;
    if (!apply) return;
    const updated = tolerate(
      "reported next",
      () => {
        apply(result, company);
        return true;
      },
      false,
    );
    if (!updated) summary.sheetsNotUpdated += 1;
  };

  const outOfTime = () => {
    if (nowMs() - started < context.budgetMs) return false;
    summary.stoppedForTime = true;
    return true;
  };

  function settleRecord(rec: WriteRecord, row: OutboxRow | null): void {
    const request = rec.request as WriteRequest;
    // Settled through the port of the company it went to, or not yet: never another's.
    const company = recordCompany(rec);
    const hold = (request: WriteRequest | undefined, message: string) => holdIn(request, company, message);
    const sentText = (request: WriteRequest) => sentTextIn(request, company);
    const mark = recordSnapshot(rec).fund;
    if (mark?.currency) currencies.set(`${company}|${mark.id}`, mark.currency);
    const waitingOn = heldFor(rec.request, company);
    if (waitingOn !== undefined) {
      if (row) record(row.rowNumber, "Unknown", waitingOn, "skipped");
      return;
    }
    if (nowMs() < inFlightUntil(rec)) {
      const message = t("outbox.msg.waitingForLanding", { until: clock(inFlightUntil(rec)) });
      if (row) {
        write(row, "Unknown", message, rec.key, sentText(request));
        record(row.rowNumber, "Unknown", message, "unknown");
      }
      hold(rec.request, row ? waitForRow(rec.request, row.rowNumber) : landingMessage(rec));
      return;
    }
    const port = portOf(company);
    if ("unusable" in port) {
      const message = t("outbox.company.settleUnusable", { message: port.unusable });
      if (row) {
        write(row, "Unknown", message, rec.key, sentText(request));
        record(row.rowNumber, "Unknown", message, "unknown");
      }
      hold(rec.request, row ? waitForRow(rec.request, row.rowNumber) : landingMessage(rec));
      return;
    }
    let verdict: Verdict;
    try {
      verdict = settleInterruptedWrite(writingTo(port), recordSnapshot(rec));
    } catch (error) {
      const message = t("outbox.msg.checkFailed", { message: errorText(error) });
      if (row) {
        write(row, "Unknown", message, rec.key, sentText(request));
        record(row.rowNumber, "Unknown", message, "unknown");
      }
      hold(rec.request, row ? waitForRow(rec.request, row.rowNumber) : landingMessage(rec));
      return;
    }
    // The row's Company naming another company now counts as a change of the row.
    const rowCompany = row ? companyOf(row) : null;
    const moved = rowCompany !== null && (!rowCompany.ok || rowCompany.key !== company);
    const before = moved ? { ...rec.cells, company: companyName(company) } : (rec.cells ?? {});
    const nowCells = row
      ? { ...requestCells(row), ...(moved ? { company: cellText(row.cells.company) } : {}) }
      : null;
    const changed = row && rec.cells ? changedColumns(before, nowCells as Record<string, string>) : [];
    const changes =
      row && rec.cells ? describeChanges(context.language, before, nowCells ?? {}, changed) : "";
    const note = (message: string, recordId?: number | null) =>
      port.audit.note({ key: rec.key, request, message, recordId: recordId ?? null });

    if (verdict.verdict === "cannotTell") {
      // Only a person can tell. A State of Done or Refused typed by hand settles it, nothing sent,
      // when the confirmation named it so: any editor can type a State.
      if (row && (row.state === "Done" || row.state === "Refused")) {
        if (!takeConfirmed(row, { byHand: rec.key, state: row.state }, company)) {
          const message = t("outbox.msg.byHandNotConfirmed", {
            state: stateLabel(context.language, row.state),
          });
          if (rec.state !== "unknown") putRecord({ ...rec, state: "unknown" });
          write(row, row.state, message, rec.key, sentText(request));
          record(row.rowNumber, row.state, message, "skipped");
          hold(rec.request, waitForRow(rec.request, row.rowNumber));
          return;
        }
        const message = t("outbox.msg.settledByHand", {
          state: stateLabel(context.language, row.state),
          date: day(nowMs()),
        });
        // Refused by hand may still have landed: it stays a "same as" candidate for a resend.
        if (row.state === "Done") finish(rec, "done");
        else putRecord({ ...finishedRecord(rec, "refused", nowMs()), byHand: true });
        note(message);
        write(row, row.state, message, rec.key, sentText(request));
        record(row.rowNumber, row.state, message, row.state === "Done" ? "done" : "refused");
        return;
      }
      const message = t("outbox.msg.cannotTell", {
        message: verdict.tooMany ? t("outbox.msg.tooMany") : verdict.message,
      });
      if (rec.state !== "unknown") putRecord({ ...rec, state: "unknown" });
      note(message);
      if (row) {
        write(row, "Unknown", message, rec.key, sentText(request));
        record(row.rowNumber, "Unknown", message, "unknown");
      }
      hold(rec.request, row ? waitForRow(rec.request, row.rowNumber) : landingMessage(rec));
      return;
    }

    // An update edited since is sent as its row is now, whether or not the first one landed.
    if (verdict.verdict === "applied" && !(changed.length > 0 && request.operation === "updateFund")) {
      const recordId = verdict.createdFundId ?? verdict.fund?.id ?? null;
      let message: string;
      if (changed.length > 0) {
        message = t("outbox.msg.doneEdited", { sent: sentText(request), changes });
      } else if (verdict.createdFundId !== undefined) {
        message = t("outbox.msg.reconciledCreated", { id: verdict.createdFundId });
      } else if (verdict.byCount && "amount" in request) {
        message = t("outbox.msg.appliedByCount", {
          movement: t(request.operation === "deposit" ? "outbox.movement.1" : "outbox.movement.2"),
          amount: moneyText(request.amount, verdict.fund?.currency ?? mark?.currency, context.language),
          id: rec.fundId ?? "",
        });
      } else {
        message = t("outbox.msg.reconciledApplied");
      }
      finish(rec, "done");
      note(message, recordId);
      if (row) {
        write(row, "Done", message, rec.key, sentText(request));
        record(row.rowNumber, "Done", message, "done");
      }
      if (verdict.fund) updateSheets({ kind: "fund", fund: verdict.fund }, company);
      return;
    }

    // Not applied, or idempotent: the row may be sent, but only as it is now.
    const idempotent = verdict.verdict !== "notApplied";
    if (!row) {
      retireKey(rec.key);
      note(t(idempotent ? "outbox.note.orphanResend" : "outbox.note.orphanNotApplied"));
      return;
    }
    if (changed.length > 0) {
      if (idempotent) {
        retireKey(rec.key);
        // Sending the row as it is now is what its new cells ask for; it runs with the others.
        note(t("outbox.note.orphanResend"));
        const item = owner(rec);
        if (item) requeued.add(item);
        return;
      }
      const message = t("outbox.msg.notAppliedEdited", { sent: sentText(request), changes });
      note(t("outbox.note.editedNotApplied"));
      // A fresh, empty key: the next run sees a new row and its preview lists it. The record
      // goes after the row is written, so a stop in between leaves nothing unexplained.
      write(row, "Pending", message, "", "");
      retireKey(rec.key);
      record(row.rowNumber, "Pending", message, "skipped");
      return;
    }
    const built = buildRequest(row, port);
    if (!built.ok) {
      retireKey(rec.key);
      refuseInvalid(row, built.message);
      return;
    }
    if (!takeConfirmed(row, { interrupted: rec.key }, company)) {
      // Settled again by the next run, whose preview lists it.
      const message = t("outbox.msg.notConfirmed");
      write(row, "Unknown", message, rec.key, sentText(request));
      record(row.rowNumber, "Unknown", message, "skipped");
      hold(rec.request, waitForRow(rec.request, row.rowNumber));
      return;
    }
    note(t(idempotent ? "outbox.note.resend" : "outbox.note.notAppliedResend"));
    // A fresh key per attempt keeps each attempt's audit entries apart; the row keeps the latest.
    send(row, built.request, context.newKey(), company, port, rec.key);
  }

  const buildRequest = (
    row: OutboxRow,
    port: CompanyPort,
  ): { ok: true; request: WriteRequest } | { ok: false; message: string } => {
    const built = requestFromRow(row, {
      format: context.format,
      now: context.now(),
      adminId: port.adminId,
      adminIssue: port.adminIssue || null,
      language: context.language,
    });
    return built.ok
      ? { ok: true, request: built.request }
      : { ok: false, message: problemsText(built.problems) };
  };

  const refuseInvalid = (row: OutboxRow, problems: string) => {
    const message = t("outbox.msg.invalid", { message: problems });
    const key = context.newKey();
    // The record keeps the cells: an edit makes the row pending again.
    putRecord({
      key,
      state: "refused",
      source: "outbox",
      operation: row.operation ?? "deposit",
      cells: requestCells(row),
      row: row.rowNumber,
      finishedAt: nowMs(),
    });
    write(row, "Refused", message, key);
    record(row.rowNumber, "Refused", message, "refused");
  };

  // ---- 0. Rows whose key names another write, whose cells they do not show (the sheet sorted
  // without its hidden columns, or a row copied with its key and edited): nothing is sent for
  // them, and nothing they say invites sending a done operation again. Marked before any write
  // is settled: settling may drop or replace that record (not applied, sent again under a new
  // key), and a row left Done with the key of a record gone looks like an old, pruned Done.
  for (const item of items) {
    if (item.row.isEmpty) continue;
    const mismatch = mismatchOf(item.row, owners, records);
    if (!mismatch) continue;
    item.handled = true;
    const row = item.row;
    const message = t("outbox.msg.sortedOrEdited", {
      sent: mismatch.request
        ? sentTextIn(mismatch.request, recordCompany(mismatch))
        : (mismatch.cells?.operation ?? ""),
    });
    if (row.state !== "Refused" || row.result !== message) {
      write(row, "Refused", message, row.operationKey);
      record(row.rowNumber, "Refused", message, "refused");
    }
  }

  // ---- 1. Unsettled writes first, oldest first: nothing on their fund is sent before them.
  const unsettled = [...records.values()]
    .filter(isUnsettled)
    .sort((a, b) => (a.sentAt ?? 0) - (b.sentAt ?? 0));
  for (const rec of unsettled) {
    if (outOfTime()) return closeRun();
    const item = owner(rec);
    if (item) item.handled = true;
    const row = item ? current(item) : null;
    if (item && !row) {
      // The row changed during this run: settle it at the next run, with the preview's eyes on it.
      holdIn(rec.request, recordCompany(rec), landingMessage(rec));
      record(item.row.rowNumber, "Unknown", "", "skipped");
      continue;
    }
    settleRecord(rec, row);
  }

  // ---- 2. The rows, in order.
  for (const item of items) {
    if ((item.handled && !requeued.has(item)) || item.row.isEmpty) continue;
    if (outOfTime()) break;
    const row = current(item);
    if (!row) continue; // Changed during the run: the next run (and its preview) takes it.
    if (requeued.has(item)) {
      sendNew(row);
      continue;
    }
    const rec = ownedBy.get(item.row) ?? records.get(row.operationKey);
    const owned = rec !== undefined && owners.get(rec.key) === item.row;

    if (owned && rec.state === "done") {
      const changed = rec.cells ? changedColumns(rec.cells, requestCells(row)) : [];
      const date = day(rec.finishedAt ?? rec.sentAt ?? nowMs());
      const desc = rec.request ? sentTextIn(rec.request, recordCompany(rec)) : (rec.cells?.operation ?? "");
      const message =
        changed.length > 0
          ? t("outbox.msg.doneEditedLater", {
              sent: desc,
              date,
              changes: describeChanges(context.language, rec.cells ?? {}, requestCells(row), changed),
            })
          : row.state !== "Done"
            ? t("outbox.msg.doneRestored", { date })
            : null;
      // A row that showed Done without this key (cleared, or the sheet sorted without its hidden
      // columns) gets it back, and says so: it is never taken as done in silence.
      const adopted =
        message === null && row.operationKey !== rec.key ? t("outbox.msg.doneKeyRestored", { date }) : null;
      const shown = message ?? adopted;
      if (shown !== null && (row.state !== "Done" || row.result !== shown || row.operationKey !== rec.key)) {
        write(row, "Done", shown, rec.key, desc);
        record(row.rowNumber, "Done", shown, null);
      }
      continue;
    }
    if (owned && rec.state === "refused") {
      const unchanged = rec.cells !== undefined && changedColumns(rec.cells, requestCells(row)).length === 0;
      if (unchanged && row.state === "Refused") continue;
      if (unchanged && row.state !== "Pending") continue;
      // Settled by hand as Refused: kept, so the resend is taken as the same as that write.
      if (!rec.byHand) dropRecord(rec.key);
      sendNew(row);
      continue;
    }
    if (owned) continue; // Unsettled: taken in step 1 and left for a later run.
    // (A row whose key names another write, whose cells it does not show, was marked in step 0.)
    // A form's record carries no cells: its key on a row names nothing of the row's (even once
    // the record was settled and dropped in this run).
    const named = rec ?? atStart.get(row.operationKey);
    const key = named !== undefined && !named.cells ? "" : row.operationKey;
    // A key another row owns is a copy even if its record was pruned since the run began.
    if ((rec === undefined && !owners.has(key)) || key === "") {
      // Done with no key was never written by the add-on (every Done it writes carries one): most
      // often a done row's visible cells pasted on a new line. Flagged, never taken as done nor sent.
      const doneWithoutKey = row.state === "Done" && key === "";
      if (row.state === null || (row.state === "Done" && !doneWithoutKey) || row.state === "Refused")
        continue;
      // Its visible cells copied from a row with a record (no key): taken as a copy of the whole
      // row would be, the same as that write.
      const probe = companyOf(row);
      // (Only compared with earlier writes: nothing is sent from here.)
      const probePort = probe.ok && key === "" ? portOf(probe.key) : null;
      const built =
        key === ""
          ? buildRequest(
              row,
              probePort && !("unusable" in probePort) ? probePort : { ...context, adminIssue: null },
            )
          : null;
      const copied =
        built !== null &&
        likenessOf(row, built.ok ? built.request : null, earlier(), probe.ok ? probe.key : FIRST_COMPANY)
          .kind !== "new";
      if ((row.state === "Sending" || row.state === "Unknown" || doneWithoutKey || key !== "") && !copied) {
        // No record: from before records were kept, pruned (a key the add-on wrote: sent or
        // refused once), or typed by someone. Never sent.
        const message = t(doneWithoutKey ? "outbox.msg.doneNoKey" : "outbox.msg.noRecord");
        // Its key goes: it names no record, and a Done sorted onto this row later must not
        // pass for an old Done whose record was pruned.
        write(row, "Refused", message, "");
        record(row.rowNumber, "Refused", message, "refused");
        continue;
      }
    }
    // Pending, or a copy of another row's key: a new operation.
    sendNew(row);
  }

  function sendNew(row: OutboxRow): void {
    // The row's company first: a row naming none, or one that is not live, is refused; a
    // company this user cannot write to yet leaves it Pending. No other port is ever used.
    const resolved = companyOf(row);
    if (!resolved.ok) {
      refuseInvalid(row, resolved.message);
      return;
    }
    const company = resolved.key;
    const port = portOf(company);
    if ("unusable" in port) {
      const message = t("outbox.company.unusable", { message: port.unusable });
      write(row, "Pending", message, row.operationKey);
      record(row.rowNumber, "Pending", message, "skipped");
      return;
    }
    const built = buildRequest(row, port);
    const tooLong = cellTooLongToRecord(requestCells(row), built.ok ? built.request : undefined);
    if (tooLong) {
      // No record can hold it: refused with no key, so nothing stored and the run goes on.
      const message = t("outbox.msg.cellTooLong", tooLongParams(context.language, tooLong));
      write(row, "Refused", message, "");
      record(row.rowNumber, "Refused", message, "refused");
      return;
    }
    if (!built.ok) {
      refuseInvalid(row, built.message);
      return;
    }
    // The same request as an earlier write: it waits for that one, or is sent only when the
    // confirmation showed it as the same as the done one.
    const likeness = likenessOf(row, built.request, earlier(), company);
    const sameRow = likeness.kind === "new" ? undefined : owner(likeness.record)?.row.rowNumber;
    if (likeness.kind === "waits") {
      const message =
        sameRow !== undefined
          ? t("outbox.msg.waitingForSameRow", { row: sameRow })
          : t("outbox.msg.waitingForSame");
      write(row, "Pending", message, "");
      record(row.rowNumber, "Pending", message, "skipped");
      return;
    }
    let waiting = heldFor(built.request, company);
    if (built.request.operation === "createFund") {
      // An unsettled creation of the same fund is settled by finding the fund: another one
      // created meanwhile would be taken for it.
      const request = built.request;
      const earlier = [...records.values()].find((r) => blocks(r, request, company));
      const at = earlier && owner(earlier);
      if (earlier)
        waiting = at
          ? t("outbox.msg.waitingForRow", { row: at.row.rowNumber })
          : t("outbox.msg.waitingForCreation");
    }
    if (waiting !== undefined) {
      write(row, "Pending", waiting, "");
      record(row.rowNumber, "Pending", waiting, "skipped");
      return;
    }
    if (
      likeness.kind === "sameAsDone"
        ? !takeConfirmed(row, { sameAs: likeness.record.key }, company)
        : !takeConfirmed(row, "new", company)
    ) {
      const message =
        likeness.kind === "sameAsDone"
          ? t("outbox.msg.notConfirmedSame", {
              date: day(likeness.record.finishedAt ?? likeness.record.sentAt ?? 0),
            })
          : t("outbox.msg.notConfirmed");
      write(row, "Pending", message, "");
      record(row.rowNumber, "Pending", message, "skipped");
      return;
    }
    send(row, built.request, context.newKey(), company, port);
  }

  return closeRun();

  function closeRun(): RunSummary {
    for (const key of recordsToPrune([...records.values()])) dropRecord(key);
    return summary;
  }
}

function errorText(error: unknown): string {
  if (isWriteFailure(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export function doneMessage(
  t: (key: StringKey, params?: Record<string, string | number>) => string,
  result: WriteResult,
  request: WriteRequest,
  language: Language = "en",
): string {
  if (result.kind === "fund" && request.operation === "createFund") {
    return t("outbox.msg.createdFund", { id: result.fund.id });
  }
  if (result.kind === "report") return t("outbox.msg.doneReport", { id: result.report.id });
  return t("outbox.msg.doneFund", {
    id: result.fund.id,
    balance: moneyText(result.fund.balance, result.fund.currency, language),
    currency: result.fund.currency,
  });
}

/**
 * Where the row is now: its expected row if that still carries its key, else the row that
 * carries the key. Before a key was written (or when it is not found), the row with the same
 * key as when read and the same request cells, nearest its expected place: a row inserted or
 * deleted above must not take another row's state and key. A row edited meanwhile is found at
 * its expected place if that still carries the key it was read with. null if it is gone.
 */
function locate(sheet: OutboxSheetPort, row: OutboxRow, key: string): number | null {
  const expected = row.rowNumber;
  const keyWhenRead = row.operationKey;
  const keys = sheet.readOperationKeys();
  const at = (rowNumber: number) => keys[rowNumber - 2] ?? "";
  // Found by the key it carries; a row given a key it did not carry (a new write, or its key put
  // back) is found as read: another row carrying that key is not this one.
  if (key !== "" && key === keyWhenRead) {
    if (at(expected) === key) return expected;
    const index = keys.indexOf(key);
    if (index >= 0) return index + 2;
  }
  const identity = identityOf(row);
  const same = (rowNumber: number, values: CellValue[]) =>
    identityOf(readOutboxRow(values, rowNumber)) === identity;
  if (at(expected) === keyWhenRead && same(expected, sheet.readRow(expected))) return expected;
  const all = sheet.readAll();
  let found: number | null = null;
  for (let i = 0; i < all.length; i += 1) {
    const rowNumber = i + 2;
    if (at(rowNumber) !== keyWhenRead || !same(rowNumber, all[i] as CellValue[])) continue;
    if (found === null || Math.abs(rowNumber - expected) < Math.abs(found - expected)) found = rowNumber;
  }
  if (found !== null) return found;
  return at(expected) === keyWhenRead ? expected : null;
}
