/**
 * A client's reads sent together: each attempt's requests go in one batch (runRounds may send
 * them beside other clients' reads), the answers are read one by one, and only the reads that
 * failed in a retryable way go again, after the longest delay any of them asks for.
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
import { ENDPOINTS, type EndpointName, type RequestValue, type ResponseValue } from "./endpoints";
import { type ApiError, InvalidRequestError, type TransportError } from "./errors";
import { nextReadDelay, retryableRead } from "./retry";
import type { Round, RoundAnswer } from "./rounds";
import type { HttpRequest, HttpResponse } from "./transport";
import { buildRequest } from "./wire";
import { ruleMessage } from "./words";

export type ReadEndpointName = {
  [N in EndpointName]: (typeof ENDPOINTS)[N]["kind"] extends "read" ? N : never;
}[EndpointName];

export type WriteEndpointName = Exclude<EndpointName, ReadEndpointName>;

/** One result of a batch read: the record, or the typed error of that request alone. */
export type BatchResult<N extends EndpointName> =
  | { ok: true; value: ResponseValue<N> }
  | { ok: false; error: ApiError };

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
  type N = ReadEndpointName;
  onlyReads(reads);
  const { clock } = ctx;
  const results: (BatchResult<N> | undefined)[] = reads.map(() => undefined);
  const values: (RequestValue<N> | undefined)[] = reads.map(({ name, input }, i) => {
    try {
      return checked(ctx, name, input);
    } catch (err) {
      results[i] = { ok: false, error: err as ApiError };
      return undefined;
    }
  });
  let pending = values.flatMap((v, i) => (v === undefined ? [] : [i]));
  let attempt = 1;
  let waited = 0;
  let wait = 0;
  /** The requests of the current attempt, built once (by this client: its token, its URL). */
  let sent: HttpRequest[] | undefined;
  const nameOf = (index: number): N => (reads[index] as MixedRead).name;
  const requests = (): HttpRequest[] => {
    sent ??= pending.map((i) =>
      buildRequest(nameOf(i), values[i] as RequestValue<N>, { baseUrl: ctx.baseUrl, token: ctx.token }),
    );
    return sent;
  };

  /** The batch's failure, or none when every request has its answer. */
  function batchFailure(answer: RoundAnswer, sentNow: readonly HttpRequest[]): TransportError | undefined {
    if ("failure" in answer) return asTransportError(ctx, nameOf(pending[0] as number), answer.failure);
    if (answer.responses.length !== sentNow.length) {
      return asTransportError(
        ctx,
        nameOf(pending[0] as number),
        new Error(`the transport answered ${answer.responses.length} of ${sentNow.length} requests`),
      );
    }
    return undefined;
  }

  /** Reads each pending request's answer: its result, or its failure. */
  function readAnswers(answer: RoundAnswer, started: number): { index: number; error: ApiError }[] {
    const sentNow = requests();
    const batchError = batchFailure(answer, sentNow);
    const responses = "responses" in answer ? answer.responses : [];
    const failed: { index: number; error: ApiError }[] = [];
    pending.forEach((index, k) => {
      const name = nameOf(index);
      const value = values[index] as RequestValue<N>;
      const request = sentNow[k] as HttpRequest;
      const base = {
        endpoint: name,
        kind: "read" as const,
        method: request.method,
        url: request.url,
        params: auditParams(name, value as Record<string, unknown>),
        attempt,
        callId: nextCallId(),
      };
      if (batchError) {
        emitAfter(
          ctx,
          base,
          started,
          clock.now(),
          0,
          recordIdOf(name, value as Record<string, unknown>),
          batchError,
        );
        failed.push({ index, error: batchError });
        return;
      }
      try {
        results[index] = {
          ok: true,
          value: finish(ctx, name, value, responses[k] as HttpResponse, base, started),
        };
      } catch (err) {
        failed.push({ index, error: err as ApiError });
      }
    });
    return failed;
  }

  function receive(answer: RoundAnswer, started: number): void {
    const failed = readAnswers(answer, started);
    const fits = nextReadDelay(
      ctx.retry,
      ctx.random,
      attempt,
      failed.map((f) => f.error),
      waited,
    );
    const again = failed.filter((f) => retryableRead(f.error));
    for (const f of failed) {
      if (fits === null || !retryableRead(f.error)) results[f.index] = { ok: false, error: f.error };
    }
    pending = fits === null ? [] : again.map((f) => f.index);
    wait = pending.length > 0 && fits !== null ? fits : 0;
    waited += wait;
    attempt += 1;
    sent = undefined;
  }

  return {
    requests,
    receive,
    delay: () => wait,
    done: () => pending.length === 0,
    results() {
      if (pending.length > 0) throw new Error("startReads: results asked for before the reads are done");
      return results as BatchResult<N>[];
    },
  };
}
