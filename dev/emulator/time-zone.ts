/** Calendar parts of instants in a named time zone, through Intl (no date library needed). */

export interface ZonedParts {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** 0 = Sunday */
  weekday: number;
}

/** English month names, January first: Apps Script's formatDate and Sheets' formats use them. */
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
/** English weekday names, Sunday first (ZonedParts.weekday indexes them). */
export const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      weekday: "short",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True if Intl knows the zone id (e.g. "America/Santiago", "UTC", "GMT-3" is refused). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Calendar parts through Intl: slow (formatToParts), so only used to fill the offset cache. */
function intlParts(epochMs: number, timeZone: string): ZonedParts {
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond: ((epochMs % 1000) + 1000) % 1000,
    weekday: WEEKDAYS.indexOf(parts.weekday ?? "Sun"),
  };
}

function exactOffsetMs(epochMs: number, timeZone: string): number {
  const p = intlParts(epochMs, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, p.millisecond) - epochMs;
}

/**
 * Offsets are cached per zone by day, and within the few days a zone changes its offset, in
 * 15-minute slices of time: a day (or slice) whose start and end have the same offset has it
 * throughout (zones change offset at most a few times a year, never twice in a day). Without it
 * every Date getter of the script went through Intl.formatToParts, which made the emulated clock
 * cost far more than Google's, and the bench measured the emulation; by day, a sheet of dates
 * spread over a year costs about two Intl calls per day of it instead of two per quarter hour.
 */
const DAY_MS = 24 * 60 * 60_000;
const SLICE_MS = 15 * 60_000;
const MAX_SLICES = 200_000;
/** Per zone: a day's offset, or null for a day in which it changes. */
const dayCache = new Map<string, Map<number, number | null>>();
/** Per zone: the offset at a day's first millisecond (UTC days), shared by the day before. */
const dayStartCache = new Map<string, Map<number, number>>();
const offsetCache = new Map<string, Map<number, number>>();

function cacheOf<V>(caches: Map<string, Map<number, V>>, timeZone: string): Map<number, V> {
  let cache = caches.get(timeZone);
  if (!cache) {
    cache = new Map();
    caches.set(timeZone, cache);
  }
  if (cache.size >= MAX_SLICES) cache.clear();
  return cache;
}

function offsetMs(epochMs: number, timeZone: string): number {
  const days = cacheOf(dayCache, timeZone);
  const day = Math.floor(epochMs / DAY_MS);
  let dayOffset = days.get(day);
  if (dayOffset === undefined) {
    // The same offset at this day's start and the next day's: the same all day (a change at
    // the next day's very start makes it look changing, and the slices below answer instead).
    // Neighbouring days share a start, so a column of dates costs about one Intl call a day.
    const starts = cacheOf(dayStartCache, timeZone);
    const startOf = (d: number) => {
      let offset = starts.get(d);
      if (offset === undefined) {
        offset = exactOffsetMs(d * DAY_MS, timeZone);
        starts.set(d, offset);
      }
      return offset;
    };
    const start = startOf(day);
    dayOffset = start === startOf(day + 1) ? start : null;
    days.set(day, dayOffset);
  }
  if (dayOffset !== null) return dayOffset;
  const slices = cacheOf(offsetCache, timeZone);
  const slice = Math.floor(epochMs / SLICE_MS);
  const cached = slices.get(slice);
  if (cached !== undefined) return cached;
  const start = exactOffsetMs(slice * SLICE_MS, timeZone);
  const end = exactOffsetMs(slice * SLICE_MS + SLICE_MS - 1, timeZone);
  if (start !== end) return exactOffsetMs(epochMs, timeZone);
  slices.set(slice, start);
  return start;
}

export function partsInZone(epochMs: number, timeZone: string): ZonedParts {
  if (!Number.isFinite(epochMs)) return intlParts(epochMs, timeZone);
  const wall = new Date(epochMs + offsetMs(epochMs, timeZone));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    millisecond: wall.getUTCMilliseconds(),
    weekday: wall.getUTCDay(),
  };
}

/** Offset of the zone from UTC at that instant, in minutes (Santiago in winter: -240). */
export function offsetMinutes(epochMs: number, timeZone: string): number {
  return Math.round(offsetMs(epochMs, timeZone) / 60_000);
}

/** The instant at which the wall clock of `timeZone` shows these parts. */
export function instantInZone(
  timeZone: string,
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  millisecond = 0,
): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  // Two passes settle the offset across daylight-saving changes.
  const once = wall - offsetMs(wall, timeZone);
  const twice = wall - offsetMs(once, timeZone);
  if (twice + offsetMs(twice, timeZone) === wall) return twice;
  if (once + offsetMs(once, timeZone) === wall) return once;
  // A wall time the clocks skip (Santiago's midnight when summer time starts): the later of
  // the two, that is the time moved forward by the change, as a JavaScript Date does.
  return Math.max(once, twice);
}
