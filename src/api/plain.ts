/**
 * The one catalogue of what a person reads when a call fails: what happened, what was kept,
 * what to do, in their language. The technical text (endpoint, HTTP status, the service's
 * words) is kept apart as `detail`, for the audit and a "Details" toggle, never first.
 */
import { type Language, type StringKey, translate } from "../i18n";
import { ENDPOINTS, isEndpointName } from "./endpoints";
import {
  ApiError,
  HttpError,
  InvalidRequestError,
  RedirectError,
  ServiceError,
  TransportError,
} from "./errors";

export type PlainKind =
  | "serviceDown"
  | "unreachable"
  | "notAuthorised"
  | "refused"
  | "unknownOutcome"
  | "settings"
  | "unexpected";

/** What was kept, as the caller knows it: the sheets (a read), nothing changed (a refusal). */
export type Kept = "sheets" | "nothing";

export interface PlainError {
  /** Null for an error the add-on wrote plainly itself: its text is shown as it is. */
  kind: PlainKind | null;
  message: string;
  /** The technical text; "" when there is none beyond the message. */
  detail: string;
}

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
    return unknown(/^(\w+: )?Timeout/i.test(err.message) ? "serviceDown" : "unreachable");
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
    return unknown("refused");
  }
  return unknown("unexpected");
}

/**
 * The plain message of a failure in `language`, with `kept` said when the caller knows it (a
 * refusal keeps everything as it was unless told otherwise). An error that is not the client's
 * (the add-on's own plain refusals: a busy lock, a missing token) is shown as it is.
 */
export function plainError(err: unknown, language: Language, kept?: Kept): PlainError {
  const text = err instanceof Error ? err.message || err.name : String(err);
  const kind = plainKind(err);
  if (kind === null) return { kind, message: text, detail: "" };
  return {
    kind,
    message: sentences(kind, kept ?? (kind === "unknownOutcome" ? undefined : "nothing"), language),
    // The service's own words stay as they came; the add-on's around them are in `language`
    // (an error inside a 200 reads "answered HTTP 200: <its message>").
    detail:
      err instanceof ServiceError || (err instanceof HttpError && !(err instanceof RedirectError))
        ? translate(language, "error.detail.http", {
            endpoint: err.endpoint,
            status: err.status,
            message: err.serviceMessage ? `: ${err.serviceMessage}` : ".",
          })
        : text,
  };
}

/**
 * The plain words of a write the service refused, known by its message only (the write path
 * keeps no more of the error): nothing was changed. A 403 there is the administrator's
 * permission, not the token (the fund was read with it).
 */
export function plainRefusal(detail: string, language: Language): PlainError {
  return { kind: "refused", message: sentences("refused", "nothing", language), detail };
}

function sentences(kind: PlainKind, kept: Kept | undefined, language: Language): string {
  return [
    translate(language, `error.${kind}` as StringKey),
    kept ? translate(language, `error.kept.${kept}` as StringKey) : "",
    translate(language, `error.${kind}.do` as StringKey),
  ]
    .filter((s) => s !== "")
    .join(" ");
}

/** The message and its details as one text: the plain sentence first, then "Details: …". */
export function plainText(plain: PlainError, language: Language): string {
  return plain.detail
    ? `${plain.message}${DETAILS_SEPARATOR}${translate(language, "error.details")}: ${plain.detail}`
    : plain.message;
}
