/**
 * The pages of a list (getFunds, or getExpenseReports piece by piece): from where the cursor
 * says or from the start, first pages together, then the rest in batches; stoppable between
 * batches, it gives the records read in one run of pages without a gap and where the next
 * execution goes on (../list-cursor.ts).
 */
import { idsHash, type ListCursor, unshifted } from "../list-cursor";
import { batchRoom } from "./account";
import { firstPages, pagesOf } from "./send";
import { idsOf, pageKey, pageQuery, type RefreshRun } from "./state";
import type { ListKind, ListPage, Stage, Steps } from "./types";

/** What a read of a list's pages gave: its records in order, up to where it stopped. */
export interface ListRead<T> {
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

/**
 * The pages of one or more list queries from `from` (pieces before it skipped, its piece
 * from its page on, after a check that the page before it has not moved) or from the start:
 * first pages together, then the rest in batches. Stoppable, it stops between batches and
 * gives the records read in one run of pages, and where the next one starts.
 */
export function* allPages<T extends { id: number }>(
  run: RefreshRun,
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
    const [check, page] = yield* pagesOf<T>(run, stage, kind, [
      pageQuery(run, q, from.page - 1),
      pageQuery(run, q, from.page),
    ]);
    run.minimum += 2;
    if (!check || !page || !unshifted(from, idsOf(check.items)))
      return { ...(yield* allPages<T>(run, stage, kind, queries, undefined, stoppable)), restarted: true };
    counted(start, from.page, page);
  }
  // Each batch leaves a place for the account check while it is to ride in one (./account.ts).
  for (let i = 0; i < later.length; ) {
    const slice = later.slice(i, i + batchRoom(run));
    i += slice.length;
    (yield* firstPages<T>(
      run,
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
    pageQuery(run, queries[r.query] as Record<string, unknown>, r.page);
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
    const ready = kind === "reportPage" ? run.ahead.get(pageKey(queryOf(r))) : undefined;
    if (ready) ends(r, ready as unknown as ListPage<T>);
    else toFetch.push(r);
  }
  toFetch = toFetch.filter(inList);
  run.minimum += later.length + rest.filter(inList).length;
  while (toFetch.length > 0) {
    if (stoppable && run.shouldStop()) break;
    const slice = toFetch.slice(0, batchRoom(run));
    (yield* pagesOf<T>(run, stage, kind, slice.map(queryOf))).forEach((p, k) => {
      ends(slice[k] as { query: number; page: number }, p);
    });
    const left = toFetch.slice(slice.length);
    toFetch = left.filter(inList);
    run.minimum -= left.length - toFetch.length;
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
