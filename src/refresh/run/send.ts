/**
 * The batches of a refresh: the one place its reads leave (yielded to whoever drives the
 * steps, one fetchAll each), with report pages needed later in the room a batch leaves; pages
 * fetched ahead taken instead of asked again; a list's first pages asked at the probe's size
 * while the page size is being found (../page-size.ts).
 */
import type { ExpenseReport } from "../../api/types";
import { learntPageSize, refusedPageSize } from "../page-size";
import { checkMarkedAccount, checkRead, passCheck } from "./account";
import { keepPageSize, pageKey, pageQuery, type RefreshRun, stepped } from "./state";
import {
  isFailure,
  type ListKind,
  type ListPage,
  type Read,
  type ReadResult,
  type Stage,
  type Steps,
} from "./types";

/** Report pages known to be needed and not fetched yet, at most `room`. */
export function spareReportPages(run: RefreshRun, room: number): Record<string, unknown>[] {
  if (room <= 0 || !run.deps.reader.batch || run.cursor.stages[0] === "reports") return [];
  const out: Record<string, unknown>[] = [];
  for (const q of run.reportQueries) {
    // Its first page, or, once that is known, the pages it announced.
    const first = run.ahead.get(pageKey(pageQuery(run, q, 1)));
    const pages = !first || first.items.length === 0 ? 1 : Math.max(1, first.pages);
    for (let page = 1; page <= pages; page++) {
      const query = pageQuery(run, q, page);
      const got = run.ahead.get(pageKey(query));
      // An empty page ends the list, whatever count the first one announced.
      if (got && got.items.length === 0) break;
      if (!got) out.push(query);
    }
  }
  return out.slice(0, room);
}

/**
 * One batch (one fetchAll): the account check while it is still to make (first, so the batch's
 * first call is the check's, as when it was a batch of its own), `own` reads, all of one kind,
 * then report pages needed later in the room left; the one place reads leave
 * (yielded to whoever drives the steps). The check's answer is looked at first: another
 * account's, and nothing of the batch is used. Returns the results of `own`; the first of them
 * that failed is thrown.
 */
export function* send(run: RefreshRun, stage: Stage, own: readonly Read[]): Steps<ReadResult[]> {
  const size = run.deps.options.batchSize;
  // A batch of the refresh's own already full: the check goes before it, alone.
  if (run.accountPending && own.length >= size) yield* checkMarkedAccount(run);
  const check = run.accountPending ? [checkRead()] : [];
  const extra = run.deps.reader.batch ? spareReportPages(run, size - own.length - check.length) : [];
  const all = yield {
    reads: [...check, ...own, ...extra.map((query): Read => ({ kind: "reportPage", query }))],
  };
  if (check.length > 0) passCheck(run, all[0]);
  const from = check.length + own.length;
  if (extra.length > 0) {
    // A page fetched ahead that failed is simply fetched again in its turn.
    const pages = extra.flatMap((q, k) => {
      const page = all[from + k] as ListPage<ExpenseReport>;
      if (isFailure(page)) return [];
      run.ahead.set(pageKey(q), page);
      return [page];
    });
    // Pages asked at the probe's size teach it too; a size they change leaves them unused
    // (their query names the size asked for).
    const learnt = run.probing && learntPageSize(run.pageSize, pages);
    if (learnt) keepPageSize(run, learnt.size);
  }
  const mine = all.slice(check.length, check.length + own.length);
  const failure = mine.find(isFailure);
  if (failure) throw failure.failed;
  stepped(run, stage, own.length + check.length + extra.length);
  return mine as ReadResult[];
}

/** Pages of one kind: those fetched ahead, the others in one batch. */
export function* pagesOf<T>(
  run: RefreshRun,
  stage: Stage,
  kind: ListKind,
  queries: readonly Record<string, unknown>[],
): Steps<ListPage<T>[]> {
  const known = queries.map((q) => (kind === "reportPage" ? run.ahead.get(pageKey(q)) : undefined));
  const missing = queries.filter((_q, i) => known[i] === undefined);
  if (missing.length === 0) return known as ListPage<T>[];
  const fetched = (yield* send(
    run,
    stage,
    missing.map((query): Read => ({ kind, query })),
  )) as ListPage<T>[];
  let k = 0;
  return known.map((p) => (p ?? fetched[k++]) as ListPage<T>);
}

/** The first pages of `queries`; while probing, asked at the probe's size, then settled. */
export function* firstPages<T>(
  run: RefreshRun,
  stage: Stage,
  kind: ListKind,
  queries: Record<string, unknown>[],
): Steps<ListPage<T>[]> {
  const ask = () =>
    pagesOf<T>(
      run,
      stage,
      kind,
      queries.map((q) => pageQuery(run, q, 1)),
    );
  if (!run.probing) return yield* ask();
  const asked = run.pageSize;
  let pages: ListPage<T>[];
  try {
    pages = yield* ask();
  } catch (err) {
    if (!refusedPageSize(err)) throw err;
    stepped(run, stage, queries.length);
    run.pageSize = run.deps.options.pageSize;
    pages = yield* ask();
    keepPageSize(run, run.pageSize);
    return pages;
  }
  const learnt = learntPageSize(asked, pages);
  if (learnt) keepPageSize(run, learnt.size);
  // Cut short (here or in the pages that rode with these): the pages that follow would not
  // line up with these; ask again at the size kept.
  return run.pageSize === asked ? pages : yield* ask();
}
