import { describe, expect, it } from "vitest";
import { createTimeBudget, EXECUTION_LIMIT_MS } from "../../src/longrun/budget";

function fakeClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("createTimeBudget", () => {
  it("stops before the step that would not fit in the time left after the reserve", () => {
    const clock = fakeClock();
    const budget = createTimeBudget({ clock, limitMs: 60_000, reserveMs: 10_000 });
    let steps = 0;
    while (!budget.shouldStop()) {
      clock.advance(7_000);
      steps++;
    }
    // 50 s usable, 7 s steps: the 7th step would end at 49 s, the 8th at 56 s.
    expect(steps).toBe(7);
    expect(budget.elapsedMs()).toBe(49_000);
    expect(budget.remainingMs()).toBeGreaterThanOrEqual(10_000);
  });

  it("learns from the longest step seen", () => {
    const clock = fakeClock();
    const budget = createTimeBudget({ clock, limitMs: 100_000, reserveMs: 0 });
    budget.shouldStop();
    clock.advance(40_000);
    expect(budget.shouldStop()).toBe(false);
    clock.advance(1_000);
    // 59 s left, longest step 40 s: still fits.
    expect(budget.shouldStop()).toBe(false);
    clock.advance(20_000);
    // 39 s left < 40 s.
    expect(budget.shouldStop()).toBe(true);
  });

  it("defaults to Google's six minutes with a sixth kept back", () => {
    const clock = fakeClock();
    const budget = createTimeBudget({ clock });
    clock.advance(EXECUTION_LIMIT_MS - 60_000 - 1);
    expect(budget.shouldStop()).toBe(true);
    expect(() => createTimeBudget({ clock, limitMs: 0 })).toThrow("limitMs: must be more than 0");
  });
});
