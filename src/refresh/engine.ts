/**
 * A refresh as a sequence of steps with a serialisable cursor.
 *
 * When the company has an account mark, one read of its oldest funds, in the first batch of each
 * execution, checks that the token opens the marked account (./run/account.ts): answers of
 * another account stop the refresh before anything is written. The stages run in order: funds (every page of getFunds), transactions (getFund for funds that are
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
import {
  FUNDS_TABLE,
  type FundMovement,
  fundColumns,
  fundIdOfMovementKey,
  movementsOf,
  reportsTable,
  TRANSACTIONS_TABLE,
} from "../sheets/columns";
import { learnEmployeeNames, loadEmployeeNames, saveEmployeeNames } from "./employees";
import { fundFingerprint, loadFingerprints, saveFingerprints } from "./fingerprints";
import { otherAccountOf, readsAfterCheck, startAccountCheck } from "./run/account";
import { previousMovement } from "./run/movements";
import { filesUpdate } from "./run/reports";
import { runStage, stageDone } from "./run/stages";
import { progressed, resultOf, startRefresh } from "./run/state";
import type {
  EngineDeps,
  EngineResult,
  Read,
  ReadFailure,
  ReadResult,
  RefreshCursor,
  RefreshReader,
  Stage,
  Steps,
} from "./run/types";

export { OtherAccount } from "./run/account";
export { dedupeById } from "./run/state";
export * from "./run/types";

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
  if (first.kind === "fund" || first.kind === "report") {
    const ids = reads.map((r) => (r as { id: number }).id);
    return first.kind === "fund" ? reader.funds(ids) : reader.reports(ids);
  }
  const queries = reads.map((r) => (r as { query: Record<string, unknown> }).query);
  return first.kind === "fundPage" ? reader.fundPages(queries) : reader.reportPages(queries);
}

/**
 * The steps of a refresh from `cursor` until it is done or `shouldStop()` says stop: its
 * stages in order, each run to its end or to a stop (./run/stages.ts) over the refresh's state
 * (./run/state.ts).
 */
export function* refreshSteps(
  deps: EngineDeps,
  cursor: RefreshCursor,
  shouldStop: () => boolean,
): Steps<EngineResult> {
  const run = startRefresh(deps, cursor, shouldStop);
  // Before anything is written: the reads are of the company's account (none of it written if
  // not), checked with the first batch's answers.
  if (run.cursor.stages.length > 0) yield* startAccountCheck(run);
  while (run.cursor.stages.length > 0) {
    const stage = run.cursor.stages[0] as Stage;
    // Stop between stages only once something was done, so every execution makes progress.
    if (progressed(run) && shouldStop()) return resultOf(run, false);
    if (!(yield* runStage(run, stage))) return resultOf(run, false);
    stageDone(run, stage);
  }
  return resultOf(run, true);
}

/**
 * The funds or reports of `ids` (null for one the service no longer has), a batch of the batch
 * size each, the account check first, before any row is written: first in the first batch where
 * the reader sends reads of several kinds together, as a refresh's first batch carries it
 * (./run/account.ts), else a read of its own before them. OtherAccount thrown when the reads are
 * another account's.
 */
function selectedRecords<T>(deps: EngineDeps, kind: "fund" | "report", ids: readonly number[]): (T | null)[] {
  const { reader, account, options } = deps;
  let check =
    account && reader.batch && options.batchSize > 1 && ids.length > 0
      ? { account, batch: reader.batch }
      : null;
  const other = account && !check ? otherAccountOf(deps) : null;
  if (other) throw other;
  const out: (T | null)[] = [];
  while (out.length < ids.length) {
    const batch = ids.slice(out.length, out.length + options.batchSize - (check ? 1 : 0));
    const reads = batch.map((id): Read => ({ kind, id }));
    const got = check ? readsAfterCheck(check.account, check.batch, reads) : readWith(reader, reads);
    check = null;
    out.push(...(got as (T | null)[]));
    deps.onStep?.({ stage: kind === "fund" ? "funds" : "reports", requests: out.length });
  }
  return out;
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
  const { sheets } = deps;
  let records = 0;
  const ids = [...new Set(selection.ids)];
  const requests = ids.length;
  const covered = new Set(ids.map(String));
  const covers = (key: string) => covered.has(key);
  if (selection.target === "reports") {
    const found = selectedRecords<ExpenseReport>(deps, "report", ids).filter((r) => r !== null);
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
  const read = selectedRecords<Fund>(deps, "fund", ids);
  const found = read.filter((f) => f !== null);
  const missing = ids.filter((_id, k) => read[k] === null);
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
