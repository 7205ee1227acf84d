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
  type ServiceReason,
  TransportError,
} from "./errors";
import { formatCents } from "./money";

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

/**
 * The plain words of a write the service refused: nothing was changed. A 403 there is the
 * administrator's permission, not the token (the fund was read with it).
 */
export function plainRefusal(refusal: Refusal, language: Language, currency?: string): PlainError {
  const reason = refusal.reason?.text ? refusalReason(refusal.reason, language, currency) : null;
  const message = reason
    ? `${reason} ${translate(language, "error.kept.nothing")}`
    : sentences("refused", "nothing", language);
  return { kind: "refused", message, detail: refusal.message };
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

/** The label a person knows each field of a request by: the Outbox's columns, the sidebars' fields. */
const FIELD_LABELS: Record<string, StringKey> = {
  Id: "outbox.col.targetId",
  IdAdmin: "settings.adminId",
  IdEmployee: "outbox.col.employeeId",
  EmployeeId: "outbox.col.employeeId",
  DepositAmount: "outbox.col.amount",
  WithdrawAmount: "outbox.col.amount",
  FundAmount: "outbox.col.amount",
  Currency: "outbox.col.currency",
  FundCurrency: "outbox.col.currency",
  FundStatus: "outbox.col.fundStatus",
  Status: "outbox.col.fundStatus",
  IntegrationCode: "outbox.col.integrationCode",
  IntegrationDate: "outbox.col.integrationDate",
  CustomStatus: "outbox.col.customStatus",
  CustomMessage: "outbox.col.customMessage",
  FundName: "outbox.col.fundName",
  FundCode: "outbox.col.fundCode",
  FundComment: "outbox.col.fundComment",
  FundFlexibility: "outbox.col.flexible",
  FundAutoDeposit: "outbox.col.autoDeposit",
  FundAutoBlock: "outbox.col.autoBlock",
  FundExpiration: "outbox.col.expirationDate",
  FundExpirationDate: "outbox.col.expirationDate",
};

/**
 * The reason the service gave for refusing a write, in `language`: the rules it is known to
 * state said plainly ("The fund's balance (PEN 11,422.55) is less than the withdrawal
 * (PEN 99,999,999.00)."), any other "<Field>: <rule>" with the field named by its label;
 * null when its words name no field this add-on knows (then they stay in the details only).
 * `currency` is the fund's, for the amounts' code and decimals.
 */
export function refusalReason(reason: ServiceReason, language: Language, currency?: string): string | null {
  const money = (cents: number) =>
    formatCents(cents, {
      language,
      currency: currency && /^[A-Z]{3}$/.test(currency) ? currency : undefined,
    });
  const known = reason.known;
  if (known?.rule === "balance")
    return translate(language, "error.reason.balance", {
      balance: money(known.balanceCents),
      amount: money(known.amountCents),
    });
  if (known?.rule === "customStatus")
    return translate(language, "error.reason.customStatus", { status: known.status });
  const label = reason.field === undefined ? undefined : FIELD_LABELS[reason.field];
  if (label && reason.rule !== undefined)
    return translate(language, "error.reason.field", {
      field: translate(language, label),
      rule: reason.rule.replace(/\.$/, ""),
    });
  return null;
}

/**
 * What a person reads of a write the service refused: the plain sentence with its reason
 * first, in their language, then "Details:" and the technical text. A refusal the add-on wrote
 * itself (no words of the service's: already plain, already in their language) is returned as
 * it is.
 */
export function plainWriteRefusal(refusal: Refusal, language: Language, currency?: string): string {
  if (!refusal.reason?.text) return refusal.message;
  return plainText(plainRefusal(refusal, language, currency), language);
}
