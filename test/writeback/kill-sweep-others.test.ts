/**
 * A run of the Outbox's other operations (a fund creation, a status change, an integration mark)
 * killed at every Apps Script call in turn, then run again once the in-flight window is over:
 * the fund is created once and every row ends Done (the deposits' sweep is kill-sweep.test.ts;
 * the two run side by side).
 * Each kill point starts from the same spreadsheet (made once, then restored) and a fresh ledger.
 */
import { describe, expect, it } from "vitest";
import { type SandboxFund, sweepOutboxRun, writeBackPerFile } from "./harness";

const wb = writeBackPerFile();

describe("an Outbox run of the other operations killed at any call", () => {
  it("creates the fund once, and every row ends Done", async () => {
    await wb.reset();
    const state = await wb.state();
    const employee = state.users.find((u) => u.Roles.includes("employee")) as { Id: number };
    const open = state.funds.find((f) => f.status === 1) as SandboxFund;
    const report = state.reports[0] as { id: number };
    expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
    wb.typeOutbox([
      {
        operation: "Fund creation",
        employeeId: employee.Id,
        fundName: "Caja barrida",
        currency: "CLP",
        amount: "700",
      },
      { operation: "Status change", targetId: open.id, fundStatus: "Blocked" },
      { operation: "Integration mark", targetId: Number(report.id), integrationCode: "ERP-9" },
    ]);
    const start = wb.emulator.saveState();
    await sweepOutboxRun(
      wb,
      () => wb.resetTo(start),
      3,
      async (where) => {
        const funds = (await wb.state()).funds;
        expect(funds.filter((f) => f.title === "Caja barrida").length, where).toBe(1);
        expect(funds.find((f) => f.id === open.id)?.status, where).toBe(3);
      },
    );
  }, 600_000);
});
