/**
 * `Utilities.formatDate(date, timeZone, pattern)`: Java `SimpleDateFormat` patterns, in a named
 * time zone or a "GMT+hh:mm" offset as Apps Script accepts. Letters: G y Y M L d D E u a H k K h m
 * s S z Z X, quoted text with '…' and '' for a quote. Unknown letters are refused like Java does.
 */
import { WEEKDAY_NAMES as DAYS, MONTH_NAMES as MONTHS, offsetMinutes, partsInZone } from "./time-zone";

function pad(n: number, width: number): string {
  const s = String(Math.abs(n));
  return (n < 0 ? "-" : "") + (s.length >= width ? s : "0".repeat(width - s.length) + s);
}

function fixedOffset(timeZone: string): number | undefined {
  const m = /^(?:GMT|UTC)([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(timeZone);
  if (!m) return undefined;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === "-" ? -minutes : minutes;
}

function offsetText(minutes: number, style: "Z" | "X" | "XX" | "XXX" | "z"): string {
  if (minutes === 0 && style.startsWith("X")) return "Z";
  const sign = minutes < 0 ? "-" : "+";
  const h = pad(Math.floor(Math.abs(minutes) / 60), 2);
  const m = pad(Math.abs(minutes) % 60, 2);
  switch (style) {
    case "X":
      return `${sign}${h}`;
    case "XX":
    case "Z":
      return `${sign}${h}${m}`;
    case "XXX":
      return `${sign}${h}:${m}`;
    default:
      return minutes === 0 ? "GMT" : `GMT${sign}${h}:${m}`;
  }
}

function dayOfYear(year: number, month: number, day: number): number {
  return (Date.UTC(year, month - 1, day) - Date.UTC(year, 0, 1)) / 86_400_000 + 1;
}

/** Formats `epochMs` with a SimpleDateFormat `pattern` in `timeZone`. */
export function formatDate(epochMs: number, timeZone: string, pattern: string): string {
  const fixed = fixedOffset(timeZone);
  const offset = fixed ?? offsetMinutes(epochMs, timeZone);
  const p =
    fixed === undefined ? partsInZone(epochMs, timeZone) : partsInZone(epochMs + fixed * 60_000, "UTC");
  let out = "";
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i] as string;
    if (ch === "'") {
      if (pattern[i + 1] === "'") {
        out += "'";
        i += 2;
        continue;
      }
      // Quoted text runs to the next lone quote; '' inside it is one quote.
      let j = i + 1;
      for (;;) {
        if (j >= pattern.length) throw new Error(`Unterminated quote in date pattern: ${pattern}`);
        if (pattern[j] === "'" && pattern[j + 1] === "'") {
          out += "'";
          j += 2;
        } else if (pattern[j] === "'") break;
        else out += pattern[j++];
      }
      i = j + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(ch)) {
      out += ch;
      i++;
      continue;
    }
    let n = 1;
    while (pattern[i + n] === ch) n++;
    i += n;
    switch (ch) {
      case "G":
        out += p.year > 0 ? "AD" : "BC";
        break;
      case "y":
      case "Y":
        out += n === 2 ? pad(p.year % 100, 2) : pad(p.year, n);
        break;
      case "M":
      case "L":
        if (n >= 4) out += MONTHS[p.month - 1];
        else if (n === 3) out += (MONTHS[p.month - 1] as string).slice(0, 3);
        else out += pad(p.month, n);
        break;
      case "d":
        out += pad(p.day, n);
        break;
      case "D":
        out += pad(dayOfYear(p.year, p.month, p.day), n);
        break;
      case "E":
        out += n >= 4 ? DAYS[p.weekday] : (DAYS[p.weekday] as string).slice(0, 3);
        break;
      case "u":
        out += pad(p.weekday === 0 ? 7 : p.weekday, n);
        break;
      case "a":
        out += p.hour < 12 ? "AM" : "PM";
        break;
      case "H":
        out += pad(p.hour, n);
        break;
      case "k":
        out += pad(p.hour === 0 ? 24 : p.hour, n);
        break;
      case "K":
        out += pad(p.hour % 12, n);
        break;
      case "h":
        out += pad(p.hour % 12 === 0 ? 12 : p.hour % 12, n);
        break;
      case "m":
        out += pad(p.minute, n);
        break;
      case "s":
        out += pad(p.second, n);
        break;
      case "S":
        out += pad(p.millisecond, Math.max(n, 3)).slice(0, Math.max(n, 3));
        break;
      case "z":
        out += offsetText(offset, "z");
        break;
      case "Z":
        out += offsetText(offset, "Z");
        break;
      case "X":
        out += offsetText(offset, n === 1 ? "X" : n === 2 ? "XX" : "XXX");
        break;
      default:
        throw new Error(`Illegal pattern character '${ch}'`);
    }
  }
  return out;
}
