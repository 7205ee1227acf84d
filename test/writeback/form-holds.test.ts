/**
 * A sidebar's status change or report mark made while an Outbox row's write on the same fund or
 * report is unsettled: the row's request may still land, and the next run sends it again (it is
 * idempotent), so the sidebar's later choice would be undone twice. The sidebar refuses until
 * the Outbox has settled the row, as the Outbox holds its own later rows.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { FormOutcome } from "../../src/outbox/forms";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { openReports, type SandboxFund, writeBackPerFile } from "./harness";

const wb = writeBackPerFile();

beforeEach(async () => {
  await wb.reset();
  expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
});

const run = () => expect(wb.menu("runOutbox", ["YES", "OK", "OK"])).toMatchObject({ ok: true });

describe("a sidebar write on a target an interrupted Outbox row acts on", () => {
  it("a report mark is refused until the Outbox settles the row; the row's mark then stands", async () => {
    const reportId = Number(((await wb.state()).reports[0] as { id: number }).id);
    wb.typeOutbox([{ operation: "Integration mark", targetId: reportId, integrationCode: "ERP-5" }]);
    await wb.faults([{ endpoint: "setExpenseReportIntegration", fault: "drop-after-apply", times: 1 }]);
    run();
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    const undo = wb.sidebar("markReportsNotIntegrated", {
      requestId: "held-report-mark-01",
      ...openReports(wb, [reportId]).sent,
      fields: {},
    }) as { results: { outcome: FormOutcome }[] };
    const outcome = undo.results[0]?.outcome as { kind: string; message: string };
    expect(outcome.kind).toBe("refused");
    expect(outcome.message).toContain("row 2");
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    run();
    expect(wb.outbox()[0]?.state).toBe("Done");
    const report = (await wb.state()).reports.find((r) => Number(r.id) === reportId) as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(report)).toContain("ERP-5");
  });

  it("a fund status change is refused until the Outbox settles the row", async () => {
    const fund = (await wb.state()).funds.find((f) => f.status === 1) as SandboxFund;
    wb.typeOutbox([{ operation: "Status change", targetId: fund.id, fundStatus: "Blocked" }]);
    await wb.faults([{ endpoint: "setFundStatus", fault: "drop-after-apply", times: 1 }]);
    run();
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    const reopen = wb.sidebar("changeFundStatus", {
      requestId: "held-fund-status-01",
      fields: { Id: fund.id, FundStatus: 1 },
    }) as { kind: string; message: string };
    expect(reopen.kind).toBe("refused");
    expect(reopen.message).toContain("row 2");
    expect((await wb.fund(fund.id)).status).toBe(3);
  });
});
