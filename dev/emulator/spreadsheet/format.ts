/**
 * How Google Sheets displays a cell: a value (number, boolean, text, or a date sent by the
 * control API as an ISO string) through its number format. Covers the formats a finance sheet
 * uses: `#,##0.00`, `0`, `0.00%`, literal prefixes and suffixes, up to four `;` sections,
 * date and time patterns (`yyyy-mm-dd`, `dd/mm/yyyy hh:mm:ss`, `mmm d, yyyy`…), and `@` text.
 * Pure: the page and its tests use the same code.
 */
import { MONTH_NAMES as MONTHS, partsInZone, WEEKDAY_NAMES as WEEKDAYS, type ZonedParts } from "../time-zone";

/** A cell value as the control API sends it. */
export type CellValue = string | number | boolean | null;

export type Alignment = "left" | "right" | "center";

export interface DisplayedCell {
  text: string;
  align: Alignment;
  /** The colour a section of the format names ("[Red]"), as CSS text; absent when none. */
  color?: string;
}

const SECTION_COLORS: Record<string, string> = {
  black: "#000000",
  blue: "#0000ff",
  cyan: "#00ffff",
  green: "#00ff00",
  magenta: "#ff00ff",
  red: "#ff0000",
  white: "#ffffff",
  yellow: "#ffff00",
};

/** A number shown through `section`, with the colour the section names, if any. */
function shownIn(text: string, section: string): DisplayedCell {
  const name = /\[(black|blue|cyan|green|magenta|red|white|yellow)\]/i.exec(section)?.[1]?.toLowerCase();
  const color = name ? SECTION_COLORS[name] : undefined;
  return color ? { text, align: "right", color } : { text, align: "right" };
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(?:Z|[+-]\d{2}:\d{2})$/;

/** True when the control API sent a date (dates travel as ISO strings). */
export function isIsoDate(value: CellValue): value is string {
  return typeof value === "string" && ISO_DATE_TIME.test(value);
}

/** Milliseconds per day, and the spreadsheet epoch (serial 0 = 1899-12-30). */
const DAY_MS = 86_400_000;
const SERIAL_EPOCH_MS = Date.UTC(1899, 11, 30);

/** Calendar parts of an instant, to the second. */
type DateParts = Omit<ZonedParts, "millisecond">;

/** Parts of a spreadsheet serial number (days since 1899-12-30, fraction = time of day). */
function partsOfSerial(serial: number): DateParts {
  const ms = Math.round((serial * DAY_MS) / 1000) * 1000 + SERIAL_EPOCH_MS;
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

/** Splits a format into `;` sections, ignoring semicolons inside quotes or after a backslash. */
export function splitSections(format: string): string[] {
  const sections: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < format.length; i++) {
    const ch = format[i] as string;
    if (ch === "\\" && !quoted && i + 1 < format.length) {
      current += ch + format[i + 1];
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
      current += ch;
    } else if (ch === ";" && !quoted) {
      sections.push(current);
      current = "";
    } else current += ch;
  }
  sections.push(current);
  return sections;
}

/** The format with quoted text, escapes and `[...]` blocks removed: what the tokens are. */
function bareTokens(section: string): string {
  return section
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/_./g, "")
    .replace(/\*./g, "");
}

/** True for a date or time pattern such as `yyyy-mm-dd` or `hh:mm`. */
export function isDateFormat(format: string): boolean {
  const bare = bareTokens(splitSections(format)[0] ?? "").toLowerCase();
  return /[ydhms]/.test(bare.replace(/am\/pm|a\/p/g, "h"));
}

type DateToken =
  | { kind: "text"; text: string }
  | { kind: "y" | "M" | "d" | "h" | "m" | "s" | "ampm"; len: number };

function tokenizeDate(section: string): DateToken[] {
  const tokens: DateToken[] = [];
  let i = 0;
  while (i < section.length) {
    const ch = section[i] as string;
    const lower = ch.toLowerCase();
    if (ch === '"') {
      const end = section.indexOf('"', i + 1);
      const stop = end < 0 ? section.length : end;
      tokens.push({ kind: "text", text: section.slice(i + 1, stop) });
      i = stop + 1;
    } else if (ch === "\\" && i + 1 < section.length) {
      tokens.push({ kind: "text", text: section[i + 1] as string });
      i += 2;
    } else if (ch === "[") {
      const end = section.indexOf("]", i);
      i = end < 0 ? section.length : end + 1;
    } else if (/^(am\/pm|a\/p)/i.test(section.slice(i))) {
      const len = /^am\/pm/i.test(section.slice(i)) ? 5 : 3;
      tokens.push({ kind: "ampm", len });
      i += len;
    } else if ("ymdhs".includes(lower)) {
      let len = 1;
      while (section[i + len]?.toLowerCase() === lower) len++;
      const kind =
        lower === "y" ? "y" : lower === "d" ? "d" : lower === "h" ? "h" : lower === "s" ? "s" : "M";
      tokens.push({ kind, len });
      i += len;
    } else {
      tokens.push({ kind: "text", text: ch });
      i++;
    }
  }
  // `m` is minutes right after an hour or right before seconds, months elsewhere.
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t] as DateToken;
    if (token.kind !== "M" || token.len > 2) continue;
    const prev = tokens
      .slice(0, t)
      .reverse()
      .find((x) => x.kind !== "text");
    const next = tokens.slice(t + 1).find((x) => x.kind !== "text");
    if (prev?.kind === "h" || next?.kind === "s") tokens[t] = { kind: "m", len: token.len };
  }
  return tokens;
}

