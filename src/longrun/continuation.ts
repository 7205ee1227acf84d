/**
 * Where a long run (a refresh, the close's marking) stopped near the time limit, kept in
 * document properties until a follow-up execution continues it. A cursor can be larger than one property value (9 KB), so it is cut
 * into chunks; chunks are written under a fresh generation first and the header that points to
 * them last, so an execution killed mid-save leaves the previous continuation intact.
 */

/** The part of a property store this needs (PropertiesService's Properties fits). */
export interface PropertyStore {
  getProperty(key: string): string | null;
  setProperty(key: string, value: string): unknown;
  deleteProperty(key: string): unknown;
  getProperties(): Record<string, string>;
}

export interface Continuation<C = unknown> {
  /** Id of the run that started the refresh this continues. */
  chainId: string;
  /** User whose execution continues it (their token, their trigger). */
  ownerKey: string;
  ownerLabel: string;
  /** Why the chain started: a scheduled refresh or one started by hand. */
  startedBy: string;
  savedAt: number;
  /** How many executions this refresh has taken so far. */
  executions: number;
  /** Calls and records of the executions so far. */
  calls: number;
  records: number;
  /**
   * The settings the refresh ran with; a continuation under other settings would mix two
   * refreshes, so it is dropped instead.
   */
  settingsFingerprint: string;
  /** The refresh's own serialisable cursor (page, window piece, pending detail fetches…). */
  cursor: C;
}

export const CONTINUATION_KEY = "longrun.continuation";
/** UTF-16 units per chunk: at most 3 UTF-8 bytes each, under the 9 KB value limit. */
const CHUNK_UNITS = 3000;
/** Stay well under the 500 KB store limit shared with everything else in the document. */
const MAX_UNITS = 150_000;

interface Header {
  generation: string;
  chunks: number;
  length: number;
}

/** Cuts `text` into chunks without splitting a surrogate pair. */
export function chunkText(text: string, size = CHUNK_UNITS): string[] {
  const chunks: string[] = [];
  let i = 0;
  while (i < text.length) {
    let end = Math.min(i + size, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    chunks.push(text.slice(i, end));
    i = end;
  }
  return chunks;
}

function chunkKey(generation: string, index: number, key: string): string {
  return `${key}.${generation}.${index}`;
}

/**
 * Stores `value`, replacing any previous continuation. `generation` must be new for each save
 * (e.g. a uuid). Throws when the cursor is too large to keep in document properties. `key`
 * names the chain: the refresh's by default; another long run (the close's marking) keeps its
 * own under a key of its own, which must not start with another chain's key and a dot.
 */
export function saveContinuation<C>(
  store: PropertyStore,
  value: Continuation<C>,
  generation: string,
  key: string = CONTINUATION_KEY,
): void {
  const text = JSON.stringify(value);
  if (text.length > MAX_UNITS) {
    throw new Error(
      `continuation: the stored position is ${text.length} characters, above the ${MAX_UNITS} allowed`,
    );
  }
  const chunks = chunkText(text);
  chunks.forEach((chunk, index) => {
    store.setProperty(chunkKey(generation, index, key), chunk);
  });
  const header: Header = { generation, chunks: chunks.length, length: text.length };
  store.setProperty(key, JSON.stringify(header));
  removeChunksExcept(store, generation, key);
}

/** The stored continuation, or null when there is none or it cannot be read whole. */
export function loadContinuation<C = unknown>(
  store: PropertyStore,
  key: string = CONTINUATION_KEY,
): Continuation<C> | null {
  const headerText = store.getProperty(key);
  if (!headerText) return null;
  try {
    const header = JSON.parse(headerText) as Header;
    let text = "";
    for (let i = 0; i < header.chunks; i++) {
      const chunk = store.getProperty(chunkKey(header.generation, i, key));
      if (chunk === null) return null;
      text += chunk;
    }
    if (text.length !== header.length) return null;
    const value = JSON.parse(text) as Continuation<C>;
    if (typeof value.chainId !== "string" || typeof value.ownerKey !== "string") return null;
    return value;
  } catch (_err) {
    return null;
  }
}

/** Forgets the continuation (the refresh finished, failed for good, or was superseded). */
export function clearContinuation(store: PropertyStore, key: string = CONTINUATION_KEY): void {
  store.deleteProperty(key);
  removeChunksExcept(store, null, key);
}

function removeChunksExcept(store: PropertyStore, generation: string | null, key: string): void {
  const keep = generation === null ? null : `${key}.${generation}.`;
  for (const name of Object.keys(store.getProperties())) {
    if (name.startsWith(`${key}.`) && (keep === null || !name.startsWith(keep))) {
      store.deleteProperty(name);
    }
  }
}
