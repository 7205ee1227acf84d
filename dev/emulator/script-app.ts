/**
 * ScriptApp: AuthMode and the other enums, and installable triggers. Time-driven triggers are
 * built with Google's allowed values, limited to 20 per user per script (and, for an add-on, to
 * one per user per document running at most hourly), listed only to the user who created them,
 * and fired by `emulator.fireTimeTriggers()` on the emulator's clock.
 */
import { makeEnum } from "./enums";
import { MESSAGES, ServiceError } from "./errors";
import { Fake, isDate } from "./realm";
import { instantInZone, partsInZone } from "./time-zone";
import type { Implements } from "./typed";

export const AUTH_MODE = makeEnum(["NONE", "CUSTOM_FUNCTION", "LIMITED", "FULL"] as const);
export const EVENT_TYPE = makeEnum([
  "CLOCK",
  "ON_OPEN",
  "ON_EDIT",
  "ON_FORM_SUBMIT",
  "ON_CHANGE",
  "ON_EVENT_UPDATED",
] as const);
export const TRIGGER_SOURCE = makeEnum(["SPREADSHEETS", "CLOCK", "FORMS", "DOCUMENTS", "CALENDAR"] as const);
export const AUTHORIZATION_STATUS = makeEnum(["REQUIRED", "NOT_REQUIRED"] as const);
export const WEEKDAY = makeEnum([
  "SUNDAY",
  "MONDAY",
  "TUESDAY",
  "WEDNESDAY",
  "THURSDAY",
  "FRIDAY",
  "SATURDAY",
] as const);

const MINUTES = [1, 5, 10, 15, 30];
const HOURS = [1, 2, 4, 6, 8, 12];
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
export const MAX_TRIGGERS_PER_USER = 20;

export type Schedule =
  | { kind: "minutes"; every: number }
  | { kind: "hours"; every: number }
  | { kind: "days"; every: number; hour: number | undefined; minute: number }
  | { kind: "weeks"; every: number; weekday: number; hour: number | undefined; minute: number }
  /** `lead`: how far ahead the script asked for it (after's delay, or at's date less the time then). */
  | { kind: "once"; at: number; lead: number };

export interface TriggerData {
  uid: string;
  handler: string;
  /** The user who created it: it runs as them and only they see it. */
  creator: string;
  documentId: string;
  eventType: "CLOCK" | "ON_OPEN" | "ON_EDIT" | "ON_CHANGE" | "ON_FORM_SUBMIT";
  schedule: Schedule | undefined;
  timeZone: string;
  createdAt: number;
  /** When a time-driven trigger fires next (emulator clock). */
  nextRun: number;
  /** A disabled trigger stays listed but never fires (Google disables failing ones). */
  disabled: boolean;
  runs: number;
}

/** First time after `from` at which a schedule fires. */
export function nextRunAfter(schedule: Schedule, from: number, timeZone: string): number {
  switch (schedule.kind) {
    case "minutes":
      return from + schedule.every * 60_000;
    case "hours":
      return from + schedule.every * HOUR_MS;
    case "once":
      return schedule.at;
    case "days":
    case "weeks": {
      if (schedule.hour === undefined)
        return from + schedule.every * (schedule.kind === "days" ? DAY_MS : 7 * DAY_MS);
      const p = partsInZone(from, timeZone);
      let candidate = instantInZone(timeZone, p.year, p.month, p.day, schedule.hour, schedule.minute);
      const step = schedule.kind === "days" ? 1 : 1;
      for (let i = 0; i < 400 && (candidate <= from || !weekdayMatches(schedule, candidate, timeZone)); i++) {
        const q = partsInZone(candidate + step * DAY_MS + HOUR_MS, timeZone);
        candidate = instantInZone(timeZone, q.year, q.month, q.day, schedule.hour, schedule.minute);
      }
      return candidate;
    }
  }
}

function weekdayMatches(schedule: Schedule, at: number, timeZone: string): boolean {
  return schedule.kind !== "weeks" || partsInZone(at, timeZone).weekday === schedule.weekday;
}

/** The triggers of the script, for every user; kept by the emulator across executions. */
export class TriggerStore {
  readonly triggers: TriggerData[] = [];
  private seq = 0;
  newUid(): string {
    this.seq++;
    return String(8_000_000_000 + this.seq * 7919);
  }
}

export interface ScriptAppHost {
  store: TriggerStore;
  user(): string;
  documentId: string;
  now(): number;
  scriptTimeZone(): string;
  scriptId: string;
  /** Add-ons are limited to hourly time-driven triggers and one per user per document. */
  addon: boolean;
}

