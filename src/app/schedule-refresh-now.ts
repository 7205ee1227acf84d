/**
 * "Refresh now" in the settings sidebar: one execution of the refresh the schedule runs,
 * recorded in its history.
 */

import type { ScheduleSidebarView } from "../schedule/view";
import { entry } from "./entry";
import { runRefreshExecution } from "./schedule";
import { buildScheduleView, repairedNow } from "./schedule-view";

/**
 * "Refresh now" in the settings sidebar: one execution of the same refresh the schedule runs,
 * recorded in the history; near the time limit it stops and a follow-up execution continues
 * it. Returns the schedule view with the new run on top.
 */
export function runRefreshFromSettings(): ScheduleSidebarView {
  return entry("sidebar", refreshFromSettings);
}

function refreshFromSettings(): ScheduleSidebarView {
  const startedAt = Date.now();
  const result = runRefreshExecution("sidebar", startedAt);
  // A run is one of the moments a disabled schedule trigger is noticed and re-created.
  return { ...buildScheduleView(repairedNow()), continues: result.outcome === "continued" };
}
