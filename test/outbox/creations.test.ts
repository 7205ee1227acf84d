/**
 * A fund creation whose answer never came is settled by looking for a fund of that employee,
 * name and code newer than the mark. Another creation of the same fund sent meanwhile would be
 * taken for it, so, as the Fund sidebar does, the Outbox sends none until the first is settled.
 */
import { describe, expect, it } from "vitest";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { runOutbox } from "../../src/outbox/run";
import { outboxCore, userRow } from "./fakes";

const creation = () =>
  userRow("Create fund", "", { employeeId: 9, fundName: "Petty cash", currency: "CLP", amount: "100.00" });

describe("an interrupted fund creation and another row creating the same fund", () => {
  it("the other row waits until the first is settled; each row ends with a fund of its own", () => {
    const { ledger, clock, sheet, context } = outboxCore([creation()], []);
    ledger.faults.push({ endpoint: "createFund", when: "before" }); // never applied, no answer
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Unknown");

    // It looks failed: the same creation is typed again below, and run at once.
    sheet.insertRowBefore(3, creation());
    runOutbox(context);
    expect(sheet.cell(3, "state")).toBe("Pending");
    expect(ledger.sentOf("createFund")).toBe(1);

    clock.advance(IN_FLIGHT_WINDOW_MS);
    runOutbox(context);
    const created = [...ledger.funds.values()].filter((f) => f.employeeId === 9);
    expect([sheet.cell(2, "state"), sheet.cell(3, "state")]).toEqual(["Done", "Done"]);
    expect(created).toHaveLength(2);
  });
});
