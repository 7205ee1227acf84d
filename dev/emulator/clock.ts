/**
 * The emulator's clock: real time plus a virtual offset. `Utilities.sleep`, lock waits and
 * `advanceTime` move the offset instead of blocking, so retries, backoff, trigger schedules and
 * the execution budget can be tested in milliseconds of real time.
 */
export class EmulatorClock {
  private offsetMs = 0;

  constructor(private readonly realNow: () => number = Date.now) {}

  /** Milliseconds since the epoch on the emulator's clock. */
  now(): number {
    return this.realNow() + this.offsetMs;
  }

  /** Moves the clock forward (negative values are refused: time never goes back). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advanceTime(ms): ms must be >= 0, got ${ms}`);
    this.offsetMs += ms;
  }

  /** Sets the clock so that now() returns `epochMs` at this instant (later calls keep running). */
  set(epochMs: number): void {
    this.offsetMs = epochMs - this.realNow();
  }
}
