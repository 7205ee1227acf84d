/**
 * What the settings sidebar and the menu show about the schedule, and the failure e-mail, as
 * plain data in the user's language. Built from the stored state so that any user of the
 * document sees the same picture.
 */

import { type Language, translate } from "../i18n";
import type { AccountKind, AccountKindSource, QuotaCheck } from "../longrun/quota";
import type { RunRecord } from "./history";
import type { Notice } from "./notices";
import { nextRunAt, type Schedule, type ScheduleState } from "./plan";
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

/** The schedule in words. */
export function describeSchedule(language: Language, s: Schedule): string {
  if (s.kind === "off") return translate(language, "schedule.off");
  if (s.kind === "hours") {
    return s.every === 1
      ? translate(language, "schedule.hour")
      : translate(language, "schedule.hours", { n: s.every });
  }
  return translate(language, "schedule.daily", { hour: s.hour, next: (s.hour + 1) % 24 });
}

/** The run as one row of the sidebar's history. */
export function runRow(language: Language, run: RunRecord, formatTime?: (ms: number) => string): RunRow {
  return {
    id: run.id,
    startedAt: new Date(run.startedAt).toISOString(),
    ...(formatTime ? { startedAtText: formatTime(run.startedAt) } : {}),
    seconds: run.endedAt === null ? null : Math.round((run.endedAt - run.startedAt) / 100) / 10,
    source: translate(language, `run.source.${run.source}`),
    outcome: run.outcome,
    outcomeLabel: translate(language, `run.outcome.${run.outcome}`),
    refreshed: run.refreshed,
    records: run.records,
    calls: run.calls,
    message: run.message,
  };
}

/** A notice in words; `formatTime` renders a time in the document's time zone. */
export function noticeText(language: Language, notice: Notice, formatTime: (ms: number) => string): string {
  if (notice.kind === "failed") {
    return translate(language, "notice.failed", { when: formatTime(notice.at), message: notice.message });
  }
  return translate(language, "notice.stalled", { when: formatTime(notice.since), owner: notice.owner });
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

export interface ScheduleViewInput {
  language: Language;
  state: ScheduleState | null;
  me: string;
  runs: readonly RunRecord[];
  notice: Notice | null;
  nowMs: number;
  tzOffsetMinutes: number;
  formatTime: (ms: number) => string;
}

export function scheduleView(input: ScheduleViewInput): ScheduleView {
  const { language, state, runs } = input;
  const schedule: Schedule = state?.schedule ?? { kind: "off" };
  const lastScheduled = runs.find((r) => r.source === "schedule");
  const anchor = Math.max(state?.installedAt ?? 0, lastScheduled?.startedAt ?? 0);
  const next = nextRunAt(schedule, anchor, input.nowMs, input.tzOffsetMinutes);
  return {
    schedule,
    label: describeSchedule(language, schedule),
    owner: schedule.kind === "off" ? "" : (state?.ownerLabel ?? ""),
    mine: state?.ownerKey === input.me,
    nextRun: next === null ? null : new Date(next).toISOString(),
    nextRunText: next === null ? "" : input.formatTime(next),
    runs: runs.map((r) => runRow(language, r, input.formatTime)),
    notice: input.notice
      ? {
          kind: input.notice.kind,
          text: noticeText(language, input.notice, input.formatTime),
          runId: input.notice.kind === "failed" ? input.notice.runId : null,
        }
      : null,
  };
}

/** The e-mail sent to the schedule's owner when an unattended run failed. */
export function failureMail(
  language: Language,
  run: RunRecord,
  document: { name: string; url: string },
  formatTime: (ms: number) => string,
): { subject: string; body: string } {
  return {
    subject: translate(language, "mail.failed.subject", { document: document.name }),
    body: translate(language, "mail.failed.body", {
      document: document.name,
      when: formatTime(run.startedAt),
      message: run.message || translate(language, `run.outcome.${run.outcome}`),
      url: document.url,
    }),
  };
}
