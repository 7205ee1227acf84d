/** The funds stage: every page of getFunds, merged into the Funds sheet. */
import type { Fund } from "../../api/types";
import { FUNDS_TABLE, fundColumns } from "../../sheets/columns";
import { listStage } from "./list-stage";
import { learnNames } from "./names";
import { keyCovers, type RefreshRun } from "./state";
import type { SheetUpdate, Steps } from "./types";

export function* fundsStage(run: RefreshRun): Steps<void> {
  const read = yield* listStage<Fund>(
    run,
    "funds",
    "getFunds",
    "fundPage",
    [run.deps.options.fundFilters],
    (list, covers, partial) => {
      // The report pages that rode with the funds' name their employees already: learnt
      // before the funds are written, so that names the stored list had no room for are not
      // written as ids first and as names again after the reports.
      learnNames(
        run,
        [...run.ahead.values()].flatMap((page) => page.items),
        list,
      );
      run.records += writeFunds(run, list, run.shouldStop, keyCovers(covers), partial);
    },
  );
  // The movements need the whole list: read again when it took several executions.
  run.fundList = read.whole ? read.list : null;
  run.fundListShort = read.short;
}

/** The funds written to their sheet with the employees' names known now; rows written. */
export function writeFunds(
  run: RefreshRun,
  list: readonly Fund[],
  stop?: () => boolean,
  covers: SheetUpdate<Fund>["covers"] = "all",
  partial = false,
): number {
  return run.deps.sheets.apply<Fund>("funds", {
    columnsFor: () => fundColumns(run.names),
    records: list,
    keyOf: FUNDS_TABLE.keyOf,
    covers,
    shouldStop: stop,
    partial,
  });
}
