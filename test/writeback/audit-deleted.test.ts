/**
 * The Audit sheet deleted by an editor while an Outbox run is sending: the run goes on, every
 * row ends with what really happened (the first deposit's answer said Done, the second was sent
 * once), and the audit begins again on a sheet of its own with the rest of the run's calls.
 */
import { describe, expect, it } from "vitest";
import { columnNumber } from "../../src/outbox/columns";
import { type SandboxFund, writeBackPerFile } from "./harness";

const wb = writeBackPerFile();

async function until(test: () => boolean): Promise<void> {
  const giveUp = Date.now() + 20_000;
  while (!test()) {
    if (Date.now() > giveUp) throw new Error("never reached the awaited state");
    await new Promise((done) => setTimeout(done, 5));
  }
}

describe("the Audit sheet deleted while the Outbox is sending", () => {
  it("the run goes on: both deposits Done, each once, and the audit goes on in a new Audit sheet", async () => {
    const [a, b] = (await wb.state()).funds.filter((f) => f.status === 1) as [SandboxFund, SandboxFund];
    expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "3.01" },
      { operation: "Deposit", targetId: b.id, amount: "3.02" },
    ]);
    expect(wb.menu("previewOutbox")).toMatchObject({ ok: true });
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "slow", delayMs: 1_500, times: 1 }]);
    wb.emulator.answers.length = 0;
    wb.emulator.answers.push("YES", "OK", "OK");
    const run = wb.emulator.startRun("runOutbox", [], { as: "menu" });
    const state = () => wb.emulator.spreadsheet.sheetByName("Outbox")?.cell(2, columnNumber("state"))?.value;
    let ended = false;
    run.then(() => {
      ended = true;
    });
    // The first deposit is in flight once the audit shows its call as sending.
    const sending = () => wb.sheetValues("Audit").some((r) => r.includes("sending"));
    await until(() => (state() === "Sending" && sending()) || ended);
    expect(ended, "deleted while the run is sending").toBe(false);
    const doc = wb.emulator.spreadsheet;
    const audit = doc.sheetByName("Audit");
    expect(audit).toBeDefined();
    doc.sheets.splice(doc.sheets.indexOf(audit as never), 1);
    const outcome = await run;
    expect(outcome.ok && outcome.result, JSON.stringify(outcome)).toMatchObject({
      done: 2,
      unknown: 0,
    });
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done"]);
    expect(await wb.deposits(a.id, 301)).toBe(1);
    expect(await wb.deposits(b.id, 302)).toBe(1);
    const [header = [], ...rows] = wb.sheetValues("Audit");
    const column = (name: string) => header.indexOf(name);
    const deposits = rows.filter((r) => r[column("Endpoint")] === "depositMoneyToFund");
    // The first deposit's end, and the second's whole call.
    expect(deposits.map((r) => r[column("Outcome")])).toEqual(["ok", "ok"]);
  }, 60_000);
});
