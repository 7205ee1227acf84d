/**
 * A Currency typed on a deposit's or withdrawal's row is the writer's own statement of the
 * fund's currency: a row saying CLP for an MXN fund (Beta's 5001, where Alpha's 5001 is CLP) is
 * refused by the preview and by the run, naming both currencies, and never sent in the fund's.
 * A matching Currency (any case), or none, changes nothing.
 */
import { describe, expect, it } from "vitest";
import { invalidRows } from "../../src/outbox/preview/words";
import { runOutbox } from "../../src/outbox/run";
import { outboxCore, previewSheet, userRow } from "./fakes";

function mxnFund(rows: ReturnType<typeof userRow>[]) {
  return outboxCore(rows, [{ id: 5001, balance: 100_000, currency: "MXN", flexible: true }]);
}

describe("a Currency typed on a row that is not its fund's", () => {
  it("the preview refuses the row naming both currencies and counts nothing of it", () => {
    const t = mxnFund([userRow("Deposit", 5001, { amount: "100.00", currency: "CLP" })]);
    const preview = previewSheet(t.context, t.sheet, t.ledger, t.records);
    expect(invalidRows("en", preview)).toEqual([
      {
        rowNumber: 2,
        problems: [
          {
            field: "Currency",
            message: expect.stringContaining("Currency says CLP, but fund 5001 is in MXN: nothing is sent"),
          },
        ],
      },
    ]);
  });

  it("the run refuses it, naming both, and sends nothing", () => {
    const t = mxnFund([userRow("Withdraw", 5001, { amount: "100.00", currency: "CLP" })]);
    const summary = runOutbox(t.context);
    expect(summary.refused).toBe(1);
    expect(t.sheet.cell(2, "state")).toBe("Refused");
    expect(String(t.sheet.cell(2, "result"))).toContain("Currency says CLP, but fund 5001 is in MXN");
    expect(t.ledger.sent).toEqual([]);
  });

  it("a matching Currency in any case, or none, is sent as before", () => {
    const t = mxnFund([
      userRow("Deposit", 5001, { amount: "1.00", currency: "mxn" }),
      userRow("Deposit", 5001, { amount: "2.00" }),
    ]);
    expect(previewSheet(t.context, t.sheet, t.ledger, t.records).invalid).toEqual([]);
    expect(runOutbox(t.context).done).toBe(2);
    expect(t.ledger.applied).toHaveLength(2);
  });
});