const pad = (n: number, len: number): string => String(n).padStart(len, "0");

function formatDateParts(parts: DateParts, section: string): string {
  const tokens = tokenizeDate(section);
  const twelveHour = tokens.some((t) => t.kind === "ampm");
  let out = "";
  for (const t of tokens) {
    switch (t.kind) {
      case "text":
        out += t.text;
        break;
      case "y":
        out += t.len <= 2 ? pad(parts.year % 100, 2) : String(parts.year);
        break;
      case "M":
        out +=
          t.len === 1
            ? String(parts.month)
            : t.len === 2
              ? pad(parts.month, 2)
              : t.len === 3
                ? MONTHS[parts.month - 1]?.slice(0, 3)
                : t.len === 5
                  ? MONTHS[parts.month - 1]?.slice(0, 1)
                  : MONTHS[parts.month - 1];
        break;
      case "d":
        out +=
          t.len === 1
            ? String(parts.day)
            : t.len === 2
              ? pad(parts.day, 2)
              : t.len === 3
                ? WEEKDAYS[parts.weekday]?.slice(0, 3)
                : WEEKDAYS[parts.weekday];
        break;
      case "h": {
        const hour = twelveHour ? ((parts.hour + 11) % 12) + 1 : parts.hour;
        out += t.len >= 2 ? pad(hour, 2) : String(hour);
        break;
      }
      case "m":
        out += t.len >= 2 ? pad(parts.minute, 2) : String(parts.minute);
        break;
      case "s":
        out += t.len >= 2 ? pad(parts.second, 2) : String(parts.second);
        break;
      case "ampm":
        out += t.len === 5 ? (parts.hour < 12 ? "AM" : "PM") : parts.hour < 12 ? "A" : "P";
        break;
    }
  }
  return out;
}

/** Rounds on the decimal digits as written (1.555 → 1.56), not on the binary value. */
function roundHalfUp(value: number, decimals: number): string {
  if (String(value).includes("e")) return value.toFixed(decimals);
  const shifted = Math.round(Number(`${value}e${decimals}`));
  return Number(`${shifted}e-${decimals}`).toFixed(decimals);
}

/** Groups an integer's digits by thousands. */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * Formats a number through one numeric section (`#,##0.00`, `0%`, `"$"#,##0`…). The sign is
 * handled by the caller, as Sheets does for a section chosen by sign.
 */
