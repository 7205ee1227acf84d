/**
 * A refused request as data: which field broke which rule, with the values its message names.
 * The API's words module (./words.ts) says each issue in English or Spanish (the texts are in
 * src/i18n/rules.ts); a message starts with the field and says the rule, so a person reading a
 * cell note or a sidebar knows what to fix.
 */
import type { AmountRule } from "./money";

/** Every rule a request can break. */
export type Rule =
  | AmountRule
  | "request"
  | "required"
  | "unknownField"
  | "integer"
  | "min"
  | "max"
  | "oneOf"
  | "text"
  | "maxLength"
  | "currency"
  | "date"
  | "datetime"
  | "boolean"
  | "dateOrder"
  | "dateRange"
  | "dependsOn"
  | "totalTooLarge";

/** Values a message may mention (the offending value, a bound, the allowed values…). */
export type IssueParams = Record<string, string | number>;

/** One broken rule of one field, as data. */
export interface Issue {
  field: string;
  rule: Rule;
  params: IssueParams;
  /** How its message names the field (an Outbox column's header); the field itself when absent. */
  name?: string;
}

/** One broken rule of one field, with its message. */
export interface RequestIssue {
  field: string;
  rule: Rule;
  message: string;
  params: IssueParams;
}
