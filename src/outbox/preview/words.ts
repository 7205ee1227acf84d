/**
 * The preview's words module: what a preview of the Outbox returns as data (the writes it would
 * send or settle, the totals, each row's warnings and problems) said in the user's language: the
 * text of the preview's alert and of the run's confirmation, the line of each write, and the
 * note a warning leaves on its row. The preview itself takes no language.
 */

import { formatCents, moneyText } from "../../api";
import { LANGUAGES, type Language, type StringKey, translate } from "../../i18n";
import { companyRefusedText } from "../companies/words";
import { describeChanges, describeInFull, describeRequest, tooLongParams } from "../describe";
import { notesToWrite, type RowNote } from "../notes";
import { operationLabel } from "../operations/words";
import { listedOnSheet } from "../preview";
import type { FieldProblem } from "../requests";
import { type OutboxRow, problemsText } from "../rows";
import { requestProblemSaid } from "../rows/words";
import { FUND_NOT_FOUND } from "../run/confirmations";
import type { CellChanges, MoneyItem, OutboxPreview, RowProblem, SameAs, Total, Warning } from "./types";

/** A company's name as the preview shows it, a company without a name said so. */
function companyText(language: Language, name: string): string {
  return name || translate(language, "outbox.company.noCompany");
}

/** "Amount was changed from “50.00” to “70.00”", one clause per changed column. */
function changesText(language: Language, changes: CellChanges): string {
  // The company the write went to has no name: said as the preview names it.
  const before =
    changes.before.company === ""
      ? { ...changes.before, company: companyText(language, "") }
      : changes.before;
  return describeChanges(language, before, changes.now, changes.columns);
}

/** What a row shown as the same as an earlier write says of it. */
function sameAsNote(language: Language, sameAs: SameAs): string {
  if (sameAs.byHand) return translate(language, "outbox.warn.sameAsRefusedByHand", { date: sameAs.doneAt });
  return sameAs.otherRow === null
    ? translate(language, "outbox.warn.sameAsDone", { date: sameAs.doneAt })
    : translate(language, "outbox.warn.copyOfDone", { other: sameAs.otherRow, date: sameAs.doneAt });
}

/** One write the confirmation names: its row, what it does and every field it sends. */
export function operationLine(language: Language, item: MoneyItem): string {
  const t = (key: StringKey, params: Record<string, string | number>) => translate(language, key, params);
  const row = item.rowNumber;
  const description =
    item.currency === FUND_NOT_FOUND
      ? `${describeInFull(language, item.request)} ${t("outbox.fundNotFound", {})}`
      : describeInFull(language, item.request, item.currency);
  const settle = item.interrupted;
  if (!settle && item.sameAs)
    return t("outbox.preview.rowLine", {
      row,
      text: `${description}: ${sameAsNote(language, item.sameAs)}`,
    });
  if (!settle) return t("outbox.preview.rowLine", { row, text: description });
  if (settle.changes !== null)
    return t("outbox.preview.interruptedEdited", {
      row,
      description,
      changes: changesText(language, settle.changes),
    });
  if (settle.byHand !== undefined) {
    const typed = t(settle.byHand === "Done" ? "outbox.preview.byHandDone" : "outbox.preview.byHandRefused", {
      row,
      description,
    });
    const interrupted =
      settle.waitingUntil !== null
        ? t("outbox.preview.interruptedWaiting", { row, description, until: settle.waitingUntil })
        : t("outbox.preview.interrupted", { row, description });
    return `${interrupted} ${typed}`;
  }
  if (settle.waitingUntil !== null)
    return t("outbox.preview.interruptedWaiting", { row, description, until: settle.waitingUntil });
  return t("outbox.preview.interrupted", { row, description });
}

/**
 * What a warning says of its row, without the row's number: the note a preview writes on the
 * row. null for a warning on a done row, whose Result (what was done) is never written over.
 */
export function warningNote(language: Language, warning: Warning): string | null {
  const t = (key: StringKey, params: Record<string, string | number>) => translate(language, key, params);
  switch (warning.kind) {
    case "overBalance":
      return t("outbox.warn.overBalance", {
        amount: moneyText(warning.amount, warning.currency, language),
        balance: moneyText(warning.balance, warning.currency, language),
        id: warning.fundId,
      });
    case "duplicate":
      return t("outbox.warn.duplicate", { other: warning.otherRow });
    case "closedFund":
      return t("outbox.warn.closedFund", { id: warning.fundId });
    case "blockedFund":
      return t("outbox.warn.blockedFund", { id: warning.fundId });
    case "notOpenFund":
      return t("outbox.warn.notOpenFund", { id: warning.fundId, status: warning.status });
    case "unknownFund":
      return t("outbox.warn.unknownFund", { id: warning.fundId });
    case "sameAsDone":
      return sameAsNote(language, warning);
    case "noRecord":
      return t("outbox.warn.noRecord", {});
    case "doneNoKey":
      return t("outbox.warn.doneNoKey", {});
    case "waitsForSame":
      return warning.otherRow === null
        ? t("outbox.warn.waitsForWrite", {})
        : t("outbox.warn.waitsForRow", { other: warning.otherRow });
    case "sortedOrEdited":
      return t("outbox.warn.sortedOrEdited", {
        sent: typeof warning.sent === "string" ? warning.sent : describeRequest(language, warning.sent),
      });
    case "companyUnusable":
      return t("outbox.company.unusable", { message: warning.message });
    case "keyRestored":
      return null;
    default:
      return null;
  }
}

