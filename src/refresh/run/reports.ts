/**
 * The reports stage: every page of getExpenseReports, one-year piece by piece, merged into the
 * Expense reports sheet and its files' sheet; the employees they name learnt, and the funds
 * written again where a name changed.
 */
import type { ExpenseReport } from "../../api/types";
import { FILES_TABLE, filesOf, type ReportFile, reportsTable } from "../../sheets/columns";
import { writeFunds } from "./funds";
import { listStage } from "./list-stage";
import { learnNames } from "./names";
import { keyCovers, type RefreshRun, reportPieceQueries } from "./state";
import type { SheetUpdate, Steps } from "./types";

export function* reportsStage(run: RefreshRun): Steps<void> {
  const { sheets } = run.deps;
  const shouldStop = run.shouldStop;
  const before = run.names;
  const queries = run.reportQueries.length > 0 ? run.reportQueries : reportPieceQueries(run.deps.options);
  // A report on the edge of two pieces, or moved between pages, comes once.
  yield* listStage<ExpenseReport>(
    run,
    "reports",
    "getExpenseReports",
    "reportPage",
    queries,
    (list, covers, partial) => {
      run.records += sheets.apply<ExpenseReport>("reports", {
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
      learnNames(run, list, run.fundList);
    },
  );
  if (run.fundList?.some((f) => run.names.get(f.idAssignTo) !== before.get(f.idAssignTo))) {
    // The funds were written earlier in this refresh, before these reports named their
    // employees: written again (only rows whose name changed differ), to the end; the same
    // records, so not counted twice.
    writeFunds(run, run.fundList);
  }
}

export function filesUpdate(
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
