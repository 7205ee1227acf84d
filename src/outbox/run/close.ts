/** The last phase: the records beyond the newest kept are dropped, and the summary returned. */

import type { RunContext, RunSummary } from "./context";
import { pruneRecords, type RunState } from "./state";

export function closeRun(context: RunContext, state: RunState): RunSummary {
  pruneRecords(context, state);
  return state.summary;
}
