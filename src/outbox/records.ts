/**
 * The add-on's own record of each write it sends, kept outside the sheet (document properties,
 * which only the add-on's code writes), keyed by operation key. The record, not the row's cells,
 * decides what an interrupted write was and whether it may be sent again: every cell is user
 * input, so a cell can never make a run send something other than what its row shows, nor
 * settle a movement against a forged "before" count.
 *
 * A record is written before the request leaves (state "sending"), and ends "done" or
 * "refused", or "unknown" when no answer said what happened. Unsettled records are never
 * pruned; finished ones are kept compact (the row's cells and when) and the oldest are dropped
 * past a bound, so the store stays far below the 500 KB a document's properties may hold.
 */
import { FIRST_COMPANY_KEY } from "../company/model";
import type { CellValue } from "./columns";
import type { OutboxOperation } from "./operations";
import type { WriteRequest } from "./requests";
import type { FundMark, NewFundMark, Snapshot, TargetIdentity } from "./snapshot";

/**
 * How long after it left a request may still land: Apps Script's UrlFetch gives up after about
 * 60 s (not configurable), and a request that timed out may still be processed by the service
 * afterwards. The margin covers a slow server or proxy finishing it later. Until this has passed
 * since the record went "sending", nothing about it is concluded from reading the fund.
 */
export const FETCH_TIMEOUT_MS = 60_000;
export const LATE_LANDING_MARGIN_MS = 120_000;
/**
 * The default window. Google documents no deadline for UrlFetch (the 60 s comes from public
 * reports, docs/real-apps-script.md): a deployment may set a longer window with the script
 * property `tuning.inFlightWindowSeconds` (src/settings/tuning.ts), never one below the floor.
 */
export const IN_FLIGHT_WINDOW_MS = FETCH_TIMEOUT_MS + LATE_LANDING_MARGIN_MS;
/** The shortest window a record can have: the fetch deadline plus a minute for a late landing. */
export const MIN_IN_FLIGHT_WINDOW_MS = FETCH_TIMEOUT_MS + 60_000;

/** Finished records kept (the newest); unsettled ones are always kept. */
export const MAX_FINISHED_RECORDS = 300;

export type RecordState = "sending" | "unknown" | "done" | "refused";

export interface WriteRecord {
  key: string;
  state: RecordState;
  /** Where the write came from: an Outbox row or a sidebar form. */
  source: "outbox" | "form";
  operation: OutboxOperation;
  /** The request exactly as it was (or was about to be) sent; kept until the record is settled. */
  request?: WriteRequest;
  /** The fund the request acts on (money operations, status and updates), for holding a fund. */
  fundId?: number;
  /**
   * The key of the company the request went to (its token, its ledger); absent on records of
   * the first company ("c0"), as every record written before companies.
   */
  company?: string;
  /** The row's cells that make the request, as text, when it was sent (Outbox rows only). */
  cells?: Record<string, string>;
  /** Row number when it was last written (a hint to tell a row from its copies). */
  row?: number;
  /** When the request left (ms since the epoch). */
  sentAt?: number;
  /** The in-flight window when it left, when not the default (IN_FLIGHT_WINDOW_MS). */
  windowMs?: number;
  /** What was known before sending, to settle an interrupted write by reading. */
  fund?: FundMark;
  newFund?: NewFundMark;
  /** A fund update or status change, a report mark: the fund or report it was sent to, as read before. */
  target?: TargetIdentity;
  /** When it ended (ms). */
  finishedAt?: number;
  /** A form's write: who sent it (a digest of the user), the only one who may acknowledge it. */
  by?: string;
  /** A form's write: the request id its page sent; a repeated id gets this write's answer. */
  requestId?: string;
  /** A finished form write: what its page was told. */
  answer?: string;
  /**
   * A form's write that reading cannot settle (more matching movements than it explains): why.
   * Kept unsettled, holding its fund, until its writer acknowledges having checked the fund.
   */
  checkFund?: string;
  /**
   * Refused typed in State by a person on a write reading could not settle: it may still have
   * landed, so a later row with the same request is shown as the same as this write.
   */
  byHand?: boolean;
}

/** Where records live: document properties in Apps Script, a map in tests. */
export interface RecordStore {
  all(): WriteRecord[];
  get(key: string): WriteRecord | null;
  put(record: WriteRecord): void;
  remove(key: string): void;
}

