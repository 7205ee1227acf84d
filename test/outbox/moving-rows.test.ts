/**
 * Other editors keep editing while a run sends: a row inserted or deleted above the row being
 * sent, between the read before sending and the write of its Sending state.
 */
import { describe, expect, it } from "vitest";
import { runOutbox } from "../../src/outbox/run";
import { type FakeLedger, outboxCore, userRow } from "./fakes";

function setup(rows: ReturnType<typeof userRow>[]) {
  return outboxCore(rows, [
    { id: 1, balance: 100_000, flexible: true },
    { id: 2, balance: 100_000, flexible: true },
  ]);
}

/** Runs `edit` once, at the first read of a fund (the snapshot read just before a deposit leaves). */
function duringFirstRead(ledger: FakeLedger, edit: () => void): void {
  const getFund = ledger.getFund.bind(ledger);
  let done = false;
  ledger.getFund = (id: number) => {
    if (!done) {
      done = true;
      edit();
    }
    return getFund(id);
  };
}

const amounts = (ledger: FakeLedger, fundId: number) =>
  ledger.applied
    .filter((r) => r.operation === "deposit" && r.fundId === fundId)
    .map((r) => ("amount" in r ? r.amount : 0));

describe("a row inserted above the row being sent", () => {
  it("the sent row gets its state and key; the inserted row stays pending and is sent once, later", () => {
    const { ledger, sheet, context } = setup([userRow("Deposit", 1, { amount: "50.00" })]);
    duringFirstRead(ledger, () => sheet.insertRowBefore(2, userRow("Deposit", 2, { amount: "9.00" })));
    runOutbox(context);
    expect(amounts(ledger, 1)).toEqual([5_000]);
    // The row that was sent is now row 3: it says so, with its key.
    expect(sheet.cell(3, "amount")).toBe("50.00");
    expect(sheet.cell(3, "state")).toBe("Done");
    expect(sheet.cell(3, "operationKey")).not.toBe("");
    // The inserted row was never sent and carries nothing of the other row's.
    expect(sheet.cell(2, "state")).toBe("");
    expect(sheet.cell(2, "operationKey")).toBe("");

    runOutbox(context);
    runOutbox(context);
    expect(amounts(ledger, 1)).toEqual([5_000]);
    expect(amounts(ledger, 2)).toEqual([900]);
    expect([sheet.cell(2, "state"), sheet.cell(3, "state")]).toEqual(["Done", "Done"]);
  });

  it("a row deleted above the row being sent does not take its state either", () => {
    const { ledger, sheet, context } = setup([
      userRow("Deposit", 2, { amount: "9.00", state: "Refused" }),
      userRow("Deposit", 1, { amount: "50.00" }),
      userRow("Deposit", 2, { amount: "7.00" }),
    ]);
    duringFirstRead(ledger, () => sheet.rows.splice(1, 1));
    runOutbox(context);
    runOutbox(context);
    expect(amounts(ledger, 1)).toEqual([5_000]);
    expect(amounts(ledger, 2)).toEqual([700]);
    expect([sheet.cell(2, "state"), sheet.cell(3, "state")]).toEqual(["Done", "Done"]);
  });
});
