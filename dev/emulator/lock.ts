/**
 * LockService: the document lock (one execution per document), the script lock (all users)
 * and user locks (same user). Contention comes from executions running at the same time
 * (`emulator.startRun`), which really wait for each other, or from `emulator.holdLock(...)`,
 * which stands for another execution holding a lock (optionally releasing it after some
 * milliseconds of emulator time). A run on the calling thread (`emulator.run`) cannot wait for
 * a holder that runs, so its waits for holdLock's holders advance the emulator clock instead.
 */
import { MESSAGES, ServiceError } from "./errors";
import { Fake } from "./realm";
import type { Implements } from "./typed";

export type LockKind = "document" | "script" | "user";

/**
 * Who holds each lock: an execution id and the Lock object it took it with, or an outside
 * holder set up by a test.
 */
export interface LockHolder {
  execution: number | "other";
  until: number;
  /** The Lock object that holds it: another object of the same execution does not (see FakeLock). */
  lock?: FakeLock;
}

export class LockTable {
  readonly holders = new Map<string, LockHolder>();
  /**
   * Each time a Lock object waited for a lock that another Lock object of its own execution held
   * (on Google it would wait for itself, or not, depending on what is not documented).
   */
  readonly ownWaits: { key: string; execution: number }[] = [];

  holder(key: string, now: number): LockHolder | undefined {
    const h = this.holders.get(key);
    if (h && h.until <= now) {
      this.holders.delete(key);
      return undefined;
    }
    return h;
  }
}

export interface LockHost {
  now(): number;
  /** Lets emulator time pass while the script waits. */
  wait(ms: number): void;
  executionId(): number;
  /** Remembers the locks an execution holds, to free them when it ends. */
  held(): Set<string>;
  table: LockTable;
}

export class FakeLock
  extends Fake
  implements Implements<GoogleAppsScript.Lock.Lock, "tryLock" | "waitLock" | "hasLock" | "releaseLock">
{
  static override readonly service = "Lock";
  constructor(
    /** "document", "script" or "user:<email>". */
    readonly key: string,
    private readonly host: LockHost,
  ) {
    super();
  }

  private waitedOnOwn = false;

  /**
   * Takes the lock for the current execution if it is free (or already this object's). Google
   * documents `hasLock` per Lock object only; the stricter reading is emulated: each object is
   * independent and not re-entrant, so a second `getDocumentLock()` object of an execution that
   * holds the lock through the first waits (and fails) as another execution would, and says so
   * in `LockTable.ownWaits`.
   */
  attempt(): boolean {
    const me = this.host.executionId();
    const holder = this.host.table.holder(this.key, this.host.now());
    if (holder && (holder.execution !== me || holder.lock !== this)) {
      if (holder.execution === me && !this.waitedOnOwn) {
        this.waitedOnOwn = true;
        this.host.table.ownWaits.push({ key: this.key, execution: me });
      }
      return false;
    }
    this.host.table.holders.set(this.key, { execution: me, until: Number.POSITIVE_INFINITY, lock: this });
    this.host.held().add(this.key);
    return true;
  }

  tryLock(timeoutInMillis: number): boolean {
    checkTimeout(timeoutInMillis);
    if (this.attempt()) return true;
    // The other holder may let go within the timeout: wait (on the emulator clock) until then.
    const holder = this.host.table.holder(this.key, this.host.now());
    const freeAt = holder?.until ?? this.host.now();
    const waitMs = Math.min(timeoutInMillis, Math.max(0, freeAt - this.host.now()));
    this.host.wait(waitMs);
    return this.attempt();
  }

  waitLock(timeoutInMillis: number): void {
    if (!this.tryLock(timeoutInMillis)) throw new ServiceError(MESSAGES.lockTimeout);
  }

  /** Whether this object holds the lock (another object of the same execution does not count). */
  hasLock(): boolean {
    const holder = this.host.table.holder(this.key, this.host.now());
    return holder?.execution === this.host.executionId() && holder.lock === this;
  }

  releaseLock(): void {
    if (this.hasLock()) {
      this.host.table.holders.delete(this.key);
      this.host.held().delete(this.key);
    }
  }
}

/** Apps Script's check of a lock timeout argument. */
export function checkTimeout(timeoutInMillis: unknown): asserts timeoutInMillis is number {
  if (typeof timeoutInMillis !== "number" || timeoutInMillis < 0) {
    throw new ServiceError("Invalid argument: timeoutInMillis");
  }
}

export interface LockServiceHost extends LockHost {
  userKey(): string;
  /** False where no document is bound (the document lock is then null). */
  hasDocument(): boolean;
}

export class FakeLockService
  extends Fake
  implements
    Implements<GoogleAppsScript.Lock.LockService, "getDocumentLock" | "getScriptLock" | "getUserLock">
{
  static override readonly service = "LockService";
  constructor(private readonly host: LockServiceHost) {
    super();
  }
  getDocumentLock(): FakeLock {
    return (this.host.hasDocument() ? new FakeLock("document", this.host) : null) as FakeLock;
  }
  getScriptLock(): FakeLock {
    return new FakeLock("script", this.host);
  }
  getUserLock(): FakeLock {
    return new FakeLock(`user:${this.host.userKey()}`, this.host);
  }
}
