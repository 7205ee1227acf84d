/**
 * A refresh as a sequence of steps with a serialisable cursor.
 *
 * Stages run in order: funds (every page of getFunds), transactions (getFund for funds that are
 * new or whose totals moved), reports (every page of getExpenseReports, one-year piece by
 * piece). A stage writes its sheet once, when everything it needs has been fetched, so a sheet
 * never shows half a list; a failure before that leaves the sheet as it was.
 *
 * Between steps `shouldStop()` is asked. When it says stop:
 * - during the movement fetches, the movements fetched so far are written (each fund's rows
 *   complete, its fingerprint saved) and the cursor keeps the ids still to fetch;
 * - during a list, nothing is written and the cursor keeps the stage: the continuation fetches
 *   that list again from its first page, because pages of an offset-paged list shift when
 *   records change in between, and stitching pages of two moments would duplicate or drop rows.
 *   A list restarted that way runs to its end, so every continuation makes progress;
 * - while a sheet is written, between chunks of rows, when no row moves (SheetWriteStopped):
 *   the rows written are whole, and the continuation merges the same stage again, writing
 *   only the rows that still differ (at least one chunk per execution).
 */
import type { ExpenseReport, Fund } from "../api/types";
import { SheetWriteStopped } from "../sheets/apply";
import {
  type Column,
  FUNDS_TABLE,
  type FundMovement,
  fundIdOfMovementKey,
  movementKey,
  movementsOf,
  reportsTable,
  TRANSACTIONS_TABLE,
} from "../sheets/columns";
import type { MissingRowMode } from "../sheets/merge";
import type { Language } from "../ui/strings";
import {
  type FingerprintStore,
  type Fingerprints,
  fundFingerprint,
  fundsToFetch,
  loadFingerprints,
  saveFingerprints,
  vanishedFunds,
} from "./fingerprints";
import {
  learntPageSize,
  type PageSizeProbe,
  refusedPageSize,
  rememberedPageSize,
  rememberPageSize,
} from "./page-size";
import { type DateWindow, splitWindow } from "./windows";

export type Stage = "funds" | "transactions" | "reports";
export type SheetTarget = Stage;

/** One page of a list as the engine needs it. */
export interface ListPage<T> {
  items: T[];
  /** Page count the service announced (Records.Pages). */
  pages: number;
  /** Records the whole list holds (Records.TotalRecords), when the service says. */
  total?: number;
}

/** The reads a refresh makes; every method is one batch (UrlFetchApp.fetchAll) of requests. */
export interface RefreshReader {
  fundPages(queries: readonly Record<string, unknown>[]): ListPage<Fund>[];
  reportPages(queries: readonly Record<string, unknown>[]): ListPage<ExpenseReport>[];
  /** Each fund with its movements; null for a fund the service does not know (any more). */
  funds(ids: readonly number[]): (Fund | null)[];
  reports(ids: readonly number[]): (ExpenseReport | null)[];
}

/** How a sheet is to be updated (see sheets/merge.ts for what each part means). */
export interface SheetUpdate<R> {
  /** The columns, given the keys of the add-on's columns the sheet has now. */
  columnsFor(previousKeys: readonly string[]): readonly Column<R>[];
  records: readonly R[];
  keyOf(record: R): string;
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
}

export interface RefreshSheets {
  /** Merges `update` into the sheet with one read and one write; returns rows written. */
  apply<R>(target: SheetTarget, update: SheetUpdate<R>): number;
  /** Whether the sheet holds no data rows (missing, or only a header). */
  isEmpty(target: SheetTarget): boolean;
  /** The ids in the key column of the rows `rows` (1-based sheet rows) of a sheet. */
  keysOfRows?(target: SheetTarget, rows: readonly number[]): string[];
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
  language: Language;
}

export type RefreshKind = "funds" | "transactions" | "reports" | "all";

/** Where a refresh is; plain JSON, stored between executions. */
export interface RefreshCursor {
  v: 1;
  /** Stages still to run, the current one first. */
  stages: Stage[];
  /** Funds whose movements are still to fetch (transactions stage under way). */
  pendingFundIds?: number[];
  /** The current list stage was interrupted once: this time it runs to its end. */
  restartedList?: boolean;
  /** For progress messages: where the interrupted list was. */
  at?: { endpoint: string; piece: number; page: number };
}

export interface StepProgress {
  stage: Stage;
  /** Requests sent by this refresh so far (before retries). */
  requests: number;
  /** What this step did, e.g. "getFunds pages 2–26". */
  step: string;
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
  options: RefreshOptions;
  onStep?: (progress: StepProgress) => void;
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
      (Array.isArray(c.pendingFundIds) && c.pendingFundIds.every((id) => Number.isInteger(id))))
  );
}

