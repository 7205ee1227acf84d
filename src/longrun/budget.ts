/**
 * The time budget of one execution. Apps Script stops any execution after 6 minutes with
 * "Exceeded maximum execution time", whatever it was doing; a refresh asks `shouldStop()`
 * between steps and, when the next step might not fit, stops cleanly and stores where it was.
 */

/** Google's limit for one execution. */
export const EXECUTION_LIMIT_MS = 6 * 60 * 1000;

export interface Clock {
  now(): number;
}

export interface TimeBudgetOptions {
  clock: Clock;
  /** When the execution started (ms); defaults to the clock's now. */
  startedAt?: number;
  /** The execution limit; lower in tests. */
  limitMs?: number;
  /**
   * Time kept back for what follows the last step: writing the sheet, storing the cursor,
   * creating the follow-up trigger. Defaults to a sixth of the limit.
   */
  reserveMs?: number;
}

export interface TimeBudget {
  /** True when the next step might not finish before the reserve. */
  shouldStop(): boolean;
  remainingMs(): number;
  elapsedMs(): number;
}

/**
 * A budget that learns how long a step takes: the gap between two `shouldStop()` calls is a
 * step, and it stops when the time left after the reserve is less than the longest step seen.
 */
export function createTimeBudget(options: TimeBudgetOptions): TimeBudget {
  const { clock } = options;
  const startedAt = options.startedAt ?? clock.now();
  const limitMs = options.limitMs ?? EXECUTION_LIMIT_MS;
  if (!(limitMs > 0)) throw new Error(`limitMs: must be more than 0, got ${limitMs}`);
  const reserveMs = options.reserveMs ?? Math.round(limitMs / 6);
  let lastCheck = clock.now();
  let longestStep = 0;
  return {
    shouldStop(): boolean {
      const now = clock.now();
      longestStep = Math.max(longestStep, now - lastCheck);
      lastCheck = now;
      return limitMs - (now - startedAt) - reserveMs < longestStep;
    },
    remainingMs: () => limitMs - (clock.now() - startedAt),
    elapsedMs: () => clock.now() - startedAt,
  };
}
