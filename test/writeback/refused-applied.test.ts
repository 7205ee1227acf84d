/**
 * An answer that says a write was not applied when it was (an error inside an HTTP 200, a 4xx
 * answered after the write took effect): a money movement or a fund creation is looked for at
 * once, and one that moved anyway is never shown Refused (an edit would then send it twice):
 * it is Unknown, then settled by reading, never sent again. A status change or a report mark
 * is read back the same way, and is Unknown, then sent again.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { FormOutcome } from "../../src/outbox/forms";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import {
  createOutbox,
  flexibleFund,
  openReports,
  type SandboxFund,
  sweepOutboxRun,
  writeBackPerFile,
} from "./harness";

const wb = writeBackPerFile({ reset: true });
let fund: SandboxFund;

beforeEach(async () => {
  fund = await flexibleFund(wb);
  createOutbox(wb);
});

async function movements(type: 1 | 2, cents: number): Promise<number> {
  return (await wb.fund(fund.id)).transactions.filter((t) => t.type === type && t.amountCents === cents)
    .length;
}

const pastTheWindow = () => wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);

/** Runs the Outbox from the menu (confirmed) and checks its first row ends in `state`. */
function runOutboxTo(state: string): void {
  expect(wb.menu("runOutbox", ["YES", "OK"])).toMatchObject({ ok: true });
  expect(wb.outbox()[0]?.state).toBe(state);
}

/** The Audit sheet's rows of `endpoint`'s calls, as their Method and Outcome. */
function auditedCalls(endpoint: string): unknown[][] {
  const audit = wb.sheetValues("Audit");
  const header = audit[0] as string[];
  const at = (name: string) => header.indexOf(name);
  return audit.filter((r) => r[at("Endpoint")] === endpoint).map((r) => [r[at("Method")], r[at("Outcome")]]);
}

describe("an Outbox movement refused in words after it was applied", () => {
  // An error beside the fund is unknown at once (the answer shows the record); a refusal
  // without it is found out by reading the fund again.
  const faults = [
    { fault: "error-in-200", apply: true, says: "the request may have been applied" },
    { fault: "error-in-200-v2", apply: true, says: "yet reading again shows it was" },
    { fault: "status", status: 409, apply: true, says: "yet reading again shows it was" },
  ];
  for (const { says, ...rule } of faults) {
    it(`${rule.fault}${rule.status ? ` ${rule.status}` : ""} after the deposit took effect: Unknown, then Done; one deposit`, async () => {
      wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "31.07" }]);
      await wb.faults([{ endpoint: "depositMoneyToFund", times: 1, ...rule }]);
      expect(wb.menu("runOutbox", ["YES", "OK"])).toMatchObject({ ok: true });
      expect(await movements(1, 3_107)).toBe(1);
      const [row] = wb.outbox();
      expect(row?.state).toBe("Unknown");
      expect(String(row?.result)).toContain(says);
      pastTheWindow();
      runOutboxTo("Done");
      expect(await movements(1, 3_107)).toBe(1);
      expect(auditedCalls("depositMoneyToFund")).toEqual([
        ["POST", "unknown"],
        ["-", "ok"],
      ]);
    });
  }

  it("a refusal that moved nothing stays Refused", async () => {
    wb.typeOutbox([{ operation: "Withdrawal", targetId: fund.id, amount: "0.07" }]);
    await wb.faults([{ endpoint: "withdrawMoneyFromFund", fault: "error-in-200", times: 1 }]);
    runOutboxTo("Refused");
    expect(await movements(2, 7)).toBe(0);
  });
});

describe("an Outbox status change refused in words after it was applied", () => {
  for (const rule of [
    { fault: "error-in-200", apply: true },
    { fault: "status", status: 409, apply: true },
  ]) {
    it(`${rule.fault}${rule.status ? ` ${rule.status}` : ""} after the fund was closed: Unknown, not Refused, then Done`, async () => {
      wb.typeOutbox([{ operation: "Set fund status", targetId: fund.id, fundStatus: "Closed" }]);
      await wb.faults([{ endpoint: "setFundStatus", times: 1, ...rule }]);
      expect(wb.menu("runOutbox", ["YES", "OK"])).toMatchObject({ ok: true });
      expect((await wb.fund(fund.id)).status).toBe(2);
      const [row] = wb.outbox();
      expect([row?.state, String(row?.result)]).toEqual([
        "Unknown",
        expect.stringContaining("yet reading again shows it was"),
      ]);
      pastTheWindow();
      runOutboxTo("Done");
    });
  }

  it("a refusal of a status the fund already had stays Refused", async () => {
    wb.typeOutbox([{ operation: "Set fund status", targetId: fund.id, fundStatus: "Open" }]);
    await wb.faults([{ endpoint: "setFundStatus", fault: "status", status: 409, times: 1 }]);
    runOutboxTo("Refused");
  });
});

