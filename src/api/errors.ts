/**
 * Every way a call can fail, as typed errors. For writes, `outcome` says whether the answer
 * says the service did not apply the request ("refused": never sent, a 4xx other than 408/429,
 * an error inside a 2xx body) or it may have applied it ("unknown": everything else, such as
 * no answer, 408, 429, 5xx, 3xx, an answer that cannot be read). A write whose outcome is
 * unknown is never re-sent blindly: read the record first.
 */
import type { RequestIssue } from "./issues";
import { formatCents } from "./money";
import type { Transaction } from "./types";

export type WriteOutcome = "refused" | "unknown";

export type ApiErrorKind = "invalidRequest" | "http" | "service" | "unexpectedResponse" | "transport";

/**
 * A rule of the service's that the add-on knows by its values: the service gives them only in
 * its words, read once here (`serviceReasonOf`) so that no one reads them out of a sentence.
 */
export type KnownServiceRule =
  /** A withdrawal above the fund's balance (amounts in cents, as the service wrote them). */
  | { rule: "balance"; amountCents: number; balanceCents: number }
  /** A custom status the report's policy does not have, as it was sent. */
  | { rule: "customStatus"; status: string };

/**
 * The service's reason for refusing a call, as it gave it: its words (joined, cut short and
 * without secrets, as the error shows them), the code its body named, and the field and rule
 * when its words are "<Field>: <rule>".
 */
export interface ServiceReason {
  /** The service's words; "" when it gave none. */
  text: string;
  /** The error code of the body ({"Error": {"Code": …}}), when it named one. */
  code?: string;
  /** The field the words name ("WithdrawAmount" of "WithdrawAmount: …"). */
  field?: string;
  /** The rest of the words after the field, as given. */
  rule?: string;
  /** A rule the add-on knows, with its values. */
  known?: KnownServiceRule;
}

/** A decimal amount of the service's text as cents, or null. */
function centsOf(text: string): number | null {
  return /^-?\d+(\.\d{1,2})?$/.test(text) ? Math.round(Number(text) * 100) : null;
}

/** The service's words read as a `ServiceReason` (`code` is the body's, when it named one). */
export function serviceReasonOf(text: string, code?: string): ServiceReason {
  const reason: ServiceReason = { text };
  if (code) reason.code = code;
  const named = /^(\w+): ([\s\S]+)$/.exec(text);
  if (!named) return reason;
  const field = named[1] as string;
  const rule = named[2] as string;
  reason.field = field;
  reason.rule = rule;
  const balance =
    field === "WithdrawAmount" ? /^(-?[\d.]+) is more than the fund's balance (-?[\d.]+)$/.exec(rule) : null;
  if (balance) {
    const [amountCents, balanceCents] = [centsOf(balance[1] as string), centsOf(balance[2] as string)];
    if (amountCents !== null && balanceCents !== null)
      reason.known = { rule: "balance", amountCents, balanceCents };
  }
  const status = field === "CustomStatus" ? /^"([^"]*)" is not a custom status of/.exec(rule) : null;
  if (status) reason.known = { rule: "customStatus", status: status[1] as string };
  return reason;
}

/** Base of the client's errors; `endpoint` is empty for a transport failure outside the client. */
export abstract class ApiError extends Error {
  abstract readonly kind: ApiErrorKind;
  endpoint: string;
  outcome: WriteOutcome;
  /** HTTP status of the answer, 0 when there was none. */
  status: number;

  constructor(message: string, endpoint: string, outcome: WriteOutcome, status: number) {
    super(message);
    this.endpoint = endpoint;
    this.outcome = outcome;
    this.status = status;
  }
}

/** The request broke a rule of the contract; it was never sent. */
export class InvalidRequestError extends ApiError {
  readonly kind = "invalidRequest";
  issues: RequestIssue[];

  constructor(endpoint: string, issues: RequestIssue[]) {
    super(
      `${endpoint}: ${issues.map((i) => i.message).join(" ") || "invalid request."}`,
      endpoint,
      "refused",
      0,
    );
    this.name = "InvalidRequestError";
    this.issues = issues;
  }
}

/** The service answered with a status outside 2xx. */
export class HttpError extends ApiError {
  readonly kind = "http";
  serviceMessage: string;
  /** The service's reason, as data (its words are `serviceMessage`). */
  reason: ServiceReason;
  /** Milliseconds the service asked to wait (Retry-After), if it said. */
  retryAfterMs: number | undefined;

