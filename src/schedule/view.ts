/**
 * What the settings sidebar and the menu show about the schedule: the shapes of the view, plain
 * data (google.script.run). ./words.ts builds it from the stored state in the user's language, so
 * that any user of the document sees the same picture.
 */

import type { AccountKind, AccountKindSource, QuotaCheck } from "../longrun/quota";
import type { RunRecord } from "./history";
import type { Notice } from "./notices";
import type { Schedule } from "./plan";
import type { TriggerTimePlan } from "./trigger-time";

/** One line of the run history as the sidebar shows it (plain values: google.script.run). */
export interface RunRow {
  id: string;
  /** ISO time of the start. */
  startedAt: string;
  /** The start as the sidebar shows it, in the spreadsheet's time zone. */
  startedAtText?: string;
  /** Seconds the run took, or null while running. */
  seconds: number | null;
  source: string;
  outcome: RunRecord["outcome"];
  outcomeLabel: string;
  refreshed: string[];
  records: number;
  calls: number;
  message: string;
}

export interface ScheduleView {
  schedule: Schedule;
  /** "Every 4 hours", "Every day between 9:00 and 10:00"… */
  label: string;
  /** Who the trigger runs as (empty when no schedule). */
  owner: string;
  /** True when the current user owns the schedule. */
  mine: boolean;
  /** ISO time of the next run, or null. */
  nextRun: string | null;
  /** The next run as the sidebar shows it, in the spreadsheet's time zone ("" when none). */
  nextRunText?: string;
  runs: RunRow[];
  notice: { kind: Notice["kind"]; text: string; runId: string | null } | null;
}

/** The schedule part of the settings sidebar, with this user's own preferences. */
export interface ScheduleSidebarView extends ScheduleView {
  mailOnFailure: boolean;
  quota: QuotaCheck;
  /** The user's setting ("auto": not said, so the consumer quota is assumed). */
  accountKind: AccountKind | "auto";
  /** Whether the quota's account kind is the user's word, the deployment's default or assumed (consumer). */
  accountKindSource: AccountKindSource;
  /** When the quota window closes (24 hours after its first call), as text; "" with no calls. */
  quotaResetsText: string;
  /** How much of the account's daily trigger time each frequency may use. */
  triggerTime: TriggerTimePlan;
  /** True when opening the sidebar found the schedule broken and set it up again. */
  repaired: boolean;
  /**
   * True when "Refresh now" stopped near the time limit and can go on: the page calls
   * `runRefreshFromSettings` again, piece after piece (no extra trigger is made for it).
   */
  continues?: boolean;
}
