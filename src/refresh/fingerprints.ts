/**
 * What the last transactions refresh saw of each fund, so the next one calls getFund only for
 * funds that are new or whose totals moved. Kept per document in document properties, in a
 * compact text (ids as base-36 deltas, a 32-bit hash of the totals) cut into values under the
 * 9 KB limit: about 10 characters per fund, 5,000 funds in about 50 KB.
 */
import type { Fund } from "../api/types";

export type Fingerprints = Map<number, string>;

/** The totals that change whenever a movement is added: deposits, withdrawals, balance. */
export function fundFingerprint(
  fund: Pick<Fund, "depositsCents" | "withdrawalsCents" | "balanceCents">,
): string {
  const text = `${fund.depositsCents}|${fund.withdrawalsCents}|${fund.balanceCents}`;
  // FNV-1a, 32 bits: enough to tell "moved" from "did not move" for one fund.
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

/** Ids of the funds whose movements must be fetched: new, or totals changed. */
export function fundsToFetch(funds: readonly Fund[], known: Fingerprints): number[] {
  return funds.filter((f) => known.get(f.id) !== fundFingerprint(f)).map((f) => f.id);
}

/** Ids known from the last refresh that the fund list no longer has. */
export function vanishedFunds(funds: readonly Fund[], known: Fingerprints): number[] {
  const present = new Set(funds.map((f) => f.id));
  return [...known.keys()].filter((id) => !present.has(id));
}

/** "delta:hash,delta:hash…" with ids sorted and deltas in base 36. */
export function encodeFingerprints(map: Fingerprints): string {
  const ids = [...map.keys()].sort((a, b) => a - b);
  let previous = 0;
  return ids
    .map((id) => {
      const part = `${(id - previous).toString(36)}:${map.get(id)}`;
      previous = id;
      return part;
    })
    .join(",");
}

export function decodeFingerprints(text: string): Fingerprints {
  const map: Fingerprints = new Map();
  if (!text) return map;
  let id = 0;
  for (const part of text.split(",")) {
    const [delta, hash] = part.split(":");
    const step = Number.parseInt(delta ?? "", 36);
    if (!Number.isFinite(step) || !hash) return new Map(); // damaged: fetch everything again
    id += step;
    map.set(id, hash);
  }
  return map;
}

/** The part of a property store this needs (PropertiesService's Properties fits). */
export interface FingerprintStore {
  getProperty(key: string): string | null;
  setProperty(key: string, value: string): unknown;
  deleteProperty(key: string): unknown;
}

export const FINGERPRINT_KEY = "refresh.fundFingerprints";
/** Characters per property value: ASCII only, well under 9 KB. */
const CHUNK = 8_000;
/** Past this many chunks (about 24,000 funds) the rest are not remembered and are fetched each time. */
const MAX_CHUNKS = 30;

export function loadFingerprints(store: FingerprintStore): Fingerprints {
  const count = Number(store.getProperty(FINGERPRINT_KEY) ?? "0");
  if (!Number.isInteger(count) || count <= 0) return new Map();
  let text = "";
  for (let i = 0; i < count; i++) {
    const chunk = store.getProperty(`${FINGERPRINT_KEY}.${i}`);
    if (chunk === null) return new Map();
    text += chunk;
  }
  return decodeFingerprints(text);
}

export function saveFingerprints(store: FingerprintStore, map: Fingerprints): void {
  let text = encodeFingerprints(map);
  if (text.length > CHUNK * MAX_CHUNKS) text = text.slice(0, text.lastIndexOf(",", CHUNK * MAX_CHUNKS));
  const previous = Number(store.getProperty(FINGERPRINT_KEY) ?? "0") || 0;
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += CHUNK) chunks.push(text.slice(i, i + CHUNK));
  // The count goes to 0 first so an execution killed mid-save leaves "fetch everything", not a mix.
  store.setProperty(FINGERPRINT_KEY, "0");
  chunks.forEach((c, i) => {
    store.setProperty(`${FINGERPRINT_KEY}.${i}`, c);
  });
  for (let i = chunks.length; i < previous; i++) store.deleteProperty(`${FINGERPRINT_KEY}.${i}`);
  store.setProperty(FINGERPRINT_KEY, String(chunks.length));
}
