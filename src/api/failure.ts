/**
 * A failed call as data: which kind of failure it is (what a person is told happened and what
 * to do), what was kept, and its technical detail. The API's words module (./words.ts) says it
 * as the user reads it; the technical text (endpoint, HTTP status, the service's words) is
 * kept apart as the detail, for the audit and a "Details" toggle, never first.
 */
import type { Words } from "../i18n/words";
import { ENDPOINTS, isEndpointName } from "./endpoints";
import {
  ApiError,
  HttpError,
  InvalidRequestError,
  RedirectError,
  ServiceError,
  type ServiceReason,
  TransportError,
} from "./errors";

export type PlainKind =
  | "serviceDown"
  | "unreachable"
  | "notAuthorised"
  | "refused"
  | "answeredError"
  | "unknownOutcome"
  | "settings"
  | "unexpected";

/** What was kept, as the caller knows it: the sheets (a read), nothing changed (a refusal). */
export type Kept = "sheets" | "nothing";

/** Separates the plain sentence from its details in a text that can only be a string (an alert, a thrown message). */
export const DETAILS_SEPARATOR = "\n\n";

/** Which kind of failure a typed error is; null for an error that is not the client's. */
export function plainKind(err: unknown): PlainKind | null {
  if (!(err instanceof ApiError)) return null;
  // A write the service may have applied: whatever failed, the record must be looked at first.
  const write = isEndpointName(err.endpoint) && ENDPOINTS[err.endpoint].kind === "write";
  const unknown = (kind: PlainKind): PlainKind =>
    err.outcome === "unknown" && write ? "unknownOutcome" : kind;
  if (err instanceof InvalidRequestError) return "settings";
  if (err instanceof RedirectError) return unknown("unreachable");
  if (err instanceof TransportError) {
    if (err.notAllowed) return "unreachable";
    return unknown(err.timedOut ? "serviceDown" : "unreachable");
  }
  if (err instanceof HttpError) {
    // A write's 403 is the administrator's permission (IdAdmin), not the token.
    if (err.status === 401 || (err.status === 403 && !write)) return "notAuthorised";
    if (err.status === 404 || err.status === 405) return "unreachable";
    if (err.status >= 500 || err.status === 408 || err.status === 429) return unknown("serviceDown");
    return unknown("refused");
  }
  if (err instanceof ServiceError) {
    if (err.bodyStatusCode === 401 || (err.bodyStatusCode === 403 && !write)) return "notAuthorised";
    // A read has no values to check: the service answered with an error, to try later.
    return write ? unknown("refused") : "answeredError";
  }
  return unknown("unexpected");
}

/**
 * A failure as data. `kind` null is an error that is not the client's (the add-on's own plain
 * refusals: a busy lock, a missing token): its `text` is shown as it is.
 */
export interface Failure {
  kind: PlainKind | null;
  /** What was kept; absent when it is not known (a write whose outcome is unknown). */
  kept?: Kept;
  /** The error's own text. */
  text: string;
  /**
   * The technical detail: the words around the service's own when it answered (its words stay
   * as they came: an error inside a 200 reads "answered HTTP 200: <its message>"), else the
   * error's text.
   */
  detail: Words | string;
}

/**
 * `err` as data, with `kept` when the caller knows it (a refusal keeps everything as it was
 * unless told otherwise).
 */
export function failureOf(err: unknown, kept?: Kept): Failure {
  const text = err instanceof Error ? err.message || err.name : String(err);
  const kind = plainKind(err);
  if (kind === null) return { kind, text, detail: "" };
  const failure: Failure = { kind, text, detail: text };
  const known = kept ?? (kind === "unknownOutcome" ? undefined : "nothing");
  if (known) failure.kept = known;
  if (err instanceof ServiceError || (err instanceof HttpError && !(err instanceof RedirectError)))
    failure.detail = {
      key: "error.detail.http",
      params: {
        endpoint: err.endpoint,
        status: err.status,
        message: err.serviceMessage ? `: ${err.serviceMessage}` : ".",
      },
    };
  return failure;
}

/**
 * A write the service refused, as the write path keeps it: the technical text (for the details)
 * and, when the service gave its words, its reason as data. Without `reason` the text is the
 * add-on's own (a rule checked before sending, a fund that cannot be read).
 */
export interface Refusal {
  message: string;
  reason?: ServiceReason;
}

/** The service's reason of a failure, when the service answered with its words (not a redirect). */
export function serviceReasonIn(err: unknown): ServiceReason | undefined {
  if (err instanceof ServiceError) return err.reason;
  if (err instanceof HttpError && !(err instanceof RedirectError)) return err.reason;
  return undefined;
}
