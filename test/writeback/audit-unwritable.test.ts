/**
 * An audit that cannot take a row (the spreadsheet at its 10 million cells, so no Audit sheet can
 * be made or grow): a write's row goes on the audit before its request leaves, so no row, no
 * request. Nothing moves unrecorded; the Outbox row says why it was not sent.
 */
import { describe, expect, it } from "vitest";
import { type SandboxFund, writeBackPerFile } from "./harness";

const wb = writeBackPerFile();

describe("a deposit when the audit cannot take its row", () => {
  it("is not sent: the row is Refused saying why, and the fund is unchanged", async () => {
    const [a] = (await wb.state()).funds.filter((f) => f.status === 1) as [SandboxFund];
    expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "6.06" }]);
    // Another sheet grown until the spreadsheet is all but full: no Audit sheet fits.
    const doc = wb.emulator.spreadsheet;
    const used = doc.sheets.reduce((n, s) => n + s.maxRows * s.maxColumns, 0);
    const filler = doc.sheets[0];
    if (!filler || filler.name === "Outbox") throw new Error("no sheet to fill");
    filler.maxRows += Math.floor((10_000_000 - used - 1_000) / filler.maxColumns);
    expect(wb.menu("runOutbox", ["YES", "OK", "OK"])).toMatchObject({ ok: true });
    const [row] = wb.outbox();
    expect([row?.state, String(row?.result)]).toEqual([
      "Refused",
      expect.stringContaining("above the limit of 10000000 cells"),
    ]);
    expect(await wb.deposits(a.id, 606)).toBe(0);
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents);
  });
});
