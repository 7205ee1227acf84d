/**
 * An interrupted deposit is settled only by a read of the fund it was sent to. When the fund
 * read later under the same Id is another one (the token now in use opens another account, or
 * another service answers under the URL), the run concludes nothing and sends nothing: the row
 * stays Unknown and says why, whether or not that other fund holds a deposit of the amount.
 */
import { describe, expect, it } from "vitest";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { readOutboxRow } from "../../src/outbox/rows";
import { runOutbox } from "../../src/outbox/run";
import { outboxCore, userRow } from "./fakes";

function interruptedDeposit() {
  const { ledger, clock, sheet, context } = outboxCore(
    [userRow("Deposit", 5001, { amount: "100.00" })],
    [{ id: 5001, balance: 10_000, currency: "MXN", createdAt: "2025-01-02 08:00:00", employeeId: 2101 }],
  );
  // The deposit is lost before the service applies it.
  ledger.faults.push({ endpoint: "deposit", when: "before", delayMs: 1_000 });
  runOutbox(context);
  expect(readOutboxRow(sheet.readAll()[0] ?? [], 2).state).toBe("Unknown");
  clock.advance(IN_FLIGHT_WINDOW_MS + 1);
  return { ledger, sheet, context };
}

describe("settling an interrupted deposit by reading another fund of the same Id", () => {
  for (const holdsDeposit of [false, true]) {
    it(`the other fund ${holdsDeposit ? "holds a deposit of the amount" : "shows no deposit"}: nothing settled, nothing sent`, () => {
      const { ledger, sheet, context } = interruptedDeposit();
      // Fund 5001 of another account: another CreatedAt, assignee and currency.
      ledger.addFund({
        id: 5001,
        balance: holdsDeposit ? 20_000 : 10_000,
        currency: "CLP",
        createdAt: "2024-06-30 17:00:00",
        employeeId: 7,
        transactions: holdsDeposit
          ? [
              { type: 1, amount: 10_000, date: "2026-01-01" },
              { type: 1, amount: 10_000, date: "2026-01-02" },
            ]
          : [{ type: 1, amount: 10_000, date: "2026-01-01" }],
      });
      const sentBefore = ledger.sent.length;
      runOutbox(context);
      const row = readOutboxRow(sheet.readAll()[0] ?? [], 2);
      expect(row.state).toBe("Unknown");
      expect(row.result).toMatch(/fund 5001 read now is not the fund the write was sent to/);
      expect(row.result).toMatch(/CreatedAt 2025-01-02 08:00:00 → 2024-06-30 17:00:00/);
      expect(ledger.sent.length).toBe(sentBefore);
      expect(ledger.applied).toEqual([]);
    });
  }
});
