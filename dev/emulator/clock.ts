/**
 * The emulator's clock: real time plus a virtual offset. `Utilities.sleep`, lock waits and
 * `advanceTime` move the offset instead of blocking, so retries, backoff, trigger schedules and
 * the execution budget can be tested in milliseconds of real time. The offset lives in shared
 * memory, so that executions running on worker threads read the same clock (`sharedClockNow`).
 */
export class EmulatorClock {
  /** The virtual offset in milliseconds, readable from other threads. */
  readonly shared = new SharedArrayBuffer(8);
  private readonly offset = new Float64Array(this.shared);

  constructor(private readonly realNow: () => number = Date.now) {}

  /** True when the clock runs on Date.now (the only real clock another thread can share). */
  get realTime(): boolean {
    return this.realNow === Date.now;
  }

  /** Milliseconds since the epoch on the emulator's clock. */
  now(): number {
    return this.realNow() + (this.offset[0] as number);
  }

  /** Moves the clock forward (negative values are refused: time never goes back). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advanceTime(ms): ms must be >= 0, got ${ms}`);
    this.offset[0] = (this.offset[0] as number) + ms;
  }

  /** Sets the clock so that now() returns `epochMs` at this instant (later calls keep running). */
  set(epochMs: number): void {
    this.offset[0] = epochMs - this.realNow();
  }
}

/** The emulator clock as seen from another thread, given `EmulatorClock.shared`. */
export function sharedClockNow(shared: SharedArrayBuffer): () => number {
  const offset = new Float64Array(shared);
  return () => Date.now() + (offset[0] as number);
}
