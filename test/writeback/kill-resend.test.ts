/**
 * The run that settles an interrupted deposit and sends it again, killed at every Apps Script
 * call in turn (between the new attempt's record, the old one's removal and the row's cells,
 * among others), then run again once the in-flight window is over: the deposit lands exactly
 * once and the row ends Done, never Refused for a record the run itself removed.
 * Each kill point starts from the same spreadsheet and ledger (made once, then restored).
 */
import { describe, expect, it } from "vitest";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { outboxRunKilledAt, runOutboxAgain, type SandboxFund, sweepKills, writeBackPerFile } from "./harness";

const wb = writeBackPerFile();

describe("a run that sends an interrupted deposit again, killed at any call", () => {
  it("sends it once, and the row ends Done", async () => {
    await wb.reset();
    const [a] = (await wb.state()).funds.filter((f) => f.status === 1) as [SandboxFund];
    expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "6.06" }]);
    // The interrupted run is made once, before the sweep: each point starts from its Unknown
    // row and record, and the ledger it left (saved once, restored at each point).
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-before-apply", times: 1 }]);
    expect(wb.menu("runOutbox", ["YES", "OK"])).toMatchObject({ ok: true });
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    const start = wb.emulator.saveState();
    await wb.saveLedger();
    await sweepKills(wb.emulator, {
      async restore() {
        await wb.restoreTo(start);
        wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
      },
      kill: (call) => outboxRunKilledAt(wb, call),
      async check(where) {
        runOutboxAgain(wb);
        expect(
          wb.outbox().map((r) => [r.state, r.result]),
          where,
        ).toEqual([["Done", expect.any(String)]]);
        expect(await wb.deposits(a.id, 606), where).toBe(1);
      },
      within: 1_000,
    });
  }, 600_000);
});
