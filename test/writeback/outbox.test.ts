/**
 * The Outbox of the BUILT add-on in the emulation against the sandbox: preview, run, every
 * operation, refusals by the service, and the faults that make an outcome unknown, each
 * followed by a second run, ending with every fund's balance exactly what the Outbox asked for
 * (checked in the sandbox's ledger) and an audit sheet that tells the story.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildWriteBack, type SandboxFund, startWriteBack, type WriteBack } from "./harness";

let wb: WriteBack;
let openFunds: SandboxFund[];

beforeAll(async () => {
  wb = await startWriteBack(buildWriteBack());
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

beforeEach(async () => {
  await wb.reset();
  const state = await wb.state();
  openFunds = state.funds.filter((f) => f.status === 1);
  expect(openFunds.length).toBeGreaterThanOrEqual(3);
  const created = wb.menu("createOutboxSheet");
  if (!created.ok) throw new Error(created.error);
});

const ok = (outcome: { ok: boolean; error?: string }) => {
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome;
};

function auditRows(): Record<string, unknown>[] {
  const values = wb.sheetValues("Audit");
  const header = (values[0] ?? []) as string[];
  return values.slice(1).map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]])));
}

describe("Outbox: preview and run", () => {
  it("previews totals per currency without sending, then runs every row once", async () => {
    const [a, b] = openFunds as [SandboxFund, SandboxFund];
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "150.25" },
      { operation: "Withdraw", targetId: b.id, amount: "1.50" },
      { operation: "Deposit", targetId: a.id, amount: "0.75" },
    ]);
    wb.emulator.resetCounters();
    const preview = ok(wb.menu("previewOutbox"));
    expect(String(preview.result)).toContain(`Deposit ${a.currency}: 151.00 (2 row(s))`);
    expect(String(preview.result)).toContain("Row 4: same operation on the same target as row 2.");
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents);

    const run = ok(wb.menu("runOutbox", ["YES"]));
    expect(run.result).toMatchObject({ done: 3, refused: 0, unknown: 0 });
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 15_100);
    expect((await wb.fund(b.id)).balanceCents).toBe(b.balanceCents - 150);
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done", "Done"]);

    // A second run sends nothing: Done rows are never sent again.
    const again = wb.menu("runOutbox", ["OK"]);
    expect(again).toMatchObject({ ok: true, result: null });
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 15_100);
  });
});