  constructor(
    endpoint: string,
    status: number,
    serviceMessage: string,
    outcome: WriteOutcome,
    retryAfterMs?: number,
    code?: string,
  ) {
    super(
      `${endpoint}: the service answered HTTP ${status}${serviceMessage ? `: ${serviceMessage}` : "."}`,
      endpoint,
      outcome,
      status,
    );
    this.name = "HttpError";
    this.serviceMessage = serviceMessage;
    this.reason = serviceReasonOf(serviceMessage, code);
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The service answered with a redirect (3xx). Redirects are not followed (UrlFetchApp would
 * carry the Authorization header to wherever the answer points); the message names the host
 * the answer pointed to, which received nothing.
 */
export class RedirectError extends HttpError {
  /** The Location header as sent; "" when there was none. */
  location: string;
  /** The host of the location; "" for a location on the same host (or none). */
  locationHost: string;

  constructor(
    endpoint: string,
    status: number,
    location: string,
    locationHost: string,
    outcome: WriteOutcome,
  ) {
    super(endpoint, status, "", outcome);
    const where = locationHost
      ? `to host ${locationHost}`
      : location
        ? `to ${location.slice(0, 100)} on the same host`
        : "without a location";
    this.message = `${endpoint}: the service answered HTTP ${status}, a redirect ${where}. Redirects are not followed: nothing was sent there.`;
    this.name = "RedirectError";
    this.location = location;
    this.locationHost = locationHost;
  }
}

/** The service answered 2xx but the body says it failed (an `Error` member, `statusCode` ≥ 400). */
export class ServiceError extends ApiError {
  readonly kind = "service";
  serviceMessage: string;
  /** The service's reason, as data (its words are `serviceMessage`). */
  reason: ServiceReason;
  /** `statusCode` found in the body, if any. */
  bodyStatusCode: number | undefined;
  /** Milliseconds the answer asked to wait (Retry-After), if it said. */
  retryAfterMs: number | undefined;

  constructor(
    endpoint: string,
    status: number,
    serviceMessage: string,
    outcome: WriteOutcome,
    bodyStatusCode?: number,
    code?: string,
  ) {
    super(
      `${endpoint}: the service reported an error inside an HTTP ${status} answer: ${serviceMessage || "(no message)"}`,
      endpoint,
      outcome,
      status,
    );
    this.name = "ServiceError";
    this.serviceMessage = serviceMessage;
    this.reason = serviceReasonOf(serviceMessage, code);
    this.bodyStatusCode = bodyStatusCode;
  }
}

/** The answer is not what the contract describes; `field` names where (e.g. "Funds[2].Balance"). */
export class UnexpectedResponseError extends ApiError {
  readonly kind = "unexpectedResponse";
  field: string;
  detail: string;

  constructor(endpoint: string, status: number, field: string, detail: string, outcome: WriteOutcome) {
    super(
      `${endpoint}: unexpected answer from the service at ${field || "the body"}: ${detail}`,
      endpoint,
      outcome,
      status,
    );
    this.name = "UnexpectedResponseError";
    this.field = field;
    this.detail = detail;
  }
}

/**
 * Apps Script's refusal of a URL outside the manifest's `urlFetchWhitelist` ("Request to <url>
 * failed because the URL has not been whitelisted in the script manifest."): nothing was sent.
 */
const NOT_ALLOWED =
  /has not been whitelisted in the script manifest|does not match any of the prefixes whitelisted/i;

/**
 * No answer: DNS failure, refused connection, timeout. The request may have reached the
 * service, except when Apps Script refused the URL itself (`notAllowed`): then nothing was
 * sent, and trying again cannot help.
 */
export class TransportError extends ApiError {
  readonly kind = "transport";
  /** Apps Script refused the URL: it is outside the manifest's allowlist (urlFetchWhitelist). */
  readonly notAllowed: boolean;
  /** The platform's words say the call timed out ("Timeout: <url>"). */
  readonly timedOut: boolean;
  /** The platform's words, as it gave them (the message adds the endpoint before them). */
  readonly detail: string;

  constructor(message: string, endpoint = "") {
    const notAllowed = NOT_ALLOWED.test(message);
    super(endpoint ? `${endpoint}: ${message}` : message, endpoint, notAllowed ? "refused" : "unknown", 0);
    this.name = "TransportError";
    this.notAllowed = notAllowed;
    this.timedOut = /^(\w+: )?Timeout/i.test(this.message);
    this.detail = message;
  }
}

/**
 * An amount in the answer is beyond what the add-on can read exactly (`MAX_EXACT_CENTS` of
 * ./money: the service's JSON numbers keep 15 significant digits). When it is one of a fund's
 * totals, the fund's `transactions` are kept when they read, so that an interrupted deposit or
 * withdrawal can still be settled by counting them.
 */
export class UnreadableAmountError extends UnexpectedResponseError {
  /** The amount as the service sent it. */
  got: string;
  /** Whose amount it is: the fund (its totals, its transactions) or the expense report. */
  recordKind: "fund" | "report";
  /** The fund's or report's Id, when it reads. */
  recordId: number | null;
  /** True for Deposits, Withdrawals (or Charges) and Balance. */
  fundTotal: boolean;
  /** The fund's transactions when `fundTotal` and they read; null otherwise. */
  transactions: Transaction[] | null;
  /** The largest amount the add-on reads exactly, in cents (`MAX_EXACT_CENTS`). */
  maxCents: number;

  constructor(
    endpoint: string,
    status: number,
    field: string,
    got: string,
    outcome: WriteOutcome,
    record: {
      kind: "fund" | "report";
      id: number | null;
      fundTotal: boolean;
      transactions: Transaction[] | null;
      maxCents: number;
    },
  ) {
    const max = formatCents(record.maxCents);
    super(endpoint, status, field, `expected an amount of at most ${max}, got ${got}`, outcome);
    const whose = `${record.kind} ${record.id ?? "(no readable Id)"}`;
    const bound = `above ${max}, the largest ${record.fundTotal ? "total" : "amount"} the add-on can read exactly (the service's numbers keep 15 significant digits)`;
    this.message = record.fundTotal
      ? `${endpoint}: ${field} of ${whose} is ${got}, ${bound}. The add-on cannot show this fund's totals or move money on it: check the fund in Rindegastos, and leave it out of the add-on's funds.`
      : `${endpoint}: ${field} of ${whose} is ${got}, ${bound}. Check this ${record.kind} in Rindegastos.`;
    this.name = "UnreadableAmountError";
    this.got = got;
    this.recordKind = record.kind;
    this.recordId = record.id;
    this.fundTotal = record.fundTotal;
    this.transactions = record.transactions;
    this.maxCents = record.maxCents;
  }
}

/** True for the client's typed errors. */
export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/**
 * `text` with every occurrence of each secret replaced, so no error or log can carry a token:
 * as it is, as a JSON encoder writes it ("/" as "\/") and URL-encoded (%2B or %2b).
 */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    const encoded = encodeURIComponent(secret);
    // Each form looked for once (a token of letters and digits has one form, not four), and
    // looked for first: an answer of megabytes is not copied for a secret it does not hold.
    const forms = new Set([
      secret,
      secret.replace(/\//g, "\\/"),
      encoded,
      encoded.replace(/%\w\w/g, (e) => e.toLowerCase()),
    ]);
    for (const form of forms) if (out.includes(form)) out = out.split(form).join("[redacted]");
  }
  return out;
}

/**
 * `error` with `cause` kept as its `cause` (ES2022's option, which Apps Script's V8 may not
 * take in the constructor). Only for a cause that holds no secret: a redacted error never
 * carries its unredacted original.
 */
export function withCause<E extends Error>(error: E, cause: unknown): E {
  Object.defineProperty(error, "cause", {
    value: cause,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  return error;
}

/**
 * Why a failure may be swallowed: the only reasons there are. Anything else (a write to the
 * service or to a sheet, a refused argument) reaches the caller: in app/, the error boundary
 * (`entry`).
 */
export type Tolerated =
  /** A toast, alert or sidebar where there is no Ui (a trigger). */
  | "no Ui"
  /** A value only shown (the locale, an email, a notice, a menu item): a default stands in. */
  | "shown only"
  /** A count that cannot be saved must not turn a call that happened into a failure. */
  | "counted only"
  /** Stored text that cannot be read or parsed: treated as absent. */
  | "unreadable"
  /** Tidying or repairing triggers: the next run or settings view tries again. */
  | "tried again later"
  /** The same failure is reported by the step that follows. */
  | "reported next"
  /** A view derived from data already written (the Summary): the next refresh makes it again. */
  | "derived only"
  /** Kept with a check (a count and a hash): a value lost is found missing, and the work redone. */
  | "checked later";

/**
 * The one place that swallows a failure: what `work` returns, or `fallback` when it throws for
 * a reason `why` allows.
 */
export function tolerate<T>(_why: Tolerated, work: () => T, fallback: T): T {
  try {
    return work();
  } catch (_err) {
    return fallback;
  }
}