export function warningText(language: Language, warning: Warning): string {
  const t = (key: StringKey, params: Record<string, string | number>) => translate(language, key, params);
  const row = warning.rowNumber;
  switch (warning.kind) {
    case "editedDone":
      return t("outbox.warn.editedDone", {
        row,
        date: warning.doneAt,
        changes: changesText(language, warning.changes),
      });
    case "restoreDone":
      return t("outbox.warn.restoreDone", { row, date: warning.doneAt });
    case "keyRestored":
      return t("outbox.preview.rowLine", {
        row,
        text: t("outbox.warn.keyRestored", { date: warning.doneAt }),
      });
    default:
      return t("outbox.preview.rowLine", { row, text: warningNote(language, warning) ?? "" });
  }
}

/** A problem that keeps a row from being sent, in `language`: the field it names, and why. */
export function problemSaid(language: Language, problem: RowProblem): FieldProblem {
  if ("message" in problem || "rule" in problem || "operation" in problem)
    return requestProblemSaid(language, problem);
  if ("refused" in problem)
    return {
      field: translate(language, "outbox.col.company"),
      message: companyRefusedText(language, problem.refused),
    };
  if ("typed" in problem)
    return {
      field: translate(language, "outbox.col.currency"),
      message: translate(language, "outbox.problem.currencyTyped", {
        typed: problem.typed,
        id: problem.fundId,
        currency: problem.currency,
      }),
    };
  const tooLong = tooLongParams(language, { column: problem.field, length: problem.tooLong });
  return { field: problem.field, message: translate(language, "outbox.problem.cellTooLong", tooLong) };
}

/** A row's problems as one text, in `language`. */
function rowProblemsText(language: Language, problems: readonly RowProblem[]): string {
  return problemsText(problems.map((problem) => problemSaid(language, problem)));
}

/** The rows the preview refuses, each with its problems said in `language`. */
export function invalidRows(
  language: Language,
  preview: OutboxPreview,
): { rowNumber: number; problems: FieldProblem[] }[] {
  return preview.invalid.map((row) => ({
    rowNumber: row.rowNumber,
    problems: row.problems.map((problem) => problemSaid(language, problem)),
  }));
}

/** A line of the Outbox preview sheet: the row, its operation, and the row as the dialog shows it. */
export function sheetLine(language: Language, item: MoneyItem): [number, string, string] {
  return [
    item.rowNumber,
    operationLabel(language, item.request.operation),
    item.company === undefined
      ? operationLine(language, item)
      : `${companyText(language, item.company)} · ${operationLine(language, item)}`,
  ];
}

/** Warnings and invalid rows listed by name in the preview's text; the rest are counted. */
export const PREVIEW_LIST_LIMIT = 15;
/** Items grouped by their company's name, in order of first appearance (one group, undefined, without companies). */
function byCompany<T extends { company?: string }>(items: readonly T[]): Map<string | undefined, T[]> {
  const groups = new Map<string | undefined, T[]>();
  for (const item of items) groups.set(item.company, [...(groups.get(item.company) ?? []), item]);
  return groups;
}

