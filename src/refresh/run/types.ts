/**
 * What a refresh is made of, as plain types: the reads it asks for and their results, the
 * sheets and stores it writes through, its options, its cursor (plain JSON, kept between
 * executions) and what an execution gives back. ../engine.ts re-exports them all.
 */
import type { ExpenseReport, Fund } from "../../api/types";
import type { AccountMark } from "../../settings/account-mark";
import type { Column } from "../../sheets/columns";
import type { MissingRowMode } from "../../sheets/merge";
import type { NamesMark } from "../employees";
import type { FingerprintStore } from "../fingerprints";
import { isListCursor, type ListCursor, type ListStateStore } from "../list-cursor";
import type { PageSizeProbe } from "../page-size";
import type { TextStore } from "../stored-text";
import type { DateWindow } from "../windows";

export type Stage = "funds" | "transactions" | "reports";
/** The sheets a refresh writes: one per stage, and the reports' files with the reports. */
export type SheetTarget = Stage | "files";

/** One page of a list as the engine needs it. */
export interface ListPage<T> {
  items: T[];
  /** Page count the service announced (Records.Pages). */
  pages: number;
  /** Records the whole list holds (Records.TotalRecords), when the service says. */
  total?: number;
}

/**
 * One read of a refresh: a page of a list, a fund with its movements, or a report (a refresh of
 * selected rows).
 */
export type Read =
  | { kind: "fundPage"; query: Record<string, unknown> }
  | { kind: "reportPage"; query: Record<string, unknown> }
  | { kind: "fund"; id: number }
  | { kind: "report"; id: number };
export type ListKind = "fundPage" | "reportPage";
export type ReadResult = ListPage<Fund> | ListPage<ExpenseReport> | Fund | ExpenseReport | null;

/** The reads a refresh makes; every method is one batch (UrlFetchApp.fetchAll) of requests. */
export interface RefreshReader {
  fundPages(queries: readonly Record<string, unknown>[]): ListPage<Fund>[];
  reportPages(queries: readonly Record<string, unknown>[]): ListPage<ExpenseReport>[];
  /** Each fund with its movements; null for a fund the service does not know (any more). */
  funds(ids: readonly number[]): (Fund | null)[];
  reports(ids: readonly number[]): (ExpenseReport | null)[];
  /**
   * Reads of several kinds in one batch (without it: one batch per kind). Results in order; a
   * read that failed (after the client's retries) is a ReadFailure there, not thrown.
   */
  batch?(reads: readonly Read[]): (ReadResult | ReadFailure)[];
}

/** A read of a batch that failed, with the error it would have thrown. */
export interface ReadFailure {
  failed: unknown;
}

export function isFailure(value: unknown): value is ReadFailure {
  return typeof value === "object" && value !== null && "failed" in value;
}

/** How a sheet is to be updated (see sheets/merge.ts for what each part means). */
export interface SheetUpdate<R> {
  /** The columns, given the keys of the add-on's columns the sheet has now. */
  columnsFor(previousKeys: readonly string[]): readonly Column<R>[];
  records: readonly R[];
  keyOf(record: R): string;
  /** The columns of a row's key, and what a column the old layout lacked reads as (sheets/merge.ts). */
  keyColumns?: readonly string[];
  legacyParts?: Readonly<Record<string, string>>;
  covers: "all" | ((key: string) => boolean);
  /** Columns whose cells an update keeps (values the records do not carry). */
  preserveKeys?: readonly string[];
  /** The key of the row a new record goes right after, when that row is in the sheet. */
  anchorOf?: (record: R) => string | null;
  /**
   * Asked between write chunks: when it says stop, the sheet is left written in part (rows
   * whole and in place) and `apply` throws SheetWriteStopped.
   */
  shouldStop?: () => boolean;
  /** Part of a list whose rest follows in a later execution: the sheet says so. */
  partial?: boolean;
}

export interface RefreshSheets {
  /** Merges `update` into the sheet with one read and one write; returns rows written. */
  apply<R>(target: SheetTarget, update: SheetUpdate<R>): number;
  /**
   * Whether the sheet holds no data rows (missing, or only a header); with `companyKey`, none
   * of that company's.
   */
  isEmpty(target: SheetTarget, companyKey?: string): boolean;
  /** Keys of the add-on's columns as the sheet's last refresh left them, when known. */
  layout?(target: SheetTarget): readonly string[] | null;
}

