/**
 * The refresh as the scheduled run drives it (src/schedule/run.ts: RefreshEngine); the lock,
 * history and continuation are the run's (src/app/schedule.ts).
 */

import { keepSummaryCurrent } from "../gas/summary-sheet";
import { translate } from "../i18n";
import { type RefreshKind, startCursor } from "../refresh/engine";
import type { LanesCursor } from "../refresh/lanes";
import { optionsFingerprint } from "../refresh/options";
import {
  ACTION_OF,
  laneNotes,
  onlyLaneError,
  type RefreshSource,
  runSessionLanes,
  session,
} from "./refresh-session";

/**
 * The refresh as the scheduled run drives it (src/schedule/run.ts: RefreshEngine): runs a lane
 * per company from a cursor (of this version, or of the previous one: the first company's lane)
 * until done or told to stop; the lock, history and continuation are the run's. A company that
 * failed while the others finished makes the run fail, naming it; while others still have work,
 * it is tried again from where it was by the continuation.
 */
export function createGasRefreshEngine(
  source: RefreshSource,
  kind: RefreshKind = "all",
): {
  run(
    cursor: unknown,
    shouldStop: () => boolean,
  ): {
    finished: boolean;
    cursor: LanesCursor | null;
    records: number;
    refreshed: string[];
    notes: string[];
  };
  settingsFingerprint(): string;
  callsMade(): number;
  secret(): readonly string[];
} {
  const built = session(source, ACTION_OF[kind]);
  return {
    run(cursor, shouldStop) {
      try {
        const result = runSessionLanes(built, kind, cursor, shouldStop);
        const failure = onlyLaneError(built, result);
        if (failure !== undefined) throw failure;
        keepSummaryCurrent(
          built,
          result.finished ? startCursor(kind).stages : [],
          translate(built.context.language, ACTION_OF[kind]),
          source,
        );
        const failed = result.lanes.some((lane) => lane.error !== undefined);
        if (failed && result.finished)
          throw new Error(laneNotes(built, result, built.context.language).join("\n"));
        // The companies left out (no usable token) or to be tried again: listed in the history.
        return { ...result, notes: laneNotes(built, result, built.context.language) };
      } finally {
        built.log.flush();
      }
    },
    settingsFingerprint: () => `${kind}|${optionsFingerprint(built.options, built.context.names)}`,
    callsMade: () => built.audit.requests(),
    // Every token of the user (one per company): none may reach the history, a notice or a mail.
    secret: () => built.secrets,
  };
}
