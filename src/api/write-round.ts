/**
 * Writes of one endpoint sent together: one `sendAll` (UrlFetchApp.fetchAll) carries them all,
 * each sent once whatever its answer, as `write` in client.ts sends one. Every write's `before`
 * event is emitted before the batch leaves (an observer that fails stops the batch: nothing is
 * sent); the answers are read one by one. The writes answered 404 or 405 by an endpoint with a
 * fallback method (not applied) go once more, together, by that method: the one second request.
 * A batch that fails as a whole (no answer at all) leaves each of its writes unknown.
 */
import {
  asTransportError,
  auditParams,
  type CallContext,
  checked,
  emitAfter,
  finish,
  nextCallId,
  recordIdOf,
} from "./attempt";
import { ENDPOINTS, type HttpMethod, type RequestValue } from "./endpoints";
import { type ApiError, HttpError } from "./errors";
import type { BatchResult, WriteEndpointName } from "./read-round";
import type { HttpRequest, HttpResponse } from "./transport";
import { buildRequest } from "./wire";

/** Sends `inputs` to the write endpoint `name` in one batch (and its fallbacks in a second). */
export function writeMany<N extends WriteEndpointName>(
  ctx: CallContext,
  name: N,
  inputs: readonly unknown[],
): BatchResult<N>[] {
  const endpoint = ENDPOINTS[name];
  const results: (BatchResult<N> | undefined)[] = inputs.map(() => undefined);
  const values: (RequestValue<N> | undefined)[] = inputs.map((input, i) => {
    try {
      return checked(ctx, name, input);
    } catch (err) {
      results[i] = { ok: false, error: err as ApiError };
      return undefined;
    }
  });
  let pending = values.flatMap((v, i) => (v === undefined ? [] : [i]));
  const passes: Array<{ method: HttpMethod; attempt: number }> = [{ method: endpoint.method, attempt: 1 }];
  if (endpoint.fallbackMethod) passes.push({ method: endpoint.fallbackMethod, attempt: 2 });
  for (const { method, attempt } of passes) {
    if (pending.length === 0) break;
    const failed = sendPass(ctx, name, values, pending, method, attempt, results);
    // 404/405 to the first method says the service did not apply it: the other, once.
    pending = failed.filter((index) => {
      const result = results[index];
      return (
        attempt === 1 &&
        result !== undefined &&
        !result.ok &&
        result.error instanceof HttpError &&
        (result.error.status === 404 || result.error.status === 405)
      );
    });
  }
  return results as BatchResult<N>[];
}

/** One batch of `pending` writes by `method`; answers the indexes that failed. */
function sendPass<N extends WriteEndpointName>(
  ctx: CallContext,
  name: N,
  values: readonly (RequestValue<N> | undefined)[],
  pending: readonly number[],
  method: HttpMethod,
  attempt: number,
  results: (BatchResult<N> | undefined)[],
): number[] {
  const { clock } = ctx;
  const started = clock.now();
  const calls = pending.map((index) => {
    const value = values[index] as RequestValue<N>;
    const request = buildRequest(name, value, { baseUrl: ctx.baseUrl, token: ctx.token, method });
    const params = auditParams(name, value as Record<string, unknown>);
    const base = {
      endpoint: name,
      kind: "write" as const,
      method,
      url: request.url,
      params,
      attempt,
      callId: nextCallId(),
    };
    return { index, value, request, base, recordId: recordIdOf(name, value as Record<string, unknown>) };
  });
  for (const call of calls) ctx.emit({ ...call.base, phase: "before", at: started, recordId: call.recordId });
  let responses: readonly HttpResponse[] | undefined;
  let failure: unknown;
  try {
    responses = ctx.transport.sendAll(calls.map((c) => c.request as HttpRequest));
    if (responses.length !== calls.length) {
      throw new Error(`the transport answered ${responses.length} of ${calls.length} requests`);
    }
  } catch (err) {
    failure = err;
    responses = undefined;
  }
  const failed: number[] = [];
  for (const [k, call] of calls.entries()) {
    if (!responses) {
      const error = asTransportError(ctx, name, failure);
      emitAfter(ctx, call.base, started, clock.now(), 0, call.recordId, error);
      results[call.index] = { ok: false, error };
      failed.push(call.index);
      continue;
    }
    try {
      results[call.index] = {
        ok: true,
        value: finish(ctx, name, call.value, responses[k] as HttpResponse, call.base, started),
      };
    } catch (err) {
      results[call.index] = { ok: false, error: err as ApiError };
      failed.push(call.index);
    }
  }
  return failed;
}
