/**
 * The one-off clock trigger that continues the month-end close's marking: created for the
 * current user (it runs as them, with their token), at least an hour ahead, since an add-on's
 * clock triggers run at most once an hour, a one-off `after(ms)` included.
 */
import { CLOSE_CONTINUATION_HANDLER } from "../schedule/plan";
import { deleteMyTriggers, listMyTriggers } from "./triggers";

/** The earliest an add-on's one-off clock trigger may fire. */
export const CLOSE_FOLLOW_UP_MS = 60 * 60 * 1000;

/** This user's pending close continuation triggers in `spreadsheet`, by unique id. */
export function myCloseFollowUps(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): string[] {
  return listMyTriggers(spreadsheet)
    .filter((t) => t.handler === CLOSE_CONTINUATION_HANDLER)
    .map((t) => t.uid);
}

/** Removes this user's pending close continuation triggers; returns how many. */
export function deleteMyCloseFollowUps(spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet): number {
  return deleteMyTriggers(spreadsheet, myCloseFollowUps(spreadsheet));
}

/**
 * Replaces this user's close continuation trigger with one firing after `delayMs`; returns its
 * unique id. Throws Google's message when the user may hold no more (their schedule's trigger
 * in this document, or 20 in all).
 */
export function createCloseFollowUp(
  spreadsheet: GoogleAppsScript.Spreadsheet.Spreadsheet,
  delayMs: number = CLOSE_FOLLOW_UP_MS,
): string {
  deleteMyCloseFollowUps(spreadsheet);
  const trigger = ScriptApp.newTrigger(CLOSE_CONTINUATION_HANDLER).timeBased().after(delayMs).create();
  return trigger.getUniqueId();
}
