/**
 * A list stage and its continuation: the list's pages from where the cursor says (or page 1),
 * merged into its sheet; cut off by the time limit, the part read is merged, the ids merged so
 * far kept (../list-cursor.ts) and the cursor says where to go on.
 */
import type { Fund } from "../../api/types";
import { SheetWriteStopped } from "../../sheets/apply";
import { forgetSeen, loadSeen, saveSeen } from "../list-cursor";
import { allPages } from "./pages";
import { dedupeById, idsOf, type RefreshRun, Stopped } from "./state";
import type { ListKind, Stage, Steps } from "./types";

/** The whole fund list (the movements need it), read without writing it. */
export function* fetchFundList(run: RefreshRun): Steps<Fund[]> {
  const read = yield* allPages<Fund>(
    run,
    "funds",
    "fundPage",
    [run.deps.options.fundFilters],
    undefined,
    false,
  );
  run.fundListShort = read.short === true;
  return dedupeById(read.items);
}

/**
 * A list stage: its pages from where the cursor says (or page 1), merged with `merge`. Cut
 * off by the time limit, the part read is merged (rows updated or added, none marked
 * missing), the ids merged so far kept, and the stage stops with the place to go on from;
 * complete, the rest is merged and every row the pass did not return is covered. Gives this
 * execution's records, and whether they are the whole list.
 */
export function* listStage<T extends { id: number }>(
  run: RefreshRun,
  stage: Stage,
  endpoint: string,
  kind: ListKind,
  queries: Record<string, unknown>[],
  merge: (list: T[], covers: (id: number) => boolean, partial: boolean) => void,
): Steps<{ list: T[]; whole: boolean; short: boolean }> {
  const from = run.cursor.list;
  let before =
    from && !run.probing && run.pageSize === from.size ? loadSeen(run.deps.listState, from.seen) : null;
  const read = yield* allPages<T>(run, stage, kind, queries, before && from ? from : undefined, true);
  if (read.restarted) before = null;
  const list = dedupeById(read.items);
  const ids = new Set(idsOf(list));
  // This part's rows; once the pass is complete, also every row no part of it returned.
  const covers = (id: number) => ids.has(id) || (!read.next && !read.short && !before?.has(id));
  try {
    merge(list, covers, read.next !== undefined);
  } catch (err) {
    // Written in part: the next execution goes on from where this one started, or page 1.
    if (err instanceof SheetWriteStopped && !before) delete run.cursor.list;
    throw err;
  }
  if (read.next) {
    const seen = new Set(before);
    for (const id of ids) seen.add(id);
    run.cursor.list = { ...read.next, size: run.pageSize, seen: saveSeen(run.deps.listState, seen, stage) };
  } else delete run.cursor.list;
  forgetSeen(run.deps.listState, from?.seen);
  if (read.next) throw new Stopped({ endpoint, piece: read.next.piece, page: read.next.page });
  return { list, whole: !before, short: read.short === true };
}
