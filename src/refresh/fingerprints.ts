/**
 * What the last transactions refresh saw of each fund, so the next one calls getFund only for
 * funds that are new or whose totals moved. Kept per document in document properties, in a
 * compact text (ids as base-36 deltas, a 32-bit hash of the totals) cut into values under the
 * 9 KB limit (stored-text.ts): about 10 characters per fund, 5,000 funds in about 50 KB.
 */
import type { Fund } from "../api/types";
import { loadText, saveText, type TextStore } from "./stored-text";

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

export type FingerprintStore = TextStore;

export const FINGERPRINT_KEY = "refresh.fundFingerprints";
/**
 * Past this many characters (about 12,000 funds, 120 KB of the document's 500 KB store) the
 * funds beyond are not remembered and their movements are fetched at every refresh.
 */
const MAX_TEXT = 120_000;

export function loadFingerprints(store: FingerprintStore): Fingerprints {
  return decodeFingerprints(loadText(store, FINGERPRINT_KEY) ?? "");
}

export function saveFingerprints(store: FingerprintStore, map: Fingerprints): void {
  let text = encodeFingerprints(map);
  if (text.length > MAX_TEXT) text = text.slice(0, text.lastIndexOf(",", MAX_TEXT));
  saveText(store, FINGERPRINT_KEY, text);
}
