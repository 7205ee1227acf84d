/** Calendar arithmetic on the service's date strings, in UTC (the sandbox's documented time zone). */

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a Date, in UTC, or in `timeZone` (an IANA name) when given. */
export function dayOf(date: Date, timeZone = "UTC"): string {
  return timestampOf(date, timeZone).slice(0, 10);
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * `YYYY-MM-DD HH:MM:SS` of a Date without offset, like the service's CreatedAt: the wall clock
 * of `timeZone` (UTC unless the sandbox was started with another zone).
 */
export function timestampOf(date: Date, timeZone = "UTC"): string {
  if (timeZone === "UTC") return date.toISOString().slice(0, 19).replace("T", " ");
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    zoneFormats.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(date)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** True when `timeZone` is an IANA time zone name this machine knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The Date at midnight UTC of a `YYYY-MM-DD` string, or null if it is not a real calendar day. */
export function parseDay(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const date = new Date(`${text}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || dayOf(date) !== text) return null;
  return date;
}

/** True when text is a real `YYYY-MM-DD HH:MM:SS` moment. */
export function isTimestamp(text: string): boolean {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!match) return false;
  const [, day, h, m, s] = match;
  return parseDay(day as string) !== null && Number(h) < 24 && Number(m) < 60 && Number(s) < 60;
}

/** Results of addDays: demo data asks for the same few thousand days again and again. */
const shifted = new Map<string, string>();

export function addDays(day: string, days: number): string {
  const key = `${day}|${days}`;
  const known = shifted.get(key);
  if (known !== undefined) return known;
  const date = parseDay(day);
  if (!date) throw new Error(`not a date: ${day}`);
  const result = dayOf(new Date(date.getTime() + days * DAY_MS));
  if (shifted.size > 200_000) shifted.clear();
  shifted.set(key, result);
  return result;
}

/**
 * The same calendar day one year later; 29 February maps to 28 February so that the one-year
 * range never reaches into March.
 */
export function oneYearAfter(day: string): string {
  const [y, m, d] = day.split("-");
  const next = `${Number(y) + 1}-${m}-${d}`;
  return parseDay(next) ? next : `${Number(y) + 1}-${m}-28`;
}
