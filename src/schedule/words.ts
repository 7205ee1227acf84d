/**
 * The schedule's words module: the schedule, its runs, its notice and the failure e-mail said in
 * the user's language, the view of ./view.ts built from the stored state (the same picture for
 * any user of the document), and what a run keeps in the history (`runWords`).
 */

import { plainError, plainText } from "../api/plain";
import { type Language, translate } from "../i18n";
import { say } from "../i18n/words";
import type { RunRecord } from "./history";
import type { Notice } from "./notices";
import { nextRunAt, type Schedule, type ScheduleState } from "./plan";
import type { RunWords } from "./run";
import type { RunRow, ScheduleView } from "./view";

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

/**
 * How a run says what the history keeps, in `language` (the document's): its words, and a
 * failure in plain words first, its technical text after.
 */
export function runWords(language: Language): RunWords {
  return {
    say: (words) => say(language, words),
    failure: (err) => plainText(plainError(err, language, "sheets"), language),
  };
}
