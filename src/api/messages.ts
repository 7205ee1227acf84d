/**
 * Refused requests, where their callers have long imported them from: an issue as data
 * (./issues.ts) and its message (./words.ts, the API surface's words module).
 */
export type { Issue, IssueParams, RequestIssue, Rule } from "./issues";
export { type MessageLanguage, ruleMessage, ruleWords } from "./words";
