/**
 * How the Outbox reads: the old layout it is moved from, the conditional formats that colour
 * each row by its state and shade the cells its operation does not use, and the note on the
 * Operation header naming the columns each operation needs. Formulas name labels of both
 * languages, so they hold whichever language a row was typed in.
 */
import { LANGUAGES, type Language, type StringKey, translate } from "../i18n";
import { columnLetters } from "../sheets/formulas";
import {
  type CellValue,
  columnNumber,
  headerKey,
  OLD_OUTBOX_COLUMNS,
  OUTBOX_COLUMNS,
  type OutboxColumn,
  PREVIOUS_OUTBOX_COLUMNS,
  type UserColumn,
} from "./columns";
import { OUTBOX_OPERATIONS, type OutboxState } from "./operations";
import { operationLabel, stateLabel } from "./operations/words";
import { REQUEST_COLUMNS } from "./rows";

/** Whether row 1 shows `columns` in order, each header in either language; `blank` may be empty. */
function showsHeader(
  headers: readonly CellValue[],
  columns: readonly OutboxColumn[],
  blank?: OutboxColumn,
): boolean {
  // The last column (what was sent) had other names before; it is not read.
  return columns.slice(0, -1).every((column, i) => {
    const found = String(headers[i] ?? "").trim();
    if (column === blank && found === "") return true;
    return LANGUAGES.some((language) => translate(language, headerKey(column)) === found);
  });
}

/** True when row 1 is exactly the header of an Outbox from before State and Result came first. */
export function isOldOutboxHeader(headers: readonly CellValue[]): boolean {
  return showsHeader(headers, OLD_OUTBOX_COLUMNS);
}

/**
 * True when row 1 is the header of an Outbox from before the Company column (State and Result
 * first), or of one whose Company column was inserted but not yet named (a move cut short).
 */
export function isPreviousOutboxHeader(headers: readonly CellValue[]): boolean {
  if (showsHeader(headers, OUTBOX_COLUMNS)) return false;
  return showsHeader(headers, PREVIOUS_OUTBOX_COLUMNS) || showsHeader(headers, OUTBOX_COLUMNS, "company");
}

export interface FormatRuleSpec {
  /** A custom formula for the rule's first cell (row 2), absolute on the column it reads. */
  formula: string;
  columns: number[];
  background: string;
  fontColor: string;
}

const letter = (column: Parameters<typeof columnNumber>[0]) => `$${columnLetters(columnNumber(column))}2`;

/** =OR(cell="label", …) over every label of either language (each once). */
function anyOf(cell: string, labels: string[]): string {
  const unique = [...new Set(labels)];
  return `=OR(${unique.map((l) => `${cell}="${l.replace(/"/g, '""')}"`).join(",")})`;
}

const STATE_COLOURS: [OutboxState[], string, string][] = [
  [["Done"], "#d9ead3", "#274e13"],
  [["Refused"], "#f4cccc", "#990000"],
  [["Unknown", "Sending"], "#fff2cc", "#7f6000"],
];

/** The user columns an operation may read, past Operation itself. */
const OPTIONAL_COLUMNS: readonly UserColumn[] = [
  ...new Set(OUTBOX_OPERATIONS.flatMap((op) => [...REQUEST_COLUMNS[op]])),
];

/**
 * The add-on's conditional formats: State and Result coloured by state (Pending stays plain),
 * then each cell an operation does not use shaded on that operation's rows.
 */
export function outboxFormatRules(): FormatRuleSpec[] {
  const state = letter("state");
  const operation = letter("operation");
  const rules: FormatRuleSpec[] = STATE_COLOURS.map(([states, background, fontColor]) => ({
    formula: anyOf(
      state,
      states.flatMap((s) => LANGUAGES.map((language) => stateLabel(language, s))),
    ),
    columns: [columnNumber("state"), columnNumber("result")],
    background,
    fontColor,
  }));
  // Columns left unused by the same operations share one rule.
  const byFormula = new Map<string, number[]>();
  for (const column of OPTIONAL_COLUMNS) {
    const unused = OUTBOX_OPERATIONS.filter((op) => !REQUEST_COLUMNS[op].includes(column));
    if (unused.length === 0) continue;
    const formula = anyOf(
      operation,
      // The verbs of earlier versions too: existing rows keep them and are still sent.
      unused.flatMap((op) =>
        LANGUAGES.flatMap((language) => [
          operationLabel(language, op),
          translate(language, `outbox.formerOp.${op}` as StringKey),
        ]),
      ),
    );
    byFormula.set(formula, [...(byFormula.get(formula) ?? []), columnNumber(column)]);
  }
  for (const [formula, columns] of byFormula)
    rules.push({ formula, columns, background: "#efefef", fontColor: "#999999" });
  return rules;
}

/** The Operation header's note: the columns each operation needs, in `language`. */
export function operationsNote(language: Language): string {
  const lines = OUTBOX_OPERATIONS.map(
    (op) =>
      `${operationLabel(language, op)}: ${REQUEST_COLUMNS[op].map((c) => translate(language, headerKey(c))).join(", ")}`,
  );
  return [translate(language, "outbox.operationsNote"), ...lines].join("\n");
}
