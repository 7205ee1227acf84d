/**
 * ScriptApp triggers of the current user in the current spreadsheet: list, create the refresh
 * trigger of a schedule or a one-off follow-up, delete by unique id. Decisions are made in
 * src/schedule/plan.ts; this only carries them out.
 */
import { REFRESH_HANDLER, type Schedule, type TriggerInfo } from "../schedule/plan";

/** This user's triggers of this script in `spreadsheet` (nobody sees another user's). */
export function listMyTriggers(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): TriggerInfo[] {
  return ScriptApp.getUserTriggers(spreadsheet).map((t) => ({
    uid: t.getUniqueId(),
    handler: t.getHandlerFunction(),
  }));
}

/** Creates the recurring refresh trigger for `schedule`; returns its unique id. */
export function createRefreshTrigger(schedule: Schedule, timeZone: string): string {
  const builder = ScriptApp.newTrigger(REFRESH_HANDLER).timeBased();
  let trigger: GoogleAppsScript.Script.Trigger;
  if (schedule.kind === "hours") trigger = builder.everyHours(schedule.every).create();
  else if (schedule.kind === "daily")
    trigger = builder.atHour(schedule.hour).everyDays(1).inTimezone(timeZone).create();
  else throw new Error("schedule: there is no trigger to create when the schedule is off");
  return trigger.getUniqueId();
}

/** Deletes this user's triggers with the given unique ids; returns how many were deleted. */
export function deleteMyTriggers(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  uids: readonly string[],
): number {
  if (uids.length === 0) return 0;
  let deleted = 0;
  for (const trigger of ScriptApp.getUserTriggers(spreadsheet)) {
    if (uids.includes(trigger.getUniqueId())) {
      ScriptApp.deleteTrigger(trigger);
      deleted++;
    }
  }
  return deleted;
}
