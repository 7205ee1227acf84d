/**
 * The link of a report's attached file. The contract does not show a file's shape, and the real
 * service gives one file in several size variants ({Original: {Url}}, {Large: {Url}},
 * {Thumbnail: …}, arrays of sizes, flat ThumbnailUrl / OriginalUrl members…), so the URL is
 * looked for wherever it sits: the original's, else the largest named variant's, else any
 * http(s) URL. Only an http(s) URL becomes a link (javascript:, data: and others never do).
 */
import { safeUrl } from "./cells";

/** How a member's name (or a variant's size label) ranks a URL: the original first, thumbnails last. */
const SIZE_RANKS: readonly [RegExp, number][] = [
  [/original|full|master/, 6],
  [/largest|xxl|xlarge|x-large|x_large|huge|big|\bxl\b/, 5],
  [/large/, 4],
  [/medium|normal|standard|\bmd\b|\bm\b/, 2],
  [/small|preview|\bsm\b|\bs\b/, 1],
  [/thumb|tiny|icon|mini|\bxs\b/, 0],
];
/** A URL under no size name: most often the file's own, above a medium or smaller variant. */
const UNNAMED_RANK = 3;

/** Members that name a size variant inside an element of an array of sizes. */
const SIZE_LABELS = ["Size", "SizeName", "Variant", "Type", "Kind", "Label", "Quality", "Version"];
const NAMES = ["Name", "FileName", "Filename", "Title", "OriginalName"];

interface Candidate {
  url: string;
  rank: number;
  /** Pixels (width × height, or width) when the variant says so, else 0. */
  area: number;
  depth: number;
  order: number;
  /** The name the variant's own object carries, if any. */
  name: string;
}

/**
 * An object's member names by their lower case, made once per object for the lookups below:
 * `last` the last member of a lower-case name (as a Map built from the keys keeps it), `first`
 * the first (as a search through the keys finds it).
 */
interface Members {
  o: Record<string, unknown>;
  keys: string[];
  last: Map<string, string>;
  first: Map<string, string>;
}

function membersOf(o: Record<string, unknown>): Members {
  const keys = Object.keys(o);
  const last = new Map<string, string>();
  const first = new Map<string, string>();
  for (const k of keys) {
    const lower = k.toLowerCase();
    last.set(lower, k);
    if (!first.has(lower)) first.set(lower, k);
  }
  return { o, keys, last, first };
}

/** The lower-case forms of SIZE_LABELS and NAMES, made once. */
const LOWER = new Map<string, string>();
function lowerOf(name: string): string {
  let lower = LOWER.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    LOWER.set(name, lower);
  }
  return lower;
}

function memberText(m: Members, names: readonly string[]): string {
  for (const n of names) {
    const key = m.last.get(lowerOf(n));
    const value = key === undefined ? undefined : m.o[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return "";
}

function memberNumber(m: Members, name: string): number {
  const key = m.first.get(name);
  const value = key === undefined ? undefined : Number(m.o[key]);
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * Ranks of the words seen so far: a report's files repeat the same few places (" Url"), so
 * each is ranked once; bounded, should a service send ever new names.
 */
const RANKS = new Map<string, number>();
const RANKS_KEPT = 1000;

function rankOf(words: string): number {
  const known = RANKS.get(words);
  if (known !== undefined) return known;
  const spaced = words.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  let rank = UNNAMED_RANK;
  for (const [pattern, r] of SIZE_RANKS) {
    if (pattern.test(spaced)) {
      rank = r;
      break;
    }
  }
  if (RANKS.size < RANKS_KEPT) RANKS.set(words, rank);
  return rank;
}

/** Every http(s) URL in the value, with what its place says of its size (bounded walk). */
function candidates(file: unknown): Candidate[] {
  const out: Candidate[] = [];
  let visited = 0;
  const walk = (value: unknown, words: string, area: number, name: string, depth: number) => {
    visited += 1;
    if (depth > 6 || visited > 500) return;
    if (typeof value === "string") {
      const url = safeUrl(value);
      if (url) out.push({ url, rank: rankOf(words), area, depth, order: out.length, name });
      return;
    }
    if (Array.isArray(value)) {
      for (const element of value) walk(element, words, area, name, depth + 1);
      return;
    }
    if (!value || typeof value !== "object") return;
    const m = membersOf(value as Record<string, unknown>);
    const label = memberText(m, SIZE_LABELS);
    const width = memberNumber(m, "width");
    const own = width ? width * (memberNumber(m, "height") || 1) : 0;
    const ownName = memberText(m, NAMES);
    for (const key of m.keys)
      walk(m.o[key], `${words} ${label} ${key}`, own || area, ownName || name, depth + 1);
  };
  walk(file, "", 0, "", 0);
  return out;
}

/**
 * The common shape, `{Name, Url, MimeType}`: members that are no object, one of them an http(s)
 * URL. That URL is the only candidate the walk would find, so it is the file's, without the walk;
 * undefined for any other shape (nested, several URLs, none, a great many members).
 */
function flatFile(o: Record<string, unknown>): { url: string; name: string } | undefined {
  const keys = Object.keys(o);
  if (keys.length > 50) return undefined;
  let url: string | null = null;
  for (const key of keys) {
    const value = o[key];
    if (value !== null && typeof value === "object") return undefined;
    if (typeof value !== "string" || !value.includes("://")) continue;
    const safe = safeUrl(value);
    if (safe === null) continue;
    if (url !== null) return undefined;
    url = safe;
  }
  return url === null ? undefined : { url, name: flatName(o, keys) || url };
}

/**
 * memberText(membersOf(o), NAMES) for a flat file, without its maps: the first of NAMES whose
 * member (the last of that name in any case) holds text.
 */
function flatName(o: Record<string, unknown>, keys: readonly string[]): string {
  const lowered = keys.map((k) => k.toLowerCase());
  for (const n of NAMES) {
    const lower = lowerOf(n);
    const at = lowered.lastIndexOf(lower);
    const value = at < 0 ? undefined : o[keys[at] as string];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return "";
}

/**
 * Each file object's description, made once: a refresh describes a report's first file for its
 * cell, then every file twice on the files' sheet (its name, its link). The objects are the
 * answers' own, never changed after they are read.
 */
const described = new WeakMap<object, { url: string | null; name: string }>();

/** The URL and name of an attached file, whatever the element's shape (the spec does not show it). */
export function describeFile(file: unknown): { url: string | null; name: string } {
  if (typeof file === "string") return { url: safeUrl(file), name: file };
  if (!file || typeof file !== "object") return { url: null, name: "" };
  let known = described.get(file);
  if (!known) {
    known = describeObject(file);
    described.set(file, known);
  }
  return { url: known.url, name: known.name };
}

function describeObject(file: object): { url: string | null; name: string } {
  const flat = Array.isArray(file) ? undefined : flatFile(file as Record<string, unknown>);
  if (flat) return flat;
  const best = candidates(file).sort(
    (a, b) => b.rank - a.rank || b.area - a.area || a.depth - b.depth || a.order - b.order,
  )[0];
  const ownName = Array.isArray(file) ? "" : memberText(membersOf(file as Record<string, unknown>), NAMES);
  return { url: best?.url ?? null, name: ownName || best?.name || best?.url || "" };
}
