/**
 * The add-on's own cells of a row typed over between runs: a row whose hidden operation key was
 * cleared (its State left as the add-on wrote it) is still the row of its write, found by the
 * add-on's record (same request cells, no other row carrying the key): a Done row stays Done and
 * an interrupted one is settled for what was sent. Neither is marked Refused as if nothing had
 * been recorded, which would invite sending the money again.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { columnNumber } from "../../src/outbox/columns";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { columnLetters } from "../../src/sheets/formulas";
import { createOutbox, flexibleFund, type SandboxFund, writeBackPerFile } from "./harness";

const wb = writeBackPerFile({ reset: true });
let fund: SandboxFund;

beforeEach(async () => {
  fund = await flexibleFund(wb);
  createOutbox(wb);
});

async function deposits(cents: number): Promise<number> {
  return (await wb.fund(fund.id)).transactions.filter((t) => t.type === 1 && t.amountCents === cents).length;
}

const clearKey = (row: number) =>
  wb.emulator.typeCells("Outbox", `${columnLetters(columnNumber("operationKey"))}${row}`, [[""]]);
const run = () => expect(wb.menu("runOutbox", ["YES", "OK", "OK"])).toMatchObject({ ok: true });

describe("a row whose operation key was cleared between runs", () => {
  it("a Done row stays Done, gets its key back with a note saying so, and nothing is sent again", async () => {
    wb.typeOutbox([
      { operation: "Deposit", targetId: fund.id, amount: "8.18" },
      { operation: "Deposit", targetId: fund.id, amount: "8.19" },
    ]);
    run();
    const [done] = wb.outbox();
    expect(done?.state).toBe("Done");
    clearKey(2);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "8.20" }], 4);
    run();
    const [first] = wb.outbox();
    expect(first?.state).toBe("Done");
    // Never taken back in silence: the row says its key was put back.
    expect(first?.result).toMatch(/^Done on .*: this row showed Done without its Operation key/);
    expect(first?.operationKey).toBe(done?.operationKey);
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done", "Done"]);
    expect(await deposits(818)).toBe(1);
  });

  it("an interrupted deposit is settled by its record: Done when it was applied, sent once", async () => {
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "9.19" }]);
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 }]);
    run();
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    clearKey(2);
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    run();
    const [row] = wb.outbox();
    expect([row?.state, String(row?.result)]).toEqual(["Done", expect.stringMatching(/^Done: a matching/)]);
    expect(await deposits(919)).toBe(1);
  });

  it("an interrupted deposit that was not applied is sent once", async () => {
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "9.29" }]);
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-before-apply", times: 1 }]);
    run();
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    clearKey(2);
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    run();
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect(await deposits(929)).toBe(1);
  });
});