export interface RefreshOptions {
  /** ResultsPerPage (with `pageSizeProbe`, what to fall back to when a larger page is refused). */
  pageSize: number;
  /** Find the largest page the service accepts, once per service URL (./page-size.ts). */
  pageSizeProbe?: PageSizeProbe;
  /** Requests per fetchAll. */
  batchSize: number;
  /** getFunds filters: Status, From, To, OrderBy, Order. */
  fundFilters: Record<string, unknown>;
  reportWindow: DateWindow;
  /** getExpenseReports filters other than the window: TypeDateFilter, Currency, Status… */
  reportFilters: Record<string, unknown>;
  missingRows: MissingRowMode;
}

export type RefreshKind = "funds" | "transactions" | "reports" | "all";

/** Where a refresh is; plain JSON, stored between executions. */
export interface RefreshCursor {
  v: 1;
  /** Stages still to run, the current one first. */
  stages: Stage[];
  /** Funds whose movements are still to fetch (transactions stage under way). */
  pendingFundIds?: number[];
  /** Where the current list stage goes on, its pages so far merged (./list-cursor.ts). */
  list?: ListCursor;
  /** For progress messages: where the interrupted list was. */
  at?: { endpoint: string; piece: number; page: number };
}

export interface StepProgress {
  stage: Stage;
  /** Requests sent by this refresh so far (before retries). */
  requests: number;
}

export interface EngineResult {
  finished: boolean;
  cursor: RefreshCursor | null;
  /** Rows written in this execution. */
  records: number;
  refreshed: Stage[];
  /** Requests sent (before the client's retries). */
  requests: number;
  /** Minimum requests the work of this execution needed: pages plus movement fetches. */
  minimumRequests: number;
}

export interface EngineDeps {
  reader: RefreshReader;
  sheets: RefreshSheets;
  fingerprints: FingerprintStore;
  /** Where the ids of a list merged in part are kept between executions (the document cache). */
  listState?: ListStateStore;
  /** Where employees' names seen in reports are kept (./employees.ts); none: funds show ids. */
  employeeNames?: TextStore;
  /** This user's mark on the names they stored: another editor's list is not used. */
  namesMine?: NamesMark;
  /**
   * Where the largest page found per service URL is kept (./page-size.ts): the user's own
   * properties, so that no other editor chooses what this user's refreshes ask for. Without
   * it, `fingerprints`.
   */
  pageSizes?: TextStore;
  options: RefreshOptions;
  onStep?: (progress: StepProgress) => void;
  /** The company's account mark: its reads are checked against it before anything is written (./account.ts). */
  account?: AccountToCheck;
}

/** The company a refresh writes and its account mark (src/settings/account-mark.ts). */
export interface AccountToCheck {
  /** The company's name, for the message. */
  company: string;
  mark: AccountMark;
}

/** The cursor a new refresh starts from. */
export function startCursor(kind: RefreshKind): RefreshCursor {
  const stages: Stage[] =
    kind === "all"
      ? ["funds", "transactions", "reports"]
      : kind === "transactions"
        ? ["funds", "transactions"]
        : [kind];
  return { v: 1, stages };
}

/** Whether `value` is a cursor this version can continue. */
export function isRefreshCursor(value: unknown): value is RefreshCursor {
  if (!value || typeof value !== "object") return false;
  const c = value as RefreshCursor;
  return (
    c.v === 1 &&
    Array.isArray(c.stages) &&
    c.stages.every((s) => s === "funds" || s === "transactions" || s === "reports") &&
    (c.pendingFundIds === undefined ||
      (Array.isArray(c.pendingFundIds) && c.pendingFundIds.every((id) => Number.isInteger(id)))) &&
    (c.list === undefined || isListCursor(c.list))
  );
}

/** The reads a refresh's steps ask for at one point: one batch (one fetchAll) of one company. */
export interface StepReads {
  reads: Read[];
}

/**
 * The steps of a refresh as a generator: each batch of reads is yielded, and the steps go on
 * with their results (a read that failed as a ReadFailure) or with the error thrown in. Whoever
 * drives it sends the reads: `runRefreshSteps` through the lane's reader, ./lanes.ts those of
 * every company together.
 */
export type Steps<T> = Generator<StepReads, T, (ReadResult | ReadFailure)[]>;
