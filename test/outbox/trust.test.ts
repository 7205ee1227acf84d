/**
 * The write-back's promises under pressure, on the core with in-memory ports: late landings,
 * edits between runs, cleared and copied rows, forged cells, and a count that grew too much.
 * Each case failed before the add-on kept its own record of each write outside the sheet.
 */
import { describe, expect, it } from "vitest";
import { type FormContext, submitWrite } from "../../src/outbox/forms";
import { previewText } from "../../src/outbox/preview/words";
import type { RecordStore } from "../../src/outbox/records";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { type RunContext, runOutbox } from "../../src/outbox/run";
import { runWords } from "../../src/outbox/run/words";
import { formWords } from "../../src/outbox/words";
import { type FakeLedger, outboxCore, userRow } from "./fakes";

function setup(rows: ReturnType<typeof userRow>[]) {
  return outboxCore(rows, [
    { id: 1, balance: 100_000, flexible: true },
    { id: 2, balance: 5_000, currency: "USD", flexible: true, status: 2 },
  ]);
}

const deposits = (ledger: FakeLedger, fundId: number) =>
  ledger.applied
    .filter((r) => r.operation === "deposit" && r.fundId === fundId)
    .map((r) => ("amount" in r ? r.amount : 0));

describe("a request that timed out may still land", () => {
  it("a quick rerun waits for it (until HH:MM), holds the fund's other rows, and never sends twice", () => {
    const { ledger, sheet, clock, context, preview } = setup([
      userRow("Deposit", 1, { amount: 50 }),
      userRow("Withdraw", 1, { amount: 1 }),
    ]);
    ledger.faults.push({ endpoint: "deposit", when: "late", delayMs: 75_000 });
    runOutbox(context); // 09:00: no answer; lands at 09:01:15
    expect(sheet.cell(2, "state")).toBe("Unknown");

    clock.advance(60_000); // 09:01: run again at once
    const second = runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Unknown");
    expect(sheet.cell(2, "result")).toBe(
      "Unknown outcome: waiting for the earlier request to land (until 09:03). Nothing is concluded or sent again before then.",
    );
    expect(sheet.cell(3, "state")).toBe("Pending");
    expect(sheet.cell(3, "result")).toBe("Waiting: row 2 on the same fund must be settled first.");
    expect(second.done).toBe(0);
    expect(ledger.sentOf("deposit")).toBe(1);
    expect(ledger.sentOf("withdraw")).toBe(0);
    expect(previewText("en", preview())).toContain(
      "• Row 2, interrupted: Deposit of CLP 50 to fund 1. It may still land: nothing is concluded before 09:03.",
    );

    clock.advance(IN_FLIGHT_WINDOW_MS); // it landed meanwhile; the window is over
    const third = runOutbox(context);
    expect(third.done).toBe(2);
    expect(sheet.cell(2, "result")).toMatch(/^Done: a matching deposit of CLP 50 appeared on fund 1/);
    expect(deposits(ledger, 1)).toEqual([5_000]);
    expect(ledger.sentOf("deposit")).toBe(1);
    expect(ledger.funds.get(1)?.balance).toBe(100_000 + 5_000 - 100);
  });
});

describe("while a fund has an unsettled row, nothing on that fund is sent, above or below it", () => {
  it("a fixed row above an interrupted one is not taken for its movement: both deposits move", () => {
    const { ledger, sheet, clock, context } = setup([
      userRow("Deposit", 1, { amount: "5,00" }),
      userRow("Deposit", 1, { amount: "5.00" }),
    ]);
    ledger.faults.push({ endpoint: "deposit", when: "before" });
    runOutbox(context);
    expect([sheet.cell(2, "state"), sheet.cell(3, "state")]).toEqual(["Refused", "Unknown"]);

    sheet.setCell(2, "amount", "5.00");
    runOutbox(context); // still within the window: the fixed row waits too
    expect(sheet.cell(2, "state")).toBe("Pending");
    // The same request as row 3's interrupted one: it waits for it, and is then shown as the same.
    expect(sheet.cell(2, "result")).toBe(
      "Waiting: the same request as row 3, which is not settled yet; once it is, the confirmation shows this row as the same, and it is sent only if confirmed so.",
    );
    expect(ledger.sentOf("deposit")).toBe(1);

    clock.advance(IN_FLIGHT_WINDOW_MS);
    runOutbox(context);
    expect([sheet.cell(2, "state"), sheet.cell(3, "state")]).toEqual(["Done", "Done"]);
    expect(deposits(ledger, 1)).toEqual([500, 500]);
  });
});

