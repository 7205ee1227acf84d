/**
 * Request validation, read from the contract in src/api: the same field rules and messages the
 * add-on checks before sending, plus the cross-field rules (date order, one-year window) with
 * the sandbox's own "today".
 */
import type { z } from "zod";
import { ENDPOINTS, type EndpointName } from "../../src/api/endpoints";
import { type IssueParams, type Rule, ruleMessage } from "../../src/api/messages";
import { SandboxError } from "./errors";

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

/** The checked request of `name` (canonical values, amounts in cents), or throws InvalidRequest. */
export function parseRequest(name: EndpointName, raw: unknown, today: string): Record<string, unknown> {
  const endpoint = ENDPOINTS[name];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    const got = raw === null ? "null" : Array.isArray(raw) ? "a list" : typeof raw;
    throw new InvalidRequest([{ Field: "request", Message: ruleMessage("request", "request", { got }) }]);
  }
  const parsed = (endpoint.fieldsSchema as z.ZodType).safeParse(raw);
  if (!parsed.success)
    throw new InvalidRequest(parsed.error.issues.flatMap((issue) => problemsOf(issue, name)));
  const value = parsed.data as Record<string, unknown>;
  const crossIssues = endpoint.checks(value, { today });
  if (crossIssues.length > 0) {
    throw new InvalidRequest(
      crossIssues.map((i) => ({ Field: i.field, Message: ruleMessage(i.rule, i.field, i.params) })),
    );
  }
  // Absent optional fields come back as undefined members; drop them so "absent" stays absent.
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}

function problemsOf(issue: z.core.$ZodIssue, endpoint: string): FieldProblem[] {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({
      Field: key,
      Message: ruleMessage("unknownField", key, { endpoint }),
    }));
  }
  const field = String(issue.path[0] ?? "request");
  const params = (issue.code === "custom" ? (issue.params ?? {}) : {}) as IssueParams & { rule?: Rule };
  const rule: Rule = params.rule ?? "request";
  const { rule: _omit, ...rest } = params;
  return [{ Field: field, Message: ruleMessage(rule, field, { got: String(issue.input ?? ""), ...rest }) }];
}
