/**
 * The words of a row's request: what keeps it from being made (../rows.ts, `RequestProblem`),
 * said in the user's language, each field named by the Outbox column it is typed into.
 */
import { type Language, translate } from "../../i18n";
import { headerKey } from "../columns";
import type { FieldProblem } from "../requests";
import { fieldColumn, problemsText, type RequestProblem } from "../rows";
import { writeProblemText } from "../words";

/** A service field as the Outbox's messages name it: its column's header, else (IdAdmin, a setting) as it is. */
export function fieldLabel(language: Language, field: string): string {
  const column = fieldColumn(field);
  return column ? translate(language, headerKey(column)) : field;
}

/** A row's problem in `language`: the field it names, and why. */
export function requestProblemSaid(language: Language, problem: RequestProblem): FieldProblem {
  if ("operation" in problem)
    return {
      field: translate(language, "outbox.col.operation"),
      message:
        problem.operation === ""
          ? translate(language, "outbox.problem.noOperation")
          : translate(language, "outbox.problem.unknownOperation", { text: problem.operation }),
    };
  return {
    field: problem.field,
    message: writeProblemText(language, problem, (field) => fieldLabel(language, field)),
  };
}

/** A row's problems as one text in `language`. */
export function requestProblemsText(language: Language, problems: readonly RequestProblem[]): string {
  return problemsText(problems.map((problem) => requestProblemSaid(language, problem)));
}
