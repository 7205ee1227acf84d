/**
 * What a preview writes onto the rows: each row's warnings and problems in its Result cell,
 * marked as a preview's ("Preview: …") so that it is never taken for a result. The State is
 * never written, a Done row never, and a note that no longer applies is cleared; a run replaces
 * the note of every row it takes with that row's result. The notes are said by
 * ./preview/words.ts (`previewNotes`).
 */
import { cellText } from "./cells";
import { type CellValue, OUTBOX_COLUMNS } from "./columns";
import type { OutboxRow } from "./rows";

/** The Result a preview gives a row ("" clears an older note). */
export interface RowNote {
  rowNumber: number;
  result: string;
}

/**
 * The Result cells a preview changes: the note each row gets (`noteOf`, "" for none), never on a
 * Done row, and an older note (`isNote`) cleared where none applies any more.
 */
export function notesToWrite(
  noteOf: (rowNumber: number) => string,
  rows: readonly OutboxRow[],
  isNote: (result: string) => boolean,
): RowNote[] {
  const notes: RowNote[] = [];
  for (const row of rows) {
    if (row.state === "Done") continue; // What was done stays as the run wrote it.
    const result = noteOf(row.rowNumber);
    if (result ? result !== row.result : isNote(row.result)) notes.push({ rowNumber: row.rowNumber, result });
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
