/**
 * The service's client: one typed method per endpoint over an injected transport and clock.
 * Requests are checked against the contract before anything is sent; answers are checked
 * (status, errors inside 2xx bodies, shape) and normalised. Reads retry what is worth retrying;
 * writes are sent once, whatever the answer (a write whose outcome is unknown must be reconciled
 * by reading first).
 */
import {
  ENDPOINTS,
  type EndpointName,
  type HttpMethod,
  isEndpointName,
  type RequestInput,
  type RequestValue,
  type ResponseValue,
} from "./endpoints";
import {
  ApiError,
  HttpError,
  InvalidRequestError,
  ServiceError,
  TransportError,
  UnexpectedResponseError,
  withCause,
  withoutSecrets,
} from "./errors";
import { dateText, type FieldSpec } from "./fields";
import { ruleMessage } from "./messages";
import { centsToAmount } from "./money";
import { type Round, type RoundAnswer, runRounds } from "./rounds";
import type { Clock, HttpRequest, HttpResponse, Transport } from "./transport";
import { validateRequest } from "./validation";
import { buildRequest, DEFAULT_BASE_URL, readResponse } from "./wire";

/** Bounds of the retries of reads. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Delay before the first retry; doubles on each further retry. */
  baseDelayMs: number;
  /** Ceiling of the computed delay. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails instead. */
  maxRetryAfterMs: number;
  /** All waits of one call together stay under this, so one call cannot eat the execution's time. */
  maxTotalDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
  maxTotalDelayMs: 60_000,
};

export type CallOutcome = "ok" | "refused" | "error" | "unknown";

/**
 * What the audit sheet records of each HTTP request. A write emits `before` just before it is
 * sent (so a crash in between still leaves a trace) and `after` once it ended; a read emits
 * `after` only. Parameters never carry the token.
 */
export interface CallEvent {
  phase: "before" | "after";
  endpoint: EndpointName;
  kind: "read" | "write";
  method: HttpMethod;
  /** The request URL (the token travels in a header, never in the URL). */
  url: string;
  params: Record<string, unknown>;
  /** 1 for the first try, 2 for the first retry or the method fallback… */
  attempt: number;
  /** Milliseconds since the epoch, from the injected clock. */
  at: number;
  status?: number;
  outcome?: CallOutcome;
  message?: string;
  durationMs?: number;
  /** The record the call is about (the Id sent, or the id of a created fund). */
  recordId?: number | null;
  /**
   * The same on a write's `before` and `after` (and distinct for each attempt, and across
   * clients of one execution), so an observer can pair them whatever else the reports carry.
   */
  callId?: string;
}

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

export type ReadEndpointName = {
  [N in EndpointName]: (typeof ENDPOINTS)[N]["kind"] extends "read" ? N : never;
}[EndpointName];

export type WriteEndpointName = Exclude<EndpointName, ReadEndpointName>;

/** One result of a batch read: the record, or the typed error of that request alone. */
export type BatchResult<N extends EndpointName> =
  | { ok: true; value: ResponseValue<N> }
  | { ok: false; error: ApiError };

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
}

/** The reads of one client in `runRounds`; `results()` in the order of the reads, once done. */
export interface ReadRound extends Round {
  results(): BatchResult<ReadEndpointName>[];
}

/** One read of a mixed batch. */
export interface MixedRead {
  name: ReadEndpointName;
  input: Record<string, unknown>;
}

const SECRET_KEY = /token|authorization|password|secret/i;

/** Parameters as the audit shows them: amounts as decimals, secrets dropped. */
function auditParams(name: EndpointName, value: Record<string, unknown>): Record<string, unknown> {
  const fields = ENDPOINTS[name].fields as Record<string, FieldSpec>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (SECRET_KEY.test(key)) continue;
    const v = value[key];
    out[key] = fields[key]?.kind === "money" && typeof v === "number" ? centsToAmount(v) : v;
  }
  return out;
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Whether a failed read is worth another try. */
function retryableRead(err: ApiError): boolean {
  if (err instanceof TransportError) return !err.notAllowed;
  if (err instanceof HttpError) return isRetryableStatus(err.status);
  if (err instanceof ServiceError)
    return err.bodyStatusCode !== undefined && isRetryableStatus(err.bodyStatusCode);
  return false;
}

function outcomeOf(kind: "read" | "write", err: ApiError): CallOutcome {
  return kind === "read" ? "error" : err.outcome;
}

/** Numbers each HTTP attempt of this execution (see CallEvent.callId). */
let callSequence = 0;

