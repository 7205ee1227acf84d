/**
 * The connection test's outcome (src/settings/connection-test.ts, data) in the user's words:
 * the one place its messages are made.
 */
import { type Language, translate } from "../i18n";
import type { ConnectionProblem, ConnectionTestOutcome, ConnectionTestResult } from "../settings";
import { settingsIssueText, settingsWords, tokenIssueText } from "../settings/words";

/** What refused the settings to test, in `language`. */
function problemText(problem: ConnectionProblem, language: Language): string {
  switch (problem.problem) {
    case "input":
      return problem.issues.map((i) => settingsIssueText(i, language)).join(" ");
    case "company":
      return translate(language, "company.issue.unknown", { key: problem.key });
    case "setting":
      return settingsIssueText(problem.issue, language);
    case "token":
      return tokenIssueText(problem.reason, language);
  }
}

/** The plain explanation of a test's outcome, in `language`. */
export function connectionTestMessage(outcome: ConnectionTestOutcome, language: Language): string {
  if (outcome.kind === "tokenNotBound") return outcome.words ? settingsWords(outcome.words, language) : "";
  const params = outcome.problem
    ? { ...outcome.params, message: problemText(outcome.problem, language) }
    : outcome.params;
  return translate(language, `connection.test.${outcome.kind}` as "connection.test.ok", params);
}

/** What the sidebar receives of a test: its outcome with the message in `language`. */
export function connectionTestResult(
  outcome: ConnectionTestOutcome,
  language: Language,
): ConnectionTestResult {
  const result: ConnectionTestResult = {
    ok: outcome.ok,
    kind: outcome.kind,
    message: connectionTestMessage(outcome, language),
  };
  if (outcome.status !== undefined) result.status = outcome.status;
  if (outcome.reached !== undefined) result.reached = outcome.reached;
  return result;
}
