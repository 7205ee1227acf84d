/**
 * The attempt loop a client's batched reads (read-round.ts) and writes (write-round.ts) share:
 * each call checked against the contract once (an invalid call's result is its error at once),
 * then attempts: the requests of the calls still pending, built once an attempt (this client's
 * token and URL), their answers read one by one (a batch that failed as a whole fails each of
 * its calls, each with its "after" event). What differs is the round's own (`AttemptRules`):
 * which failures go again, by which method, after what wait.
 */
import {
  type AttemptBase,
  asTransportError,
  auditParams,
  type CallContext,
  checked,
  emitAfter,
  finish,
  nextCallId,
  recordIdOf,
} from "./attempt";
import type { EndpointName, HttpMethod, RequestValue, ResponseValue } from "./endpoints";
import type { ApiError, TransportError } from "./errors";
import type { Round, RoundAnswer } from "./rounds";
import type { HttpRequest, HttpResponse } from "./transport";
import { buildRequest } from "./wire";

/** One result of a batch: the record, or the typed error of that request alone. */
export type BatchResult<N extends EndpointName> =
  | { ok: true; value: ResponseValue<N> }
  | { ok: false; error: ApiError };

/** One call of a batch: the endpoint and what the caller sends it. */
export interface BatchCall {
  name: EndpointName;
  input: unknown;
}

/** A call that failed in an attempt: its place among the calls, and its error. */
export interface FailedCall {
  index: number;
  error: ApiError;
}

/** What a round of reads and a round of writes do differently. */
export interface AttemptRules {
  kind: "read" | "write";
  /** The method of attempt `attempt` (the first is 1); undefined: the endpoint's own. */
  method?(attempt: number): HttpMethod | undefined;
  /**
   * After attempt `attempt` (asked after every attempt, `failed` empty or not): the failures
   * that go again and the milliseconds to wait before; every other failure's error is its result.
   */
  again(failed: readonly FailedCall[], attempt: number): { again: readonly FailedCall[]; wait: number };
}

/** A call as the current attempt sends it: its request, and its audit events' base. */
export interface SentCall {
  index: number;
  request: HttpRequest;
  base: AttemptBase;
  recordId: number | null;
}

/** A round of attempts; `results()` in the order of the calls, once done. */
export interface Attempts extends Round {
  /** The calls of the current attempt, as `requests()` sends them. */
  sent(): readonly SentCall[];
  results(): BatchResult<EndpointName>[];
}

/** `calls` checked and ready to go, attempted as `rules` say. */
export function startAttempts(ctx: CallContext, calls: readonly BatchCall[], rules: AttemptRules): Attempts {
  const { clock } = ctx;
  const results: (BatchResult<EndpointName> | undefined)[] = calls.map(() => undefined);
  const values: (RequestValue<EndpointName> | undefined)[] = calls.map(({ name, input }, i) => {
    try {
      return checked(ctx, name, input);
    } catch (err) {
      results[i] = { ok: false, error: err as ApiError };
      return undefined;
    }
  });
  let pending = values.flatMap((v, i) => (v === undefined ? [] : [i]));
  let attempt = 1;
  let wait = 0;
  const nameOf = (index: number): EndpointName => (calls[index] as BatchCall).name;
  const valueAt = (index: number) => values[index] as RequestValue<EndpointName>;
  /** The calls of the current attempt, built once. */
  let current: SentCall[] | undefined;
  const sent = (): SentCall[] => {
    current ??= pending.map((index) => {
      const name = nameOf(index);
      const value = valueAt(index) as Record<string, unknown>;
      const method = rules.method?.(attempt);
      const request = buildRequest(name, valueAt(index), { baseUrl: ctx.baseUrl, token: ctx.token, method });
      const base = {
        endpoint: name,
        kind: rules.kind,
        method: request.method,
        url: request.url,
        params: auditParams(name, value),
        attempt,
        callId: nextCallId(),
      };
      return { index, request, base, recordId: recordIdOf(name, value) };
    });
    return current;
  };

  /** The batch's failure, or none when every request has its answer. */
  function batchFailure(answer: RoundAnswer, count: number): TransportError | undefined {
    const name = nameOf(pending[0] as number);
    if ("failure" in answer) return asTransportError(ctx, name, answer.failure);
    if (answer.responses.length === count) return undefined;
    return asTransportError(
      ctx,
      name,
      new Error(`the transport answered ${answer.responses.length} of ${count} requests`),
    );
  }

  /** Reads each sent call's answer: its result, or its failure. */
  function readAnswers(answer: RoundAnswer, started: number): FailedCall[] {
    const sentNow = sent();
    const batchError = batchFailure(answer, sentNow.length);
    const responses = "responses" in answer ? answer.responses : [];
    const failed: FailedCall[] = [];
    sentNow.forEach(({ index, base, recordId }, k) => {
      if (batchError) {
        emitAfter(ctx, base, started, clock.now(), 0, recordId, batchError);
        failed.push({ index, error: batchError });
        return;
      }
      try {
        const value = finish(ctx, nameOf(index), valueAt(index), responses[k] as HttpResponse, base, started);
        results[index] = { ok: true, value };
      } catch (err) {
        failed.push({ index, error: err as ApiError });
      }
    });
    return failed;
  }

  function receive(answer: RoundAnswer, started: number): void {
    const failed = readAnswers(answer, started);
    const next = rules.again(failed, attempt);
    const again = new Set(next.again.map((f) => f.index));
    for (const f of failed) if (!again.has(f.index)) results[f.index] = { ok: false, error: f.error };
    pending = [...again];
    wait = pending.length > 0 ? next.wait : 0;
    attempt += 1;
    current = undefined;
  }

  return {
    requests: () => sent().map((c) => c.request),
    sent,
    receive,
    delay: () => wait,
    done: () => pending.length === 0,
    results() {
      if (pending.length > 0) throw new Error(`results asked for before the ${rules.kind}s are done`);
      return results as BatchResult<EndpointName>[];
    },
  };
}
