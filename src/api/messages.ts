/**
 * Messages for refused requests, in English and Spanish (their texts are in src/i18n/rules.ts).
 * Every message starts with the field and says the rule, so a person reading a cell note or a
 * sidebar knows what to fix.
 */
import type { StringKey } from "../i18n";
import { say, type Words, type WordValue } from "../i18n/words";
import { type AmountRule, centsToDecimalText, MAX_EXACT_CENTS } from "./money";

/** The largest amount as a person would type it (no thousands separator: commas are refused). */
const MAX_TEXT = centsToDecimalText(MAX_EXACT_CENTS);

export type MessageLanguage = "en" | "es";

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

/** One broken rule of one field. */
export interface RequestIssue {
  field: string;
  rule: Rule;
  message: string;
  params: IssueParams;
}

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
