/**
 * A refresh as a sequence of steps with a serialisable cursor.
 *
 * Stages run in order: funds (every page of getFunds), transactions (getFund for funds that are
 * new or whose totals moved), reports (every page of getExpenseReports, one-year piece by
 * piece). A stage writes its sheet once, when everything it needs has been fetched, or, when
 * its list takes several executions, once per execution; a failure before that leaves the
 * sheet as it was.
 *
 * Between steps `shouldStop()` is asked. When it says stop:
 * - during the movement fetches, the movements fetched so far are written (each fund's rows
 *   complete, its fingerprint saved) and the cursor keeps the ids still to fetch;
 * - during a list (between batches of pages), the pages read without a gap are merged into
 *   the sheet (rows updated or added, none marked missing, the sheet's note saying the refresh
 *   is in progress), and the cursor keeps where the next page is, a check of the page before
 *   it and the ids merged so far (./list-cursor.ts). The continuation reads that page and the
 *   one before again: moved (records added or removed in between), or the ids lost from the
 *   cache, the list starts again from page 1. Rows the pass did not return are covered only
 *   once it is complete;
 * - while a sheet is written, between chunks of rows, when no row moves (SheetWriteStopped):
 *   the rows written are whole, and the continuation reads the same pages again and writes
 *   only the rows that still differ (at least one chunk per execution).
 */
import type { ExpenseReport, Fund } from "../api/types";
import type { Language } from "../i18n";
import { SheetWriteStopped } from "../sheets/apply";
import {
  type Column,
  FILES_TABLE,
  FUNDS_TABLE,
  type FundMovement,
  filesOf,
  fundColumns,
  fundIdOfMovementKey,
  movementKey,
  movementsOf,
  type ReportFile,
  reportsTable,
  TRANSACTIONS_TABLE,
} from "../sheets/columns";
import type { MissingRowMode } from "../sheets/merge";
import {
  type EmployeeNames,
  learnEmployeeNames,
  loadEmployeeNames,
  type NamesMark,
  saveEmployeeNames,
} from "./employees";
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
  forgetSeen,
  idsHash,
  isListCursor,
  type ListCursor,
  type ListStateStore,
  loadSeen,
  saveSeen,
  unshifted,
} from "./list-cursor";
import {
  learntPageSize,
  type PageSizeProbe,
  refusedPageSize,
  rememberedPageSize,
  rememberPageSize,
} from "./page-size";
import type { TextStore } from "./stored-text";
import { type DateWindow, splitWindow } from "./windows";

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

/** One read of a refresh: a page of a list, or a fund with its movements. */
export type Read =
  | { kind: "fundPage"; query: Record<string, unknown> }
  | { kind: "reportPage"; query: Record<string, unknown> }
  | { kind: "fund"; id: number };
type ListKind = "fundPage" | "reportPage";
export type ReadResult = ListPage<Fund> | ListPage<ExpenseReport> | Fund | null;

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

/** What a read of a list's pages gave: its records in order, up to where it stopped. */
interface ListRead<T> {
  items: T[];
  /** Where the next execution goes on; none when the list was read to its end. */
  next?: Omit<ListCursor, "size" | "seen">;
  /** The place given no longer held (the pages shifted): read from page 1 instead. */
  restarted: boolean;
  /**
   * Fewer records than the total the pages announced (records moved between pages while they
   * were read): the rows no page returned may still be in the list, so none is marked missing.
   */
  short?: boolean;
}

const idsOf = (list: readonly { id: number }[]) => list.map((r) => r.id);

/** Which rows of a sheet keyed by id an update covers. */
const keyCovers =
  (covers: (id: number) => boolean) =>
  (key: string): boolean =>
    covers(Number(key));

