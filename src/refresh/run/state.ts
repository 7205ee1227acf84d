/**
 * A refresh's state in one execution, a plain value: its cursor as it moves (the part kept
 * between executions), what was done so far (requests, rows written, stages refreshed), what
 * the stages hand on to each other (the fund list, employees' names), the page size in use and
 * the report pages fetched ahead. The phases (./funds.ts, ./movements.ts, ./reports.ts, the
 * lists' ./list-stage.ts and ./pages.ts, the batches' ./send.ts) take it and act on it; nothing
 * else is shared between them.
 */
import type { ExpenseReport, Fund } from "../../api/types";
import { type EmployeeNames, loadEmployeeNames } from "../employees";
import { rememberedPageSize, rememberPageSize } from "../page-size";
import { splitWindow } from "../windows";
import type { EngineDeps, EngineResult, ListPage, RefreshCursor, RefreshOptions, Stage } from "./types";

export interface RefreshRun {
  deps: EngineDeps;
  /** Asked between steps: whether this execution's time is up. */
  shouldStop: () => boolean;
  /** Where the refresh is, kept in step: what a paused execution leaves for the next. */
  cursor: RefreshCursor;
  /** Requests sent so far (before the client's retries). */
  requests: number;
  /** Of those, the account check's: no progress of the refresh's own (./account.ts). */
  checks: number;
  /** The account check is to ride in the next batch sent (./account.ts, ./send.ts). */
  accountPending: boolean;
  /** Minimum requests the work so far needed: pages plus movement fetches. */
  minimum: number;
  /** Rows written in this execution. */
  records: number;
  refreshed: Stage[];
  /** The whole fund list, once read in this execution (the movements need it). */
  fundList: Fund[] | null;
  /** Whether the fund list last read fell short of its total (ListRead's `short`). */
  fundListShort: boolean;
  /** Employees' names as known now (./employees.ts). */
  names: EmployeeNames;
  /** While probing, the first pages of the lists ask for the probe's size and show what the service takes. */
  probing: boolean;
  pageSize: number;
  /** The report window's pieces, when the reports are among the stages. */
  reportQueries: Record<string, unknown>[];
  /**
   * Report pages fetched ahead, in the spare places of other batches (by their query's text):
   * the report pieces' first pages go out with the funds' first page, and the pages they
   * announce fill the batches of fund pages and movements, so no batch leaves with room while a
   * page is known to be needed. Kept for this execution only.
   */
  ahead: Map<string, ListPage<ExpenseReport>>;
}

/** The state an execution starts from, at `cursor`. */
export function startRefresh(deps: EngineDeps, cursor: RefreshCursor, shouldStop: () => boolean): RefreshRun {
  const { options } = deps;
  const state: RefreshCursor = JSON.parse(JSON.stringify(cursor));
  const probe = options.pageSizeProbe;
  const remembered = probe ? rememberedPageSize(pageSizes(deps), probe.serviceUrl) : null;
  const probing = probe !== undefined && remembered === null;
  return {
    deps,
    shouldStop,
    cursor: state,
    requests: 0,
    checks: 0,
    accountPending: false,
    minimum: 0,
    records: 0,
    refreshed: [],
    fundList: null,
    fundListShort: false,
    names: deps.employeeNames ? loadEmployeeNames(deps.employeeNames, deps.namesMine) : new Map(),
    probing,
    pageSize: remembered ?? (probing && probe ? probe.ask : options.pageSize),
    reportQueries: state.stages.includes("reports") ? reportPieceQueries(options) : [],
    ahead: new Map(),
  };
}

/** What the execution gives back: done, or paused with the cursor to go on from. */
export function resultOf(run: RefreshRun, finished: boolean): EngineResult {
  return {
    finished,
    cursor: finished ? null : run.cursor,
    records: run.records,
    refreshed: run.refreshed,
    requests: run.requests,
    minimumRequests: run.minimum,
  };
}

/** Whether anything of the refresh's own work was done (requests sent beyond the account check). */
export function progressed(run: RefreshRun): boolean {
  return run.requests > run.checks;
}

/** `count` requests sent for `stage`: counted, and the progress told. */
export function stepped(run: RefreshRun, stage: Stage, count: number): void {
  run.requests += count;
  run.deps.onStep?.({ stage, requests: run.requests });
}

/** Where the page size found is kept: the user's own properties (./page-size.ts). */
function pageSizes(deps: EngineDeps) {
  return deps.pageSizes ?? deps.fingerprints;
}

/** The page size the service takes, found: used from now on and remembered for its URL. */
export function keepPageSize(run: RefreshRun, size: number): void {
  run.probing = false;
  run.pageSize = size;
  const probe = run.deps.options.pageSizeProbe;
  if (probe) rememberPageSize(pageSizes(run.deps), probe.serviceUrl, size);
}

/** Page `page` of a list query, at the page size in use. */
export function pageQuery(
  run: RefreshRun,
  q: Record<string, unknown>,
  page: number,
): Record<string, unknown> {
  return { ...q, ResultsPerPage: run.pageSize, Page: page };
}

/** A page's query as text: how pages fetched ahead are found. */
export const pageKey = (q: Record<string, unknown>): string => JSON.stringify(q);

/** The report window cut into pieces of at most a year, each a query of getExpenseReports. */
export function reportPieceQueries(options: RefreshOptions): Record<string, unknown>[] {
  return splitWindow(options.reportWindow).map((w) => ({
    ...options.reportFilters,
    Since: w.since,
    Until: w.until,
  }));
}

/** Thrown by a stage whose time is up: the cursor says where to go on, `at` where the list was. */
export class Stopped {
  constructor(readonly at: RefreshCursor["at"]) {}
}

export const idsOf = (list: readonly { id: number }[]): number[] => list.map((r) => r.id);

/** Which rows of a sheet keyed by id an update covers. */
export const keyCovers =
  (covers: (id: number) => boolean) =>
  (key: string): boolean =>
    covers(Number(key));

/** The records with the first of each id kept, in order. */
export function dedupeById<T extends { id: number }>(list: readonly T[]): T[] {
  const seen = new Set<number>();
  return list.filter((r) => {
    if (seen.has(r.id)) return false;
    seen.add(r.id);
    return true;
  });
}
