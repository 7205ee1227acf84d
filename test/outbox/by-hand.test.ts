/**
 * A Done or Refused typed in State settles an interrupted write that reading cannot settle (more
 * matching movements than it explains). Any editor can type it, so the confirmation names it and
 * the run takes it only when it was confirmed that way; and a write settled by hand as Refused
 * may still have landed, so a later resend of the same request is shown as the same as that
 * write and is sent only when confirmed so.
 */
import { describe, expect, it } from "vitest";
import { previewText } from "../../src/outbox/preview/words";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { readOutboxRow } from "../../src/outbox/rows";
import { confirmedAs, runOutbox } from "../../src/outbox/run";
import { outboxCore, userRow } from "./fakes";

function setup() {
  const { ledger, sheet, clock, context, preview } = outboxCore(
    [userRow("Deposit", 1, { amount: "5.00" })],
    [{ id: 1, balance: 100_000, flexible: true }],
  );
  const confirmedRun = (shown: ReturnType<typeof preview>) =>
    runOutbox({
      ...context,
      confirmed: shown.confirmed,
      currencies: shown.currencies,
      statuses: shown.statuses,
    });
  // The deposit lands but its answer is lost; someone else deposits the same amount meanwhile.
  ledger.faults.push({ endpoint: "deposit", when: "after" });
  runOutbox(context);
  ledger.funds.get(1)?.transactions.push({ type: 1, amount: 500, date: "2026-02-02" });
  clock.advance(IN_FLIGHT_WINDOW_MS);
  confirmedRun(preview());
  expect(sheet.cell(2, "state")).toBe("Unknown");
  expect(sheet.cell(2, "result")).toContain("more matching movements than expected");
  return { ledger, sheet, preview, confirmedRun };
}

describe("a State typed by hand on a write reading cannot settle", () => {
  it("is named in the confirmation, and taken only when it was confirmed that way", () => {
    const { sheet, preview, confirmedRun } = setup();
    const before = preview(); // asked before the colleague typed Refused
    sheet.setCell(2, "state", "Refused");
    const shown = preview();
    expect(previewText("en", shown)).toContain(
      "Row 2: State typed Refused — the interrupted Deposit of CLP 5 to fund 1 will be taken as not applied",
    );
    confirmedRun(before);
    expect(sheet.cell(2, "state")).toBe("Refused");
    expect(sheet.cell(2, "result")).toContain(
      "the confirmation did not name it: nothing was settled or sent",
    );
    confirmedRun(shown);
    expect(sheet.cell(2, "state")).toBe("Refused");
    expect(sheet.cell(2, "result")).toMatch(/^Refused by hand on /);
  });

  it("a resend of a write settled by hand as Refused is shown as the same as it, and sent only when confirmed so", () => {
    const { ledger, sheet, preview, confirmedRun } = setup();
    sheet.setCell(2, "state", "Refused");
    confirmedRun(preview());
    expect(sheet.cell(2, "result")).toMatch(/^Refused by hand on /);
    sheet.setCell(2, "state", ""); // State cleared: the row asks to be sent again
    const shown = preview();
    const text = previewText("en", shown);
    expect(text).toMatch(
      /Row 2: Deposit of CLP 5 to fund 1: same as an operation whose outcome was unknown, set to Refused by hand on /,
    );
    // A confirmation that showed it as a new operation does not send it.
    const row = readOutboxRow(sheet.readAll()[0] ?? [], 2);
    confirmedRun({ ...shown, confirmed: [confirmedAs(row, "new")] });
    expect(ledger.sentOf("deposit")).toBe(1);
    expect(sheet.cell(2, "state")).toBe("Pending");
    confirmedRun(shown);
    expect(ledger.sentOf("deposit")).toBe(2);
    expect(sheet.cell(2, "state")).toBe("Done");
  });
});