describe("a row edited after its request left is settled for what was sent", () => {
  it("applied: Done for the amount first sent, saying the change sent nothing more", () => {
    const { ledger, sheet, clock, context, preview } = setup([userRow("Deposit", 1, { amount: "50.00" })]);
    ledger.faults.push({ endpoint: "deposit", when: "after" });
    runOutbox(context);
    sheet.setCell(2, "amount", "70.00");
    clock.advance(IN_FLIGHT_WINDOW_MS);
    expect(previewText("en", preview())).toContain(
      "• Row 2, interrupted: Deposit of CLP 50 to fund 1; Amount was changed from “50.00” to “70.00” afterwards. Only what was first sent is checked; nothing new is sent for this row in this run.",
    );
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Done");
    expect(sheet.cell(2, "result")).toBe(
      "Done for Deposit of CLP 50 to fund 1 as first sent; Amount was changed from “50.00” to “70.00” afterwards: nothing more was sent.",
    );
    expect(deposits(ledger, 1)).toEqual([5_000]);
    runOutbox(context);
    expect(ledger.sentOf("deposit")).toBe(1);
  });

  it("not applied: nothing is sent now; the next run sends the row as it is", () => {
    const { ledger, sheet, clock, context, preview } = setup([userRow("Deposit", 1, { amount: "50.00" })]);
    ledger.faults.push({ endpoint: "deposit", when: "before" });
    runOutbox(context);
    sheet.setCell(2, "amount", "70.00");
    clock.advance(IN_FLIGHT_WINDOW_MS);
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Pending");
    expect(sheet.cell(2, "result")).toBe(
      "Not sent: the interrupted request (Deposit of CLP 50 to fund 1) was not applied (checked by reading the service), and Amount was changed from “50.00” to “70.00” afterwards. The next run sends the row as it is now.",
    );
    expect(ledger.sentOf("deposit")).toBe(1);
    expect(previewText("en", preview())).toContain("• Row 2: Deposit of CLP 70 to fund 1");
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Done");
    expect(deposits(ledger, 1)).toEqual([7_000]);
  });
});

describe("Done rows", () => {
  it("editing a Done row is flagged on the row and in the preview; nothing is sent", () => {
    const { ledger, sheet, context, preview } = setup([userRow("Deposit", 1, { amount: "10.00" })]);
    runOutbox(context);
    sheet.setCell(2, "amount", "11.00");
    expect(previewText("en", preview())).toMatch(
      /Row 2 was changed after it was done on 2026-02-02 09:00 \(Amount was changed from “10\.00” to “11\.00”\); nothing more is sent for it\./,
    );
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Done");
    expect(sheet.cell(2, "result")).toBe(
      "Done for Deposit of 10.00 to fund 1 on 2026-02-02 09:00; Amount was changed from “10.00” to “11.00” afterwards (the row was edited, or the sheet sorted without its hidden columns): nothing more was sent, and nothing is sent for what it shows now. If the sheet was sorted, undo the sort, or sort it again with every column.",
    );
    expect(ledger.sentOf("deposit")).toBe(1);
  });

  it("clearing the State of a Done row restores Done with a note, and sends nothing", () => {
    const { ledger, sheet, context, preview } = setup([userRow("Deposit", 1, { amount: "10.00" })]);
    runOutbox(context);
    sheet.setCell(2, "state", "");
    expect(previewText("en", preview())).toContain(
      "Row 2: its State was cleared, but it was done on 2026-02-02 09:00; it is not sent again (State is restored).",
    );
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Done");
    expect(sheet.cell(2, "result")).toBe(
      "Done on 2026-02-02 09:00: this operation was already sent, so its State was restored. To repeat it, copy the row to a new line.",
    );
    expect(ledger.sentOf("deposit")).toBe(1);
  });

  it("a copy of a whole Done row is shown as the same as the done one by the preview, and sent once", () => {
    const { ledger, sheet, context, preview } = setup([userRow("Deposit", 1, { amount: "10.00" })]);
    runOutbox(context);
    const copy = [...(sheet.rows[1] ?? [])];
    sheet.rows.push(copy);
    const text = previewText("en", preview());
    expect(text).toContain(
      "• Row 3: Deposit of CLP 10 to fund 1: same as row 2, done on 2026-02-02 09:00; it is sent again only because you confirm it as the same.",
    );
    runOutbox(context);
    expect([sheet.cell(2, "state"), sheet.cell(3, "state")]).toEqual(["Done", "Done"]);
    expect(sheet.cell(3, "operationKey")).not.toBe(sheet.cell(2, "operationKey"));
    expect(deposits(ledger, 1)).toEqual([1_000, 1_000]);
    runOutbox(context);
    expect(ledger.sentOf("deposit")).toBe(2);
  });
});

