/**
 * The Outbox of the BUILT add-on against the sandbox in its "real shapes" mode (string ids and
 * report numbers, numeric-string amounts, "1"/"0"/"" flags): every write ends Done with exact
 * balances; errors inside an HTTP 200 (v1's Error member, v2's statusCode and message) end
 * Refused with the service's words; a deposit answered with broken JSON ends Unknown and the
 * next run confirms it without sending it again.
 */

import { beforeEach, describe, expect, it } from "vitest";
import { formatCents } from "../../src/api";
import type { FormOutcome } from "../../src/outbox/forms";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import {
  auditRows,
  createOutbox,
  ok,
  openFundsOf,
  openReports,
  type SandboxFund,
  writeBackPerFile,
} from "./harness";

const wb = writeBackPerFile();
let openFunds: SandboxFund[];
let reportId: number;

/** The harness's company (seed 11, 8 funds, 12 reports), served in real shapes. */
const REAL_COMPANY = { seed: 11, funds: 8, reports: 12, shapes: "real" };

async function resetToRealShapes(): Promise<void> {
  await wb.reset();
  const origin = wb.sandbox.url.replace(/\/v1$/, "");
  const response = await fetch(`${origin}/_sandbox/reset`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(REAL_COMPANY),
  });
  const body = await response.json();
  if (!response.ok || body.shapes !== "real")
    throw new Error(`reset to real shapes: ${JSON.stringify(body)}`);
}

beforeEach(async () => {
  await resetToRealShapes();
  openFunds = await openFundsOf(wb, 2);
  reportId = Number(((await wb.state()).reports[0] as { id: number }).id);
  createOutbox(wb);
});

/** What the sandbox answers a caller for the fund, as text: proof that the shapes are real. */
async function servedFund(id: number): Promise<Record<string, unknown>> {
  const response = await fetch(`${wb.sandbox.url}/getFund?Id=${id}`, {
    headers: { Authorization: `Bearer ${wb.sandbox.token}` },
  });
  return response.json();
}

describe("Outbox against the real service's shapes", () => {
  it("deposit, withdraw, mark integrated and a custom status end Done with exact balances", async () => {
    const [a, b] = openFunds as [SandboxFund, SandboxFund];
    expect(typeof (await servedFund(a.id)).Id).toBe("string");
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "150.25" },
      { operation: "Withdraw", targetId: b.id, amount: "1.50" },
      {
        operation: "Mark integrated",
        targetId: reportId,
        integrationCode: "ERP-7",
        integrationDate: "2024-06-30 10:15:00",
      },
      { operation: "Set custom status", targetId: reportId, customStatus: "Pagado", customMessage: "Pagado" },
    ]);
    const run = ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox().map((r) => [r.state, r.result])).toEqual([
      ["Done", expect.stringContaining(`Fund ${a.id}`)],
      ["Done", expect.stringContaining(`Fund ${b.id}`)],
      ["Done", `Done. Report ${reportId} updated.`],
      ["Done", `Done. Report ${reportId} updated.`],
    ]);
    expect(run.result).toMatchObject({ done: 4, refused: 0, unknown: 0 });
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 15_025);
    expect((await wb.fund(b.id)).balanceCents).toBe(b.balanceCents - 150);
    const report = (await wb.state()).reports.find((r) => Number(r.id) === reportId) as Record<
      string,
      unknown
    >;
    expect(report).toMatchObject({
      integrated: true,
      integrationExternalCode: "ERP-7",
      customStatus: "Pagado",
    });
    for (const row of auditRows(wb)) expect(row.Outcome).toBe("ok");
  });

  for (const fault of ["error-in-200", "error-in-200-v2"] as const) {
    it(`a ${fault} answer to a deposit ends Refused with the service's message, and nothing moves`, async () => {
      const [a] = openFunds as [SandboxFund];
      wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "20.00" }]);
      await wb.faults([{ endpoint: "depositMoneyToFund", fault, times: 1 }]);
      ok(wb.menu("runOutbox", ["YES"]));
      const [row] = wb.outbox();
      expect(row?.state).toBe("Refused");
      expect(String(row?.result)).toMatch(/^Refused: /);
      expect(String(row?.result)).toContain(`depositMoneyToFund refused by an injected ${fault} fault`);
      expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents);
      const deposits = auditRows(wb).filter((r) => r.Endpoint === "depositMoneyToFund");
      expect(deposits.map((r) => r.Outcome)).toEqual(["refused"]);
    });
  }

  it(`an error-in-200-v2 answer to a custom status ends Refused, not Done`, async () => {
    wb.typeOutbox([{ operation: "Set custom status", targetId: reportId, customStatus: "Observado" }]);
    await wb.faults([{ endpoint: "setExpenseReportCustomStatus", fault: "error-in-200-v2", times: 1 }]);
    ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox()[0]?.state).toBe("Refused");
    expect(String(wb.outbox()[0]?.result)).toContain("refused by an injected error-in-200-v2 fault");
    const report = (await wb.state()).reports.find((r) => Number(r.id) === reportId) as Record<
      string,
      unknown
    >;
    expect(report.customStatus).not.toBe("Observado");
    const calls = auditRows(wb).filter((r) => r.Endpoint === "setExpenseReportCustomStatus");
    expect(calls.map((r) => r.Outcome)).toEqual(["refused"]);
  });

  it("a malformed-json answer to a deposit: Unknown, then the next run confirms it and sends nothing", async () => {
    const [a] = openFunds as [SandboxFund];
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "75.40" }]);
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "malformed-json", times: 1 }]);
    ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 7_540);

    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS); // the first request can no longer land
    ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox()[0]?.state).toBe("Done");
    const fund = await wb.fund(a.id);
    expect(fund.balanceCents).toBe(a.balanceCents + 7_540);
    expect(fund.transactions.length).toBe(a.transactions.length + 1);
    const deposits = auditRows(wb).filter((r) => r.Endpoint === "depositMoneyToFund");
    expect(deposits.map((r) => [r.Method, r.Outcome])).toEqual([
      ["POST", "unknown"],
      ["-", "ok"],
    ]);
  });
});

