/**
 * The add-on's own Properties reads and writes (the quota Google counts per user per day:
 * 50,000 on a consumer account, 500,000 on Workspace), measured in the emulation for one Outbox
 * run and one refresh, and checked against the figures docs/benchmark.md gives.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWriteBack, startWriteBack, type WriteBack } from "../writeback/harness";

let wb: WriteBack;

beforeAll(async () => {
  wb = await startWriteBack(buildWriteBack());
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

/** The user's Properties calls that `work` makes (every store counted together, as Google does). */
function propertiesCalls(work: () => void): number {
  const before = wb.emulator.propertiesToday(wb.user);
  work();
  return wb.emulator.propertiesToday(wb.user) - before;
}

/** The figure docs/benchmark.md gives in the row whose first cell is `what`. */
function documented(what: string): number {
  const doc = readFileSync(resolve(import.meta.dirname, "../../docs/benchmark.md"), "utf8");
  const row = doc.split("\n").find((line) => line.startsWith(`| ${what} `));
  const cell = row?.split("|")[2]?.trim().replace(/,/g, "") ?? "";
  return Number(cell);
}

describe("Properties reads and writes of the add-on", () => {
  it("per refresh and per Outbox run, as docs/benchmark.md gives them", async () => {
    const refresh = propertiesCalls(() => {
      const out = wb.menu("refreshAll");
      if (!out.ok) throw new Error(out.error);
    });
    const again = propertiesCalls(() => {
      const out = wb.menu("refreshAll");
      if (!out.ok) throw new Error(out.error);
    });
    const created = wb.menu("createOutboxSheet");
    if (!created.ok) throw new Error(created.error);
    const fund = (await wb.state()).funds.find((f) => f.status === 1);
    wb.typeOutbox([
      { operation: "Deposit", targetId: fund?.id, amount: "5.00" },
      { operation: "Deposit", targetId: fund?.id, amount: "6.00" },
      { operation: "Withdrawal", targetId: fund?.id, amount: "1.00" },
    ]);
    const outbox = propertiesCalls(() => {
      const out = wb.menu("runOutbox", ["YES", "OK"]);
      if (!out.ok) throw new Error(out.error);
    });
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done", "Done"]);
    const measured = { refresh, again, outbox };
    expect(measured, JSON.stringify(measured)).toEqual({
      refresh: documented("Refresh all (8 funds, 12 reports)"),
      again: documented("Refresh all again, nothing changed"),
      outbox: documented("Outbox run of 3 rows"),
    });
  }, 120_000);
});
