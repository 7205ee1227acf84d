/**
 * The Outbox's columns are read by position. A column inserted, deleted or moved by a user
 * shifts what each position holds: the add-on must notice, and neither send nor write anything
 * until the columns are back where its headers say.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { createOutbox, flexibleFund, type SandboxFund, writeBackPerFile } from "./harness";

let fund: SandboxFund;
const asked: string[] = [];
/** What another editor does while the confirmation is open. */
let whileAsked: (() => void) | null = null;

const wb = writeBackPerFile({
  waitForAnswer: (dialog) => {
    asked.push(dialog.prompt);
    if (!dialog.buttons.includes("YES")) return "OK";
    whileAsked?.();
    whileAsked = null;
    return "YES";
  },
});

beforeEach(async () => {
  await wb.reset();
  fund = await flexibleFund(wb);
  createOutbox(wb);
  asked.length = 0;
});

async function deposits(id: number): Promise<number[]> {
  return (await wb.fund(id)).transactions.filter((t) => t.type === 1).map((t) => t.amountCents);
}

const run = (name: "runOutbox" | "previewOutbox" = "runOutbox") => {
  const out = wb.menu(name, []);
  if (!out.ok) throw new Error(out.error);
};

describe("a column inserted in the Outbox after its rows were sent", () => {
  it("sends nothing again, writes nothing, and says which header is out of place", async () => {
    const before = await deposits(fund.id);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "50.00" }]);
    run();
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect(await deposits(fund.id)).toEqual([...before, 5_000]);

    // A notes column, inserted right of Amount.
    wb.emulator.spreadsheet.sheetByName("Outbox")?.insertColumns(7, 1);
    wb.emulator.typeCells("Outbox", "G1", [["Notes"]]);
    const cellsBefore = JSON.stringify(wb.sheetValues("Outbox"));
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS);
    asked.length = 0;
    run();
    run("previewOutbox");
    expect(await deposits(fund.id)).toEqual([...before, 5_000]);
    expect(JSON.stringify(wb.sheetValues("Outbox"))).toBe(cellsBefore);
    expect(asked).toHaveLength(2);
    for (const text of asked)
      expect(text).toContain("column G should be “Currency”, not “Notes”. Nothing was sent.");
  }, 60_000);

  it("inserted while Run Outbox asks: the run sends and writes nothing", async () => {
    const before = await deposits(fund.id);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "50.00" }]);
    const cellsBefore = JSON.stringify(wb.sheetValues("Outbox"));
    whileAsked = () => wb.emulator.spreadsheet.sheetByName("Outbox")?.insertColumns(2, 1);
    run();
    expect(await deposits(fund.id)).toEqual(before);
    const now = wb.sheetValues("Outbox").map((row) => [row[0], ...row.slice(2)]);
    expect(JSON.stringify(now)).toBe(cellsBefore);
    expect(asked[asked.length - 1]).toContain("column B should be “Result”, not “”");
  }, 60_000);
});
