/**
 * The refresh schedule of a document and the plan that keeps exactly one refresh trigger for it.
 *
 * Apps Script lets each user see only their own triggers, cannot say whether a trigger was
 * disabled, and runs add-on time triggers at most hourly. So the document keeps one
 * `ScheduleState` (which schedule, whose trigger, since when) and every user's triggers are
 * reconciled against it: the owner keeps exactly one, everyone else keeps none.
 */

/** Hours between runs that `everyHours(n)` accepts. */
export const HOUR_CHOICES = [1, 2, 4, 6, 8, 12] as const;
export type EveryHours = (typeof HOUR_CHOICES)[number];

export type Schedule =
  | { kind: "off" }
  | { kind: "hours"; every: EveryHours }
  | { kind: "daily"; hour: number };

/** Document property: the document's schedule (see ScheduleState). */
export const SCHEDULE_STATE_KEY = "schedule.state";

/** Handler of the recurring refresh trigger. */
export const REFRESH_HANDLER = "runScheduledRefresh";
/** Handler of the one-off trigger that continues a refresh stopped near the time limit. */
export const CONTINUATION_HANDLER = "continueRefresh";
/**
 * Handler of the one-off trigger that continues the month-end close's marking stopped near the
 * time limit. It gives way to the schedule's trigger as the refresh's does: an add-on holds one
 * clock trigger per user per document.
 */
export const CLOSE_CONTINUATION_HANDLER = "continueCloseMarking";

const HOUR_MS = 60 * 60 * 1000;
/** A trigger "at 9" fires between 9 and 10; a run may also wait for the lock a little. */
const FIRING_WINDOW_MS = HOUR_MS;
const GRACE_MS = 30 * 60 * 1000;