/** The preview as the text of an alert (or of the run's confirmation). */
export function previewText(language: Language, preview: OutboxPreview): string {
  const t = (key: StringKey, params: Record<string, string | number> = {}) =>
    translate(language, key, params);
  const lines: string[] = [];
  if (
    preview.toSend.length === 0 &&
    preview.toSettle.length === 0 &&
    preview.invalid.length === 0 &&
    preview.warnings.length === 0
  ) {
    return t("outbox.preview.nothing");
  }
  lines.push(t("outbox.preview.rows", { count: preview.toSend.length }));
  if (preview.toSettle.length > 0)
    lines.push(t("outbox.preview.reconcile", { count: preview.toSettle.length }));
  const operations = preview.operations;
  if (listedOnSheet(preview)) {
    lines.push(
      "",
      t("outbox.preview.onSheet", { count: operations.length, sheet: t("outbox.previewSheet.name") }),
    );
  } else if (operations.length > 0) {
    lines.push("", t("outbox.preview.operations"));
    // With several companies, each company's writes under its name.
    for (const [company, items] of byCompany(operations)) {
      if (company !== undefined)
        lines.push(t("outbox.preview.company", { company: companyText(language, company) }));
      for (const item of items) lines.push(`• ${operationLine(language, item)}`);
    }
  }
  if (preview.totals.length > 0) {
    lines.push("", t("outbox.preview.totals"));
    const totalLine = (total: Total) => {
      const operation = operationLabel(language, total.operation);
      return total.currency === null
        ? `• ${t("outbox.total.noCurrency", { operation, count: total.count })}`
        : `• ${t("outbox.total.line", { operation, currency: total.currency === FUND_NOT_FOUND ? t("outbox.fundNotFound") : total.currency, amount: formatCents(total.amount, { locale: language, decimalsOf: total.currency }), count: total.count })}`;
    };
    const groups = byCompany(preview.totals);
    for (const [company, totals] of groups) {
      if (company !== undefined)
        lines.push(t("outbox.preview.company", { company: companyText(language, company) }));
      for (const total of totals) lines.push(totalLine(total));
    }
    if (groups.size > 1) {
      // And per currency across the companies, for the money as a whole.
      lines.push(t("outbox.preview.allCompanies"));
      const all = new Map<string, Total>();
      for (const total of preview.totals) {
        if (total.currency === null) continue;
        const key = `${total.operation}|${total.currency}`;
        const sum = all.get(key) ?? {
          operation: total.operation,
          currency: total.currency,
          amount: 0,
          count: 0,
        };
        sum.amount += total.amount;
        sum.count += total.count;
        all.set(key, sum);
      }
      for (const total of all.values()) lines.push(totalLine(total));
    }
    if (preview.toSettle.some((s) => s.rowNumber !== null && s.changes === null && "amount" in s.request))
      lines.push(t("outbox.preview.totalsNote"));
  }
  // An alert stays readable: the first few of each list, then how many more.
  const listed = <T>(items: readonly T[], line: (item: T) => string) => {
    for (const item of items.slice(0, PREVIEW_LIST_LIMIT)) lines.push(`• ${line(item)}`);
    if (items.length > PREVIEW_LIST_LIMIT)
      lines.push(t("outbox.preview.more", { count: items.length - PREVIEW_LIST_LIMIT }));
  };
  if (preview.warnings.length > 0) {
    lines.push("", t("outbox.preview.warnings"));
    listed(preview.warnings, (warning) => warningText(language, warning));
  }
  if (preview.invalid.length > 0) {
    lines.push("", t("outbox.preview.invalid", { count: preview.invalid.length }));
    listed(preview.invalid, (row) =>
      t("outbox.preview.rowLine", {
        row: row.rowNumber,
        text: rowProblemsText(language, row.problems),
      }),
    );
  }
  return lines.join("\n");
}

/** Whether a Result cell holds a preview's note (either language), not what a run did. */
export function isPreviewNote(result: string): boolean {
  return LANGUAGES.some((language) => result.startsWith(translate(language, "outbox.rowNote", { text: "" })));
}

/** The note a preview leaves on each row it warns of, by row number: its warnings, then its problems. */
function rowNotes(language: Language, preview: OutboxPreview): Map<number, string> {
  const found = new Map<number, string[]>();
  const add = (rowNumber: number, text: string) =>
    found.set(rowNumber, [...(found.get(rowNumber) ?? []), text]);
  for (const warning of preview.warnings) {
    const text = warningNote(language, warning);
    if (text !== null) add(warning.rowNumber, text);
  }
  for (const row of preview.invalid) {
    const problems = rowProblemsText(language, row.problems);
    add(row.rowNumber, translate(language, "outbox.rowNote.invalid", { problems }));
  }
  const notes = new Map<number, string>();
  for (const [rowNumber, texts] of found) {
    // "Preview: fund 5 is closed. Same operation on the same target as row 2."
    const text = texts.map((t, i) => (i === 0 ? t : t.charAt(0).toUpperCase() + t.slice(1))).join(" ");
    if (text) notes.set(rowNumber, translate(language, "outbox.rowNote", { text }));
  }
  return notes;
}

/** The Result cells a preview changes, in `language`: a note on each row it warns of, cleared where one no longer applies. */
export function previewNotes(
  language: Language,
  preview: OutboxPreview,
  rows: readonly OutboxRow[],
): RowNote[] {
  const notes = rowNotes(language, preview);
  return notesToWrite((rowNumber) => notes.get(rowNumber) ?? "", rows, isPreviewNote);
}
