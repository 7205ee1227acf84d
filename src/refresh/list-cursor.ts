/**
 * Where a list cut off by the time limit stands, so the next execution goes on from the page
 * reached instead of page 1 (README.md, "Long refreshes"). The pages read so far are already
 * merged into the sheet (rows updated or added, none marked missing); what must survive is
 * where to go on, a check that the pages have not shifted since, and the ids merged so far
 * (rows not among them are marked missing only after the whole pass).
 *
 * The ids can be many (50,000 reports are about 150 KB as base-36 deltas): a short list rides
 * in the cursor, a long one goes to the document cache, whose entries expire and may be
 * evicted; a count and a hash in the cursor tell a set that is missing or not the one saved,
 * and then the list starts again from page 1.
 */

/** Where the ids merged so far are: inline, or in the cache under `key.0`, `key.1`… */
export interface SeenRef {
  count: number;
  hash: number;
  ids?: string;
  key?: string;
  chunks?: number;
}

export interface ListCursor {
  /** The window piece being read; the pieces before it are merged whole. */
  piece: number;
  /** The next page of that piece (the pages before it are merged). */
  page: number;
  /** Its page count as last announced, for progress. */
  pages: number;
  /** ResultsPerPage the pages were read with: another size shifts every page. */
  size: number;
  /** Hash of the ids of page `page - 1`, in order: the same page read again must match. */
  check: number;
  seen: SeenRef;
}

/** The part of a cache this needs (CacheService's Cache fits). */
export interface ListStateStore {
  get(key: string): string | null;
  put(key: string, value: string, expirationInSeconds: number): void;
  remove(key: string): void;
}

/** Cache entries live at most 6 hours; a continuation is usually minutes away. */
const TTL_S = 21_600;
/** ASCII characters per cache value, under its 100 KB limit. */
const CACHE_CHUNK = 90_000;
/** Ids text kept in the cursor itself (in document properties) up to this length. */
const INLINE_MAX = 4_000;

/** FNV-1a over the ids, in the order given. */
export function idsHash(ids: readonly number[]): number {
  let h = 0x811c9dc5;
  for (const id of ids) {
    const text = `${id},`;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  }
  return h;
}

/** Sorted ids as base-36 deltas, comma-separated. */
export function encodeIds(ids: Iterable<number>): string {
  let previous = 0;
  return [...ids]
    .sort((a, b) => a - b)
    .map((id) => {
      const part = (id - previous).toString(36);
      previous = id;
      return part;
    })
    .join(",");
}

/** The ids of `encodeIds`, or null when the text is damaged. */
export function decodeIds(text: string): number[] | null {
  if (text === "") return [];
  let id = 0;
  const out: number[] = [];
  for (const part of text.split(",")) {
    const step = Number.parseInt(part, 36);
    if (!Number.isFinite(step)) return null;
    id += step;
    out.push(id);
  }
  return out;
}

/**
 * Keeps `ids`: in the cursor when short or when there is no cache, else in the cache under a
 * new key (`prefix` names the list). The previous set is removed only by `forgetSeen`.
 */
export function saveSeen(store: ListStateStore | undefined, ids: Set<number>, prefix: string): SeenRef {
  const sorted = [...ids].sort((a, b) => a - b);
  const text = encodeIds(sorted);
  const ref: SeenRef = { count: sorted.length, hash: idsHash(sorted) };
  if (!store || text.length <= INLINE_MAX) return { ...ref, ids: text };
  const key = `refresh.seen.${prefix}.${Math.random().toString(36).slice(2, 10)}`;
  let chunks = 0;
  for (let i = 0; i < text.length; i += CACHE_CHUNK)
    store.put(`${key}.${chunks++}`, text.slice(i, i + CACHE_CHUNK), TTL_S);
  return { ...ref, key, chunks };
}

/** The ids `ref` points to, or null when they are gone or not the set saved. */
export function loadSeen(store: ListStateStore | undefined, ref: SeenRef): Set<number> | null {
  let text = ref.ids;
  if (text === undefined) {
    if (!store || !ref.key || !ref.chunks) return null;
    text = "";
    for (let i = 0; i < ref.chunks; i++) {
      const chunk = store.get(`${ref.key}.${i}`);
      if (chunk === null) return null;
      text += chunk;
    }
  }
  const ids = decodeIds(text);
  if (!ids || ids.length !== ref.count || idsHash(ids) !== ref.hash) return null;
  return new Set(ids);
}

/** Removes what `saveSeen` put in the cache (nothing for an inline set). */
export function forgetSeen(store: ListStateStore | undefined, ref: SeenRef | undefined): void {
  if (!store || !ref?.key) return;
  for (let i = 0; i < (ref.chunks ?? 0); i++) store.remove(`${ref.key}.${i}`);
}

/** Whether `value` is a list cursor this version can continue. */
export function isListCursor(value: unknown): value is ListCursor {
  const c = value as ListCursor;
  return (
    typeof c === "object" &&
    c !== null &&
    [c.piece, c.page, c.pages, c.size, c.check].every(Number.isInteger) &&
    c.page >= 1 &&
    typeof c.seen === "object" &&
    c.seen !== null &&
    Number.isInteger(c.seen.count)
  );
}

/**
 * Whether the pages have stayed where they were: page `page - 1` read again has the same ids in
 * the same order. (Not the record count: records added after that page, the usual case in a
 * list ordered by date, change it without moving a page already merged.)
 */
export function unshifted(cursor: ListCursor, checkIds: readonly number[]): boolean {
  return idsHash(checkIds) === cursor.check;
}
