import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CONTINUATION_KEY,
  type Continuation,
  chunkText,
  clearContinuation,
  loadContinuation,
  type PropertyStore,
  saveContinuation,
} from "../../src/longrun/continuation";

/** A store with Apps Script's 9 KB per value limit. */
function memoryStore(): PropertyStore & { data: Map<string, string>; failAfter?: number } {
  const data = new Map<string, string>();
  const store = {
    data,
    failAfter: undefined as number | undefined,
    getProperty: (k: string) => data.get(k) ?? null,
    setProperty(k: string, v: string) {
      if (store.failAfter !== undefined && store.failAfter-- <= 0)
        throw new Error("Exceeded maximum execution time");
      if (Buffer.byteLength(v, "utf8") > 9 * 1024) throw new Error("Argument too large: value");
      data.set(k, v);
    },
    deleteProperty: (k: string) => data.delete(k),
    getProperties: () => Object.fromEntries(data),
  };
  return store;
}

function continuation(cursor: unknown): Continuation {
  return {
    chainId: "run-1",
    ownerKey: "ana",
    ownerLabel: "ana@example.com",
    startedBy: "schedule",
    savedAt: 1,
    executions: 1,
    calls: 10,
    records: 200,
    settingsFingerprint: "abc",
    cursor,
  };
}

describe("continuation storage", () => {
  it("round-trips a cursor larger than one property value, within the value limit", () => {
    const store = memoryStore();
    const cursor = {
      pendingFundIds: Array.from({ length: 5000 }, (_, i) => 100000 + i),
      note: "ñandú 😀".repeat(500),
    };
    saveContinuation(store, continuation(cursor), "g1");
    expect(
      [...store.data.keys()].filter((k) => k.startsWith(`${CONTINUATION_KEY}.g1.`)).length,
    ).toBeGreaterThan(3);
    expect(loadContinuation(store)?.cursor).toEqual(cursor);
  });

  it("keeps the previous continuation when a save is killed part-way", () => {
    const store = memoryStore();
    saveContinuation(store, continuation({ page: 3 }), "g1");
    store.failAfter = 2;
    expect(() => saveContinuation(store, continuation({ page: 4, big: "x".repeat(20_000) }), "g2")).toThrow();
    expect(loadContinuation(store)?.cursor).toEqual({ page: 3 });
    store.failAfter = undefined;
    saveContinuation(store, continuation({ page: 5 }), "g3");
    expect(loadContinuation(store)?.cursor).toEqual({ page: 5 });
    // Leftover chunks of the killed save are gone.
    expect([...store.data.keys()].some((k) => k.includes(".g2."))).toBe(false);
  });

  it("forgets everything on clear, and reads nothing from a damaged store", () => {
    const store = memoryStore();
    saveContinuation(store, continuation({ page: 2 }), "g1");
    clearContinuation(store);
    expect(store.data.size).toBe(0);
    expect(loadContinuation(store)).toBeNull();
    saveContinuation(store, continuation({ page: 2 }), "g2");
    store.data.delete(`${CONTINUATION_KEY}.g2.0`);
    expect(loadContinuation(store)).toBeNull();
  });

  it("refuses a cursor too large for document properties with a clear error", () => {
    expect(() => saveContinuation(memoryStore(), continuation("x".repeat(200_000)), "g")).toThrow(
      /continuation: the stored position is \d+ characters, above the 150000 allowed/,
    );
  });

  it("chunks any text without splitting a surrogate pair and rejoins it exactly", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 400 }),
        fc.integer({ min: 2, max: 50 }),
        (text, size) => {
          const chunks = chunkText(text, size);
          expect(chunks.join("")).toBe(text);
          for (const c of chunks) expect(c.length).toBeLessThanOrEqual(size);
          for (const c of chunks) expect(/[\ud800-\udbff]$/.test(c)).toBe(false);
        },
      ),
    );
  });
});

describe("continuations under keys of their own", () => {
  it("keeps the close's marking and the refresh side by side: saving, loading or clearing one leaves the other", () => {
    const store = memoryStore();
    const refresh = continuation({ page: 3 });
    const marking = { ...continuation({ remaining: ["c0:1", "c0:2"] }), chainId: "close" };
    saveContinuation(store, refresh, "g1");
    saveContinuation(store, marking, "g2", "close.continuation");
    expect(loadContinuation(store)).toEqual(refresh);
    expect(loadContinuation(store, "close.continuation")).toEqual(marking);
    saveContinuation(store, { ...marking, executions: 2 }, "g3", "close.continuation");
    expect(loadContinuation(store)).toEqual(refresh);
    clearContinuation(store);
    expect(loadContinuation(store)).toBeNull();
    expect(loadContinuation(store, "close.continuation")).toEqual({ ...marking, executions: 2 });
    clearContinuation(store, "close.continuation");
    expect([...store.data.keys()]).toEqual([]);
  });
});