describe("Fund and Report sidebars against the real service's shapes", () => {
  let requestCount = 0;
  const requestId = () => `real-shapes-request-${++requestCount}-abcdef`;

  it("shows a fund read fresh with its exact balance, deposits once, and marks reports", async () => {
    const [a] = openFunds as [SandboxFund];
    const view = wb.sidebar("getFundSidebarView", { fundId: String(a.id) }) as {
      fund: { id: number; balance: string } | null;
      error: string;
    };
    expect(view.error).toBe("");
    expect(view.fund?.id).toBe(a.id);
    expect(view.fund?.balance).toBe(formatCents(a.balanceCents, { locale: "en", currency: a.currency }));

    const deposit = wb.sidebar("depositToFund", {
      requestId: requestId(),
      fields: { Id: a.id, DepositAmount: "10.50" },
    }) as FormOutcome;
    expect(deposit).toMatchObject({ kind: "done", fund: { id: a.id } });
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 1_050);

    // The report read from the service in its real shapes (a string number) is shown, then marked.
    const { view: reports, sent } = openReports(wb, [reportId]);
    expect(reports.reports).toMatchObject([{ id: reportId, check: "read" }]);
    expect(reports.reports[0]?.reportNumber).not.toBe("");
    const marked = wb.sidebar("markReportsIntegrated", {
      requestId: requestId(),
      ...sent,
      fields: { IntegrationCode: "ERP-88", IntegrationDate: "2024-06-30 09:00:00" },
    }) as { results: { outcome: FormOutcome }[] };
    expect(marked.results.map((r) => r.outcome.kind)).toEqual(["done"]);
    const custom = wb.sidebar("setReportsCustomStatus", {
      requestId: requestId(),
      ...sent,
      fields: { CustomStatus: "Observado", CustomMessage: "Falta la boleta" },
    }) as { results: { outcome: FormOutcome }[] };
    expect(custom.results.map((r) => r.outcome.kind)).toEqual(["done"]);
    const report = (await wb.state()).reports.find((r) => Number(r.id) === reportId) as Record<
      string,
      unknown
    >;
    expect(report).toMatchObject({
      integrated: true,
      integrationExternalCode: "ERP-88",
      customStatus: "Observado",
    });
  });

  it("an error-in-200-v2 answer to a sidebar withdrawal is refused with the service's message", async () => {
    const [a] = openFunds as [SandboxFund];
    await wb.faults([{ endpoint: "withdrawMoneyFromFund", fault: "error-in-200-v2", times: 1 }]);
    const outcome = wb.sidebar("withdrawFromFund", {
      requestId: requestId(),
      fields: { Id: a.id, WithdrawAmount: "1.00" },
    }) as FormOutcome;
    expect(outcome.kind).toBe("refused");
    expect(JSON.stringify(outcome)).toContain(
      "withdrawMoneyFromFund refused by an injected error-in-200-v2 fault",
    );
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents);
  });
});