type SandboxReport = { id: number; integrated: boolean; customStatus: string };

/** A report neither integrated nor showing "Pagado". */
async function plainReport(): Promise<SandboxReport> {
  const reports = (await wb.state()).reports as SandboxReport[];
  return reports.find((r) => !r.integrated && r.customStatus !== "Pagado") as SandboxReport;
}

const reportMarks = [
  {
    endpoint: "setExpenseReportIntegration",
    row: { operation: "Mark integrated", integrationCode: "ERP-5", integrationDate: "2024-06-30 10:00:00" },
    shows: (r: SandboxReport) => r.integrated,
  },
  {
    endpoint: "setExpenseReportCustomStatus",
    row: { operation: "Set custom status", customStatus: "Pagado" },
    shows: (r: SandboxReport) => r.customStatus === "Pagado",
  },
];

async function reportNow(id: number): Promise<SandboxReport> {
  return ((await wb.state()).reports as SandboxReport[]).find((r) => r.id === id) as SandboxReport;
}

describe("an Outbox report mark refused in words after it was applied", () => {
  for (const { endpoint, row: cells, shows } of reportMarks)
    for (const rule of [
      { fault: "error-in-200-v2", apply: true },
      { fault: "status", status: 409, apply: true },
    ])
      it(`${cells.operation}, ${rule.fault}${rule.status ? ` ${rule.status}` : ""} after it took effect: Unknown, not Refused, then Done`, async () => {
        const report = await plainReport();
        wb.typeOutbox([{ ...cells, targetId: report.id }]);
        await wb.faults([{ endpoint, times: 1, ...rule }]);
        expect(wb.menu("runOutbox", ["YES", "OK"])).toMatchObject({ ok: true });
        expect(shows(await reportNow(report.id))).toBe(true);
        const [row] = wb.outbox();
        expect([row?.state, String(row?.result)]).toEqual([
          "Unknown",
          expect.stringContaining("yet reading again shows it was"),
        ]);
        pastTheWindow();
        runOutboxTo("Done");
      });

  it("a refusal of a mark the report already had stays Refused", async () => {
    const report = await plainReport();
    wb.typeOutbox([{ operation: "Mark not integrated", targetId: report.id }]);
    await wb.faults([{ endpoint: "setExpenseReportIntegration", fault: "status", status: 409, times: 1 }]);
    runOutboxTo("Refused");
  });

  it("a refusal that marked nothing stays Refused", async () => {
    const report = await plainReport();
    wb.typeOutbox([{ operation: "Set custom status", targetId: report.id, customStatus: "Pagado" }]);
    await wb.faults([{ endpoint: "setExpenseReportCustomStatus", fault: "error-in-200-v2", times: 1 }]);
    runOutboxTo("Refused");
    expect((await reportNow(report.id)).customStatus).not.toBe("Pagado");
  });
});

describe("a Report sidebar mark refused in words after it was applied", () => {
  for (const { endpoint, shows } of reportMarks)
    it(`${endpoint}: unknown, not refused`, async () => {
      const report = await plainReport();
      const { view, sent } = openReports(wb, [report.id]);
      await wb.faults([{ endpoint, fault: "status", status: 409, apply: true, times: 1 }]);
      const form =
        endpoint === "setExpenseReportCustomStatus"
          ? { name: "setReportsCustomStatus", fields: { CustomStatus: "Pagado" } }
          : {
              name: "markReportsIntegrated",
              fields: { IntegrationCode: "ERP-6", IntegrationDate: view.now },
            };
      const out = wb.sidebar(form.name, {
        requestId: `refused-mark-${endpoint}`,
        ...sent,
        fields: form.fields,
      }) as {
        results: { outcome: FormOutcome }[];
      };
      expect(shows(await reportNow(report.id))).toBe(true);
      expect(out.results.map((r) => r.outcome.kind)).toEqual(["unknown"]);
    });
});

