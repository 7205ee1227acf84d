/**
 * A Done typed by hand that a sort of the visible columns puts on an interrupted write's key
 * (the property test's case with seed -321588423): once that write is settled as not applied
 * and its record dropped, the row is still marked, never left Done in silence nor sent.
 */
import { describe, expect, it } from "vitest";
import { HIDDEN_COLUMNS, OUTBOX_COLUMNS } from "../../src/outbox/columns";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { readOutboxRow } from "../../src/outbox/rows";
import { FakeSheet, haltingRun, outboxCore, previewSheet, userRow } from "./fakes";

const VISIBLE = OUTBOX_COLUMNS.length - HIDDEN_COLUMNS.length;
const AMOUNT = OUTBOX_COLUMNS.indexOf("amount");
const FUND = OUTBOX_COLUMNS.indexOf("targetId");

/** The visible columns sorted (by amount, then fund), the hidden ones left in place. */
function sortVisible(sheet: FakeSheet): void {
  const data = sheet.rows.slice(1);
  const visible = data
    .map((r) => r.slice(0, VISIBLE))
    .sort((a, b) => `${a[AMOUNT]}|${a[FUND]}`.localeCompare(`${b[AMOUNT]}|${b[FUND]}`));
  for (const [i, r] of data.entries()) r.splice(0, VISIBLE, ...(visible[i] ?? []));
}

describe("a hand-typed Done sorted onto a write settled as not applied", () => {
  // Killed: the execution stops right after the resend (the shrunk case); not killed: the run
  // goes on to the rows after the record was dropped, in the same run.
  it.each([{ killed: true }, { killed: false }])(
    "is flagged and sends nothing, and no Done row names a write that is not done (killed: $killed)",
    ({ killed }) => {
      const { ledger, clock, sheet, records, context } = outboxCore(
        [userRow("Deposit", 1, { amount: "1.00" })],
        [{ id: 1, balance: 1_000_000, flexible: true }],
      );
      const run = haltingRun(context, sheet, ledger);

      run();
      ledger.faults.push({ endpoint: "deposit", when: "before" });
      run();
      if (killed) ledger.faults.push({ endpoint: "deposit", when: "halt-after" });
      sheet.rows.push(FakeSheet.pad(userRow("Deposit", 1, { amount: "2.00" })));
      run();
      sheet.rows.push(FakeSheet.pad(userRow("Deposit", 1, { amount: "1.00", state: "Done" })));
      sortVisible(sheet);
      clock.advance(IN_FLIGHT_WINDOW_MS + 1);
      // Row 3 now shows the hand-typed Done (1.00) over the hidden key of the unknown 2.00 deposit;
      // row 4 shows that deposit's cells, with no key.
      expect([sheet.cell(3, "state"), sheet.cell(3, "amount"), sheet.cell(3, "operationKey")]).toEqual([
        "Done",
        "1.00",
        "key-2",
      ]);
      const rows = () => sheet.readAll().map((values, i) => readOutboxRow(values, i + 2));
      const preview = previewSheet(context, sheet, ledger, records);
      expect(preview.warnings).toContainEqual(
        expect.objectContaining({ kind: "sortedOrEdited", rowNumber: 3 }),
      );
      // The run settles key-2 as not applied and sends row 4 again under key-3 (the execution
      // killed right after that call, or not). Row 3 is marked: the record its key named is gone.
      run();
      expect(records.get("key-2")).toBeNull();
      expect(sheet.cell(3, "state")).toBe("Refused");
      expect(String(sheet.cell(3, "result"))).toMatch(
        /^Not sent: its Operation key names Deposit of .*2.* to fund 1/,
      );
      run();
      for (let i = 0; i < 4; i += 1) {
        clock.advance(IN_FLIGHT_WINDOW_MS + 1);
        run();
      }

      for (const row of rows()) {
        if (row.state !== "Done") continue;
        expect(records.get(row.operationKey)?.state, `row ${row.rowNumber} ${row.operationKey}`).toBe("done");
      }
      // Every row stands for its own movement: the ledger holds exactly the Done rows' writes.
      const doneKeys = rows()
        .filter((row) => row.state === "Done")
        .map((row) => row.operationKey);
      expect(new Set(doneKeys).size).toBe(doneKeys.length);
      expect(ledger.applied.length).toBe(doneKeys.length);
      expect(ledger.applied.map((r) => ("amount" in r ? r.amount : null))).toEqual([100, 200]);
      // The hand-typed row stays marked, sent nothing, and never says Done.
      expect(sheet.cell(3, "state")).toBe("Refused");
      expect(String(sheet.cell(3, "result"))).toMatch(/sorted without its hidden columns/);
    },
  );
});
