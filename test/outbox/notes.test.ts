/**
 * The notes a preview writes into the rows' Result cells: one per row it warns of, in the
 * user's language, never on a Done row, cleared where an older one no longer applies, and only
 * on rows that still hold what the preview read.
 */
import { describe, expect, it } from "vitest";
import { notesStillFitting } from "../../src/outbox/notes";
import { type FundFacts, previewOutbox } from "../../src/outbox/preview";
import { isPreviewNote, previewNotes } from "../../src/outbox/preview/words";
import { readOutboxRow } from "../../src/outbox/rows";
import { formatUtc, userRow } from "./fakes";

const context = { format: formatUtc, now: new Date(Date.UTC(2026, 1, 2, 9, 0, 0)), adminId: 1 };
const facts: Record<number, FundFacts> = {
  1: { currency: "CLP", balance: 5000, flexible: false, status: 1 },
  3: { currency: "CLP", balance: 0, flexible: false, status: 2 },
};
const lookup = (id: number) => facts[id] ?? null;

function notesOf(values: ReturnType<typeof userRow>[], language: "en" | "es" = "en") {
  const rows = values.map((v, i) => readOutboxRow(v, i + 2));
  return previewNotes(language, previewOutbox(rows, lookup, context), rows);
}

describe("previewNotes", () => {
  it("gives each row with a warning or a problem its note, in English or in Spanish", () => {
    const values = [
      userRow("Withdrawal", 1, { amount: "60" }),
      userRow("Deposit", 3, { amount: "1" }),
      userRow("Deposit", 1, { amount: "10,50" }),
      userRow("Deposit", 1, { amount: "1" }),
      userRow("Deposit", 1, { amount: "2" }),
    ];
    expect(notesOf(values)).toEqual([
      {
        rowNumber: 2,
        result: "Preview: withdrawing CLP 60 exceeds the balance CLP 50 of fund 1, which is not flexible.",
      },
      { rowNumber: 3, result: "Preview: fund 3 is closed." },
      {
        rowNumber: 4,
        result: expect.stringMatching(/^Preview: will not be sent: Amount contains a comma/),
      },
      { rowNumber: 6, result: "Preview: same operation on the same target as row 5." },
    ]);
    expect(notesOf(values, "es").map((n) => n.result)).toEqual([
      "Vista previa: retirar CLP 60 supera el saldo CLP 50 del fondo 1, que no es flexible.",
      "Vista previa: el fondo 3 está cerrado.",
      expect.stringMatching(/^Vista previa: no se enviará: Monto contiene una coma/),
      "Vista previa: misma operación sobre el mismo destino que la fila 5.",
    ]);
  });

  it("joins a row's warnings, each a sentence", () => {
    const values = [userRow("Withdraw", 1, { amount: "10" }), userRow("Retiro", 1, { amount: "60" })];
    expect(notesOf(values)).toEqual([
      {
        rowNumber: 3,
        result:
          "Preview: same operation on the same target as row 2. Withdrawing CLP 60 exceeds the balance CLP 40 of fund 1, which is not flexible.",
      },
    ]);
  });

  it("clears an older note that no longer applies, leaves one that still does, and never touches a Done row", () => {
    const values = [
      userRow("Deposit", 1, { amount: "1", result: "Preview: fund 1 is closed." }),
      userRow("Deposit", 3, { amount: "1", result: "Preview: fund 3 is closed." }),
      userRow("Deposit", 1, { amount: "0", state: "Done", result: "Done. Fund 1: balance 51 CLP." }),
      userRow("", "", { result: "Vista previa: el fondo 3 está cerrado." }),
      userRow("Deposit", 1, { amount: "2", state: "Refused", result: "Refused: the fund is blocked" }),
    ];
    expect(notesOf(values)).toEqual([
      { rowNumber: 2, result: "" },
      { rowNumber: 5, result: "" },
    ]);
  });

  it("tells a preview's note from a run's result, in either language", () => {
    expect(isPreviewNote("Preview: fund 3 is closed.")).toBe(true);
    expect(isPreviewNote("Vista previa: el fondo 3 está cerrado.")).toBe(true);
    expect(isPreviewNote("Done. Fund 1: balance 51 CLP.")).toBe(false);
    expect(isPreviewNote("Not sent: Preview: typed by hand")).toBe(false);
  });
});

describe("notesStillFitting", () => {
  it("keeps only the notes of rows that hold, cell for cell, what the preview read", () => {
    const before = [
      userRow("Deposit", 1, { amount: "0" }),
      userRow("Deposit", 1, { amount: "-1" }),
      userRow("Deposit", 1, { amount: "x" }),
    ];
    const now = [before[0] as ReturnType<typeof userRow>, userRow("Deposit", 1, { amount: "5" })];
    const notes = [2, 3, 4].map((rowNumber) => ({ rowNumber, result: "Preview: x" }));
    // Row 3 was edited; row 4 was deleted.
    expect(notesStillFitting(notes, before, now)).toEqual([{ rowNumber: 2, result: "Preview: x" }]);
  });
});
