/**
 * The service's client: one typed method per endpoint over an injected transport and clock.
 * Requests are checked against the contract before anything is sent; answers are checked
 * (status, errors inside 2xx bodies, shape) and normalised. Reads retry what is worth retrying;
 * writes are sent once, whatever the answer (a write whose outcome is unknown must be reconciled
 * by reading first).
 */
import { type CallContext, type CallEvent, checked, sendOnce } from "./attempt";
import {
  ENDPOINTS,
  type EndpointName,
  isEndpointName,
  type RequestInput,
  type RequestValue,
  type ResponseValue,
} from "./endpoints";
import { type ApiError, HttpError, InvalidRequestError } from "./errors";
import {
  type BatchResult,
  type MixedRead,
  type ReadEndpointName,
  type ReadRound,
  startReads,
  type WriteEndpointName,
} from "./read-round";
import { DEFAULT_RETRY, nextReadDelay, type RetryPolicy } from "./retry";
import { runRounds } from "./rounds";
import type { Clock, Transport } from "./transport";
import { DEFAULT_BASE_URL } from "./wire";
import { ruleMessage } from "./words";
import { writeMany } from "./write-round";

export type { CallEvent, CallOutcome } from "./attempt";
export type {
  BatchResult,
  MixedRead,
  ReadEndpointName,
  ReadRound,
  WriteEndpointName,
} from "./read-round";
export { DEFAULT_RETRY, type RetryPolicy } from "./retry";

export interface ClientOptions {
  transport: Transport;
  /** Includes the version: https://api.rindegastos.com/v1 by default. */
  baseUrl?: string;
  token: string;
  clock: Clock;
  /** A number in [0, 1) for the jitter of retry delays; Math.random by default. */
  random?: () => number;
  retry?: Partial<RetryPolicy>;
  onCall?: (event: CallEvent) => void;
}

type EndpointMethods = { [N in EndpointName]: (input: RequestInput<N>) => ResponseValue<N> };

export interface Client extends EndpointMethods {
  /** Calls endpoint `name`; throws only the typed errors of ./errors. */
  call<N extends EndpointName>(name: N, input: RequestInput<N> | Record<string, unknown>): ResponseValue<N>;
  /**
   * Sends many reads of one endpoint concurrently (transport.sendAll), retrying only the
   * requests that failed in a retryable way. Results come in the order of `inputs`.
   */
  readMany<N extends ReadEndpointName>(
    name: N,
    inputs: readonly (RequestInput<N> | Record<string, unknown>)[],
  ): BatchResult<N>[];
  /** As readMany, the reads of several endpoints in one batch (one fetchAll per attempt). */
  readAll(reads: readonly MixedRead[]): BatchResult<ReadEndpointName>[];
  /**
   * The reads of `readAll`, checked and ready to go, for `runRounds` to send beside other
   * clients' reads; an invalid read fails at once, a write endpoint throws as in readAll.
   */
  startReads(reads: readonly MixedRead[]): ReadRound;
  /**
   * Sends many writes of one endpoint in one batch (transport.sendAll), each once whatever its
   * answer; those answered 404/405 by an endpoint with a fallback method go once more, together,
   * by that method. Results come in the order of `inputs`: a write that failed is refused or
   * unknown as its error says (a batch with no answer at all leaves every write unknown).
   */
  writeMany<N extends WriteEndpointName>(
    name: N,
    inputs: readonly (RequestInput<N> | Record<string, unknown>)[],
  ): BatchResult<N>[];
}

/** What a client's attempts share, from its options. */
function callContext(options: ClientOptions): CallContext {
  const { transport, clock, token } = options;
  const onCall = options.onCall;
  return {
    baseUrl: options.baseUrl?.trim() || DEFAULT_BASE_URL,
    token,
    transport,
    clock,
    random: options.random ?? Math.random,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    secrets: token ? [token] : [],
    emit(event: CallEvent) {
      if (!onCall) return;
      try {
        onCall(event);
      } catch (err) {
        // An observer that fails must not change the outcome of a call that already happened;
        // a write whose trace cannot be left before it leaves is not sent.
        if (event.phase === "before") throw err;
      }
    },
  };
}

/** A read, tried again while its failure is worth another try and the policy allows. */
function read<N extends EndpointName>(ctx: CallContext, name: N, value: RequestValue<N>): ResponseValue<N> {
  const method = ENDPOINTS[name].method;
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return sendOnce(ctx, name, value, method, attempt);
    } catch (err) {
      const error = err as ApiError;
      const delay = nextReadDelay(ctx.retry, ctx.random, attempt, [error], waited);
      if (delay === null) throw error;
      waited += delay;
      ctx.clock.sleep(delay);
    }
  }
}

/**
 * Sends a write once. Nothing is re-sent on any answer (408, 429, 5xx, 3xx, a body that
 * cannot be read, no answer): each may come after the write was applied, and only reading
 * the record tells. The one second request is the method fallback below.
 */
function write<N extends EndpointName>(ctx: CallContext, name: N, value: RequestValue<N>): ResponseValue<N> {
  const endpoint = ENDPOINTS[name];
  try {
    return sendOnce(ctx, name, value, endpoint.method, 1);
  } catch (err) {
    const error = err as ApiError;
    // 404/405 to the first method says the service did not apply it: try the other once.
    if (
      endpoint.fallbackMethod &&
      error instanceof HttpError &&
      (error.status === 404 || error.status === 405)
    ) {
      return sendOnce(ctx, name, value, endpoint.fallbackMethod, 2);
    }
    throw error;
  }
}

function unknownEndpoint(name: string): InvalidRequestError {
  const values = Object.keys(ENDPOINTS).join(", ");
  return new InvalidRequestError(name, [
    {
      field: "endpoint",
      rule: "oneOf",
      params: { values, got: name },
      message: ruleMessage("oneOf", "endpoint", { values, got: name }),
    },
  ]);
}

/** Creates a client of the service. */
export function createClient(options: ClientOptions): Client {
  const ctx = callContext(options);

  function call<N extends EndpointName>(name: N, input: unknown): ResponseValue<N> {
    if (!isEndpointName(name)) throw unknownEndpoint(String(name));
    const value = checked(ctx, name, input);
    return ENDPOINTS[name].kind === "read" ? read(ctx, name, value) : write(ctx, name, value);
  }

  function readAll(reads: readonly MixedRead[]): BatchResult<ReadEndpointName>[] {
    const round = startReads(ctx, reads);
    runRounds(ctx.transport, ctx.clock, [round]);
    return round.results();
  }

  function readMany<N extends ReadEndpointName>(name: N, inputs: readonly unknown[]): BatchResult<N>[] {
    return readAll(
      inputs.map((input) => ({ name, input: input as Record<string, unknown> })),
    ) as BatchResult<N>[];
  }

  const client = {
    call,
    readMany,
    readAll,
    startReads: (reads: readonly MixedRead[]): ReadRound => startReads(ctx, reads),
    writeMany: <N extends WriteEndpointName>(name: N, inputs: readonly unknown[]): BatchResult<N>[] => {
      if (!isEndpointName(name)) throw unknownEndpoint(String(name));
      return writeMany(ctx, name, inputs);
    },
  } as Client;
  for (const name of Object.keys(ENDPOINTS) as EndpointName[]) {
    (client as unknown as Record<string, (input: unknown) => unknown>)[name] = (input: unknown) =>
      call(name, input);
  }
  return client;
}