function formatNumberSection(value: number, section: string): string {
  // Literal text before and after the digit placeholders is kept as written.
  let prefix = "";
  let suffix = "";
  let pattern = "";
  let seenDigits = false;
  let i = 0;
  const literal = (text: string): void => {
    if (seenDigits) suffix += text;
    else prefix += text;
  };
  while (i < section.length) {
    const ch = section[i] as string;
    if (ch === '"') {
      const end = section.indexOf('"', i + 1);
      const stop = end < 0 ? section.length : end;
      literal(section.slice(i + 1, stop));
      i = stop + 1;
    } else if (ch === "\\" && i + 1 < section.length) {
      literal(section[i + 1] as string);
      i += 2;
    } else if (ch === "[") {
      // [$USD] or [$$-409]: the text before the dash is shown; [Red] and the like are colours.
      const end = section.indexOf("]", i);
      const block = section.slice(i + 1, end < 0 ? section.length : end);
      if (block.startsWith("$")) literal(block.slice(1).split("-")[0] ?? "");
      i = end < 0 ? section.length : end + 1;
    } else if (ch === "_" || ch === "*") {
      if (ch === "_") literal(" ");
      i += 2;
    } else if ("0#?,.".includes(ch) && suffix === "") {
      pattern += ch;
      seenDigits = true;
      i++;
    } else {
      literal(ch);
      i++;
    }
  }
  const percents = (prefix + suffix).split("%").length - 1;
  let scaled = value * 100 ** percents;
  // Trailing commas scale by thousands (`#,##0,` shows thousands).
  const trailingCommas = /,+$/.exec(pattern.split(".")[0] ?? "")?.[0].length ?? 0;
  if (trailingCommas > 0 && !pattern.includes(".")) scaled /= 1000 ** trailingCommas;
  const [intPattern = "", fracPattern = ""] = pattern.replace(/,+$/, "").split(".");
  const minInt = (intPattern.match(/0/g) ?? []).length;
  const minFrac = (fracPattern.match(/0/g) ?? []).length;
  const maxFrac = (fracPattern.match(/[0#?]/g) ?? []).length;
  const grouped = intPattern.includes(",");
  let fixed = roundHalfUp(Math.abs(scaled), maxFrac);
  let [intDigits = "0", fracDigits = ""] = fixed.split(".");
  while (fracDigits.length > minFrac && fracDigits.endsWith("0")) fracDigits = fracDigits.slice(0, -1);
  intDigits = intDigits.replace(/^0+/, "");
  if (intDigits.length < minInt) intDigits = intDigits.padStart(minInt, "0");
  if (grouped) intDigits = groupThousands(intDigits);
  fixed = fracDigits || pattern.includes(".") ? `${intDigits}.${fracDigits}` : intDigits;
  if (fixed.endsWith(".") && maxFrac === 0) fixed = fixed.slice(0, -1);
  return prefix + fixed + suffix;
}

/** Sheets' automatic number display: up to ten significant digits, no trailing zeros. */
export function formatGeneralNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && (abs >= 1e15 || abs < 1e-9)) return value.toExponential(2).replace("e+", "E+");
  return String(Number(value.toPrecision(10)));
}

/** Sheets' automatic date display (no explicit format). */
const DEFAULT_DATE = "yyyy-mm-dd";
const DEFAULT_DATE_TIME = "yyyy-mm-dd hh:mm:ss";

/**
 * How Sheets displays `value` under `format` in the spreadsheet's time zone.
 * Numbers and dates align right, booleans centre, text left.
 */
export function displayCell(
  value: CellValue,
  format: string | null | undefined,
  timeZone = "UTC",
): DisplayedCell {
  const fmt = format && format !== "General" ? format : "";
  if (value === null || value === "") return { text: "", align: "left" };
  if (typeof value === "boolean") return { text: value ? "TRUE" : "FALSE", align: "center" };
  if (isIsoDate(value)) {
    const date = new Date(value);
    const parts = partsInZone(date.getTime(), timeZone);
    if (fmt && fmt !== "@" && isDateFormat(fmt)) {
      return { text: formatDateParts(parts, splitSections(fmt)[0] ?? fmt), align: "right" };
    }
    if (fmt && fmt !== "@") {
      // A number format on a date shows its serial number, as Sheets does.
      const serial =
        (Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) -
          SERIAL_EPOCH_MS) /
        DAY_MS;
      return displayCell(serial, fmt, timeZone);
    }
    const midnight = parts.hour === 0 && parts.minute === 0 && parts.second === 0;
    return { text: formatDateParts(parts, midnight ? DEFAULT_DATE : DEFAULT_DATE_TIME), align: "right" };
  }
  if (typeof value === "string") {
    const sections = splitSections(fmt);
    const textSection = sections.length === 4 ? sections[3] : undefined;
    if (textSection?.includes("@"))
      return { text: textSection.replace(/"/g, "").replace("@", value), align: "left" };
    return { text: value, align: "left" };
  }
  if (!fmt || fmt === "@") return { text: formatGeneralNumber(value), align: "right" };
  if (isDateFormat(fmt))
    return { text: formatDateParts(partsOfSerial(value), splitSections(fmt)[0] ?? fmt), align: "right" };
  const sections = splitSections(fmt);
  if (value < 0 && sections.length >= 2) {
    return shownIn(formatNumberSection(-value, sections[1] ?? ""), sections[1] ?? "");
  }
  if (value === 0 && sections.length >= 3)
    return shownIn(formatNumberSection(0, sections[2] ?? ""), sections[2] ?? "");
  const text = formatNumberSection(value, sections[0] ?? "");
  const roundsToZero = /^[^1-9]*$/.test(text);
  return shownIn(value < 0 && !roundsToZero ? `-${text}` : text, sections[0] ?? "");
}

/** The http(s) address of a `=HYPERLINK("url", …)` formula, or null. */
export function linkOf(formula: string): string | null {
  const m = /^=HYPERLINK\(\s*"((?:[^"]|"")*)"/i.exec(formula);
  const url = m?.[1]?.replace(/""/g, '"') ?? "";
  return /^https?:\/\//i.test(url) ? url : null;
}
