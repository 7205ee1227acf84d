/**
 * What the sidebar forms keep in the add-on's records (document properties), emulated end to end
 * against the sandbox's ledger: a request id answered long after the cache of request ids has
 * let it go, and the records, holds and settling of status changes and report marks.
 */
import { describe, expect, it } from "vitest";
import type { FormOutcome } from "../../src/outbox/forms";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { openFund, openReports, writeBackPerFile } from "./harness";

const wb = writeBackPerFile({ reset: true });

/** The Fund sidebar's status change of fund `id` to `status`, sent with `requestId`. */
const statusChange = (id: number, requestId: string, status: number) =>
  wb.sidebar("changeFundStatus", { requestId, fields: { Id: id, FundStatus: status } });

describe("a form's request id", () => {
  it("repeated eleven minutes after it was done gets the first result back, moving no money again", async () => {
    const fund = await openFund(wb);
    const form = { requestId: "late-repeat-0001", fields: { Id: fund.id, DepositAmount: "31.41" } };
    const first = wb.sidebar("depositToFund", form) as FormOutcome;
    expect(first.kind).toBe("done");
    // Past the 10 minutes the user cache keeps request ids (the cache expires on the emulator clock).
    wb.emulator.advanceTime(11 * 60_000 + 1_000);
    const again = wb.sidebar("depositToFund", form) as FormOutcome & { repeated?: boolean };
    expect(again).toMatchObject({
      kind: "done",
      message: (first as { message: string }).message,
      repeated: true,
    });
    expect(await wb.deposits(fund.id, 3141)).toBe(1);
  });
});

/** A request that got no answer landing at the service later, as the service would apply it. */
async function landLate(endpoint: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${wb.sandbox.url}/${endpoint}`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${wb.sandbox.token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

describe("a sidebar status change or report mark whose answer never came", () => {
  it("holds the fund: a later status change waits, so the late landing undoes nothing unseen", async () => {
    const fund = await openFund(wb);
    await wb.faults([{ endpoint: "setFundStatus", fault: "drop-before-apply", times: 1 }]);
    const block = statusChange(fund.id, "status-block-0001", 3) as FormOutcome;
    expect(block.kind).toBe("unknown");
    // The treasurer changes her mind at once: not sent while the first may still land.
    const reopen = statusChange(fund.id, "status-open-0001", 1) as FormOutcome;
    expect(reopen.kind).toBe("refused");
    expect((reopen as { message: string }).message).toContain("may still land until");
    // The first request lands late.
    await landLate("setFundStatus", { Id: fund.id, IdAdmin: wb.sandbox.adminId, FundStatus: 3 });
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    // Opening the fund says what happened; her choice is then sent and stands.
    const view = wb.sidebar("getFundSidebarView", { fundId: fund.id }) as { notice: string };
    expect(view.notice).toContain("had been applied");
    const again = statusChange(fund.id, "status-open-0002", 1) as FormOutcome;
    expect(again.kind).toBe("done");
    expect((await wb.fund(fund.id)).status).toBe(1);
  });

  it("holds the report: a later mark waits, then the earlier one is settled by reading the report", async () => {
    const reportId = Number(((await wb.state()).reports[0] as { id: number }).id);
    const shown = openReports(wb, [reportId]).sent;
    await wb.faults([{ endpoint: "setExpenseReportIntegration", fault: "drop-before-apply", times: 1 }]);
    const first = wb.sidebar("markReportsIntegrated", {
      requestId: "mark-integrated-0001",
      ...shown,
      fields: { IntegrationCode: "ERP-77", IntegrationDate: "2024-06-30 10:00:00" },
    }) as { results: { outcome: FormOutcome }[] };
    expect(first.results[0]?.outcome.kind).toBe("unknown");
    const undo = wb.sidebar("markReportsNotIntegrated", {
      requestId: "mark-not-integrated-0001",
      ...shown,
      fields: {},
    }) as { results: { outcome: FormOutcome }[] };
    expect(undo.results[0]?.outcome.kind).toBe("refused");
    await landLate("setExpenseReportIntegration", {
      Id: reportId,
      IntegrationStatus: 1,
      IntegrationCode: "ERP-77",
      IntegrationDate: "2024-06-30 10:00:00",
    });
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    const again = wb.sidebar("markReportsNotIntegrated", {
      requestId: "mark-not-integrated-0002",
      ...openReports(wb, [reportId]).sent,
      fields: {},
    }) as { results: { outcome: FormOutcome & { message: string } }[] };
    expect(again.results[0]?.outcome.kind).toBe("done");
    expect(again.results[0]?.outcome.message).toContain("had been applied");
    const report = (await wb.state()).reports.find((r) => Number(r.id) === reportId) as Record<
      string,
      unknown
    >;
    expect(report.integrated).toBe(false);
  });
});

describe("the document lock, taken once per execution", () => {
  it("a form's deposit and an Outbox run write their audit under the lock they took, never a second Lock object", async () => {
    const fund = await openFund(wb);
    const before = wb.emulator.ownLockWaits().length;
    const started = wb.emulator.now().getTime();
    expect(
      wb.sidebar("depositToFund", {
        requestId: "one-lock-0001",
        fields: { Id: fund.id, DepositAmount: "2.72" },
      }),
    ).toMatchObject({ kind: "done" });
    expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "1.61" }]);
    expect(wb.menu("runOutbox", ["YES", "OK", "OK"])).toMatchObject({ ok: true });
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect(wb.emulator.ownLockWaits().slice(before)).toEqual([]);
    // No audit append waited for the lock its own execution held (10 s each on the emulator clock).
    expect(wb.emulator.now().getTime() - started).toBeLessThan(10_000);
    expect(await wb.deposits(fund.id, 272)).toBe(1);
    expect(await wb.deposits(fund.id, 161)).toBe(1);
  });
});