export class FakeTrigger
  extends Fake
  implements
    Implements<
      GoogleAppsScript.Script.Trigger,
      "getHandlerFunction" | "getUniqueId" | "getEventType" | "getTriggerSource" | "getTriggerSourceId"
    >
{
  static override readonly service = "Trigger";
  constructor(readonly data: TriggerData) {
    super();
  }
  getHandlerFunction(): string {
    return this.data.handler;
  }
  getUniqueId(): string {
    return this.data.uid;
  }
  getEventType(): GoogleAppsScript.Script.EventType {
    return EVENT_TYPE[this.data.eventType] as unknown as GoogleAppsScript.Script.EventType;
  }
  getTriggerSource(): GoogleAppsScript.Script.TriggerSource {
    return (this.data.eventType === "CLOCK"
      ? TRIGGER_SOURCE.CLOCK
      : TRIGGER_SOURCE.SPREADSHEETS) as unknown as GoogleAppsScript.Script.TriggerSource;
  }
  getTriggerSourceId(): string {
    return this.data.eventType === "CLOCK" ? "" : this.data.documentId;
  }
}

function create(
  host: ScriptAppHost,
  handler: string,
  eventType: TriggerData["eventType"],
  schedule: Schedule | undefined,
  timeZone: string,
): FakeTrigger {
  const mine = host.store.triggers.filter((t) => t.creator === host.user());
  if (mine.length >= MAX_TRIGGERS_PER_USER) throw new ServiceError(MESSAGES.tooManyTriggers);
  if (host.addon) {
    // Every clock trigger of an add-on, a one-off after(ms) included, runs at most once an
    // hour: a one-off sooner than an hour is refused (the stricter reading of Google's rule).
    if (schedule?.kind === "minutes" || (schedule?.kind === "once" && schedule.lead < 3_600_000)) {
      throw new ServiceError(
        "Add-ons can't create time-based triggers that run more often than once per hour.",
      );
    }
    if (mine.some((t) => t.documentId === host.documentId && t.eventType === eventType)) {
      throw new ServiceError("An add-on can have only one trigger of each type per user per document.");
    }
  }
  const now = host.now();
  const data: TriggerData = {
    uid: host.store.newUid(),
    handler,
    creator: host.user(),
    documentId: host.documentId,
    eventType,
    schedule,
    timeZone,
    createdAt: now,
    nextRun: schedule ? nextRunAfter(schedule, now, timeZone) : Number.POSITIVE_INFINITY,
    disabled: false,
    runs: 0,
  };
  host.store.triggers.push(data);
  return new FakeTrigger(data);
}

type ClockMembers =
  | "everyMinutes"
  | "everyHours"
  | "everyDays"
  | "everyWeeks"
  | "atHour"
  | "nearMinute"
  | "onWeekDay"
  | "after"
  | "at"
  | "inTimezone"
  | "create";

export class FakeClockTriggerBuilder
  extends Fake
  implements Implements<GoogleAppsScript.Script.ClockTriggerBuilder, ClockMembers>
{
  static override readonly service = "ClockTriggerBuilder";
  private every: { kind: "minutes" | "hours" | "days" | "weeks"; n: number } | undefined;
  private hour: number | undefined;
  private minute = 0;
  private weekday = 1;
  private once: number | undefined;
  private onceLead = 0;
  private timeZone: string;

  constructor(
    private readonly host: ScriptAppHost,
    private readonly handler: string,
  ) {
    super();
    this.timeZone = host.scriptTimeZone();
  }
  everyMinutes(n: number): this {
    if (!MINUTES.includes(n))
      throw new ServiceError(`Invalid argument: everyMinutes(${n}). Allowed values are 1, 5, 10, 15 and 30.`);
    this.every = { kind: "minutes", n };
    return this;
  }
  everyHours(n: number): this {
    if (!HOURS.includes(n))
      throw new ServiceError(`Invalid argument: everyHours(${n}). Allowed values are 1, 2, 4, 6, 8 and 12.`);
    this.every = { kind: "hours", n };
    return this;
  }
  everyDays(n: number): this {
    if (!Number.isInteger(n) || n < 1) throw new ServiceError(`Invalid argument: everyDays(${n})`);
    this.every = { kind: "days", n };
    return this;
  }
  everyWeeks(n: number): this {
    if (!Number.isInteger(n) || n < 1) throw new ServiceError(`Invalid argument: everyWeeks(${n})`);
    this.every = { kind: "weeks", n };
    return this;
  }
  atHour(hour: number): this {
    if (!Number.isInteger(hour) || hour < 0 || hour > 23)
      throw new ServiceError(`Invalid argument: atHour(${hour})`);
    this.hour = hour;
    return this;
  }
  nearMinute(minute: number): this {
    if (!Number.isInteger(minute) || minute < 0 || minute > 59)
      throw new ServiceError(`Invalid argument: nearMinute(${minute})`);
    this.minute = minute;
    return this;
  }
  onWeekDay(day: GoogleAppsScript.Base.Weekday): this {
    const i = Object.keys(WEEKDAY).indexOf(String(day));
    if (i < 0) throw new ServiceError("Invalid argument: day");
    this.weekday = i;
    return this;
  }
  after(durationMilliseconds: number): this {
    if (typeof durationMilliseconds !== "number" || durationMilliseconds < 0) {
      throw new ServiceError(`Invalid argument: after(${durationMilliseconds})`);
    }
    this.once = this.host.now() + durationMilliseconds;
    this.onceLead = durationMilliseconds;
    return this;
  }
  at(date: GoogleAppsScript.Base.Date): this {
    if (!isDate(date)) throw new ServiceError("Invalid argument: date");
    this.once = (date as unknown as Date).getTime();
    this.onceLead = this.once - this.host.now();
    return this;
  }
  inTimezone(timezone: string): this {
    this.timeZone = String(timezone);
    return this;
  }
  create(): FakeTrigger {
    let schedule: Schedule;
    if (this.once !== undefined) schedule = { kind: "once", at: this.once, lead: this.onceLead };
    else if (!this.every) {
      throw new ServiceError(
        "A time-based trigger needs a schedule: call everyMinutes, everyHours, everyDays, everyWeeks, after or at before create().",
      );
    } else if (this.every.kind === "minutes" || this.every.kind === "hours") {
      if (this.hour !== undefined)
        throw new ServiceError("atHour() can only be used with everyDays() or everyWeeks().");
      schedule = { kind: this.every.kind, every: this.every.n };
    } else if (this.every.kind === "days") {
      schedule = { kind: "days", every: this.every.n, hour: this.hour, minute: this.minute };
    } else {
      schedule = {
        kind: "weeks",
        every: this.every.n,
        weekday: this.weekday,
        hour: this.hour,
        minute: this.minute,
      };
    }
    return create(this.host, this.handler, "CLOCK", schedule, this.timeZone);
  }
}