/** The company a record's write went to: its key, the first company's when none is written. */
export function recordCompany(record: Pick<WriteRecord, "company">): string {
  return typeof record.company === "string" && record.company !== "" ? record.company : FIRST_COMPANY_KEY;
}

export function isUnsettled(record: WriteRecord): boolean {
  return record.state === "sending" || record.state === "unknown";
}

/** Until when a request of this record may still land (ms); 0 when it never left. */
export function inFlightUntil(record: WriteRecord): number {
  if (record.sentAt === undefined) return 0;
  // The window in force when it left; a stored value below the floor counts as the floor.
  const windowMs =
    typeof record.windowMs === "number" && Number.isFinite(record.windowMs)
      ? record.windowMs
      : IN_FLIGHT_WINDOW_MS;
  return record.sentAt + Math.max(MIN_IN_FLIGHT_WINDOW_MS, windowMs);
}

/** The record written just before a request leaves. */
export function sendingRecord(
  snapshot: Snapshot,
  request: WriteRequest,
  source: WriteRecord["source"],
  sentAt: number,
  row?: { number: number; cells: Record<string, string> },
  windowMs?: number,
  company = FIRST_COMPANY_KEY,
): WriteRecord {
  const record: WriteRecord = {
    key: snapshot.key,
    state: "sending",
    source,
    operation: request.operation,
    request,
    sentAt,
  };
  if (windowMs !== undefined && windowMs !== IN_FLIGHT_WINDOW_MS) record.windowMs = windowMs;
  if ("fundId" in request) record.fundId = request.fundId;
  if (company !== FIRST_COMPANY_KEY) record.company = company;
  if (snapshot.fund) record.fund = snapshot.fund;
  if (snapshot.newFund) record.newFund = snapshot.newFund;
  if (snapshot.target) record.target = snapshot.target;
  if (row) {
    record.row = row.number;
    record.cells = row.cells;
  }
  return record;
}

/**
 * A finished record: what is needed to recognise its row later (cells, when), without the
 * request and the marks, which only an unsettled write needs.
 */
export function finishedRecord(record: WriteRecord, state: "done" | "refused", at: number): WriteRecord {
  const out: WriteRecord = {
    key: record.key,
    state,
    source: record.source,
    operation: record.operation,
    finishedAt: at,
  };
  if (record.fundId !== undefined) out.fundId = record.fundId;
  if (record.company !== undefined) out.company = record.company;
  if (record.cells) out.cells = record.cells;
  if (record.row !== undefined) out.row = record.row;
  if (record.sentAt !== undefined) out.sentAt = record.sentAt;
  if (record.by !== undefined) out.by = record.by;
  if (record.requestId !== undefined) out.requestId = record.requestId;
  if (record.windowMs !== undefined) out.windowMs = record.windowMs;
  // A done money movement keeps its request: "same as row N, done on …" names the amount.
  if (state === "done" && record.request && "amount" in record.request) out.request = record.request;
  return out;
}

/** What one document property holds, key and value together (Apps Script's 9 KB). */
export const MAX_RECORD_BYTES = 9 * 1024;
/**
 * Room kept in a record's value for what is added to a row's cells and request: the key, the
 * states and times, the marks read before sending (at most a page of fund ids for a creation).
 */
const RECORD_ROOM_BYTES = 1024;

/** Bytes of text as UTF-8, as the property store counts them. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * The longest of a row's cells when the row's record (its cells, and its request once built)
 * would not fit one property value, else null: such a row cannot be recorded, so it is refused
 * before anything is stored or sent, and the run goes on.
 */
export function cellTooLongToRecord(
  cells: Record<string, string>,
  request?: WriteRequest,
): { column: string; length: number } | null {
  const size = utf8Bytes(RECORD_PREFIX + JSON.stringify({ cells, request })) + RECORD_ROOM_BYTES;
  if (size <= MAX_RECORD_BYTES) return null;
  let longest = { column: "", length: -1, bytes: -1 };
  for (const [column, text] of Object.entries(cells)) {
    const bytes = utf8Bytes(JSON.stringify(text));
    if (bytes > longest.bytes) longest = { column, length: [...text].length, bytes };
  }
  return { column: longest.column, length: longest.length };
}

