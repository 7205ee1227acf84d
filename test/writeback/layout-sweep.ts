/**
 * The kill sweep both layout files run (layout.test.ts from the old layout, layout-company.test.ts
 * from the previous one): a first deposit sent once, a second typed, the Outbox put back to an
 * earlier layout, then the Preview that moves it killed at every call in turn. After each point
 * a Preview finishes the move (laid out and dressed, every row in place) and a run sends the
 * second deposit: each deposit lands once.
 */
import { expect } from "vitest";
import { sheetsSnapshot } from "../../dev/emulator/snapshots";
import { outboxFormatRules } from "../../src/outbox/layout";
import { type SandboxFund, sweepKills, type WriteBack } from "./harness";

export async function sweepLayoutMove(
  wb: WriteBack,
  funds: [SandboxFund, SandboxFund],
  cents: [number, number],
  toEarlierLayout: () => void,
): Promise<void> {
  const ok = (outcome: ReturnType<WriteBack["menu"]>) => expect(outcome).toMatchObject({ ok: true });
  const [a, b] = funds;
  const amount = (c: number) => (c / 100).toFixed(2);
  ok(wb.menu("createOutboxSheet"));
  wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: amount(cents[0]) }]);
  // The first row is sent once, before the sweep; each point starts from the ledger and the
  // spreadsheet as they are then (saved once, restored at each point).
  ok(wb.menu("runOutbox", ["YES", "OK"]));
  wb.typeOutbox([{ operation: "Deposit", targetId: b.id, amount: amount(cents[1]) }], 3);
  const rows = wb.outbox();
  toEarlierLayout();
  const start = wb.emulator.saveState();
  await wb.saveLedger();
  await sweepKills(wb.emulator, {
    restore: () => wb.restoreTo(start),
    kill: (call) => wb.menu("previewOutbox", ["OK"], { stopAt: { serviceCall: call } }),
    async check(where) {
      ok(wb.menu("previewOutbox"));
      const sheet = sheetsSnapshot(wb.emulator).find((s) => s.name === "Outbox");
      expect(sheet?.values[0]?.slice(0, 4), where).toEqual(["State", "Result", "Company", "Operation"]);
      expect(wb.outbox(), where).toEqual(rows);
      expect(sheet?.hiddenColumns, where).toEqual([21, 22, 23]);
      expect(sheet?.conditionalFormats, where).toHaveLength(outboxFormatRules().length);
      // (A kill between a warning's protect() and its description may leave a second, unnamed one.)
      expect([...new Set(sheet?.protections.map((p) => p.range))].sort(), where).toEqual([
        "A1:B1000",
        "U1:W1000",
      ]);
      ok(wb.menu("runOutbox", ["YES", "OK"]));
      expect(
        wb.outbox().map((r) => r.state),
        where,
      ).toEqual(["Done", "Done"]);
      const after = await wb.state();
      const deposits = (id: number, amountCents: number) =>
        (after.funds.find((f) => f.id === id)?.transactions ?? []).filter(
          (t) => t.type === 1 && t.amountCents === amountCents,
        ).length;
      expect(deposits(a.id, cents[0]), where).toBe(1);
      expect(deposits(b.id, cents[1]), where).toBe(1);
    },
    within: 500,
  });
}
