/**
 * Request validation, read from the contract in src/api: the same field rules, cross-field
 * rules (date order, the one-year window) and messages the add-on checks before sending, with
 * the sandbox's own "today".
 */
import type { EndpointName } from "../../src/api/endpoints";
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
  const checked = validateRequest(name, raw, { today, language });
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
  return value;
}

/** Spanish messages when the caller prefers Spanish (Accept-Language: es…), English otherwise. */
export function languageOf(acceptLanguage: string | undefined): MessageLanguage {
  return /^\s*es\b/i.test(acceptLanguage ?? "") ? "es" : "en";
}
