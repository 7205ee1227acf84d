import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeFingerprints,
  encodeFingerprints,
  FINGERPRINT_KEY,
  fundFingerprint,
  fundsToFetch,
  loadFingerprints,
  saveFingerprints,
  vanishedFunds,
} from "../../src/refresh/fingerprints";
import { makeFund, memoryStore } from "./fakes";

describe("fund fingerprints", () => {
  it("change when any total changes", () => {
    const f = makeFund(1, [1000, -300]);
    expect(fundFingerprint(f)).toBe(fundFingerprint({ ...f }));
    expect(fundFingerprint({ ...f, depositsCents: f.depositsCents + 1 })).not.toBe(fundFingerprint(f));
    expect(fundFingerprint({ ...f, withdrawalsCents: f.withdrawalsCents + 1 })).not.toBe(fundFingerprint(f));
    expect(fundFingerprint({ ...f, balanceCents: f.balanceCents - 1 })).not.toBe(fundFingerprint(f));
  });

  it("pick new and changed funds, and the ones that vanished", () => {
    const a = makeFund(1);
    const b = makeFund(2);
    const known = new Map([
      [1, fundFingerprint(a)],
      [2, "stale"],
      [3, "x"],
    ]);
    expect(fundsToFetch([a, b, makeFund(4)], known)).toEqual([2, 4]);
    expect(vanishedFunds([a, b], known)).toEqual([3]);
  });

  it("round-trip through their compact text", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 2 ** 31 }), { maxLength: 200 }), (ids) => {
        const map = new Map(ids.map((id) => [id, fundFingerprint(makeFund(id))]));
        expect(decodeFingerprints(encodeFingerprints(map))).toEqual(
          new Map([...map].sort((x, y) => x[0] - y[0])),
        );
      }),
    );
    expect(decodeFingerprints("zz:")).toEqual(new Map());
  });

  it("are stored in values under the 9 KB property limit, and shrink cleanly", () => {
    const store = memoryStore();
    const big = new Map(
      Array.from({ length: 5000 }, (_v, i) => [100_000 + i * 7, fundFingerprint(makeFund(i, [i]))]),
    );
    saveFingerprints(store, big);
    expect([...store.data.values()].every((v) => new TextEncoder().encode(v).length <= 9 * 1024)).toBe(true);
    const total = [...store.data.values()].reduce((n, v) => n + v.length, 0);
    expect(total).toBeLessThan(70_000);
    expect(loadFingerprints(store)).toEqual(big);
    saveFingerprints(store, new Map([[1, "abc"]]));
    expect(store.data.get(FINGERPRINT_KEY)).toBe("1");
    expect([...store.data.keys()]).toHaveLength(2);
    expect(loadFingerprints(store)).toEqual(new Map([[1, "abc"]]));
  });
});