describe("the add-on's memory of a write is not in the cells", () => {
  it("a hand-written Unknown row with a forged Snapshot cell sends nothing, for every kind of write", () => {
    const forged = JSON.stringify({
      key: "forged",
      at: "2026-01-01T00:00:00.000Z",
      request: { operation: "deposit", fundId: 2, amount: 1_234_567 },
      fund: { id: 2, transactions: 0, matching: 999, deposits: 0, charges: 0 },
    });
    const { ledger, sheet, clock, context } = setup([
      userRow("Deposit", 1, { amount: "1.00", state: "Unknown", operationKey: "forged", snapshot: forged }),
      userRow("Set fund status", 1, { fundStatus: "Closed", state: "Unknown", snapshot: forged }),
      userRow("Create fund", "", {
        employeeId: 9,
        fundName: "X",
        currency: "CLP",
        amount: 1,
        state: "Sending",
        snapshot: forged,
      }),
    ]);
    clock.advance(IN_FLIGHT_WINDOW_MS);
    runOutbox(context);
    expect(ledger.sent).toEqual([]);
    expect(ledger.funds.get(2)?.balance).toBe(5_000);
    for (const row of [2, 3, 4]) expect(sheet.cell(row, "state")).toBe("Refused");
  });
});

describe("a count that grew by more than one request explains", () => {
  it("is not confirmed: Unknown, saying so, the fund held; a person settles it by typing Done", () => {
    const { ledger, sheet, clock, context } = setup([
      userRow("Deposit", 1, { amount: "5.00" }),
      userRow("Withdraw", 1, { amount: "1.00" }),
    ]);
    ledger.faults.push({ endpoint: "deposit", when: "after" });
    runOutbox(context);
    // Someone else deposits the same amount meanwhile.
    const fund = ledger.funds.get(1);
    fund?.transactions.push({ type: 1, amount: 500, date: "2026-02-02" });
    clock.advance(IN_FLIGHT_WINDOW_MS);
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Unknown");
    expect(sheet.cell(2, "result")).toBe(
      "Unknown outcome: more matching movements than expected: check the fund. Check the fund, then set State to Done or Refused by hand; nothing is sent for this row meanwhile.",
    );
    expect(sheet.cell(3, "state")).toBe("Pending");
    expect(ledger.sentOf("withdraw")).toBe(0);

    sheet.setCell(2, "state", "Done");
    runOutbox(context);
    expect(sheet.cell(2, "result")).toBe(
      "Done by hand on 2026-02-02 09:03, after a check of the fund; nothing was sent.",
    );
    expect(sheet.cell(3, "state")).toBe("Done");
    expect(ledger.sentOf("deposit")).toBe(1);
  });
});

describe("a row deleted while its write was unsettled", () => {
  it("is settled for the audit and never sent again; its fund is free afterwards", () => {
    const { ledger, sheet, audit, clock, context } = setup([
      userRow("Deposit", 1, { amount: "5.00" }),
      userRow("Deposit", 1, { amount: "6.00" }),
    ]);
    ledger.faults.push({ endpoint: "deposit", when: "before" });
    runOutbox(context);
    sheet.rows.splice(1, 1); // the Unknown row is deleted
    clock.advance(IN_FLIGHT_WINDOW_MS);
    runOutbox(context);
    expect(audit.entries.filter((e) => e.kind === "note").map((e) => e.message)).toContain(
      "interrupted write was not applied (checked by reading the service); its row is gone: nothing sent",
    );
    expect(deposits(ledger, 1)).toEqual([600]);
    expect(sheet.cell(2, "state")).toBe("Done");
  });
});

