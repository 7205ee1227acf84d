/** The marking's record store in memory (document properties in Apps Script), its map open to look at. */
import type { MarkDeps, MarkRecord } from "../../src/close/mark";

export function memoryRecords(): MarkDeps["records"] & { map: Map<string, MarkRecord> } {
  const map = new Map<string, MarkRecord>();
  return {
    map,
    all: () => [...map.values()].map((r) => structuredClone(r)),
    put: (r) => void map.set(r.key, structuredClone(r)),
    remove: (key) => void map.delete(key),
  };
}
