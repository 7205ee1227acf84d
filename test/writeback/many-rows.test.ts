/**
 * An Outbox of thousands of rows run at once: every row leaves a record of the add-on's in the
 * document's properties (500 KB for all), so records are pruned as the run goes, not only at its
 * end, or the store fills up mid-run and every later write (this run's, the next run's, a Fund
 * sidebar's) fails on it.
 */
import { describe, expect, it } from "vitest";
import { type SandboxFund, writeBackPerFile } from "./harness";

const wb = writeBackPerFile();

const storeBytes = () => {
  let bytes = 0;
  for (const [key, value] of wb.emulator.documentPropertiesData.values) bytes += key.length + value.length;
  return bytes;
};

describe("an Outbox of 2,400 rows in one run", () => {
  it("keeps its records within the document's properties: every row ends with its state, the deposit after them is sent once", async () => {
    const [a] = (await wb.state()).funds.filter((f) => f.status === 1) as [SandboxFund];
    expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
    const sheet = wb.emulator.spreadsheet.sheetByName("Outbox");
    if (!sheet) throw new Error("no Outbox sheet");
    sheet.maxRows = 2500;
    const many = 2400;
    // Thousands separators: each row is refused before sending, and recorded as refused.
    wb.typeOutbox(
      Array.from({ length: many }, (_, i) => ({
        operation: "Deposit",
        targetId: a.id,
        amount: `1,${100 + i}.50`,
      })),
    );
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "12.34" }], many + 2);
    const run = wb.menu("runOutbox", ["YES", "OK", "OK"]);
    expect(run.ok && run.result, JSON.stringify(wb.emulator.ui.dialogs.at(-1))).toMatchObject({
      refused: many,
      done: 1,
      unknown: 0,
      skipped: 0,
    });
    const states = wb.outbox().map((r) => r.state);
    expect(states.filter((s) => s === "Refused").length).toBe(many);
    expect(states[many]).toBe("Done");
    expect(await wb.deposits(a.id, 1234)).toBe(1);
    expect(storeBytes()).toBeLessThan(250 * 1024);
  }, 120_000);
});
