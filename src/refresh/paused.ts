/**
 * What a refresh started by hand tells the user when it stops near the time limit. Such a
 * refresh gets no follow-up trigger (an add-on may hold one time trigger per user per
 * document, and that one belongs to the schedule): it continues when the user runs the same
 * refresh again, or when the scheduled refresh brings everything up to date.
 */

import { type Language, type StringKey, translate } from "../i18n";
import type { Stage } from "./engine";

export interface PausedRefresh {
  /** The refresh as the user chose it, in their words ("Refresh all"). */
  action: string;
  /** Rows written in this execution. */
  records: number;
  calls: number;
  /** Sheets this execution finished. */
  refreshed: readonly Stage[];
  /** Whether the document has a refresh schedule that will run. */
  scheduled: boolean;
}

export function pausedRefreshMessage(language: Language, paused: PausedRefresh): string {
  const sheets =
    paused.refreshed.length > 0
      ? paused.refreshed.map((stage) => translate(language, `refresh.stage.${stage}` as StringKey)).join(", ")
      : translate(language, "refresh.pausedSheetsNone");
  const text = translate(language, "refresh.pausedDetail", {
    calls: paused.calls,
    records: paused.records,
    sheets,
    action: paused.action,
  });
  return paused.scheduled ? text + translate(language, "refresh.pausedSchedule") : text;
}
