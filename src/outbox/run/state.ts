/**
 * A run's state, a plain value: the rows as read at the start (and where each is now), the
 * add-on's records as the run changes them, which row owns which, the funds and reports held,
 * what the confirmation still allows, and each row's outcome. The phases take it and act on it;
 * nothing else is shared between them.
 */

import type { StringKey } from "../../i18n";
import { DATE_TIME } from "../cells";
import { ONE_COMPANY } from "../companies";
import type { OutboxState } from "../operations";
import { finishedRecord, MAX_FINISHED_RECORDS, recordsToPrune, type WriteRecord } from "../records";
import type { WriteRequest } from "../requests";
import { type OutboxRow, readOutboxRow, requestCells } from "../rows";
import { type Confirmations, countConfirmations } from "./confirmations";
import type { CompanyPort, RunContext, RunSaid, RunSummary, UnusableCompanyPort } from "./context";
import { type CompanyKeyOf, companyKeys, ownedRecords, ownersOfKeys } from "./ownership";

/** Which count of the summary a row's outcome adds to (null: none). */
export type Counted = "done" | "refused" | "unknown" | "skipped";

/** A row as read at the start of the run, and where it is now. */
export interface Item {
  row: OutboxRow;
  /** Its request cells and key when the run started: how it is recognised if rows move. */
  identity: string;
  handled: boolean;
}

export interface RunState {
  /** When the run's time started (the execution's start, when the context gives it). */
  started: number;
  /** Every row from row 2 on, as read at the start, in order. */
  items: Item[];
  itemOfRow: Map<OutboxRow, Item>;
  /** The add-on's records as they are now, kept in step with the store. */
  records: Map<string, WriteRecord>;
  /** The records when the run started: the writes the confirmation knew of. */
  atStart: ReadonlyMap<string, WriteRecord>;
  /** Which row owns each recorded key (`ownersOfKeys`), and the record each row owns. */
  owners: Map<string, OutboxRow>;
  ownedBy: Map<OutboxRow, WriteRecord>;
  /** The company a row's Company cell names, as compared with a record's (`companyKeys`). */
  companyKey: CompanyKeyOf;
  /** Rows whose interrupted idempotent write was superseded by an edit: sent as they are now. */
  requeued: Set<Item>;
  /** What the user confirmed, each once. */
  confirmations: Confirmations;
  /**
   * Funds and reports on which nothing may be sent in this run, by company (`holds.ts`), and
   * the message rows on them get.
   */
  held: Map<string, string>;
  /** Each fund's currency as last read, by company and fund: amounts are written in it. */
  currencies: Map<string, string>;
  /** Each company's port, asked for once (`ports.ts`). */
  ports: Map<string, CompanyPort | UnusableCompanyPort>;
  /** Set while every row's position is being found again (rows inserted or deleted). */
  positionsStale: boolean;
  summary: RunSummary;
}

/** A row's request cells and key: how it is recognised. */
export function identityOf(row: OutboxRow): string {
  return JSON.stringify([row.operationKey, requestCells(row)]);
}

/** Reads the sheet and the records: the state a run starts from. */
export function startRun(context: RunContext): RunState {
  const started = context.startedAt ?? context.now().getTime();
  const records = new Map(context.records.all().map((r) => [r.key, r]));
  const items: Item[] = context.sheet
    .readAll()
    .map((values, i) => readOutboxRow(values, i + 2))
    .map((row) => ({ row, identity: identityOf(row), handled: false }));
  const companyKey = companyKeys(context.directory ?? ONE_COMPANY);
  const owners = ownersOfKeys(
    items.map((i) => i.row),
    records,
    companyKey,
  );
  return {
    started,
    items,
    itemOfRow: new Map(items.map((item) => [item.row, item])),
    records,
    atStart: new Map(records),
    owners,
    ownedBy: ownedRecords(owners, records),
    companyKey,
    requeued: new Set(),
    confirmations: countConfirmations(context.confirmed),
    held: new Map(),
    currencies: new Map(),
    ports: new Map(),
    positionsStale: false,
    summary: {
      done: 0,
      refused: 0,
      unknown: 0,
      skipped: 0,
      stoppedForTime: false,
      sheetsNotUpdated: 0,
      rows: [],
    },
  };
}

/** The item of the row that owns a record, if a row does. */
export function ownerOf(state: RunState, rec: WriteRecord): Item | undefined {
  const row = state.owners.get(rec.key);
  return row ? state.itemOfRow.get(row) : undefined;
}

/** A row's outcome, added to the summary. */
export function outcome(
  state: RunState,
  rowNumber: number,
  shown: OutboxState,
  message: string,
  counted: Counted | null,
): void {
  state.summary.rows.push({ rowNumber, state: shown, message });
  if (counted) state.summary[counted] += 1;
}

/** The writes the confirmation knew of, as they are now settled. */
export function earlier(state: RunState): WriteRecord[] {
  return [...state.records.values()].filter((r) => state.atStart.has(r.key));
}

export function putRecord(context: RunContext, state: RunState, record: WriteRecord): void {
  // Pruned as the run goes too: a batch of thousands of rows would fill the document's
  // properties before the run's end, and every later write would fail on the full store.
  if (state.records.size > MAX_FINISHED_RECORDS + 100) pruneRecords(context, state);
  state.records.set(record.key, record);
  context.records.put(record);
}

export function dropRecord(context: RunContext, state: RunState, key: string): void {
  state.records.delete(key);
  context.records.remove(key);
}

export function finishRecord(
  context: RunContext,
  state: RunState,
  rec: WriteRecord,
  end: "done" | "refused",
): void {
  putRecord(context, state, finishedRecord(rec, end, nowMs(context)));
}

/** Drops the finished records beyond the newest kept. */
export function pruneRecords(context: RunContext, state: RunState): void {
  for (const key of recordsToPrune([...state.records.values()])) dropRecord(context, state, key);
}

/** Whether the run's time is up (and the summary says so). */
export function outOfTime(context: RunContext, state: RunState): boolean {
  if (nowMs(context) - state.started < context.budgetMs) return false;
  state.summary.stoppedForTime = true;
  return true;
}

/** Words of the run (a key and its values), said by the run's `words` port. */
export function words(context: RunContext) {
  return (key: StringKey, params: RunSaid["params"] = {}) => context.words.say({ key, params });
}

export function nowMs(context: RunContext): number {
  return context.now().getTime();
}

/** A time of day, "HH:MM". */
export function clock(context: RunContext, ms: number): string {
  return context.format(new Date(ms), DATE_TIME).slice(11, 16);
}

/** A date and time, "yyyy-MM-dd HH:MM". */
export function day(context: RunContext, ms: number): string {
  return context.format(new Date(ms), DATE_TIME).slice(0, 16);
}

/** A request as the rows show it, its amount in its fund's currency when the run read it. */
export function sentTextIn(
  context: RunContext,
  state: RunState,
  request: WriteRequest,
  company: string,
): string {
  return context.words.request(
    request,
    "fundId" in request ? state.currencies.get(`${company}|${request.fundId}`) : undefined,
  );
}
