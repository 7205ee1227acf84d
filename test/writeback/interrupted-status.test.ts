/**
 * An interrupted Outbox deposit whose fund is blocked in the service meanwhile, emulated end to
 * end against the sandbox's ledger: the confirmation names the fund's status (a run sends the
 * deposit again only to a fund in the status confirmed, or open).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { type SandboxFund, writeBackPerFile } from "./harness";

const wb = writeBackPerFile();

beforeEach(async () => {
  await wb.reset();
  expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
});

/** A status change made in the service by someone else. */
async function setStatus(fundId: number, status: number): Promise<void> {
  const response = await fetch(`${wb.sandbox.url}/setFundStatus`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${wb.sandbox.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ Id: fundId, IdAdmin: wb.sandbox.adminId, FundStatus: status }),
  });
  expect(response.status).toBe(200);
}

describe("an interrupted deposit whose fund was blocked meanwhile", () => {
  it("is confirmed naming the blocked fund", async () => {
    const fund = (await wb.state()).funds.find((f) => f.status === 1) as SandboxFund;
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-before-apply", times: 1 }]);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "12.34" }]);
    expect(wb.menu("runOutbox", ["YES", "OK", "OK"])).toMatchObject({ ok: true });
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    await setStatus(fund.id, 3);
    const preview = wb.menu("previewOutbox");
    expect(preview).toMatchObject({ ok: true });
    expect(String((preview as { result: unknown }).result)).toContain(`Row 2: fund ${fund.id} is blocked.`);
    // Open again: nothing to name, and the run sends the deposit once.
    await setStatus(fund.id, 1);
    expect(String((wb.menu("previewOutbox") as { result: unknown }).result)).not.toContain("is blocked");
    expect(wb.menu("runOutbox", ["YES", "OK", "OK"])).toMatchObject({ ok: true });
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect(await wb.deposits(fund.id, 1234)).toBe(1);
  });
});
