/**
 * What a preview writes onto the rows: each row's warnings and problems in its Result cell,
 * marked as a preview's ("Preview: …") so that it is never taken for a result. The State is
 * never written, a Done row never, and a note that no longer applies is cleared; a run replaces
 * the note of every row it takes with that row's result.
 */
import { LANGUAGES, type Language, translate } from "../i18n";
import { cellText } from "./cells";
import { type CellValue, OUTBOX_COLUMNS } from "./columns";
import type { OutboxPreview } from "./preview";
import { warningNote } from "./preview/words";
import { type OutboxRow, problemsText } from "./rows";

/** The Result a preview gives a row ("" clears an older note). */
export interface RowNote {
  rowNumber: number;
  result: string;
}

/** Whether a Result cell holds a preview's note (either language), not what a run did. */
export function isPreviewNote(result: string): boolean {
  return LANGUAGES.some((language) => result.startsWith(translate(language, "outbox.rowNote", { text: "" })));
}

/** The Result cells a preview changes: a note on each row it warns of, cleared where one no longer applies. */
export function previewNotes(
  language: Language,
  preview: OutboxPreview,
  rows: readonly OutboxRow[],
): RowNote[] {
  const found = new Map<number, string[]>();
  const add = (rowNumber: number, text: string) =>
    found.set(rowNumber, [...(found.get(rowNumber) ?? []), text]);
  for (const warning of preview.warnings) {
    const text = warningNote(language, warning);
    if (text !== null) add(warning.rowNumber, text);
  }
  for (const row of preview.invalid) {
    const problems = problemsText(row.problems);
    add(row.rowNumber, translate(language, "outbox.rowNote.invalid", { problems }));
  }
  const notes: RowNote[] = [];
  for (const row of rows) {
    if (row.state === "Done") continue; // What was done stays as the run wrote it.
    const texts = found.get(row.rowNumber);
    // "Preview: fund 5 is closed. Same operation on the same target as row 2."
    const text = texts?.map((t, i) => (i === 0 ? t : t.charAt(0).toUpperCase() + t.slice(1))).join(" ");
    const result = text ? translate(language, "outbox.rowNote", { text }) : "";
    if (text ? result !== row.result : isPreviewNote(row.result))
      notes.push({ rowNumber: row.rowNumber, result });
  }
  return notes;
}

const rowText = (values: readonly CellValue[] | undefined) =>
  JSON.stringify(OUTBOX_COLUMNS.map((_, i) => cellText(values?.[i])));

/**
 * The notes whose rows still hold, cell for cell, what the preview read (`before`, rows from
 * row 2 on): a row edited, inserted or deleted meanwhile, by anyone, is left as it is now.
 */
export function notesStillFitting(
  notes: readonly RowNote[],
  before: readonly (readonly CellValue[])[],
  now: readonly (readonly CellValue[])[],
): RowNote[] {
  return notes.filter((note) => {
    const index = note.rowNumber - 2;
    return index < now.length && rowText(before[index]) === rowText(now[index]);
  });
}
