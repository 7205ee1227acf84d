/**
 * A stage run to its end or to a stop: a stage whose time is up (Stopped) leaves the cursor
 * where the next execution goes on, and a sheet written in part (SheetWriteStopped) has the
 * continuation read the same pages again and write the rows that still differ.
 */
import { SheetWriteStopped } from "../../sheets/apply";
import { fundsStage } from "./funds";
import { transactionsStage } from "./movements";
import { reportsStage } from "./reports";
import { type RefreshRun, Stopped } from "./state";
import type { Stage, Steps } from "./types";

const STAGES: Record<Stage, (run: RefreshRun) => Steps<void>> = {
  funds: fundsStage,
  transactions: transactionsStage,
  reports: reportsStage,
};

/** Runs `stage`; whether it finished (false: stopped, the cursor saying where to go on). */
export function* runStage(run: RefreshRun, stage: Stage): Steps<boolean> {
  try {
    yield* STAGES[stage](run);
    return true;
  } catch (err) {
    if (err instanceof Stopped) {
      if (stage !== "transactions") run.cursor.at = err.at;
      return false;
    }
    if (err instanceof SheetWriteStopped) {
      // A list's sheet written in part: the continuation reads the pages again from where
      // this execution started and writes the rows that still differ.
      delete run.cursor.at;
      return false;
    }
    throw err;
  }
}

/** `stage` done: counted as refreshed, and the cursor moved to the next one. */
export function stageDone(run: RefreshRun, stage: Stage): void {
  run.refreshed.push(stage);
  run.cursor.stages.shift();
  delete run.cursor.pendingFundIds;
  delete run.cursor.list;
  delete run.cursor.at;
}
