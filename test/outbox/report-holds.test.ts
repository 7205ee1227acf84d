/**
 * Report writes in order: while a report's earlier write may still land (its answer never
 * came), a later row on the same report waits, as a row on a fund does. Sent meanwhile, the
 * earlier write landing (or sent again) afterwards would undo it.
 */
import { describe, expect, it } from "vitest";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { runOutbox } from "../../src/outbox/run";
import { outboxCore, userRow } from "./fakes";

describe("two custom statuses on one report, the first one's answer lost", () => {
  it("the second waits for the first; the report ends with the second", () => {
    const { ledger, clock, sheet, context } = outboxCore(
      [
        userRow("Set custom status", 42, { customStatus: "Observed" }),
        userRow("Set custom status", 42, { customStatus: "Paid" }),
      ],
      [],
      { reports: [42] },
    );
    ledger.faults.push({ endpoint: "setCustomStatus", when: "late", delayMs: 75_000 });
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Unknown");
    expect(sheet.cell(3, "state")).toBe("Pending");
    expect(sheet.cell(3, "result")).toBe("Waiting: row 2 on the same report must be settled first.");

    clock.advance(IN_FLIGHT_WINDOW_MS);
    runOutbox(context);
    expect([sheet.cell(2, "state"), sheet.cell(3, "state")]).toEqual(["Done", "Done"]);
    expect(ledger.reports.get(42)?.customStatus).toBe("Paid");
  });
});