describe("amounts the add-on can write but not read back", () => {
  it("a deposit that would push a fund's totals beyond what reads back exactly is refused, unsent", () => {
    const { ledger, sheet, context } = setup([userRow("Deposit", 1, { amount: "9999999999999.99" })]);
    runOutbox(context);
    expect(ledger.sent).toEqual([]);
    expect(sheet.cell(2, "state")).toBe("Refused");
    expect(String(sheet.cell(2, "result"))).toMatch(
      /^Refused: Amount: with this amount the fund.s Deposits would reach 10000000000999\.99, above 9999999999999\.99/,
    );
    const es = setup([userRow("Depósito", 1, { amount: "9999999999999.99" })]);
    runOutbox({ ...es.context, words: runWords("es") });
    expect(es.ledger.sent).toEqual([]);
    expect(String(es.sheet.cell(2, "result"))).toMatch(/^Rechazado: Monto: con este monto el total /);
  });

  it("a fund whose totals no longer read still settles an interrupted deposit by its movements", () => {
    const { ledger, sheet, clock, context } = setup([
      userRow("Deposit", 1, { amount: "5.00" }),
      userRow("Deposit", 1, { amount: "6.00" }),
    ]);
    ledger.faults.push({ endpoint: "deposit", when: "after" });
    runOutbox(context);
    ledger.unreadable.add(1);
    clock.advance(IN_FLIGHT_WINDOW_MS);
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Done");
    // No money moves on a fund whose totals cannot be read: refused with the reason, never stuck.
    expect(sheet.cell(3, "state")).toBe("Refused");
    expect(sheet.cell(3, "result")).toBe("Refused: Deposits of fund 1 is too large");
    expect(ledger.sentOf("deposit")).toBe(1);
  });
});

/** A Fund sidebar's write context beside the run's: the same service, records and clock, in English. */
function formContext(context: RunContext, records: RecordStore, key: string): FormContext {
  return {
    ...context,
    records,
    applyResult: () => {},
    format: context.format,
    newKey: () => key,
    words: formWords("en"),
    numbers: "en",
  };
}

describe("the Outbox and the Fund sidebar share one record of each write", () => {
  it("a sidebar deposit still in flight holds the fund's Outbox rows; once settled, they are sent", () => {
    const { ledger, sheet, clock, context, records } = setup([userRow("Withdraw", 1, { amount: "2.00" })]);
    ledger.faults.push({ endpoint: "deposit", when: "late", delayMs: 30_000 });
    const form = submitWrite(formContext(context, records, "form-1"), "deposit", {
      Id: 1,
      DepositAmount: "3.00",
    });
    expect(form.kind).toBe("unknown");
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Pending");
    expect(sheet.cell(2, "result")).toBe(
      "Waiting: an earlier request on fund 1 from the Fund sidebar is not settled yet; this row is sent once it is.",
    );
    expect(ledger.sentOf("withdraw")).toBe(0);
    clock.advance(IN_FLIGHT_WINDOW_MS);
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Done");
    expect(deposits(ledger, 1)).toEqual([300]);
    expect(records.all().filter((r) => r.state === "unknown" || r.state === "sending")).toEqual([]);
  });

  it("an interrupted Outbox row holds the Fund sidebar's deposits on that fund, saying which row", () => {
    const { ledger, context, records } = setup([userRow("Deposit", 1, { amount: "4.00" })]);
    ledger.faults.push({ endpoint: "deposit", when: "before" });
    runOutbox(context);
    const form = submitWrite(formContext(context, records, "form-2"), "deposit", {
      Id: 1,
      DepositAmount: "4.00",
    });
    expect(form).toEqual({
      kind: "refused",
      message:
        "Not sent: an interrupted Outbox row on this fund (Deposit of CLP 4 to fund 1, row 2) must be settled first. Run the Outbox, then try again.",
    });
    expect(ledger.sentOf("deposit")).toBe(1);
  });
});