/** Keys of finished records beyond the bound, oldest first: the ones to drop. */
export function recordsToPrune(records: readonly WriteRecord[], max = MAX_FINISHED_RECORDS): string[] {
  const finished = records
    .filter((r) => !isUnsettled(r))
    .sort((a, b) => (a.finishedAt ?? 0) - (b.finishedAt ?? 0));
  return finished.slice(0, Math.max(0, finished.length - max)).map((r) => r.key);
}

/** What a record knew before its request left, as the write path settles it. */
export function recordSnapshot(record: WriteRecord): Snapshot {
  const snapshot: Snapshot = { key: record.key, at: new Date(record.sentAt ?? 0).toISOString() };
  if (record.request) snapshot.request = record.request;
  if (record.fund) snapshot.fund = record.fund;
  if (record.newFund) snapshot.newFund = record.newFund;
  if (record.target) snapshot.target = record.target;
  return snapshot;
}

/**
 * Whether an unsettled record stands in the way of `request` to `company`: the same company and
 * the same fund or report, or for a fund creation the same employee and fund name (a second
 * creation could not be told from the first). Equal ids of two companies are two records.
 */
export function blocks(record: WriteRecord, request: WriteRequest, company = FIRST_COMPANY_KEY): boolean {
  if (!isUnsettled(record) || !record.request) return false;
  if (recordCompany(record) !== company) return false;
  if ("fundId" in request) return record.fundId === request.fundId;
  if ("reportId" in request)
    return "reportId" in record.request && record.request.reportId === request.reportId;
  if (request.operation === "createFund" && record.request.operation === "createFund")
    return record.request.employeeId === request.employeeId && record.request.name === request.name;
  return false;
}

const STATES: ReadonlySet<string> = new Set(["sending", "unknown", "done", "refused"]);

/**
 * A record read back from storage, or null when it is not one of ours. Only the add-on writes
 * the store; the check keeps a damaged value from being acted on.
 */
export function parseRecord(text: string | null): WriteRecord | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<WriteRecord> | null;
    if (typeof value !== "object" || value === null) return null;
    if (typeof value.key !== "string" || value.key === "") return null;
    if (typeof value.state !== "string" || !STATES.has(value.state)) return null;
    if (typeof value.operation !== "string") return null;
    if (value.source !== "outbox" && value.source !== "form") return null;
    // A damaged company names no company: its write waits, never taken as the first company's.
    if (value.company !== undefined && (typeof value.company !== "string" || value.company === ""))
      value.company = "?";
    if ((value.state === "sending" || value.state === "unknown") && typeof value.request !== "object")
      return null;
    return value as WriteRecord;
  } catch (_err) {
    return null;
  }
}

/** A record store over a map of text values (document properties, or a Map in tests). */
export interface TextStore {
  getProperty(key: string): string | null;
  setProperty(key: string, value: string): unknown;
  deleteProperty(key: string): unknown;
  getProperties(): Record<string, string>;
}

export const RECORD_PREFIX = "outbox.record.";

export function textRecordStore(store: TextStore): RecordStore {
  return {
    all() {
      const out: WriteRecord[] = [];
      for (const [key, value] of Object.entries(store.getProperties())) {
        if (!key.startsWith(RECORD_PREFIX)) continue;
        const record = parseRecord(value);
        if (record && RECORD_PREFIX + record.key === key) out.push(record);
      }
      return out;
    },
    get(key) {
      const record = parseRecord(store.getProperty(RECORD_PREFIX + key));
      return record && record.key === key ? record : null;
    },
    put(record) {
      store.setProperty(RECORD_PREFIX + record.key, JSON.stringify(record));
    },
    remove(key) {
      store.deleteProperty(RECORD_PREFIX + key);
    },
  };
}

/** A row's cells as a record keeps them: text, trimmed (dates as ISO). */
export function cellsText(
  cells: Record<string, CellValue>,
  columns: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const column of columns) {
    const value = cells[column];
    out[column] =
      value === undefined || value === null
        ? ""
        : value instanceof Date
          ? value.toISOString()
          : String(value).trim();
  }
  return out;
}

/** The columns whose text differs between what was sent and what the row shows now. */
export function changedColumns(before: Record<string, string>, now: Record<string, string>): string[] {
  const columns = new Set([...Object.keys(before), ...Object.keys(now)]);
  return [...columns].filter((c) => (before[c] ?? "") !== (now[c] ?? ""));
}
