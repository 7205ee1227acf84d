/**
 * The Outbox's in-flight window is a deployment's setting (script property
 * tuning.inFlightWindowSeconds, src/settings/tuning.ts): 3 minutes when unset, longer when the
 * deployer says so, and never below its floor: a value under it stops every write with a message
 * naming the setting, before anything is sent.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { IN_FLIGHT_WINDOW_KEY } from "../../src/settings/tuning";
import { type SandboxFund, writeBackPerFile } from "./harness";

const wb = writeBackPerFile();
let fund: SandboxFund;

beforeEach(async () => {
  await wb.reset();
  wb.emulator.scriptPropertiesData.values.delete(IN_FLIGHT_WINDOW_KEY);
  fund = (await wb.state()).funds.find((f) => f.status === 1) as SandboxFund;
  expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
});

describe("the in-flight window setting", () => {
  it("refuses a window below the floor, naming the setting, and sends nothing", async () => {
    wb.emulator.scriptPropertiesData.values.set(IN_FLIGHT_WINDOW_KEY, "60");
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "5" }]);
    const out = wb.menu("runOutbox", ["YES"]);
    const said = [out.ok ? "" : out.error, ...wb.emulator.ui.dialogs.map((d) => d.prompt)].join("\n");
    expect(said).toContain(
      'inFlightWindowSeconds must be a whole number of seconds from 120 to 3600 (got "60")',
    );
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents);
  });

  it("holds an unknown write for the longer window a deployment set, then settles it once", async () => {
    wb.emulator.scriptPropertiesData.values.set(IN_FLIGHT_WINDOW_KEY, "600");
    wb.typeOutbox([{ operation: "Withdraw", targetId: fund.id, amount: "1.10" }]);
    await wb.faults([{ endpoint: "withdrawMoneyFromFund", fault: "drop-before-apply", times: 1 }]);
    expect(wb.menu("runOutbox", ["YES"])).toMatchObject({ ok: true });
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    // Past the default 3 minutes but inside the deployment's 10: still held, nothing sent.
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    expect(wb.menu("runOutbox", ["YES"])).toMatchObject({ ok: true });
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents);
    wb.emulator.advanceTime(600_000);
    expect(wb.menu("runOutbox", ["YES"])).toMatchObject({ ok: true });
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents - 110);
  });
});
