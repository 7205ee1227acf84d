/**
 * A Fund sidebar deposit that reading cannot settle (the fund's count of matching deposits grew
 * by more than one request explains), tried by two editors of the document, emulated against the
 * sandbox: its writer keeps the notice until they acknowledge having checked the fund; a
 * colleague sees the fund held by someone else's write and cannot release it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeToken } from "../../dev/emulator/settings";
import type { FundSidebarView } from "../../src/app/fund-sidebar";
import type { FormOutcome } from "../../src/outbox/forms";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { buildWriteBack, type SandboxFund, startWriteBack, type WriteBack } from "./harness";

const BEN = "ben@example.com";
let wb: WriteBack;

beforeAll(async () => {
  wb = await startWriteBack(buildWriteBack(), { otherUsers: [BEN] });
  storeToken(wb.emulator, BEN, wb.sandbox.token, wb.sandbox.url, wb.sandbox.adminId);
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const as = (user: string, name: string, arg: unknown) => {
  const out = wb.emulator.tryRun(name, [arg], { as: "script.run", user });
  if (!out.ok) throw new Error(`${name} failed: ${out.error}`);
  return out.result;
};

describe("a form deposit only a person can settle", () => {
  it("is its writer's to acknowledge; a colleague finds the fund held and cannot release it", async () => {
    const fund = (await wb.state()).funds.find((f) => f.status === 1) as SandboxFund;
    const before = { ana: await wb.deposits(fund.id, 404), ben: await wb.deposits(fund.id, 107) };
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 }]);
    const first = as(wb.user, "depositToFund", {
      requestId: "check-fund-ana-1",
      fields: { Id: fund.id, DepositAmount: "4.04" },
    }) as FormOutcome;
    expect(first.kind).toBe("unknown");
    // Someone deposits the same amount in the service meanwhile: counting cannot tell them apart.
    const response = await fetch(`${wb.sandbox.url}/depositMoneyToFund`, {
      method: "POST",
      headers: { Authorization: `Bearer ${wb.sandbox.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ Id: fund.id, IdAdmin: wb.sandbox.adminId, DepositAmount: 4.04 }),
    });
    expect(response.status).toBe(200);
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);

    // Ben opens the fund first: held by a colleague's write; nothing for him to acknowledge.
    const benView = as(BEN, "getFundSidebarView", { fundId: fund.id }) as FundSidebarView;
    expect(benView.notice).toContain("held by a colleague's earlier request");
    expect(benView.checks).toEqual([]);
    const benDeposit = as(BEN, "depositToFund", {
      requestId: "check-fund-ben-1",
      fields: { Id: fund.id, DepositAmount: "1.07" },
    }) as FormOutcome;
    expect(benDeposit.kind).toBe("refused");

    // Ana is told, at every opening, until she acknowledges; Ben cannot do it for her.
    for (let opening = 0; opening < 2; opening++) {
      const anaView = as(wb.user, "getFundSidebarView", { fundId: fund.id }) as FundSidebarView;
      expect(anaView.notice).toContain("your earlier request");
      expect(anaView.checks).toHaveLength(1);
    }
    const key = (as(wb.user, "getFundSidebarView", { fundId: fund.id }) as FundSidebarView).checks[0]?.key;
    expect(as(BEN, "acknowledgeFundCheck", { key })).toMatchObject({ kind: "refused" });
    expect(as(wb.user, "acknowledgeFundCheck", { key })).toMatchObject({ kind: "done" });

    // Released: Ben's deposit goes, once.
    const again = as(BEN, "depositToFund", {
      requestId: "check-fund-ben-2",
      fields: { Id: fund.id, DepositAmount: "1.07" },
    }) as FormOutcome;
    expect(again.kind).toBe("done");
    expect(await wb.deposits(fund.id, 404)).toBe(before.ana + 2);
    expect(await wb.deposits(fund.id, 107)).toBe(before.ben + 1);
  });
});