class Stopped {
  constructor(readonly at: RefreshCursor["at"]) {}
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

/** Runs a refresh from `cursor` until it is done or `shouldStop()` says stop. */
export function runRefreshSteps(
  deps: EngineDeps,
  cursor: RefreshCursor,
  shouldStop: () => boolean,
): EngineResult {
  return driveSteps(refreshSteps(deps, cursor, shouldStop), (reads) => readWith(deps.reader, reads));
}

/** Runs `steps` to their end, each batch read by `read` (what it throws is thrown into them). */
export function driveSteps<T>(
  steps: Steps<T>,
  read: (reads: readonly Read[]) => (ReadResult | ReadFailure)[],
): T {
  let next = steps.next();
  while (!next.done) {
    let results: (ReadResult | ReadFailure)[];
    try {
      results = read(next.value.reads);
    } catch (err) {
      next = steps.throw(err);
      continue;
    }
    next = steps.next(results);
  }
  return next.value;
}

/**
 * One batch through `reader`: reads of several kinds with its `batch`, reads of one kind with
 * the reader's own method for it (whose failure is thrown).
 */
function readWith(reader: RefreshReader, reads: readonly Read[]): (ReadResult | ReadFailure)[] {
  const first = reads[0];
  if (!first) return [];
  if (reader.batch && reads.some((r) => r.kind !== first.kind)) return reader.batch(reads);
  if (first.kind === "fund") return reader.funds(reads.map((r) => (r as { id: number }).id));
  const queries = reads.map((r) => (r as { query: Record<string, unknown> }).query);
  return first.kind === "fundPage" ? reader.fundPages(queries) : reader.reportPages(queries);
}

/** The steps of a refresh from `cursor` until it is done or `shouldStop()` says stop. */
export function* refreshSteps(
  deps: EngineDeps,
  cursor: RefreshCursor,
  shouldStop: () => boolean,
): Steps<EngineResult> {
  const { reader, sheets, options } = deps;
  const state: RefreshCursor = JSON.parse(JSON.stringify(cursor));
  let requests = 0;
  let minimum = 0;
  let records = 0;
  const refreshed: Stage[] = [];
  let fundList: Fund[] | null = null;
  let names: EmployeeNames = deps.employeeNames
    ? loadEmployeeNames(deps.employeeNames, deps.namesMine)
    : new Map();

  const step = (stage: Stage, count: number) => {
    requests += count;
    deps.onStep?.({ stage, requests });
  };

  const probe = options.pageSizeProbe;
  const sizes = deps.pageSizes ?? deps.fingerprints;
  const remembered = probe ? rememberedPageSize(sizes, probe.serviceUrl) : null;
  // While probing, the first pages of the lists ask for probe.ask and show what the service takes.
  let probing = probe !== undefined && remembered === null;
  let pageSize = remembered ?? (probing && probe ? probe.ask : options.pageSize);
  const keepPageSize = (size: number) => {
    probing = false;
    pageSize = size;
    if (probe) rememberPageSize(sizes, probe.serviceUrl, size);
  };

  const pageQuery = (q: Record<string, unknown>, page: number) => ({
    ...q,
    ResultsPerPage: pageSize,
    Page: page,
  });
  const pageKey = (q: Record<string, unknown>) => JSON.stringify(q);

  // Report pages fetched ahead, in the spare places of other batches (by their query's text):
  // the report pieces' first pages go out with the funds' first page, and the pages they
  // announce fill the batches of fund pages and movements, so no batch leaves with room while a
  // page is known to be needed. Kept for this execution only.
  const reportQueries = state.stages.includes("reports") ? reportPieceQueries() : [];
  const ahead = new Map<string, ListPage<ExpenseReport>>();

  /** Report pages known to be needed and not fetched yet, at most `room`. */
  function spareReportPages(room: number): Record<string, unknown>[] {
    if (room <= 0 || !reader.batch || state.stages[0] === "reports") return [];
    const out: Record<string, unknown>[] = [];
    for (const q of reportQueries) {
      // Its first page, or, once that is known, the pages it announced.
      const first = ahead.get(pageKey(pageQuery(q, 1)));
      const pages = !first || first.items.length === 0 ? 1 : Math.max(1, first.pages);
      for (let page = 1; page <= pages; page++) {
        const query = pageQuery(q, page);
        const got = ahead.get(pageKey(query));
        // An empty page ends the list, whatever count the first one announced.
        if (got && got.items.length === 0) break;
        if (!got) out.push(query);
      }
    }
    return out.slice(0, room);
  }

  /**
   * One batch (one fetchAll): `own` reads, all of one kind, then report pages needed later in
   * the room left; the one place reads leave (yielded to whoever drives the steps). Returns the
   * results of `own`; the first of them that failed is thrown.
   */
  function* send(stage: Stage, own: readonly Read[]): Steps<ReadResult[]> {
    const extra = reader.batch ? spareReportPages(options.batchSize - own.length) : [];
    const all = yield {
      reads: [...own, ...extra.map((query): Read => ({ kind: "reportPage", query }))],
    };
    if (extra.length > 0) {
      // A page fetched ahead that failed is simply fetched again in its turn.
      const pages = extra.flatMap((q, k) => {
        const page = all[own.length + k] as ListPage<ExpenseReport>;
        if (isFailure(page)) return [];
        ahead.set(pageKey(q), page);
        return [page];
      });
      // Pages asked at the probe's size teach it too; a size they change leaves them unused
      // (their query names the size asked for).
      const learnt = probing && learntPageSize(pageSize, pages);
      if (learnt) keepPageSize(learnt.size);
    }
    const mine = all.slice(0, own.length);
    const failure = mine.find(isFailure);
    if (failure) throw failure.failed;
    step(stage, own.length + extra.length);
    return mine as ReadResult[];
  }

  /** Pages of one kind: those fetched ahead, the others in one batch. */
  function* pagesOf<T>(
    stage: Stage,
    kind: ListKind,
    queries: readonly Record<string, unknown>[],
  ): Steps<ListPage<T>[]> {
    const known = queries.map((q) => (kind === "reportPage" ? ahead.get(pageKey(q)) : undefined));
    const missing = queries.filter((_q, i) => known[i] === undefined);
    if (missing.length === 0) return known as ListPage<T>[];
    const fetched = (yield* send(
      stage,
      missing.map((query): Read => ({ kind, query })),
    )) as ListPage<T>[];
    let k = 0;
    return known.map((p) => (p ?? fetched[k++]) as ListPage<T>);
  }

  /** The first pages of `queries`; while probing, asked at the probe's size, then settled. */
  function* firstPages<T>(
    stage: Stage,
    kind: ListKind,
    queries: Record<string, unknown>[],
  ): Steps<ListPage<T>[]> {
    const ask = () =>
      pagesOf<T>(
        stage,
        kind,
        queries.map((q) => pageQuery(q, 1)),
      );
    if (!probing) return yield* ask();
    const asked = pageSize;
    let pages: ListPage<T>[];
    try {
      pages = yield* ask();
    } catch (err) {
      if (!refusedPageSize(err)) throw err;
      step(stage, queries.length);
      pageSize = options.pageSize;
      pages = yield* ask();
      keepPageSize(pageSize);
      return pages;
    }
    const learnt = learntPageSize(asked, pages);
    if (learnt) keepPageSize(learnt.size);
    // Cut short (here or in the pages that rode with these): the pages that follow would not
    // line up with these; ask again at the size kept.
    return pageSize === asked ? pages : yield* ask();
  }

  /**
   * The pages of one or more list queries from `from` (pieces before it skipped, its piece
   * from its page on, after a check that the page before it has not moved) or from the start:
   * first pages together, then the rest in batches. Stoppable, it stops between batches and
   * gives the records read in one run of pages, and where the next one starts.
   */
  function* allPages<T extends { id: number }>(
    stage: Stage,
    kind: ListKind,
    queries: Record<string, unknown>[],
    from: ListCursor | undefined,
    stoppable: boolean,
  ): Steps<ListRead<T>> {
    const start = from?.piece ?? 0;
    const got: ListPage<T>[][] = queries.map(() => []);
    const pageCounts: number[] = [];
    const firstOf = (qi: number) => (from && qi === start ? from.page : 1);
    const counted = (qi: number, page: number, p: ListPage<T>) => {
      (got[qi] as ListPage<T>[])[page] = p;
      // Stop paging when the count is reached or a page comes back empty.
      pageCounts[qi] = p.items.length === 0 ? page : Math.max(page, p.pages);
    };
    const later: number[] = [];
    for (let qi = start; qi < queries.length; qi++) if (firstOf(qi) === 1) later.push(qi);
    if (from && from.page > 1) {
      const q = queries[start] as Record<string, unknown>;
      const [check, page] = yield* pagesOf<T>(stage, kind, [
        pageQuery(q, from.page - 1),
        pageQuery(q, from.page),
      ]);
      minimum += 2;
      if (!check || !page || !unshifted(from, idsOf(check.items)))
        return { ...(yield* allPages<T>(stage, kind, queries, undefined, stoppable)), restarted: true };
      counted(start, from.page, page);
    }
    for (let i = 0; i < later.length; i += options.batchSize) {
      const slice = later.slice(i, i + options.batchSize);
      (yield* firstPages<T>(
        stage,
        kind,
        slice.map((qi) => queries[qi] as Record<string, unknown>),
      )).forEach((p, k) => {
        counted(slice[k] as number, 1, p);
      });
    }
    const rest: { query: number; page: number }[] = [];
    for (let qi = start; qi < queries.length; qi++)
      for (let page = firstOf(qi) + 1; page <= (pageCounts[qi] ?? 1); page++) rest.push({ query: qi, page });
    const queryOf = (r: { query: number; page: number }) =>
      pageQuery(queries[r.query] as Record<string, unknown>, r.page);
    // An empty page ends its list (the count its first page announced may be wrong): the
    // pages after it are not asked for.
    const ends = (r: { query: number; page: number }, p: ListPage<T>) => {
      (got[r.query] as ListPage<T>[])[r.page] = p;
      if (p.items.length === 0) pageCounts[r.query] = Math.min(pageCounts[r.query] ?? 1, r.page);
    };
    const inList = (r: { query: number; page: number }) => r.page <= (pageCounts[r.query] ?? 1);
    // Pages fetched ahead are taken as they are; the others go out in full batches.
    let toFetch: { query: number; page: number }[] = [];
    for (const r of rest) {
      const ready = kind === "reportPage" ? ahead.get(pageKey(queryOf(r))) : undefined;
      if (ready) ends(r, ready as unknown as ListPage<T>);
      else toFetch.push(r);
    }
    toFetch = toFetch.filter(inList);
    minimum += later.length + rest.filter(inList).length;
    while (toFetch.length > 0) {
      if (stoppable && shouldStop()) break;
      const slice = toFetch.slice(0, options.batchSize);
      (yield* pagesOf<T>(stage, kind, slice.map(queryOf))).forEach((p, k) => {
        ends(slice[k] as { query: number; page: number }, p);
      });
      const left = toFetch.slice(slice.length);
      toFetch = left.filter(inList);
      minimum -= left.length - toFetch.length;
    }
    // The pages read without a gap, piece after piece; the first gap is where the next run starts.
    const items: T[] = [];
    for (let qi = start; qi < queries.length; qi++) {
      const pages = got[qi] as ListPage<T>[];
      for (let page = firstOf(qi); page <= (pageCounts[qi] ?? 1); page++) {
        const p = pages[page];
        if (!p) {
          const next = { piece: qi, page, pages: pageCounts[qi] ?? 1 };
          return {
            items,
            next: { ...next, check: idsHash(idsOf(pages[page - 1]?.items ?? [])) },
            restarted: false,
          };
        }
        items.push(...p.items);
      }
    }
    // Each piece read from its first page holds at least the records its pages announced.
    const short = queries.some((_q, qi) => {
      if (qi < start || firstOf(qi) !== 1) return false;
      const pages = (got[qi] as ListPage<T>[]).filter(Boolean);
      const total = Math.max(0, ...pages.map((p) => p.total ?? 0));
      return new Set(pages.flatMap((p) => idsOf(p.items))).size < total;
    });
    return { items, restarted: false, short };
  }

  /** Whether the fund list last read fell short of its total (./ListRead's `short`). */
  let fundListShort = false;

  function* fetchFundList(): Steps<Fund[]> {
    const read = yield* allPages<Fund>("funds", "fundPage", [options.fundFilters], undefined, false);
    fundListShort = read.short === true;
    return dedupeById(read.items);
  }

  /**
   * A list stage: its pages from where the cursor says (or page 1), merged with `merge`. Cut
   * off by the time limit, the part read is merged (rows updated or added, none marked
   * missing), the ids merged so far kept, and the stage stops with the place to go on from;
   * complete, the rest is merged and every row the pass did not return is covered. Gives this
   * execution's records, and whether they are the whole list.
   */
  function* listStage<T extends { id: number }>(
    stage: Stage,
    endpoint: string,
    kind: ListKind,
    queries: Record<string, unknown>[],
    merge: (list: T[], covers: (id: number) => boolean, partial: boolean) => void,
  ): Steps<{ list: T[]; whole: boolean; short: boolean }> {
    const from = state.list;
    let before = from && !probing && pageSize === from.size ? loadSeen(deps.listState, from.seen) : null;
    const read = yield* allPages<T>(stage, kind, queries, before && from ? from : undefined, true);
    if (read.restarted) before = null;
    const list = dedupeById(read.items);
    const ids = new Set(idsOf(list));
    // This part's rows; once the pass is complete, also every row no part of it returned.
    const covers = (id: number) => ids.has(id) || (!read.next && !read.short && !before?.has(id));
    try {
      merge(list, covers, read.next !== undefined);
    } catch (err) {
      // Written in part: the next execution goes on from where this one started, or page 1.
      if (err instanceof SheetWriteStopped && !before) delete state.list;
      throw err;
    }
    if (read.next) {
      const seen = new Set(before);
      for (const id of ids) seen.add(id);
      state.list = { ...read.next, size: pageSize, seen: saveSeen(deps.listState, seen, stage) };
    } else delete state.list;
    forgetSeen(deps.listState, from?.seen);
    if (read.next) throw new Stopped({ endpoint, piece: read.next.piece, page: read.next.page });
    return { list, whole: !before, short: read.short === true };
  }

  /** The report window cut into pieces of at most a year, each a query of getExpenseReports. */
  function reportPieceQueries(): Record<string, unknown>[] {
    return splitWindow(options.reportWindow).map((w) => ({
      ...options.reportFilters,
      Since: w.since,
      Until: w.until,
    }));
  }

  function* fundsStage(): Steps<void> {
    const read = yield* listStage<Fund>(
      "funds",
      "getFunds",
      "fundPage",
      [options.fundFilters],
      (list, covers, partial) => {
        // The report pages that rode with the funds' name their employees already: learnt
        // before the funds are written, so that names the stored list had no room for are not
        // written as ids first and as names again after the reports.
        learnNames(
          [...ahead.values()].flatMap((page) => page.items),
          list,
        );
        records += writeFunds(list, shouldStop, keyCovers(covers), partial);
      },
    );
    // The movements need the whole list: read again when it took several executions.
    fundList = read.whole ? read.list : null;
    fundListShort = read.short;
  }

  function writeFunds(
    list: readonly Fund[],
    stop?: () => boolean,
    covers: SheetUpdate<Fund>["covers"] = "all",
    partial = false,
  ): number {
    return sheets.apply<Fund>("funds", {
      columnsFor: () => fundColumns(names),
      records: list,
      keyOf: FUNDS_TABLE.keyOf,
      covers,
      shouldStop: stop,
      partial,
    });
  }

  function* transactionsStage(): Steps<void> {
    let known: Fingerprints = loadFingerprints(deps.fingerprints);
    // A sheet emptied by hand (or never filled) needs every fund's movements again.
    if (sheets.isEmpty("transactions")) known = new Map();
    let pending = state.pendingFundIds;
    let gone: number[] = [];
    if (!pending) {
      const list = fundList ?? (yield* fetchFundList());
      pending = fundsToFetch(list, known);
      // A fund no page returned may still be there when the list fell short of its total.
      gone = fundListShort ? [] : vanishedFunds(list, known);
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
      const funds = (yield* send(
        "transactions",
        batch.map((id): Read => ({ kind: "fund", id })),
      )) as (Fund | null)[];
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

  function* reportsStage(): Steps<void> {
    const before = names;
    const queries = reportQueries.length > 0 ? reportQueries : reportPieceQueries();
    // A report on the edge of two pieces, or moved between pages, comes once.
    yield* listStage<ExpenseReport>(
      "reports",
      "getExpenseReports",
      "reportPage",
      queries,
      (list, covers, partial) => {
        records += sheets.apply<ExpenseReport>("reports", {
          columnsFor: (previousKeys) => reportsTable(list, previousKeys).columns,
          records: list,
          keyOf: (r) => String(r.id),
          covers: keyCovers(covers),
          shouldStop,
          partial,
        });
        // No sheet of files until there is a file to list. Its key is `<report id>-<n>`.
        if (list.some((r) => r.files?.length) || !sheets.isEmpty("files"))
          sheets.apply("files", {
            ...filesUpdate(list, (key) => covers(Number(key.split("-")[0])), shouldStop),
            partial,
          });
        learnNames(list, fundList);
      },
    );
    if (fundList?.some((f) => names.get(f.idAssignTo) !== before.get(f.idAssignTo))) {
      // The funds were written earlier in this refresh, before these reports named their
      // employees: written again (only rows whose name changed differ), to the end; the same
      // records, so not counted twice.
      writeFunds(fundList);
    }
  }

  /**
   * Adds the names `reports` carry to `names` and stores them, those of `funds`' employees
   * kept first; whether any was new.
   */
  function learnNames(reports: readonly ExpenseReport[], funds?: readonly Fund[] | null): boolean {
    const next = deps.employeeNames ? learnEmployeeNames(names, reports) : null;
    if (!next || !deps.employeeNames) return false;
    saveEmployeeNames(
      deps.employeeNames,
      next,
      funds ? new Set(funds.map((f) => f.idAssignTo)) : undefined,
      deps.namesMine,
    );
    names = next;
    return true;
  }

  const run: Record<Stage, () => Steps<void>> = {
    funds: fundsStage,
    transactions: transactionsStage,
    reports: reportsStage,
  };

  while (state.stages.length > 0) {
    const stage = state.stages[0] as Stage;
    // Stop between stages only once something was done, so every execution makes progress.
    if (requests > 0 && shouldStop()) return paused();
    try {
      yield* run[stage]();
    } catch (err) {
      if (err instanceof Stopped) {
        if (stage !== "transactions") state.at = err.at;
        return paused();
      }
      if (err instanceof SheetWriteStopped) {
        // A list's sheet written in part: the continuation reads the pages again from where
        // this execution started and writes the rows that still differ.
        delete state.at;
        return paused();
      }
      throw err;
    }
    refreshed.push(stage);
    state.stages.shift();
    delete state.pendingFundIds;
    delete state.list;
    delete state.at;
  }
  return { finished: true, cursor: null, records, refreshed, requests, minimumRequests: minimum };

  function paused(): EngineResult {
    return { finished: false, cursor: state, records, refreshed, requests, minimumRequests: minimum };
  }
}

function filesUpdate(
  reports: readonly ExpenseReport[],
  covers: SheetUpdate<ReportFile>["covers"],
  shouldStop?: () => boolean,
): SheetUpdate<ReportFile> {
  return {
    columnsFor: () => FILES_TABLE.columns,
    records: reports.flatMap(filesOf),
    keyOf: FILES_TABLE.keyOf,
    covers,
    shouldStop,
  };
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
      deps.onStep?.({ stage: "reports", requests });
    }
    records += sheets.apply<ExpenseReport>("reports", {
      columnsFor: (previousKeys) => reportsTable(found, previousKeys).columns,
      records: found,
      keyOf: (r) => String(r.id),
      covers,
      // getExpenseReport does not carry these list-only fields: keep what the last list said.
      preserveKeys: ["integrationInternalCode"],
    });
    sheets.apply(
      "files",
      filesUpdate(found, (key) => covered.has(key.split("-")[0] as string)),
    );
    const known = deps.employeeNames ? loadEmployeeNames(deps.employeeNames, deps.namesMine) : new Map();
    const learnt = deps.employeeNames ? learnEmployeeNames(known, found) : null;
    if (learnt && deps.employeeNames)
      saveEmployeeNames(deps.employeeNames, learnt, undefined, deps.namesMine);
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
    deps.onStep?.({ stage: "funds", requests });
  }
  if (selection.target === "funds") {
    const names = deps.employeeNames
      ? loadEmployeeNames(deps.employeeNames, deps.namesMine)
      : new Map<number, string>();
    records += sheets.apply<Fund>("funds", {
      columnsFor: () => fundColumns(names),
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
