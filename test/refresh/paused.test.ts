/** A paused refresh as the document keeps it, and how far it got (src/refresh/paused.ts). */
import { describe, expect, it } from "vitest";
import { startCursor } from "../../src/refresh/engine";
import { refreshPercent, storedCursorOf } from "../../src/refresh/paused";

describe("a paused refresh", () => {
  it("reads back what was kept, and nothing that is not a paused refresh of a known kind", () => {
    const cursor = startCursor("all");
    const kept = { fingerprint: "all|x", kind: "all", cursor, fundsAtStart: 7, percent: 40, pausedAt: 5 };
    expect(storedCursorOf(JSON.parse(JSON.stringify(kept)))).toEqual(kept);
    expect(storedCursorOf({ ...kept, fundsAtStart: "many" })).toMatchObject({ fundsAtStart: 0 });
    expect(storedCursorOf({ ...kept, fingerprint: "everything|x" })).toBeNull();
    expect(storedCursorOf({ ...kept, cursor: { stages: "funds" } })).toBeNull();
    expect(storedCursorOf(null)).toBeNull();
    expect(storedCursorOf("all|x")).toBeNull();
  });

  it("is 100% once finished and below 100% while any stage is left", () => {
    expect(refreshPercent("all", null)).toBe(100);
    expect(refreshPercent("all", startCursor("all"))).toBe(0);
    const left = startCursor("all");
    const percent = refreshPercent("all", { ...left, stages: left.stages.slice(1) });
    expect(percent).toBeGreaterThan(0);
    expect(percent).toBeLessThan(100);
  });
});