class Stopped {
  constructor(readonly at: RefreshCursor["at"]) {}
}

/** Runs a refresh from `cursor` until it is done or `shouldStop()` says stop. */
export function runRefreshSteps(
  deps: EngineDeps,
  cursor: RefreshCursor,
  shouldStop: () => boolean,
): EngineResult {
  const { reader, sheets, options } = deps;
  const state: RefreshCursor = JSON.parse(JSON.stringify(cursor));
  let requests = 0;
  let minimum = 0;
  let records = 0;
  const refreshed: Stage[] = [];
  let fundList: Fund[] | null = null;

  const step = (stage: Stage, text: string, count: number) => {
    requests += count;
    deps.onStep?.({ stage, requests, step: text });
  };

  const probe = options.pageSizeProbe;
  const remembered = probe ? rememberedPageSize(deps.fingerprints, probe.serviceUrl) : null;
  // While probing, the first pages of the lists ask for probe.ask and show what the service takes.
  let probing = probe !== undefined && remembered === null;
  let pageSize = remembered ?? (probing && probe ? probe.ask : options.pageSize);
  const keepPageSize = (size: number) => {
    probing = false;
    pageSize = size;
    if (probe) rememberPageSize(deps.fingerprints, probe.serviceUrl, size);
  };

  /** The first pages of `queries`; while probing, asked at the probe's size, then settled. */
  function firstPages<T>(
    stage: Stage,
    endpoint: string,
    queries: Record<string, unknown>[],
    fetch: (qs: readonly Record<string, unknown>[]) => ListPage<T>[],
  ): ListPage<T>[] {
    const ask = () => fetch(queries.map((q) => ({ ...q, ResultsPerPage: pageSize, Page: 1 })));
    const what = `${endpoint} page 1 of ${queries.length} quer${queries.length === 1 ? "y" : "ies"}`;
    if (!probing) {
      const pages = ask();
      step(stage, what, queries.length);
      return pages;
    }
    let pages: ListPage<T>[];
    try {
      pages = ask();
    } catch (err) {
      if (!refusedPageSize(err)) throw err;
      step(stage, `${what} at ${pageSize} per page: refused`, queries.length);
      pageSize = options.pageSize;
      pages = ask();
      step(stage, what, queries.length);
      keepPageSize(pageSize);
      return pages;
    }
    step(stage, what, queries.length);
    const learnt = learntPageSize(pageSize, pages);
    if (learnt === null) return pages;
    keepPageSize(learnt.size);
    if (!learnt.cut) return pages;
    // Cut short: the pages that follow would not line up with these; ask again at that size.
    pages = ask();
    step(stage, `${what} at ${pageSize} per page`, queries.length);
    return pages;
  }

  /** Every page of one or more list queries: first pages together, then the rest in batches. */
  function allPages<T>(
    stage: Stage,
    endpoint: string,
    queries: Record<string, unknown>[],
    fetch: (qs: readonly Record<string, unknown>[]) => ListPage<T>[],
    stoppable: boolean,
  ): T[][] {
    const perQuery: T[][] = queries.map(() => []);
    const pagesOf: number[] = [];
    const withPage = (q: Record<string, unknown>, page: number) => ({
      ...q,
      ResultsPerPage: pageSize,
      Page: page,
    });
    for (let i = 0; i < queries.length; i += options.batchSize) {
      const slice = queries.slice(i, i + options.batchSize);
      const firsts = firstPages(stage, endpoint, slice, fetch);
      firsts.forEach((p, k) => {
        perQuery[i + k]?.push(...p.items);
        // Stop paging when the count is reached or a page comes back empty.
        pagesOf[i + k] = p.items.length === 0 ? 1 : Math.max(1, p.pages);
      });
    }
    const rest: { query: number; page: number }[] = [];
    queries.forEach((_q, qi) => {
      for (let page = 2; page <= (pagesOf[qi] ?? 1); page++) rest.push({ query: qi, page });
    });
    minimum += queries.length + rest.length;
    const pieces: T[][][] = queries.map(() => []);
    for (let i = 0; i < rest.length; i += options.batchSize) {
      if (stoppable && shouldStop()) {
        const at = rest[i] as { query: number; page: number };
        throw new Stopped({ endpoint, piece: at.query, page: at.page });
      }
      const slice = rest.slice(i, i + options.batchSize);
      const pages = fetch(slice.map((r) => withPage(queries[r.query] as Record<string, unknown>, r.page)));
      step(stage, `${endpoint} pages ${i + 2}–${i + 1 + slice.length}`, slice.length);
      pages.forEach((p, k) => {
        const r = slice[k] as { query: number; page: number };
        (pieces[r.query] as T[][])[r.page] = p.items;
      });
    }
    pieces.forEach((list, qi) => {
      for (const items of list) if (items) perQuery[qi]?.push(...items);
    });
    return perQuery;
  }

  function fetchFundList(stoppable: boolean): Fund[] {
    const [items] = allPages(
      "funds",
      "getFunds",
      [options.fundFilters],
      (qs) => reader.fundPages(qs),
      stoppable,
    );
    return dedupeById(items ?? []);
  }

  function fundsStage(): void {
    const stoppable = !state.restartedList;
    fundList = fetchFundList(stoppable);
    const list = fundList;
    records += sheets.apply<Fund>("funds", {
      columnsFor: () => FUNDS_TABLE.columns,
      records: list,
      keyOf: FUNDS_TABLE.keyOf,
      covers: "all",
      shouldStop,
    });
  }

  function transactionsStage(): void {
    let known: Fingerprints = loadFingerprints(deps.fingerprints);
    // A sheet emptied by hand (or never filled) needs every fund's movements again.
    if (sheets.isEmpty("transactions")) known = new Map();
    let pending = state.pendingFundIds;
    let gone: number[] = [];
    if (!pending) {
      const list = fundList ?? fetchFundList(false);
      pending = fundsToFetch(list, known);
      gone = vanishedFunds(list, known);
      state.pendingFundIds = pending;
    }
    const fetched: Fund[] = [];
    const missing: number[] = [...gone];
    let stopped = false;
    while (pending.length > 0) {
      if (shouldStop() && (fetched.length > 0 || missing.length > 0 || requests > 0)) {
        stopped = true;
        break;
      }
      const batch = pending.slice(0, options.batchSize);
      const funds = reader.funds(batch);
      step("transactions", `getFund × ${batch.length}`, batch.length);
      minimum += batch.length;
      funds.forEach((f, k) => {
        if (f) fetched.push(f);
        else missing.push(batch[k] as number);
      });
      pending = pending.slice(batch.length);
    }
    // Nothing fetched and nothing gone: the sheet already shows every fund's movements.
    if (fetched.length > 0 || missing.length > 0) {
      const covered = new Set<number>([...fetched.map((f) => f.id), ...missing]);
      const movements: FundMovement[] = fetched.flatMap(movementsOf);
      try {
        records += sheets.apply<FundMovement>("transactions", {
          columnsFor: () => TRANSACTIONS_TABLE.columns,
          records: movements,
          keyOf: TRANSACTIONS_TABLE.keyOf,
          anchorOf: previousMovement,
          covers: (key) => {
            const id = fundIdOfMovementKey(key);
            return id !== null && covered.has(id);
          },
          shouldStop,
        });
      } catch (err) {
        if (!(err instanceof SheetWriteStopped)) throw err;
        // Written in part: these funds are fetched and merged again next time (their
        // fingerprints are not saved, so nothing counts as done that is not on the sheet).
        state.pendingFundIds = [...fetched.map((f) => f.id), ...missing, ...pending];
        throw new Stopped({ endpoint: "getFund", piece: 0, page: 0 });
      }
      for (const f of fetched) known.set(f.id, fundFingerprint(f));
      for (const id of missing) known.delete(id);
      saveFingerprints(deps.fingerprints, known);
    }
    state.pendingFundIds = pending;
    if (stopped) throw new Stopped({ endpoint: "getFund", piece: 0, page: 0 });
  }

  function reportsStage(): void {
    const stoppable = !state.restartedList;
    const queries = splitWindow(options.reportWindow).map((w) => ({
      ...options.reportFilters,
      Since: w.since,
      Until: w.until,
    }));
    const pieces = allPages(
      "reports",
      "getExpenseReports",
      queries,
      (qs) => reader.reportPages(qs),
      stoppable,
    );
    // A report on the edge of two pieces, or moved between pages, comes once.
    const list = dedupeById(pieces.flat());
    records += sheets.apply<ExpenseReport>("reports", {
      columnsFor: (previousKeys) => reportsTable(list, previousKeys).columns,
      records: list,
      keyOf: (r) => String(r.id),
      covers: "all",
      shouldStop,
    });
  }

  const run: Record<Stage, () => void> = {
    funds: fundsStage,
    transactions: transactionsStage,
    reports: reportsStage,
  };

  while (state.stages.length > 0) {
    const stage = state.stages[0] as Stage;
    // Stop between stages only once something was done, so every execution makes progress.
    if (requests > 0 && shouldStop()) return paused();
    try {
      run[stage]();
    } catch (err) {
      if (err instanceof Stopped) {
        if (stage !== "transactions") {
          state.restartedList = true;
          state.at = err.at;
        }
        return paused();
      }
      if (err instanceof SheetWriteStopped) {
        // A list's sheet written in part: the continuation fetches the list again (to its
        // end) and writes the rows that still differ.
        state.restartedList = true;
        delete state.at;
        return paused();
      }
      throw err;
    }
    refreshed.push(stage);
    state.stages.shift();
    delete state.pendingFundIds;
    delete state.restartedList;
    delete state.at;
  }
  return { finished: true, cursor: null, records, refreshed, requests, minimumRequests: minimum };

  function paused(): EngineResult {
    return { finished: false, cursor: state, records, refreshed, requests, minimumRequests: minimum };
  }
}

