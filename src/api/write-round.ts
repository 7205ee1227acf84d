/**
 * Writes of one endpoint sent together: one `sendAll` (UrlFetchApp.fetchAll) carries them all,
 * each sent once whatever its answer, as `write` in client.ts sends one. Every write's `before`
 * event is emitted before the batch leaves (an observer that fails stops the batch: nothing is
 * sent); the answers are read one by one (./attempts.ts). The writes answered 404 or 405 by an
 * endpoint with a fallback method (not applied) go once more, together, by that method: the one
 * second request. A batch that fails as a whole (no answer at all) leaves each of its writes
 * unknown.
 */
import type { CallContext } from "./attempt";
import { type AttemptRules, type BatchResult, type FailedCall, startAttempts } from "./attempts";
import { ENDPOINTS } from "./endpoints";
import { HttpError } from "./errors";
import type { WriteEndpointName } from "./read-round";
import { sendBatch } from "./rounds";

/** Sends `inputs` to the write endpoint `name` in one batch (and its fallbacks in a second). */
export function writeMany<N extends WriteEndpointName>(
  ctx: CallContext,
  name: N,
  inputs: readonly unknown[],
): BatchResult<N>[] {
  const round = startAttempts(
    ctx,
    inputs.map((input) => ({ name, input })),
    writeRules(name),
  );
  while (!round.done()) {
    const requests = round.requests();
    const started = ctx.clock.now();
    for (const call of round.sent()) {
      ctx.emit({ ...call.base, phase: "before", at: started, recordId: call.recordId });
    }
    round.receive(sendBatch(ctx.transport, requests), started);
  }
  return round.results() as BatchResult<N>[];
}

/**
 * A write is never sent twice: only the writes answered 404 or 405 to the endpoint's method
 * (the service did not apply them) go again, once, by its fallback method, at once. Every
 * other failure is the write's result, an unknown outcome included (no answer, a batch that
 * failed as a whole): it is settled by reading, never sent again.
 */
function writeRules(name: WriteEndpointName): AttemptRules {
  const endpoint = ENDPOINTS[name];
  const notApplied = ({ error }: FailedCall) =>
    error instanceof HttpError && (error.status === 404 || error.status === 405);
  return {
    kind: "write",
    method: (attempt) => (attempt === 1 ? endpoint.method : endpoint.fallbackMethod),
    again: (failed, attempt) => ({
      again: attempt === 1 && endpoint.fallbackMethod ? failed.filter(notApplied) : [],
      wait: 0,
    }),
  };
}
