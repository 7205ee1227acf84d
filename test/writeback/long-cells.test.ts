/**
 * A row whose cells are too long for the add-on's record of it (one document property holds
 * 9 KB) is refused naming the cell and the limit, and the run goes on with the next rows:
 * through the built add-on, whose emulated property store refuses a value beyond 9 KB.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { createOutbox, flexibleFund, type SandboxFund, writeBackPerFile } from "./harness";

const wb = writeBackPerFile({ reset: true });
let fund: SandboxFund;

beforeEach(async () => {
  fund = await flexibleFund(wb);
  createOutbox(wb);
});

describe("a cell too long to be recorded", () => {
  it("refuses its row with the cell and the limit, and sends the rows after it", async () => {
    const before = (await wb.fund(fund.id)).transactions.length;
    wb.typeOutbox([
      { operation: "Set custom status", targetId: 1, customStatus: "Paid", customMessage: "é".repeat(6_000) },
      { operation: "Deposit", targetId: fund.id, amount: "2.50" },
    ]);
    expect(wb.menu("runOutbox", ["YES", "OK"])).toMatchObject({ ok: true });
    const [long, deposit] = wb.outbox();
    expect(long).toMatchObject({
      state: "Refused",
      result:
        "Not sent: Custom message holds 6,000 characters, more than the add-on's record of a row can keep (9 KB in all). Shorten it, then clear the row's State to send it.",
    });
    expect(deposit?.state).toBe("Done");
    const movements = (await wb.fund(fund.id)).transactions;
    expect(movements.length).toBe(before + 1);
    expect(movements.at(-1)?.amountCents).toBe(250);
  });
});
