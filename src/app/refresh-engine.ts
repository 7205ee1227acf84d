/**
 * The refresh as the scheduled run drives it (src/schedule/run.ts: RefreshEngine); the lock,
 * history and continuation are the run's (src/app/schedule.ts).
 */

import { keepSummaryCurrent } from "../gas/summary-sheet";
import { translate } from "../i18n";
import {
  isRefreshCursor,
  type RefreshCursor,
  type RefreshKind,
  runRefreshSteps,
  startCursor,
} from "../refresh/engine";
import { optionsFingerprint } from "../refresh/options";
import { ACTION_OF, type RefreshSource, session } from "./refresh-session";

/**
 * The refresh as the scheduled run drives it (src/schedule/run.ts: RefreshEngine): runs from
 * a cursor until done or told to stop; the lock, history and continuation are the run's.
 */
export function createGasRefreshEngine(
  source: RefreshSource,
  kind: RefreshKind = "all",
): {
  run(
    cursor: unknown,
    shouldStop: () => boolean,
  ): { finished: boolean; cursor: RefreshCursor | null; records: number; refreshed: string[] };
  settingsFingerprint(): string;
  callsMade(): number;
  secret(): string | null;
} {
  const built = session(source, ACTION_OF[kind]);
  return {
    run(cursor, shouldStop) {
      try {
        const from = isRefreshCursor(cursor) ? cursor : startCursor(kind);
        const result = runRefreshSteps(built.deps, from, shouldStop);
        keepSummaryCurrent(
          built,
          result.finished ? startCursor(kind).stages : [],
          translate(built.context.language, ACTION_OF[kind]),
          source,
        );
        return result;
      } finally {
        built.log.flush();
      }
    },
    settingsFingerprint: () => `${kind}|${optionsFingerprint(built.options, built.context.names)}`,
    callsMade: () => built.audit.requests(),
    // The first of the user's tokens: the first company's, the one this refresh sends (the
    // schedule's notices hide one secret until they run a lane per company).
    secret: () => built.secrets[0] ?? null,
  };
}
