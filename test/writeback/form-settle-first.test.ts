/**
 * A new sidebar click on a fund whose earlier deposit got no answer, emulated end to end against
 * the sandbox's ledger: the earlier one is settled by reading the fund and the user is told,
 * and nothing new is sent in that click (the form still shows the same amount; pressing again
 * is then a choice made knowing the first one landed).
 */
import { describe, expect, it } from "vitest";
import type { FormOutcome } from "../../src/outbox/forms";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { openFund, writeBackPerFile } from "./harness";

const wb = writeBackPerFile({ reset: true });

/** The Fund sidebar's deposit of 50 to fund `id`, sent with `requestId`. */
const depositOf50 = (id: number, requestId: string) =>
  wb.sidebar("depositToFund", { requestId, fields: { Id: id, DepositAmount: "50" } });

describe("a sidebar deposit after an earlier one got no answer", () => {
  it("settles the earlier one as applied and sends nothing in that click; pressing again sends once", async () => {
    const fund = await openFund(wb);
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 }]);
    const first = depositOf50(fund.id, "settle-first-0001") as FormOutcome;
    expect(first.kind).toBe("unknown");
    expect(await wb.deposits(fund.id, 5000)).toBe(1);
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    // The form still shows 50; the user presses Deposit again (a new request id).
    const second = depositOf50(fund.id, "settle-first-0002") as FormOutcome & { message: string };
    expect(second.kind).toBe("refused");
    expect(second.message).toContain("had been applied");
    expect(second.message).toContain("Nothing new was sent");
    expect(second.message).not.toContain("Nothing was changed");
    expect(await wb.deposits(fund.id, 5000)).toBe(1);
    // Pressed again, knowingly: sent once.
    const third = depositOf50(fund.id, "settle-first-0003") as FormOutcome;
    expect(third.kind).toBe("done");
    expect(await wb.deposits(fund.id, 5000)).toBe(2);
  });
});
