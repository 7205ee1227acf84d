/**
 * A client's reads sent together: each attempt's requests go in one batch (runRounds may send
 * them beside other clients' reads), the answers are read one by one (./attempts.ts), and only
 * the reads that failed in a retryable way go again, after the longest delay any of them asks for.
 */

import type { CallContext } from "./attempt";
import { type AttemptRules, type BatchResult, startAttempts } from "./attempts";
import { ENDPOINTS, type EndpointName } from "./endpoints";
import { InvalidRequestError } from "./errors";
import { nextReadDelay, retryableRead } from "./retry";
import type { Round } from "./rounds";
import { ruleMessage } from "./words";

export type { BatchResult } from "./attempts";

export type ReadEndpointName = {
  [N in EndpointName]: (typeof ENDPOINTS)[N]["kind"] extends "read" ? N : never;
}[EndpointName];

export type WriteEndpointName = Exclude<EndpointName, ReadEndpointName>;

/** The reads of one client in `runRounds`; `results()` in the order of the reads, once done. */
export interface ReadRound extends Round {
  results(): BatchResult<ReadEndpointName>[];
}

/** One read of a mixed batch. */
export interface MixedRead {
  name: ReadEndpointName;
  input: Record<string, unknown>;
}

/** Throws when one of `reads` names a write endpoint. */
function onlyReads(reads: readonly MixedRead[]): void {
  for (const { name } of reads) {
    if ((ENDPOINTS[name].kind as string) !== "read") {
      throw new InvalidRequestError(name, [
        {
          field: "endpoint",
          rule: "oneOf",
          params: { values: "a read endpoint", got: name },
          message: ruleMessage("oneOf", "endpoint", { values: "a read endpoint", got: name }),
        },
      ]);
    }
  }
}

/** The reads checked and ready to go; an invalid read's result is its error at once. */
export function startReads(ctx: CallContext, reads: readonly MixedRead[]): ReadRound {
  onlyReads(reads);
  return startAttempts(ctx, reads, { kind: "read", again: readsAgain(ctx) }) as ReadRound;
}

/**
 * Which failed reads go again: those that failed in a retryable way, while the retry policy's
 * delay still fits in its total wait (`nextReadDelay`, which counts what was waited already).
 */
function readsAgain(ctx: CallContext): AttemptRules["again"] {
  let waited = 0;
  return (failed, attempt) => {
    const fits = nextReadDelay(
      ctx.retry,
      ctx.random,
      attempt,
      failed.map((f) => f.error),
      waited,
    );
    if (fits === null) return { again: [], wait: 0 };
    const again = failed.filter((f) => retryableRead(f.error));
    const wait = again.length > 0 ? fits : 0;
    waited += wait;
    return { again, wait };
  };
}
