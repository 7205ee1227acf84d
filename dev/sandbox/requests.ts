/**
 * Request validation, read from the contract in src/api: the same field rules, cross-field
 * rules (date order, the one-year window) and messages the add-on checks before sending, with
 * the sandbox's own "today".
 */
import type { EndpointName } from "../../src/api/endpoints";
import { checkField, isBlank } from "../../src/api/fields";
import { type MessageLanguage, ruleMessage } from "../../src/api/messages";
import { validateRequest } from "../../src/api/validation";
import { SandboxError } from "./errors";
import { MAX_RESULTS_PER_PAGE } from "./queries";

export interface FieldProblem {
  Field: string;
  Message: string;
}

/** A refused request: 400, the first problem as Message and Field, every problem in Issues. */
export class InvalidRequest extends SandboxError {
  constructor(readonly issues: FieldProblem[]) {
    const first = issues[0] ?? { Field: "request", Message: "request: invalid" };
    super(400, "InvalidField", first.Message, first.Field);
  }

  override body() {
    const base = super.body();
    return { Error: { ...base.Error, Issues: this.issues } };
  }
}

/**
 * The checked request of `name` (canonical values, amounts in integer cents, absent fields
 * left out), or throws InvalidRequest.
 */
export function parseRequest(
  name: EndpointName,
  raw: unknown,
  today: string,
  language: MessageLanguage = "en",
): Record<string, unknown> {
  const { request, keptDate } = expirationDateUse(name, raw, language);
  const checked = validateRequest(name, request, { today, language });
  if (!checked.ok)
    throw new InvalidRequest(checked.issues.map((i) => ({ Field: i.field, Message: i.message })));
  const value = { ...(checked.value as Record<string, unknown>) };
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  // The contract leaves the page size open (the spec shows no maximum); the sandbox's own
  // maximum is refused in the contract's words.
  const perPage = value.ResultsPerPage;
  if (typeof perPage === "number" && perPage > MAX_RESULTS_PER_PAGE) {
    const params = { max: MAX_RESULTS_PER_PAGE, got: perPage };
    throw new InvalidRequest([
      { Field: "ResultsPerPage", Message: ruleMessage("max", "ResultsPerPage", params, language) },
    ]);
  }
  if (keptDate !== undefined) value.FundExpirationDate = keptDate;
  return value;
}

/**
 * Spec 4.3/4.4: FundExpirationDate is "used only when FundExpiration is true". The contract
 * refuses a date sent without the flag (so that the add-on never loses one silently); the
 * service it stands for takes the request and does not use the date. The sandbox behaves as the
 * service: the date must still be a date, and is then set aside. On updateFund without
 * FundExpiration the fund's own flag decides, so the date is kept for the ledger.
 */
function expirationDateUse(
  name: EndpointName,
  raw: unknown,
  language: MessageLanguage,
): { request: unknown; keptDate?: string } {
  if (name !== "createFund" && name !== "updateFund") return { request: raw };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { request: raw };
  const body = raw as Record<string, unknown>;
  if (isBlank(body.FundExpirationDate)) return { request: raw };
  const flagGiven = !isBlank(body.FundExpiration);
  const flag = flagGiven ? checkField({ kind: "flag" }, body.FundExpiration) : undefined;
  // A bad flag, or a flag set to true: the contract's own rules apply unchanged.
  if (flag && (!flag.ok || flag.value === true)) return { request: raw };
  const date = checkField({ kind: "date" }, body.FundExpirationDate);
  if (!date.ok) {
    const message = ruleMessage(date.rule, "FundExpirationDate", date.params, language);
    throw new InvalidRequest([{ Field: "FundExpirationDate", Message: message }]);
  }
  const { FundExpirationDate: _unused, ...rest } = body;
  const keep = name === "updateFund" && !flagGiven;
  return keep ? { request: rest, keptDate: date.value as string } : { request: rest };
}

/** Spanish messages when the caller prefers Spanish (Accept-Language: es…), English otherwise. */
export function languageOf(acceptLanguage: string | undefined): MessageLanguage {
  return /^\s*es\b/i.test(acceptLanguage ?? "") ? "es" : "en";
}