export class FakeSpreadsheetTriggerBuilder
  extends Fake
  implements
    Implements<GoogleAppsScript.Script.SpreadsheetTriggerBuilder, "onOpen" | "onEdit" | "onChange" | "create">
{
  static override readonly service = "SpreadsheetTriggerBuilder";
  private eventType: TriggerData["eventType"] = "ON_OPEN";
  constructor(
    private readonly host: ScriptAppHost,
    private readonly handler: string,
  ) {
    super();
  }
  onOpen(): this {
    this.eventType = "ON_OPEN";
    return this;
  }
  onEdit(): this {
    this.eventType = "ON_EDIT";
    return this;
  }
  onChange(): this {
    this.eventType = "ON_CHANGE";
    return this;
  }
  create(): FakeTrigger {
    return create(this.host, this.handler, this.eventType, undefined, this.host.scriptTimeZone());
  }
}

export class FakeTriggerBuilder
  extends Fake
  implements Implements<GoogleAppsScript.Script.TriggerBuilder, "timeBased" | "forSpreadsheet">
{
  static override readonly service = "TriggerBuilder";
  constructor(
    private readonly host: ScriptAppHost,
    private readonly handler: string,
  ) {
    super();
  }
  timeBased(): FakeClockTriggerBuilder {
    return new FakeClockTriggerBuilder(this.host, this.handler);
  }
  forSpreadsheet(_sheet: string | GoogleAppsScript.Spreadsheet.Spreadsheet): FakeSpreadsheetTriggerBuilder {
    return new FakeSpreadsheetTriggerBuilder(this.host, this.handler);
  }
}

type AppMembers =
  | "newTrigger"
  | "getUserTriggers"
  | "getProjectTriggers"
  | "deleteTrigger"
  | "getScriptId"
  | "getOAuthToken";

export class FakeScriptApp extends Fake implements Implements<GoogleAppsScript.Script.ScriptApp, AppMembers> {
  static override readonly service = "ScriptApp";
  readonly AuthMode = AUTH_MODE;
  readonly EventType = EVENT_TYPE;
  readonly TriggerSource = TRIGGER_SOURCE;
  readonly AuthorizationStatus = AUTHORIZATION_STATUS;
  readonly WeekDay = WEEKDAY;
  constructor(private readonly host: ScriptAppHost) {
    super();
  }
  newTrigger(functionName: string): FakeTriggerBuilder {
    if (typeof functionName !== "string" || functionName === "")
      throw new ServiceError("Invalid argument: functionName");
    return new FakeTriggerBuilder(this.host, functionName);
  }
  getUserTriggers(_spreadsheet: unknown): FakeTrigger[] {
    return this.host.store.triggers
      .filter((t) => t.creator === this.host.user() && t.documentId === this.host.documentId)
      .map((t) => new FakeTrigger(t));
  }
  getProjectTriggers(): FakeTrigger[] {
    return this.host.store.triggers
      .filter((t) => t.creator === this.host.user())
      .map((t) => new FakeTrigger(t));
  }
  deleteTrigger(trigger: GoogleAppsScript.Script.Trigger): void {
    const uid = trigger?.getUniqueId?.();
    const i = this.host.store.triggers.findIndex((t) => t.uid === uid && t.creator === this.host.user());
    if (i >= 0) this.host.store.triggers.splice(i, 1);
  }
  getScriptId(): string {
    return this.host.scriptId;
  }
  /** A stand-in: there is no Google OAuth token here, and never the service's access token. */
  getOAuthToken(): string {
    return "emulated-google-oauth-token";
  }
  getAuthorizationInfo(_authMode: unknown): {
    getAuthorizationStatus(): unknown;
    getAuthorizationUrl(): null;
  } {
    return {
      getAuthorizationStatus: () => AUTHORIZATION_STATUS.NOT_REQUIRED,
      getAuthorizationUrl: () => null,
    };
  }
}
