/**
 * One HTTP attempt of a client: the request checked against the contract, sent, its answer read,
 * and the events the audit records of it (a write's `before`, every attempt's `after`), each
 * numbered for the execution. What a client holds for its attempts is a CallContext.
 */
import {
  ENDPOINTS,
  type EndpointName,
  type HttpMethod,
  type RequestValue,
  type ResponseValue,
} from "./endpoints";
import {
  ApiError,
  InvalidRequestError,
  TransportError,
  UnexpectedResponseError,
  withCause,
  withoutSecrets,
} from "./errors";
import { dateText, type FieldSpec } from "./fields";
import { centsToAmount } from "./money";
import type { RetryPolicy } from "./retry";
import type { Clock, HttpResponse, Transport } from "./transport";
import { buildRequest, readResponse } from "./wire";
import { ruleMessage, validateRequest } from "./words";

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

/** What one client's attempts share: where and as whom they go, the clock, the retries, the observer. */
export interface CallContext {
  baseUrl: string;
  token: string;
  transport: Transport;
  clock: Clock;
  random: () => number;
  retry: RetryPolicy;
  /** What no message may carry (the token). */
  secrets: string[];
  emit(event: CallEvent): void;
}

/** An event of an attempt, before its phase and time. */
export type AttemptBase = Omit<CallEvent, "phase" | "at">;

/** Numbers each HTTP attempt of this execution (see CallEvent.callId). */
let callSequence = 0;

/** The next attempt's callId. */
export function nextCallId(): string {
  callSequence += 1;
  return `call-${callSequence}`;
}

const SECRET_KEY = /token|authorization|password|secret/i;

/** Parameters as the audit shows them: amounts as decimals, secrets dropped. */
export function auditParams(name: EndpointName, value: Record<string, unknown>): Record<string, unknown> {
  const fields = ENDPOINTS[name].fields as Record<string, FieldSpec>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (SECRET_KEY.test(key)) continue;
    const v = value[key];
    out[key] = fields[key]?.kind === "money" && typeof v === "number" ? centsToAmount(v) : v;
  }
  return out;
}

function outcomeOf(kind: "read" | "write", err: ApiError): CallOutcome {
  return kind === "read" ? "error" : err.outcome;
}

/** The request checked against the contract (a client without a token sends nothing). */
export function checked<N extends EndpointName>(ctx: CallContext, name: N, input: unknown): RequestValue<N> {
  if (!ctx.token) {
    throw new InvalidRequestError(name, [
      {
        field: "token",
        rule: "required",
        params: {},
        message: ruleMessage("required", "The access token", {}),
      },
    ]);
  }
  const v = validateRequest(name, input, { today: dateText(new Date(ctx.clock.now())) });
  if (!v.ok) throw new InvalidRequestError(name, v.issues);
  return v.value;
}

export function recordIdOf(
  name: EndpointName,
  value: Record<string, unknown>,
  result?: unknown,
): number | null {
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
export function emitAfter(
  ctx: CallContext,
  base: AttemptBase,
  started: number,
  ended: number,
  status: number,
  recordId: number | null,
  error?: ApiError,
): void {
  ctx.emit({
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

/** Wraps anything the transport threw as a TransportError of this endpoint. */
export function asTransportError(ctx: CallContext, name: EndpointName, err: unknown): TransportError {
  const message = err instanceof Error ? err.message : String(err);
  return new TransportError(withoutSecrets(message.replace(new RegExp(`^${name}: `), ""), ctx.secrets), name);
}

/** Sends one request and reads its answer, with its events. */
export function sendOnce<N extends EndpointName>(
  ctx: CallContext,
  name: N,
  value: RequestValue<N>,
  method: HttpMethod,
  attempt: number,
): ResponseValue<N> {
  const endpoint = ENDPOINTS[name];
  const request = buildRequest(name, value, { baseUrl: ctx.baseUrl, token: ctx.token, method });
  const params = auditParams(name, value as Record<string, unknown>);
  const callId = nextCallId();
  const base = { endpoint: name, kind: endpoint.kind, method, url: request.url, params, attempt, callId };
  const started = ctx.clock.now();
  if (endpoint.kind === "write") {
    ctx.emit({
      ...base,
      phase: "before",
      at: started,
      recordId: recordIdOf(name, value as Record<string, unknown>),
    });
  }
  let response: HttpResponse;
  try {
    response = ctx.transport.send(request);
  } catch (err) {
    const error = asTransportError(ctx, name, err);
    emitAfter(
      ctx,
      base,
      started,
      ctx.clock.now(),
      0,
      recordIdOf(name, value as Record<string, unknown>),
      error,
    );
    throw error;
  }
  return finish(ctx, name, value, response, base, started);
}

/** Reads an answer (or throws its typed error), with the attempt's "after" event. */
export function finish<N extends EndpointName>(
  ctx: CallContext,
  name: N,
  value: RequestValue<N>,
  response: HttpResponse,
  base: AttemptBase,
  started: number,
): ResponseValue<N> {
  const ended = ctx.clock.now();
  let result: ResponseValue<N>;
  try {
    result = readResponse(name, response, { now: ended, secrets: ctx.secrets });
  } catch (err) {
    const error =
      err instanceof ApiError
        ? err
        : withCause(new UnexpectedResponseError(name, response.status, "body", String(err), "unknown"), err);
    emitAfter(
      ctx,
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
    ctx,
    base,
    started,
    ended,
    response.status,
    recordIdOf(name, value as Record<string, unknown>, result),
  );
  return result;
}
