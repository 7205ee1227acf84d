/**
 * Request validation shared by the add-on, its sidebar forms and the sandbox service: the
 * field rules of each endpoint plus the rules between fields. A broken rule is data (./issues.ts);
 * the API's words module says it, naming the field and the rule.
 */
import type * as z from "zod/mini";
import {
  type CheckContext,
  type CrossFieldIssue,
  ENDPOINTS,
  type EndpointName,
  isEndpointName,
  type RequestValue,
} from "./endpoints";
import { dateText } from "./fields";
import type { Issue, IssueParams, RequestIssue, Rule } from "./issues";
import { centsToDecimalText, type FundTotals, MAX_EXACT_CENTS, type Movement, totalsAfter } from "./money";

export type Validation<T, I = RequestIssue> = { ok: true; value: T } | { ok: false; issues: I[] };

export interface CheckOptions {
  /** Today as YYYY-MM-DD for the one-year rule of getExpenseReports; the runtime's date if absent. */
  today?: string;
  /** How messages name a field (an Outbox column's header); by the field's own name when absent. */
  fieldName?: (field: string) => string;
}

type Name = (field: string) => string;

function issue(field: string, rule: Rule, params: IssueParams, name?: Name): Issue {
  return name ? { field, rule, params, name: name(field) } : { field, rule, params };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value;
}

/** Turns zod's issues into field-named request issues. */
function fromZod(
  endpoint: string,
  input: unknown,
  issues: readonly z.core.$ZodIssue[],
  name?: Name,
): Issue[] {
  const out: Issue[] = [];
  for (const i of issues) {
    const field = i.path.length > 0 ? String(i.path[0]) : "request";
    if (i.code === "unrecognized_keys") {
      // An empty key still needs a visible name in the message.
      for (const key of i.keys) out.push(issue(key === "" ? '""' : key, "unknownField", { endpoint }, name));
    } else if (i.code === "custom" && i.params && typeof i.params.rule === "string") {
      const { rule, ...params } = i.params as { rule: Rule } & IssueParams;
      out.push(issue(field, rule, params, name));
    } else if (field === "request") {
      out.push(issue(field, "request", { got: describe(input) }));
    } else {
      out.push(issue(field, "text", { got: i.message }, name));
    }
  }
  return out;
}

/**
 * Checks `input` against the rules of endpoint `name`. Returns the canonical request (amounts
 * in integer cents, flags as booleans, dates as YYYY-MM-DD) or every broken rule, as data (the
 * API's words module says them: `issueText`, `saidIssue`, `validateRequest`). Never throws.
 */
export function checkRequest<N extends EndpointName>(
  name: N,
  input: unknown,
  options: CheckOptions = {},
): Validation<RequestValue<N>, Issue> {
  if (!isEndpointName(name))
    return {
      ok: false,
      issues: [issue("endpoint", "oneOf", { values: "the endpoints of the service", got: String(name) })],
    };
  const endpoint = ENDPOINTS[name];
  const parsed = endpoint.fieldsSchema.safeParse(input === undefined ? {} : input);
  if (!parsed.success)
    return { ok: false, issues: fromZod(name, input, parsed.error.issues, options.fieldName) };
  const value = parsed.data as Record<string, unknown>;
  // Blank optional fields are dropped so that the request carries only what was given.
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  const ctx: CheckContext = { today: options.today ?? dateText(new Date()) };
  const checks = endpoint.checks as (v: Record<string, unknown>, c: CheckContext) => CrossFieldIssue[];
  const cross = checks(value, ctx);
  if (cross.length > 0)
    return { ok: false, issues: cross.map((c) => issue(c.field, c.rule, c.params, options.fieldName)) };
  return { ok: true, value: value as RequestValue<N> };
}

/** The issues of one field, for a form that shows each message beside its input. */
export function issuesByField(issues: readonly RequestIssue[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const i of issues) {
    const list = out[i.field] ?? [];
    list.push(i.message);
    out[i.field] = list;
  }
  return out;
}

/**
 * The issue, as data, when a deposit or withdrawal of `amountCents` on a fund whose totals are
 * `totals` would take one of them beyond what the add-on can read back exactly
 * (MAX_EXACT_CENTS), or null when every total stays readable. `field` names the amount
 * (DepositAmount, WithdrawAmount, or the column the amount came from).
 */
export function totalsAfterProblem(
  field: string,
  totals: FundTotals,
  movement: Movement,
  amountCents: number,
): Issue | null {
  const r = totalsAfter(totals, movement, amountCents);
  if (r.ok) return null;
  const params: IssueParams = {
    total: r.total,
    after: Number.isFinite(r.cents) ? centsToDecimalText(r.cents) : String(r.cents),
    max: centsToDecimalText(MAX_EXACT_CENTS),
    got: Number.isFinite(amountCents) ? centsToDecimalText(amountCents) : String(amountCents),
  };
  return issue(field, "totalTooLarge", params);
}
