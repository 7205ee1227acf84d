/**
 * Done or Refused typed in State on a row reading cannot settle (more matching movements than
 * it explains), through the built add-on against the sandbox's ledger: the confirmation names
 * the typed State and the run takes it only when it did; a colleague typing it while the
 * question is open settles nothing. A write settled by hand as Refused may still have landed: the
 * row sent again is shown as the same as that write.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { columnNumber } from "../../src/outbox/columns";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { columnLetters } from "../../src/sheets/formulas";
import { confirmations, createOutbox, type SandboxFund, writeBackPerFile } from "./harness";

/** Run Outbox's confirmations: what each showed, and what happens while one is open (then Yes). */
const dialogs = confirmations();
const { asked } = dialogs;
const wb = writeBackPerFile({ waitForAnswer: dialogs.waitForAnswer });

beforeEach(async () => {
  await wb.reset();
  createOutbox(wb);
  dialogs.clear();
});

const run = () => {
  const out = wb.menu("runOutbox", []);
  if (!out.ok) throw new Error(out.error);
};
const typeState = (row: number, text: string) => {
  const column = columnLetters(columnNumber("state"));
  wb.emulator.typeCells("Outbox", `${column}${row}`, [[text]]);
};

describe("a State typed by hand on a deposit reading cannot settle", () => {
  it("is taken only when the confirmation named it; the deposit sent again is shown as the same", async () => {
    const fund = (await wb.state()).funds.find((f) => f.status === 1 && f.flexible) as SandboxFund;
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "5.00" }]);
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 }]);
    run();
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    // Someone else deposits the same amount meanwhile: the count cannot tell which is ours.
    const response = await fetch(`${wb.sandbox.url}/depositMoneyToFund`, {
      method: "POST",
      headers: { Authorization: `Bearer ${wb.sandbox.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ Id: fund.id, IdAdmin: wb.sandbox.adminId, DepositAmount: 5 }),
    });
    expect(response.status).toBe(200);
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Unknown" });
    expect(String(wb.outbox()[0]?.result)).toContain("more matching movements than expected");

    // A colleague types Refused while the runner's question is open: not what the runner saw.
    dialogs.whileAsked = () => typeState(2, "Refused");
    run();
    expect(asked.at(-1)).not.toContain("State typed");
    expect(wb.outbox()[0]?.state).toBe("Refused");
    expect(String(wb.outbox()[0]?.result)).toContain("the confirmation did not name it");

    // The next confirmation names it, and the run takes it.
    dialogs.whileAsked = null;
    run();
    expect(asked.at(-1)).toContain("Row 2, interrupted: Deposit");
    expect(asked.at(-1)).toContain("State typed Refused — the interrupted Deposit");
    expect(String(wb.outbox()[0]?.result)).toMatch(/^Refused by hand on /);
    expect(await wb.deposits(fund.id, 500)).toBe(2);

    // State cleared: the deposit sent again is shown as the same as the write settled by hand.
    typeState(2, "");
    run();
    expect(asked.at(-1)).toMatch(
      /Row 2: Deposit of [^\n]*: same as an operation whose outcome was unknown, set to Refused by hand on /,
    );
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect(await wb.deposits(fund.id, 500)).toBe(3);
  }, 60_000);
});