/** A new movement belongs right after the fund's previous one. */
function previousMovement(m: FundMovement): string | null {
  return m.position > 1 ? movementKey(m.fund.id, m.position - 1) : null;
}

/** The records with the first of each id kept, in order. */
export function dedupeById<T extends { id: number }>(list: readonly T[]): T[] {
  const seen = new Set<number>();
  return list.filter((r) => {
    if (seen.has(r.id)) return false;
    seen.add(r.id);
    return true;
  });
}

/** Which sheet rows a selected-rows refresh covers. */
export interface Selection {
  target: "funds" | "reports" | "transactions";
  ids: number[];
}

/**
 * Refreshes only the records of selected rows: funds by getFund (their movements come with
 * them, so their transaction rows and fingerprints are updated too), reports by
 * getExpenseReport. Only those rows change; a record the service no longer has is kept and
 * marked or removed as the refresh mode says.
 */
export function refreshSelection(deps: EngineDeps, selection: Selection): EngineResult {
  const { reader, sheets, options } = deps;
  let requests = 0;
  let records = 0;
  const ids = [...new Set(selection.ids)];
  const covered = new Set(ids.map(String));
  const covers = (key: string) => covered.has(key);
  if (selection.target === "reports") {
    const found: ExpenseReport[] = [];
    for (let i = 0; i < ids.length; i += options.batchSize) {
      const batch = ids.slice(i, i + options.batchSize);
      for (const r of reader.reports(batch)) if (r) found.push(r);
      requests += batch.length;
      deps.onStep?.({ stage: "reports", requests, step: `getExpenseReport × ${batch.length}` });
    }
    records += sheets.apply<ExpenseReport>("reports", {
      columnsFor: (previousKeys) => reportsTable(found, previousKeys).columns,
      records: found,
      keyOf: (r) => String(r.id),
      covers,
      // getExpenseReport does not carry these list-only fields: keep what the last list said.
      preserveKeys: ["integrationInternalCode"],
    });
    return {
      finished: true,
      cursor: null,
      records,
      refreshed: ["reports"],
      requests,
      minimumRequests: requests,
    };
  }
  const found: Fund[] = [];
  const missing: number[] = [];
  for (let i = 0; i < ids.length; i += options.batchSize) {
    const batch = ids.slice(i, i + options.batchSize);
    reader.funds(batch).forEach((f, k) => {
      if (f) found.push(f);
      else missing.push(batch[k] as number);
    });
    requests += batch.length;
    deps.onStep?.({ stage: "funds", requests, step: `getFund × ${batch.length}` });
  }
  if (selection.target === "funds") {
    records += sheets.apply<Fund>("funds", {
      columnsFor: () => FUNDS_TABLE.columns,
      records: found,
      keyOf: FUNDS_TABLE.keyOf,
      covers,
    });
  }
  records += sheets.apply<FundMovement>("transactions", {
    columnsFor: () => TRANSACTIONS_TABLE.columns,
    records: found.flatMap(movementsOf),
    keyOf: TRANSACTIONS_TABLE.keyOf,
    anchorOf: previousMovement,
    covers: (key) => {
      const id = fundIdOfMovementKey(key);
      return id !== null && covered.has(String(id));
    },
  });
  const known = loadFingerprints(deps.fingerprints);
  if (known.size > 0 || !sheets.isEmpty("transactions")) {
    for (const f of found) known.set(f.id, fundFingerprint(f));
    for (const id of missing) known.delete(id);
    saveFingerprints(deps.fingerprints, known);
  }
  const refreshed: Stage[] = selection.target === "funds" ? ["funds", "transactions"] : ["transactions"];
  return { finished: true, cursor: null, records, refreshed, requests, minimumRequests: requests };
}