/** Creates a client of the service. */
export function createClient(options: ClientOptions): Client {
  const baseUrl = options.baseUrl?.trim() || DEFAULT_BASE_URL;
  const { transport, clock, token } = options;
  const random = options.random ?? Math.random;
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const secrets = token ? [token] : [];
  const emit = (event: CallEvent) => {
    if (!options.onCall) return;
    try {
      options.onCall(event);
    } catch (err) {
      // An observer that fails must not change the outcome of a call that already happened;
      // a write whose trace cannot be left before it leaves is not sent.
      if (event.phase === "before") throw err;
    }
  };

  /** Delay before retry number `retryNumber` (1 for the first), or null when not to wait. */
  function backoff(retryNumber: number, retryAfter: number | undefined): number | null {
    if (retryAfter !== undefined && retryAfter > retry.maxRetryAfterMs) return null;
    const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (retryNumber - 1));
    // "Equal jitter": at least half the ceiling, so retries of many clients spread out.
    const delay = Math.floor(ceiling / 2 + random() * (ceiling / 2));
    return Math.max(delay, retryAfter ?? 0);
  }

  function checked<N extends EndpointName>(name: N, input: unknown): RequestValue<N> {
    if (!token) {
      throw new InvalidRequestError(name, [
        {
          field: "token",
          rule: "required",
          params: {},
          message: ruleMessage("required", "The access token", {}),
        },
      ]);
    }
    const v = validateRequest(name, input, { today: dateText(new Date(clock.now())) });
    if (!v.ok) throw new InvalidRequestError(name, v.issues);
    return v.value;
  }

  function recordIdOf(name: EndpointName, value: Record<string, unknown>, result?: unknown): number | null {
    const field = ENDPOINTS[name].recordField;
    if (field && typeof value[field] === "number") return value[field] as number;
    if (result && typeof result === "object" && typeof (result as { id?: unknown }).id === "number") {
      return (result as { id: number }).id;
    }
    return null;
  }

  /**
   * The "after" event of one attempt, the one place it is built: "ok" with the record the
   * answer names, or the error's outcome and message.
   */
  function emitAfter(
    base: Omit<CallEvent, "phase" | "at">,
    started: number,
    ended: number,
    status: number,
    recordId: number | null,
    error?: ApiError,
  ): void {
    emit({
      ...base,
      phase: "after",
      at: ended,
      status,
      outcome: error ? outcomeOf(base.kind, error) : "ok",
      message: error ? error.message : "",
      durationMs: ended - started,
      recordId,
    });
  }

  /**
   * Delay before the next attempt of reads that failed with `errors` (the longest Retry-After
   * any of them asked for counts), or null when none of them is retried: not retryable, out of
   * attempts, or past the total time to wait.
   */
  function nextReadDelay(attempt: number, errors: readonly ApiError[], waited: number): number | null {
    const again = errors.filter(retryableRead);
    if (attempt >= retry.maxAttempts || again.length === 0) return null;
    const retryAfter = again.reduce<number | undefined>((max, error) => {
      // Only an HttpError or a ServiceError carries one.
      const ra = (error as { retryAfterMs?: number }).retryAfterMs;
      return ra === undefined ? max : Math.max(max ?? 0, ra);
    }, undefined);
    const delay = backoff(attempt, retryAfter);
    return delay !== null && waited + delay <= retry.maxTotalDelayMs ? delay : null;
  }

  /** Wraps anything the transport threw as a TransportError of this endpoint. */
  function asTransportError(name: EndpointName, err: unknown): TransportError {
    const message = err instanceof Error ? err.message : String(err);
    return new TransportError(withoutSecrets(message.replace(new RegExp(`^${name}: `), ""), secrets), name);
  }

  function sendOnce<N extends EndpointName>(
    name: N,
    value: RequestValue<N>,
    method: HttpMethod,
    attempt: number,
  ): ResponseValue<N> {
    const endpoint = ENDPOINTS[name];
    const request = buildRequest(name, value, { baseUrl, token, method });
    const params = auditParams(name, value as Record<string, unknown>);
    callSequence += 1;
    const callId = `call-${callSequence}`;
    const base = { endpoint: name, kind: endpoint.kind, method, url: request.url, params, attempt, callId };
    const started = clock.now();
    if (endpoint.kind === "write") {
      emit({
        ...base,
        phase: "before",
        at: started,
        recordId: recordIdOf(name, value as Record<string, unknown>),
      });
    }
    let response: HttpResponse;
    try {
      response = transport.send(request);
    } catch (err) {
      const error = asTransportError(name, err);
      emitAfter(base, started, clock.now(), 0, recordIdOf(name, value as Record<string, unknown>), error);
      throw error;
    }
    return finish(name, value, response, base, started);
  }

  function finish<N extends EndpointName>(
    name: N,
    value: RequestValue<N>,
    response: HttpResponse,
    base: Omit<CallEvent, "phase" | "at">,
    started: number,
  ): ResponseValue<N> {
    const ended = clock.now();
    let result: ResponseValue<N>;
    try {
      result = readResponse(name, response, { now: ended, secrets });
    } catch (err) {
      const error =
        err instanceof ApiError
          ? err
          : withCause(
              new UnexpectedResponseError(name, response.status, "body", String(err), "unknown"),
              err,
            );
      emitAfter(
        base,
        started,
        ended,
        response.status,
        recordIdOf(name, value as Record<string, unknown>),
        error,
      );
      throw error;
    }
    emitAfter(
      base,
      started,
      ended,
      response.status,
      recordIdOf(name, value as Record<string, unknown>, result),
    );
    return result;
  }

  function read<N extends EndpointName>(name: N, value: RequestValue<N>): ResponseValue<N> {
    const method = ENDPOINTS[name].method;
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return sendOnce(name, value, method, attempt);
      } catch (err) {
        const error = err as ApiError;
        const delay = nextReadDelay(attempt, [error], waited);
        if (delay === null) throw error;
        waited += delay;
        clock.sleep(delay);
      }
    }
  }

  /**
   * Sends a write once. Nothing is re-sent on any answer (408, 429, 5xx, 3xx, a body that
   * cannot be read, no answer): each may come after the write was applied, and only reading
   * the record tells. The one second request is the method fallback below.
   */
  function write<N extends EndpointName>(name: N, value: RequestValue<N>): ResponseValue<N> {
    const endpoint = ENDPOINTS[name];
    try {
      return sendOnce(name, value, endpoint.method, 1);
    } catch (err) {
      const error = err as ApiError;
      // 404/405 to the first method says the service did not apply it: try the other once.
      if (
        endpoint.fallbackMethod &&
        error instanceof HttpError &&
        (error.status === 404 || error.status === 405)
      ) {
        return sendOnce(name, value, endpoint.fallbackMethod, 2);
      }
      throw error;
    }
  }

  function call<N extends EndpointName>(name: N, input: unknown): ResponseValue<N> {
    if (!isEndpointName(name)) {
      throw new InvalidRequestError(String(name), [
        {
          field: "endpoint",
          rule: "oneOf",
          params: { values: Object.keys(ENDPOINTS).join(", "), got: String(name) },
          message: ruleMessage("oneOf", "endpoint", {
            values: Object.keys(ENDPOINTS).join(", "),
            got: String(name),
          }),
        },
      ]);
    }
    const value = checked(name, input);
    return ENDPOINTS[name].kind === "read" ? read(name, value) : write(name, value);
  }

  function readMany<N extends ReadEndpointName>(name: N, inputs: readonly unknown[]): BatchResult<N>[] {
    return readAll(
      inputs.map((input) => ({ name, input: input as Record<string, unknown> })),
    ) as BatchResult<N>[];
  }

  function readAll(reads: readonly MixedRead[]): BatchResult<ReadEndpointName>[] {
    const round = startReads(reads);
    runRounds(transport, clock, [round]);
    return round.results();
  }

  function startReads(reads: readonly MixedRead[]): ReadRound {
    type N = ReadEndpointName;
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
    const results: (BatchResult<N> | undefined)[] = reads.map(() => undefined);
    const values: (RequestValue<N> | undefined)[] = reads.map(({ name, input }, i) => {
      try {
        return checked(name, input);
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
      sent ??= pending.map((i) => buildRequest(nameOf(i), values[i] as RequestValue<N>, { baseUrl, token }));
      return sent;
    };

    function receive(answer: RoundAnswer, started: number): void {
      const sentNow = requests();
      let responses: readonly HttpResponse[] | undefined;
      let batchError: TransportError | undefined;
      if ("failure" in answer) {
        batchError = asTransportError(nameOf(pending[0] as number), answer.failure);
      } else if (answer.responses.length !== sentNow.length) {
        batchError = asTransportError(
          nameOf(pending[0] as number),
          new Error(`the transport answered ${answer.responses.length} of ${sentNow.length} requests`),
        );
      } else {
        responses = answer.responses;
      }
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
          callId: `call-${++callSequence}`,
        };
        if (batchError) {
          emitAfter(
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
            value: finish(
              name,
              value,
              (responses as readonly HttpResponse[])[k] as HttpResponse,
              base,
              started,
            ),
          };
        } catch (err) {
          failed.push({ index, error: err as ApiError });
        }
      });
      const fits = nextReadDelay(
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

  const client = { call, readMany, readAll, startReads } as Client;
  for (const name of Object.keys(ENDPOINTS) as EndpointName[]) {
    (client as unknown as Record<string, (input: unknown) => unknown>)[name] = (input: unknown) =>
      call(name, input);
  }
  return client;
}
