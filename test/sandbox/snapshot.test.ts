/**
 * POST /_sandbox/snapshot and /_sandbox/restore: a test keeps the ledger as it stands and goes
 * back to it as often as it likes, each time to a copy of its own, with the same next ids.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, control, type Running, start } from "./sandbox-client";

let sandbox: Running;
beforeAll(async () => {
  sandbox = await start({ seed: 5, funds: 6, reports: 4, companies: 2 });
});
afterAll(() => sandbox.close());

const newFund = (name: string) =>
  call(sandbox, "createFund", {
    IdEmployee: 1101,
    IdAdmin: sandbox.adminId,
    FundName: name,
    FundCurrency: "CLP",
    FundAmount: 1000,
  });

describe("snapshot and restore", () => {
  it("refuses a restore before any snapshot, naming what to do", async () => {
    const refused = await control(sandbox, "POST", "/restore", {});
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain("POST /_sandbox/snapshot first");
    expect((await control(sandbox, "GET", "/restore")).status).toBe(405);
  });

  it("puts the saved ledger back, every time a copy, with its next ids, and clears the faults", async () => {
    const kept = await newFund("Antes");
    const saved = await control(sandbox, "POST", "/snapshot", {});
    expect(saved.status).toBe(200);
    const before = (await control(sandbox, "GET", "/state")).body;
    for (let round = 0; round < 2; round++) {
      const later = await newFund(`Después ${round}`);
      expect(
        (
          await call(sandbox, "depositMoneyToFund", {
            Id: kept.body.Id,
            IdAdmin: sandbox.adminId,
            DepositAmount: 5,
          })
        ).status,
      ).toBe(200);
      await control(sandbox, "POST", "/faults", { rules: [{ endpoint: "getFund", fault: "http-500" }] });
      expect((await control(sandbox, "POST", "/restore", {})).body).toMatchObject({ restored: true });
      expect((await control(sandbox, "GET", "/state")).body).toEqual(before);
      expect((await control(sandbox, "GET", "/faults")).body.rules).toEqual([]);
      // The next fund gets the id the fund made after the snapshot had: the counters came back too.
      expect((await newFund(`Otra vez ${round}`)).body.Id).toBe(later.body.Id);
      expect((await control(sandbox, "POST", "/restore", {})).status).toBe(200);
    }
  });

  it("keeps each company's own: Beta's snapshot and restore leave Alpha's ledger as it goes", async () => {
    const betaBefore = (await control(sandbox, "GET", "/state?company=Beta")).body;
    const alphaBefore = (await control(sandbox, "GET", "/state")).body.funds.length;
    expect((await control(sandbox, "POST", "/snapshot?company=Beta", {})).status).toBe(200);
    await newFund("Solo Alpha");
    expect((await control(sandbox, "POST", "/restore?company=Beta", {})).status).toBe(200);
    expect((await control(sandbox, "GET", "/state")).body.funds.length).toBe(alphaBefore + 1);
    expect((await control(sandbox, "GET", "/state?company=Beta")).body).toEqual(betaBefore);
  });
});
