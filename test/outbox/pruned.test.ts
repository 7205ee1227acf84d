/**
 * Finished records are kept for the newest 300 operations only. A row whose record was dropped
 * still carries the operation key the add-on wrote when it sent it: clearing its State must not
 * make it a new operation that is sent again.
 */
import { describe, expect, it } from "vitest";
import { previewOutbox } from "../../src/outbox/preview";
import { readOutboxRow } from "../../src/outbox/rows";
import { runOutbox } from "../../src/outbox/run";
import { FakeAudit, FakeClock, FakeLedger, FakeSheet, memoryRecords, runContext, userRow } from "./fakes";

describe("a Done row whose record was pruned", () => {
  it("is not sent again when its State is cleared; a row without a key still is", () => {
    const ledger = new FakeLedger();
    ledger.addFund({ id: 1, balance: 100_000, flexible: true });
    const clock = new FakeClock();
    const records = memoryRecords();
    const sheet = new FakeSheet([userRow("Deposit", 1, { amount: "50.00" })]);
    const context = runContext(sheet, ledger, new FakeAudit(), clock, records);
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Done");
    for (const record of records.all()) records.remove(record.key); // pruned, 300 operations later

    sheet.setCell(2, "state", "");
    sheet.insertRowBefore(3, userRow("Deposit", 1, { amount: "7.00" }));
    const preview = previewOutbox(
      sheet.readAll().map((values, i) => readOutboxRow(values, i + 2)),
      () => ({ currency: "CLP", balance: 100_000, flexible: true, status: 1 }),
      { format: context.format, now: clock.now(), adminId: 1 },
      records.all(),
    );
    expect(preview.toSend.map((s) => s.rowNumber)).toEqual([3]);
    runOutbox(context);
    expect(ledger.sentOf("deposit")).toBe(2);
    expect(sheet.cell(2, "state")).toBe("Refused");
    expect(sheet.cell(3, "state")).toBe("Done");
  });
});

describe("a copy of a Done row in a run that prunes records as it goes", () => {
  it("is still a new operation, sent once, when the original's record is pruned before the copy is reached", () => {
    const ledger = new FakeLedger();
    ledger.addFund({ id: 1, balance: 100_000, flexible: true });
    const clock = new FakeClock();
    const records = memoryRecords();
    const sheet = new FakeSheet([userRow("Deposit", 1, { amount: "10.00" })]);
    const context = runContext(sheet, ledger, new FakeAudit(), clock, records);
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Done");
    // Newer operations than it, enough for the next run to prune as it goes.
    for (let i = 0; i < 420; i += 1)
      records.put({
        key: `later-${i}`,
        state: "refused",
        source: "outbox",
        operation: "deposit",
        cells: { operation: "deposit", targetId: "1", amount: `1,${i}` },
        finishedAt: clock.ms + 1 + i,
      });
    clock.advance(60_000);
    sheet.rows.push(userRow("Deposit", 1, { amount: "5.00" }));
    sheet.rows.push([...(sheet.rows[1] ?? [])]); // the whole Done row, its key too
    runOutbox(context);
    expect([sheet.cell(3, "state"), sheet.cell(4, "state")]).toEqual(["Done", "Done"]);
    expect(sheet.cell(4, "operationKey")).not.toBe(sheet.cell(2, "operationKey"));
    expect(ledger.sentOf("deposit")).toBe(3);
  });
});
