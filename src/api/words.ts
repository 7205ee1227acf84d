/**
 * The API surface's words: the message of each rule a request breaks, what a person reads when
 * a call fails (what happened, what was kept, what to do) and the reason the service gave for
 * refusing a write, in their language. The core hands them data: an issue (./issues.ts), a
 * failure (./failure.ts), a refusal with the service's reason as data (./errors.ts,
 * `ServiceReason`).
 */
import { type Language, type StringKey, translate } from "../i18n";
import { say, type Words, type WordValue } from "../i18n/words";
import type { EndpointName, RequestValue } from "./endpoints";
import type { ServiceReason } from "./errors";
import {
  DETAILS_SEPARATOR,
  type Failure,
  failureOf,
  type Kept,
  type PlainKind,
  type Refusal,
} from "./failure";
import type { Issue, IssueParams, RequestIssue, Rule } from "./issues";
import { centsToDecimalText, type FundTotals, formatCents, MAX_EXACT_CENTS, type Movement } from "./money";
import { type CheckOptions, checkRequest, totalsAfterProblem, type Validation } from "./validation";

/** The languages the API's messages are said in (the sandbox's and the add-on's). */
export type MessageLanguage = Language;

/** The largest amount as a person would type it (no thousands separator: commas are refused). */
const MAX_TEXT = centsToDecimalText(MAX_EXACT_CENTS);

/** The message for `rule` broken by `field`, as data: its key and the values it names. */
export function ruleWords(rule: Rule, field: WordValue, params: IssueParams): Words {
  return {
    key: `api.rule.${rule}` as StringKey,
    params: {
      ...params,
      field,
      max: params.max ?? MAX_TEXT,
      // The end of a report window is named "today" when it is today, else by its parameter.
      untilName: params.until === params.today ? { say: "api.rule.today" } : "Until",
    },
  };
}

/** The message for `rule` broken by `field`, in `language` (English by default). */
export function ruleMessage(
  rule: Rule,
  field: string,
  params: IssueParams,
  language: MessageLanguage = "en",
): string {
  return say(language, ruleWords(rule, field, params));
}

/** The message of `issue` in `language`, naming its field as the issue does. */
export function issueText(issue: Issue, language: MessageLanguage): string {
  return ruleMessage(issue.rule, issue.name ?? issue.field, issue.params, language);
}

/** `issue` with its message in `language`, as a request issue. */
export function saidIssue(issue: Issue, language: MessageLanguage): RequestIssue {
  return { field: issue.field, rule: issue.rule, params: issue.params, message: issueText(issue, language) };
}

export interface ValidateOptions extends CheckOptions {
  /** The messages' language; English when absent. */
  language?: MessageLanguage;
}

/**
 * `checkRequest` with each issue's message in `options.language` (English by default): the
 * service's own error bodies in the sandbox, the client's refusal before sending.
 */
export function validateRequest<N extends EndpointName>(
  name: N,
  input: unknown,
  options: ValidateOptions = {},
): Validation<RequestValue<N>> {
  const checked = checkRequest(name, input, options);
  if (checked.ok) return checked;
  return { ok: false, issues: checked.issues.map((i) => saidIssue(i, options.language ?? "en")) };
}

/**
 * Why a fund's totals after a movement could not be read back exactly (./validation.ts
 * `totalsAfterProblem`, the contract's check), said in `language`; null when they can.
 */
export function totalsAfterText(
  language: MessageLanguage,
  field: string,
  totals: FundTotals,
  movement: Movement,
  amountCents: number,
): string | null {
  const problem = totalsAfterProblem(field, totals, movement, amountCents);
  return problem && issueText(problem, language);
}

export interface PlainError {
  /** Null for an error the add-on wrote plainly itself: its text is shown as it is. */
  kind: PlainKind | null;
  message: string;
  /** The technical text; "" when there is none beyond the message. */
  detail: string;
}

/** A failure in `language`: its plain sentences, and its detail with the add-on's words around the service's. */
export function sayFailure(failure: Failure, language: Language): PlainError {
  if (failure.kind === null) return { kind: null, message: failure.text, detail: "" };
  return {
    kind: failure.kind,
    message: sentences(failure.kind, failure.kept, language),
    detail: typeof failure.detail === "string" ? failure.detail : say(language, failure.detail),
  };
}

/**
 * The plain message of a failure in `language`, with `kept` said when the caller knows it (a
 * refusal keeps everything as it was unless told otherwise). An error that is not the client's
 * (the add-on's own plain refusals: a busy lock, a missing token) is shown as it is.
 */
export function plainError(err: unknown, language: Language, kept?: Kept): PlainError {
  return sayFailure(failureOf(err, kept), language);
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
      locale: language,
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
