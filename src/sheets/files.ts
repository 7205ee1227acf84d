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

function memberText(o: Record<string, unknown>, names: readonly string[]): string {
  const lower = new Map(Object.keys(o).map((k) => [k.toLowerCase(), k]));
  for (const n of names) {
    const key = lower.get(n.toLowerCase());
    const value = key === undefined ? undefined : o[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return "";
}

function memberNumber(o: Record<string, unknown>, name: string): number {
  const key = Object.keys(o).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : Number(o[key]);
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : 0;
}

function rankOf(words: string): number {
  const spaced = words.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  for (const [pattern, rank] of SIZE_RANKS) if (pattern.test(spaced)) return rank;
  return UNNAMED_RANK;
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
    const o = value as Record<string, unknown>;
    const label = memberText(o, SIZE_LABELS);
    const width = memberNumber(o, "width");
    const own = width ? width * (memberNumber(o, "height") || 1) : 0;
    const ownName = memberText(o, NAMES);
    for (const [key, member] of Object.entries(o))
      walk(member, `${words} ${label} ${key}`, own || area, ownName || name, depth + 1);
  };
  walk(file, "", 0, "", 0);
  return out;
}

/** The URL and name of an attached file, whatever the element's shape (the spec does not show it). */
export function describeFile(file: unknown): { url: string | null; name: string } {
  if (typeof file === "string") return { url: safeUrl(file), name: file };
  if (!file || typeof file !== "object") return { url: null, name: "" };
  const best = candidates(file).sort(
    (a, b) => b.rank - a.rank || b.area - a.area || a.depth - b.depth || a.order - b.order,
  )[0];
  const ownName = Array.isArray(file) ? "" : memberText(file as Record<string, unknown>, NAMES);
  return { url: best?.url ?? null, name: ownName || best?.name || best?.url || "" };
}