/** Bad schedule input: names the field and the rule it broke. */
export class ScheduleInputError extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${field}: ${rule}`);
    this.name = "ScheduleInputError";
  }
}

/**
 * Reads a schedule sent by the sidebar (untrusted: any top-level function can be called by
 * anyone who can open the sidebar). Accepts `{kind:"off"}`, `{kind:"hours", every}` or
 * `{kind:"daily", hour}`; throws `ScheduleInputError` otherwise.
 */
export function parseSchedule(input: unknown): Schedule {
  if (typeof input !== "object" || input === null) {
    throw new ScheduleInputError("schedule", "must be an object with a kind");
  }
  const value = input as Record<string, unknown>;
  const kind = value["kind"];
  if (kind === "off") return { kind: "off" };
  if (kind === "hours") {
    const every = Number(value["every"]);
    if (!(HOUR_CHOICES as readonly number[]).includes(every) || typeof value["every"] === "boolean") {
      throw new ScheduleInputError("every", `must be one of ${HOUR_CHOICES.join(", ")} hours`);
    }
    return { kind: "hours", every: every as EveryHours };
  }
  if (kind === "daily") {
    const hour = Number(value["hour"]);
    if (!Number.isInteger(hour) || hour < 0 || hour > 23 || typeof value["hour"] === "boolean") {
      throw new ScheduleInputError("hour", "must be a whole hour from 0 to 23");
    }
    return { kind: "daily", hour };
  }
  throw new ScheduleInputError("kind", 'must be "off", "hours" or "daily"');
}

/** A short stable text for a schedule, e.g. `hours:4`, `daily:9`, `off`. */
export function scheduleKey(s: Schedule): string {
  if (s.kind === "hours") return `hours:${s.every}`;
  if (s.kind === "daily") return `daily:${s.hour}`;
  return "off";
}

/** Time between two runs of a schedule (0 when off). */
export function periodMs(s: Schedule): number {
  if (s.kind === "hours") return s.every * HOUR_MS;
  if (s.kind === "daily") return 24 * HOUR_MS;
  return 0;
}

/**
 * When the next scheduled run should start, in ms since the epoch, or null when off.
 * `lastRunAt` is the start of the last scheduled run (or the install time when none ran yet).
 * For a daily schedule `tzOffsetMinutes` is the document's offset from UTC, so "at 9" means
 * 9 in the spreadsheet's time zone. A time in the past means the run is due now.
 */
export function nextRunAt(s: Schedule, lastRunAt: number, nowMs: number, tzOffsetMinutes = 0): number | null {
  if (s.kind === "off") return null;
  if (s.kind === "hours") {
    const period = periodMs(s);
    let next = lastRunAt + period;
    // A late run keeps the rhythm: skip whole periods that already passed.
    if (next < nowMs) next += Math.ceil((nowMs - next) / period) * period;
    return next;
  }
  const offsetMs = tzOffsetMinutes * 60 * 1000;
  const localNow = nowMs + offsetMs;
  const dayStart = Math.floor(localNow / (24 * HOUR_MS)) * 24 * HOUR_MS;
  let localNext = dayStart + s.hour * HOUR_MS;
  // Today's firing hour already passed, or a run already happened in today's window.
  if (localNext + FIRING_WINDOW_MS <= localNow || lastRunAt + offsetMs >= localNext)
    localNext += 24 * HOUR_MS;
  return localNext - offsetMs;
}

/**
 * Longest silence a working trigger of this schedule can produce: one period, plus the hour
 * within which Google fires it, plus a margin. Longer than this without any run, the trigger
 * is taken as disabled (no API tells) and re-created.
 */
export function allowedSilenceMs(s: Schedule): number {
  return periodMs(s) + FIRING_WINDOW_MS + GRACE_MS;
}

/** The document's schedule: one per document, carried out by its owner's trigger. */
export interface ScheduleState {
  schedule: Schedule;
  /** Stable key of the user whose trigger runs it (not an email: may be empty for consumers). */
  ownerKey: string;
  /** What to show as the owner (email when known). */
  ownerLabel: string;
  /** Unique id of the owner's refresh trigger, once created. */
  triggerUid: string | null;
  /** When the current trigger was created (ms). */
  installedAt: number;
}

/** A trigger of the current user in this document, as ScriptApp lists it. */
export interface TriggerInfo {
  uid: string;
  handler: string;
}

export interface TriggerPlanInput {
  state: ScheduleState | null;
  /** Key of the user running this code. */
  me: string;
  /**
   * What this user's own properties say they saved for this document (`scheduleKey`), null
   * when nothing: the state is a document property any editor can write, so it alone never
   * makes a trigger for someone (see `savedByMe`).
   */
  mySaved: string | null;
  /** This user's triggers of this script in this document. */
  mine: readonly TriggerInfo[];
  /** Start of the last scheduled run of the current trigger, if any. */
  lastScheduledRunAt: number | null;
  nowMs: number;
}

export type TriggerPlanReason =
  | "not-owner"
  | "off"
  | "duplicate"
  | "missing"
  | "disabled"
  | "unconfirmed"
  | "unknown";

/** What to do with this user's refresh triggers so that exactly one (or none) remains. */
export interface TriggerPlan {
  /** Uids of triggers to delete. */
  remove: string[];
  /** Schedule of the trigger to create, or null. */
  create: Schedule | null;
  /** Why each removal or creation happens, for the run history and tests. */
  reasons: TriggerPlanReason[];
}

/**
 * Plans the reconciliation of this user's refresh triggers with the document's schedule.
 * Only the owner keeps a refresh trigger; a non-owner's triggers are all removed. The owner
 * keeps the one recorded in the state; other refresh triggers are duplicates. A recorded
 * trigger silent for longer than the schedule allows is taken as disabled and re-created.
 * Continuation triggers are left alone here (see `planContinuationTriggers`).
 */
export function planTriggers(input: TriggerPlanInput): TriggerPlan {
  const { state, me, nowMs } = input;
  const refreshTriggers = input.mine.filter((t) => t.handler === REFRESH_HANDLER);
  const plan: TriggerPlan = { remove: [], create: null, reasons: [] };
  if (!state || state.schedule.kind === "off" || state.ownerKey !== me) {
    for (const t of refreshTriggers) plan.remove.push(t.uid);
    if (refreshTriggers.length > 0) plan.reasons.push(!state || state.ownerKey === me ? "off" : "not-owner");
    return plan;
  }
  // Named owner of a schedule they did not save (another editor wrote the state): their
  // triggers are neither made nor changed; a run of one that exists records why it did not refresh.
  if (!savedByMe(state, me, input.mySaved)) return { ...plan, reasons: ["unconfirmed"] };
  const recorded = refreshTriggers.find((t) => t.uid === state.triggerUid);
  for (const t of refreshTriggers) {
    if (t !== recorded) {
      plan.remove.push(t.uid);
      // A trigger we did not record: we cannot read its timing, so it cannot be trusted.
      if (!plan.reasons.includes("duplicate")) plan.reasons.push("duplicate");
    }
  }
  if (!recorded) {
    plan.create = state.schedule;
    plan.reasons.push("missing");
    return plan;
  }
  const lastEvidence = Math.max(state.installedAt, input.lastScheduledRunAt ?? 0);
  if (nowMs - lastEvidence > allowedSilenceMs(state.schedule)) {
    plan.remove.push(recorded.uid);
    plan.create = state.schedule;
    plan.reasons.push("disabled");
  }
  return plan;
}

/**
 * Keeps at most one pending continuation trigger for this user: the one to keep (the newest
 * recorded, or none) and the rest to remove. The close's continuation is one too: the
 * schedule's trigger takes its place, and the close goes on from its sidebar.
 */
export function planContinuationTriggers(mine: readonly TriggerInfo[], keepUid: string | null): string[] {
  return mine
    .filter(
      (t) =>
        (t.handler === CONTINUATION_HANDLER || t.handler === CLOSE_CONTINUATION_HANDLER) && t.uid !== keepUid,
    )
    .map((t) => t.uid);
}

/**
 * User property prefix (the spreadsheet's id follows): the schedule (`scheduleKey`) this user
 * saved in that document. User properties are the user's alone; the document's state is not.
 */
export const MY_SCHEDULE_KEY = "schedule.mine.";

/**
 * Whether `state` names `me` as owner of the very schedule `mySaved` says they saved: only then
 * may their trigger run it with their token.
 */
export function savedByMe(state: ScheduleState | null, me: string, mySaved: string | null): boolean {
  return state !== null && state.ownerKey === me && mySaved === scheduleKey(state.schedule);
}

/** The state after this user chose `schedule` in the sidebar: they become its owner. */
export function chooseSchedule(
  schedule: Schedule,
  me: { key: string; label: string },
  nowMs: number,
): ScheduleState {
  return { schedule, ownerKey: me.key, ownerLabel: me.label, triggerUid: null, installedAt: nowMs };
}

/** Reads a stored state; anything unreadable counts as no schedule. */
export function parseScheduleState(text: string | null | undefined): ScheduleState | null {
  if (!text) return null;
  try {
    const raw = JSON.parse(text) as Record<string, unknown>;
    const schedule = parseSchedule(raw["schedule"]);
    const ownerKey = typeof raw["ownerKey"] === "string" ? raw["ownerKey"] : "";
    const installedAt = Number(raw["installedAt"]);
    if (!ownerKey || !Number.isFinite(installedAt)) return null;
    return {
      schedule,
      ownerKey,
      ownerLabel: typeof raw["ownerLabel"] === "string" ? raw["ownerLabel"] : "",
      triggerUid: typeof raw["triggerUid"] === "string" ? raw["triggerUid"] : null,
      installedAt,
    };
  } catch (_err) {
    return null;
  }
}
