/**
 * A run of the new layout killed at every Apps Script call in turn (between the two ranges a
 * row's State and Result and its hidden record are written in, among others), then run again
 * once the in-flight window is over: each deposit lands exactly once and every row ends Done.
 * Each kill point starts from the same spreadsheet (made once, then restored) and a fresh ledger.
 */
import { describe, expect, it } from "vitest";
import { type SandboxFund, sweepOutboxRun, writeBackPerFile } from "./harness";

const wb = writeBackPerFile();

describe("an Outbox run killed at any call", () => {
  it("sends each deposit once, whatever call it was killed at", async () => {
    await wb.reset();
    const [a, b] = (await wb.state()).funds.filter((f) => f.status === 1) as [SandboxFund, SandboxFund];
    expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "2.02" },
      { operation: "Withdrawal", targetId: b.id, amount: "0.03" },
      { operation: "Deposit", targetId: b.id, amount: "4.04" },
    ]);
    const start = wb.emulator.saveState();
    await sweepOutboxRun(
      wb,
      () => wb.resetTo(start),
      3,
      async (where) => {
        const after = await wb.state();
        const movements = (id: number) => after.funds.find((f) => f.id === id)?.transactions ?? [];
        const deposits = (id: number, cents: number) =>
          movements(id).filter((t) => t.type === 1 && t.amountCents === cents).length;
        expect(deposits(a.id, 202), where).toBe(1);
        expect(deposits(b.id, 404), where).toBe(1);
        const withdrawals = movements(b.id).filter((t) => t.type !== 1 && t.amountCents === 3);
        expect(withdrawals.length, where).toBe(1);
      },
    );
  }, 600_000);
});