describe("an Outbox fund update whose answer does not read", () => {
  it("is Unknown, then Done by reading the fund, not sent again", async () => {
    wb.typeOutbox([
      { operation: "Update fund", targetId: fund.id, fundName: "Caja renombrada", autoBlock: "No" },
    ]);
    await wb.faults([{ endpoint: "updateFund", fault: "empty-200", times: 1 }]);
    runOutboxTo("Unknown");
    pastTheWindow();
    runOutboxTo("Done");
    expect((await wb.fund(fund.id)).title).toBe("Caja renombrada");
    expect(auditedCalls("updateFund")).toEqual([
      ["PUT", "unknown"],
      ["-", "ok"],
    ]);
  });

  it("edited while Unknown, sends what its row shows now, not Done for the first", async () => {
    wb.typeOutbox([{ operation: "Update fund", targetId: fund.id, fundName: "Caja renombrada" }]);
    await wb.faults([{ endpoint: "updateFund", fault: "empty-200", times: 1 }]);
    runOutboxTo("Unknown");
    wb.typeOutbox([{ operation: "Update fund", targetId: fund.id, fundName: "Caja de nuevo" }]);
    pastTheWindow();
    expect(wb.menu("runOutbox", ["YES", "OK"])).toMatchObject({ ok: true });
    // Not among the rows that run confirmed: sent by the next one, as any edited row.
    expect(wb.outbox()[0]?.state).toBe("Pending");
    runOutboxTo("Done");
    expect((await wb.fund(fund.id)).title).toBe("Caja de nuevo");
  });
});

describe("a Fund sidebar deposit refused in words after it was applied", () => {
  it("is unknown, not refused, and opening the fund later says it was applied; one deposit", async () => {
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "error-in-200", apply: true, times: 1 }]);
    const form = { requestId: "refused-applied-01", fields: { Id: fund.id, DepositAmount: "12.34" } };
    const first = wb.sidebar("depositToFund", form) as { kind: string; message: string };
    expect(first.kind).toBe("unknown");
    const again = wb.sidebar("depositToFund", { ...form, requestId: "refused-applied-02" }) as {
      kind: string;
    };
    expect(again.kind).toBe("refused");
    pastTheWindow();
    const view = wb.sidebar("getFundSidebarView", { fundId: fund.id }) as { notice: string };
    expect(view.notice).toBe(
      `The earlier request (Deposit of ${fund.currency} 12.34 to fund ${fund.id}) that got no answer had been applied.`,
    );
    expect(await movements(1, 1_234)).toBe(1);
  });
});

describe("a fund closed in the service after the Funds sheet was refreshed", () => {
  it("the confirmation showed it open: the deposit stays Pending, and is sent once confirmed as closed", async () => {
    expect(wb.menu("refreshFunds", [])).toMatchObject({ ok: true });
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "4.44" }]);
    expect(wb.menu("previewOutbox")).toMatchObject({ ok: true });
    // Closed by someone in the service itself: the Funds sheet still shows it open.
    const closed = await fetch(`${wb.sandbox.url}/setFundStatus`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${wb.sandbox.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ Id: fund.id, IdAdmin: wb.sandbox.adminId, FundStatus: 2 }),
    });
    expect(closed.status).toBe(200);
    expect(wb.menu("runOutbox", ["YES", "OK"])).toMatchObject({ ok: true });
    const [row] = wb.outbox();
    expect(row?.state).toBe("Pending");
    expect(String(row?.result)).toContain(`fund ${fund.id} is Closed now`);
    expect(await movements(1, 444)).toBe(0);
    // Refreshed, the confirmation names the fund as closed, and the deposit is sent once.
    expect(wb.menu("refreshFunds", [])).toMatchObject({ ok: true });
    runOutboxTo("Done");
    expect(await movements(1, 444)).toBe(1);
  });
});

describe("a run whose deposit is refused in words after it was applied, killed at any call", () => {
  it("ends Done with one deposit, whatever call it was killed at", async () => {
    // Each point starts from the Outbox beforeEach made, the row typed once, and a fresh ledger.
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "2.71" }]);
    const start = wb.emulator.saveState();
    await sweepOutboxRun(
      wb,
      async () => {
        await wb.resetTo(start);
        // resetTo clears the faults: the refusal is set again for each point.
        await wb.faults([{ endpoint: "depositMoneyToFund", fault: "error-in-200", apply: true, times: 1 }]);
      },
      1,
      async (where) => {
        expect(await movements(1, 271), where).toBe(1);
      },
      1_000,
    );
  }, 600_000);
});
