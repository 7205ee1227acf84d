/**
 * The reads of a refresh over the API client: each method is one `readMany` (one fetchAll, with
 * the client's retries of what failed in a retryable way). A request that still fails fails the
 * refresh, except a single record the service says does not exist (404), which comes back null.
 */
import type { BatchResult, Client, ReadEndpointName } from "../api/client";
import { HttpError } from "../api/errors";
import type { ExpenseReport, Fund } from "../api/types";
import type { ListPage, Read, ReadFailure, ReadResult, RefreshReader } from "./engine";

function values<N extends ReadEndpointName, T>(
  results: BatchResult<N>[],
  notFoundAsNull: boolean,
): (T | null)[] {
  return results.map((r) => {
    if (r.ok) return r.value as T;
    if (notFoundAsNull && r.error instanceof HttpError && r.error.status === 404) return null;
    throw r.error;
  });
}

/** A list page as the engine reads it. */
function listPage<T>(items: T[] | undefined, records: { pages: number; totalRecords: number } | undefined) {
  return { items: items ?? [], pages: records?.pages ?? 1, total: records?.totalRecords };
}

export function clientReader(client: Client): RefreshReader {
  return {
    batch(reads) {
      const results = client.readAll(
        reads.map((r) =>
          r.kind === "fund"
            ? { name: "getFund" as const, input: { Id: r.id } }
            : {
                name: r.kind === "fundPage" ? ("getFunds" as const) : ("getExpenseReports" as const),
                input: r.query,
              },
        ),
      );
      return results.map((result, i): ReadResult | ReadFailure => {
        const read = reads[i] as Read;
        if (!result.ok) {
          const gone =
            read.kind === "fund" && result.error instanceof HttpError && result.error.status === 404;
          return gone ? null : { failed: result.error };
        }
        if (read.kind === "fund") return result.value as Fund;
        if (read.kind === "fundPage") {
          const list = result.value as { records: { pages: number; totalRecords: number }; funds: Fund[] };
          return listPage(list.funds, list.records);
        }
        const list = result.value as {
          records: { pages: number; totalRecords: number };
          expenseReports: ExpenseReport[];
        };
        return listPage(list.expenseReports, list.records);
      });
    },
    fundPages(queries) {
      const pages = values<"getFunds", { records: { pages: number; totalRecords: number }; funds: Fund[] }>(
        client.readMany("getFunds", queries),
        false,
      );
      return pages.map(
        (p) =>
          ({
            items: p?.funds ?? [],
            pages: p?.records.pages ?? 1,
            total: p?.records.totalRecords,
          }) as ListPage<Fund>,
      );
    },
    reportPages(queries) {
      const pages = values<
        "getExpenseReports",
        { records: { pages: number; totalRecords: number }; expenseReports: ExpenseReport[] }
      >(client.readMany("getExpenseReports", queries), false);
      return pages.map((p) => ({
        items: p?.expenseReports ?? [],
        pages: p?.records.pages ?? 1,
        total: p?.records.totalRecords,
      }));
    },
    funds(ids) {
      return values<"getFund", Fund>(
        client.readMany(
          "getFund",
          ids.map((Id) => ({ Id })),
        ),
        true,
      );
    },
    reports(ids) {
      const reports = values<"getExpenseReport", ExpenseReport>(
        client.readMany(
          "getExpenseReport",
          ids.map((Id) => ({ Id })),
        ),
        true,
      );
      // A single report does not say whether it is integrated; its integration date does.
      return reports.map((r) =>
        r && r.integrated === null ? { ...r, integrated: r.integrationDate !== null } : r,
      );
    },
  };
}
