/**
 * One execution of a script function (a menu click, a `google.script.run` call, a trigger): who
 * runs it, in which AuthMode, until when, and where a test asked to stop it.
 */

/** How the function was started, which decides the AuthMode, the Ui and the time limit. */
export type RunKind = "script.run" | "menu" | "trigger" | "simple" | "direct";

export type AuthModeName = "NONE" | "LIMITED" | "FULL" | "CUSTOM_FUNCTION";

/**
 * Stop the execution at an exact point, as if Apps Script had killed it there with
 * "Exceeded maximum execution time":
 * - `{ fetch: n, when: "before" }`: just before the n-th UrlFetch request of this execution is
 *   sent (the server never sees it);
 * - `{ fetch: n, when: "after" }`: once the n-th request reached the server and was answered, but
 *   before the script sees the answer (the server acted; the script never learns it).
 * - `{ serviceCall: n }`: at the n-th service call of any kind (counting from 1).
 * Requests are counted one by one across `fetch` and `fetchAll`.
 */
export type StopAt = { fetch: number; when: "before" | "after" } | { serviceCall: number };

export interface Execution {
  readonly id: number;
  readonly functionName: string;
  /** The user running it (an email, or "" for an anonymous consumer account). */
  readonly user: string;
  readonly kind: RunKind;
  readonly authMode: AuthModeName;
  readonly startedAt: number;
  readonly deadline: number;
  readonly stopAt: StopAt | undefined;
  readonly triggerUid: string | undefined;
  /** Set once the execution has been stopped; every later service call throws it again. */
  stopped: string | undefined;
  fetchCount: number;
  serviceCalls: number;
  /**
   * The service calls it made, in order ("Range.getValues", "UrlFetchApp.fetchAll"); a call it
   * was stopped at is not among them, so the last is the one a stop at the next call follows.
   */
  readonly calls: string[];
  /** Names of the locks this execution holds ("document", "script", "user:<email>"). */
  readonly heldLocks: Set<string>;
}
