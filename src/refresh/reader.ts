/**
 * The reads of a refresh over the API client: each method is one batch (one fetchAll, with the
 * client's retries of what failed in a retryable way). A request that still fails fails the
 * refresh, except a single record the service says does not exist (404), which comes back null.
 */
import type { BatchResult, Client, MixedRead, ReadEndpointName, ReadRound } from "../api/client";
import { HttpError, ServiceError } from "../api/errors";
import type { ExpenseReport, Fund } from "../api/types";
import {
  isFailure,
  type ListPage,
  type Read,
  type ReadFailure,
  type ReadResult,
  type RefreshReader,
} from "./engine";

type List = {
  records?: { pages: number; totalRecords: number };
  funds?: Fund[];
  expenseReports?: ExpenseReport[];
};

type Batch = (reads: readonly Read[]) => (ReadResult | ReadFailure)[];

/** Reads started for `runRounds` to send beside other companies' (./lanes.ts). */
export interface StartedReads {
  round: ReadRound;
  /** Once the round is done: as `batch` gives them. */
  results(): (ReadResult | ReadFailure)[];
}

export function clientReader(
  client: Client,
): RefreshReader & { batch: Batch; start(reads: readonly Read[]): StartedReads } {
  const mixedOf = (reads: Parameters<Batch>[0]) =>
    reads.map(
      (r): MixedRead =>
        r.kind === "fund" || r.kind === "report"
          ? { name: r.kind === "fund" ? "getFund" : "getExpenseReport", input: { Id: r.id } }
          : { name: r.kind === "fundPage" ? "getFunds" : "getExpenseReports", input: r.query },
    );
  /** Every result, a failure as a ReadFailure; a record the service does not know as null. */
  function batch(reads: Parameters<Batch>[0]): (ReadResult | ReadFailure)[] {
    return resultsOf(reads, client.readAll(mixedOf(reads)));
  }
  function start(reads: readonly Read[]): StartedReads {
    const round = client.startReads(mixedOf(reads));
    return { round, results: () => resultsOf(reads, round.results()) };
  }
  function resultsOf(
    reads: Parameters<Batch>[0],
    results: BatchResult<ReadEndpointName>[],
  ): (ReadResult | ReadFailure)[] {
    return results.map((result, i): ReadResult | ReadFailure => {
      const kind = (reads[i] as { kind: string }).kind;
      const single = kind === "fund" || kind === "report";
      const error = result.ok ? null : result.error;
      // "Not found" as an HTTP 404 or as a statusCode of 404 inside a 200 (v2 style).
      const gone =
        (error instanceof HttpError && error.status === 404) ||
        (error instanceof ServiceError && error.bodyStatusCode === 404);
      if (!result.ok) return single && gone ? null : { failed: result.error };
      if (kind === "fund") return result.value as Fund;
      if (kind === "report") {
        // A single report does not say whether it is integrated; its integration date does.
        const r = result.value as ExpenseReport;
        return r.integrated === null ? { ...r, integrated: r.integrationDate !== null } : r;
      }
      const list = result.value as List;
      const items = (kind === "fundPage" ? list.funds : list.expenseReports) ?? [];
      const { pages = 1, totalRecords: total = 0 } = list.records ?? {};
      // Pages counted by a floor division (150 records at 100 a page: 1) would leave the last
      // page unread: a full page counts it (an empty page still ends the list); a total of
      // another kind (unfiltered) adds no page. Each page counted is planned ahead: a count
      // beyond any sheet's rows is cut.
      const per = Number((reads[i] as { query?: { ResultsPerPage?: unknown } }).query?.ResultsPerPage);
      return {
        items,
        pages: Math.min(1e5, items.length >= per && pages + 1 === Math.ceil(total / per) ? pages + 1 : pages),
        total: list.records?.totalRecords,
      } as ListPage<Fund>;
    });
  }
  /** The results of a batch of one kind; the first failure is thrown. */
  function all<T>(reads: readonly Read[]): T[] {
    const results = batch(reads);
    const failure = results.find(isFailure);
    if (failure) throw failure.failed;
    return results as T[];
  }
  return {
    batch,
    start,
    fundPages: (queries) => all(queries.map((query) => ({ kind: "fundPage", query }))),
    reportPages: (queries) => all(queries.map((query) => ({ kind: "reportPage", query }))),
    funds: (ids) => all(ids.map((id) => ({ kind: "fund", id }))),
    reports: (ids) => all(ids.map((id) => ({ kind: "report", id }))),
  };
}
