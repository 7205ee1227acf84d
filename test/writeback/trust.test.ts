/**
 * The write-back's promises through the BUILT add-on in the emulation, against the sandbox: a
 * deposit that times out and lands later (a real late landing), rows fixed or edited between
 * runs, cleared and copied Done rows, a 429 after the deposit was applied, an amount whose
 * totals would not read back, hand-written cells, the confirmation's list of movements, and the
 * Fund sidebar's second click. Every case ends with the sandbox's own ledger.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { moneyText } from "../../src/api/money";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { createOutbox, ok, type SandboxFund, writeBackPerFile } from "./harness";

let fund: SandboxFund;
let other: SandboxFund;

// UrlFetch gives up after 1.5 s of real time here (60 s on Google); a slow answer lands later.
const FETCH_TIMEOUT_MS = 1_500;

const wb = writeBackPerFile({ fetchTimeoutMs: FETCH_TIMEOUT_MS });

beforeEach(async () => {
  await wb.reset();
  const state = await wb.state();
  const open = state.funds.filter((f) => f.status === 1 && f.flexible);
  fund = open[0] as SandboxFund;
  other = (state.funds.find((f) => f.status === 2) ?? open[1]) as SandboxFund;
  expect(fund).toBeDefined();
  createOutbox(wb);
});

/** Resolves once `test` holds (the sandbox applies a released call on its own thread). */
async function until(test: () => Promise<boolean>): Promise<void> {
  const giveUp = Date.now() + 20_000;
  while (!(await test())) {
    if (Date.now() > giveUp) throw new Error("the released request never landed");
    await new Promise((done) => setTimeout(done, 10));
  }
}

/** The fund's movements of one type and amount, in the sandbox's ledger. */
async function movements(id: number, type: 1 | 2, amountCents: number): Promise<number> {
  const f = await wb.fund(id);
  return f.transactions.filter((t) => t.type === type && t.amountCents === amountCents).length;
}

const run = () => ok(wb.menu("runOutbox", ["YES", "OK", "OK"]));
const pastTheWindow = () => wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);

describe("a deposit whose answer timed out, then a quick rerun", () => {
  it("waits for the late landing, holds the fund, and ends with one deposit", async () => {
    const before = await movements(fund.id, 1, 7_531);
    // The deposit is held by the sandbox, unapplied, past the add-on's wait for its answer.
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "hold", times: 1 }]);
    wb.typeOutbox([
      { operation: "Deposit", targetId: fund.id, amount: "75.31" },
      { operation: "Withdraw", targetId: fund.id, amount: "1.00" },
    ]);
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Unknown" });
    expect(await movements(fund.id, 1, 7_531)).toBe(before); // still in flight

    // At once: nothing concluded, nothing sent on that fund.
    run();
    const [first, second] = wb.outbox();
    expect(String(first?.result)).toMatch(
      /^Unknown outcome: waiting for the earlier request to land \(until \d\d:\d\d\)\./,
    );
    expect(second).toMatchObject({
      state: "Pending",
      result: "Waiting: row 2 on the same fund must be settled first.",
    });

    await wb.releaseHeld(); // the first request lands
    await until(async () => (await movements(fund.id, 1, 7_531)) === before + 1);
    pastTheWindow();
    run();
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done"]);
    expect(String(wb.outbox()[0]?.result)).toMatch(/^Done: a matching deposit of [A-Z]{3} 75\.31 /);
    expect(await movements(fund.id, 1, 7_531)).toBe(before + 1);
    expect(await movements(fund.id, 2, 100)).toBeGreaterThanOrEqual(1);
  }, 60_000);
});

describe("rows around an interrupted one", () => {
  it("a fixed row above an interrupted deposit is not counted as its movement: both move", async () => {
    const before = await movements(fund.id, 1, 500);
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-before-apply", times: 1 }]);
    wb.typeOutbox([
      { operation: "Deposit", targetId: fund.id, amount: "5,00" },
      { operation: "Deposit", targetId: fund.id, amount: "5.00" },
    ]);
    run();
    expect(wb.outbox().map((r) => r.state)).toEqual(["Refused", "Unknown"]);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "5.00" }]);
    pastTheWindow();
    // The fixed row is the same request as row 3's interrupted one: it waits for it to be settled.
    expect(String(ok(wb.menu("previewOutbox")).result)).toContain(
      "Row 2: same request as row 3, not settled yet: nothing is sent for this row until that one is settled and a confirmation shows this one as the same.",
    );
    run();
    expect(wb.outbox().map((r) => r.state)).toEqual(["Pending", "Done"]);
    // It waits for a confirmation of its own, and says so (not "added or changed after the run
    // was confirmed": nobody changed it).
    expect(wb.outbox()[0]?.result).toBe(
      "Same as row 3, which was settled: it is sent if you confirm it in the next run.",
    );
    expect(await movements(fund.id, 1, 500)).toBe(before + 1);
    // Then it is shown as the same as the done row 3, and sent once confirmed as such.
    expect(String(ok(wb.menu("previewOutbox")).result)).toContain(
      `• Row 2: Deposit of ${fund.currency} 5.00 to fund ${fund.id}: same as row 3, done on `,
    );
    run();
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done"]);
    expect(await movements(fund.id, 1, 500)).toBe(before + 2);
  });

  it("an interrupted deposit edited afterwards is settled for what was sent, and says so", async () => {
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 }]);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "50.00" }]);
    run();
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "70.00" }]);
    pastTheWindow();
    const preview = String(ok(wb.menu("previewOutbox")).result);
    expect(preview).toContain("Amount was changed from “50.00” to “70.00” afterwards.");
    run();
    expect(wb.outbox()[0]).toMatchObject({
      state: "Done",
      result: `Done for Deposit of ${moneyText(5_000, fund.currency, "en")} to fund ${fund.id} as first sent; Amount was changed from “50.00” to “70.00” afterwards: nothing more was sent.`,
    });
    expect(await movements(fund.id, 1, 5_000)).toBe(1);
    expect(await movements(fund.id, 1, 7_000)).toBe(0);
  });
});

describe("Done rows", () => {
  it("a cleared State is restored and a whole-row copy is shown as the same as the done row, sent once", async () => {
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "12.34" }]);
    run();
    const done = wb.outbox()[0] as Record<string, unknown>;
    // Clear the State cell; copy the whole row (its key included) below.
    wb.emulator.typeCells("Outbox", "A2", [[""]]);
    const copy = Object.values(done);
    wb.emulator.typeCells("Outbox", "A3:W3", [copy.map((v) => (v instanceof Date ? "" : v)) as never]);
    const preview = String(ok(wb.menu("previewOutbox")).result);
    expect(preview).toMatch(/Row 2: its State was cleared, but it was done on .*; it is not sent again/);
    expect(preview).toMatch(
      new RegExp(
        `• Row 3: Deposit of ${fund.currency} 12\\.34 to fund ${fund.id}: same as row 2, done on .*; it is sent again only because you confirm it as the same\\.`,
      ),
    );
    run();
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done"]);
    expect(String(wb.outbox()[0]?.result)).toMatch(/State was restored/);
    expect(await movements(fund.id, 1, 1_234)).toBe(2);
    // Nothing is left to send: the next run says so and sends nothing.
    expect(wb.menu("runOutbox", ["OK"])).toMatchObject({ ok: true, result: null });
    expect(await movements(fund.id, 1, 1_234)).toBe(2);
  });
});

describe("answers that do not say the write was refused", () => {
  it("a 429 after the deposit was applied: Unknown, then settled by reading; one deposit", async () => {
    await wb.faults([
      { endpoint: "depositMoneyToFund", fault: "status", status: 429, apply: true, retryAfter: 1, times: 1 },
    ]);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "4.29" }]);
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Unknown" });
    pastTheWindow();
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Done" });
    expect(await movements(fund.id, 1, 429)).toBe(1);
  });

  it("an error inside a 200 beside the fund it answers (applied, then failed): Unknown, then settled by reading; one deposit", async () => {
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "error-in-200", apply: true, times: 1 }]);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "2.01" }]);
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Unknown" });
    pastTheWindow();
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Done" });
    expect(await movements(fund.id, 1, 201)).toBe(1);
  });

  it("a deposit answered 200 with an empty body: Unknown, then settled by reading; one deposit", async () => {
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "empty-200", times: 1 }]);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "2.03" }]);
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Unknown" });
    expect(String(wb.outbox()[0]?.result)).toContain("not JSON: (empty)");
    pastTheWindow();
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Done" });
    expect(await movements(fund.id, 1, 203)).toBe(1);
  });

  it("a proxy's HTML 502 page after the deposit was applied: Unknown, its words without markup; one deposit", async () => {
    await wb.faults([
      { endpoint: "depositMoneyToFund", fault: "html-page", status: 502, apply: true, times: 1 },
    ]);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "2.04" }]);
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Unknown" });
    const result = String(wb.outbox()[0]?.result);
    expect(result).toContain("HTTP 502: 502 Bad Gateway: 502 Bad Gateway nginx");
    expect(result).not.toMatch(/<|font-family/);
    pastTheWindow();
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Done" });
    expect(await movements(fund.id, 1, 204)).toBe(1);
  });

  it("an error inside a 200 alone: Refused, nothing moved", async () => {
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "error-in-200", times: 1 }]);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "2.02" }]);
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Refused" });
    expect(String(wb.outbox()[0]?.result)).toContain("injected error-in-200 fault");
    expect(await movements(fund.id, 1, 202)).toBe(0);
  });

  it("an amount whose totals would not read back exactly is refused before sending", async () => {
    const before = await wb.fund(fund.id);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "9999999999999.99" }]);
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Refused" });
    expect(String(wb.outbox()[0]?.result)).toMatch(/Deposits would reach .* above 9999999999999\.99/);
    expect((await wb.fund(fund.id)).depositsCents).toBe(before.depositsCents);
  });
});

describe("the cells cannot decide what is sent", () => {
  it("a typed Unknown row with a forged Snapshot moves nothing, on any fund", async () => {
    const before = await wb.state();
    const forged = JSON.stringify({
      key: "forged",
      at: "2024-06-30T00:00:00.000Z",
      request: { operation: "deposit", fundId: other.id, amount: 1_234_567 },
      fund: { id: other.id, transactions: 0, matching: 999, deposits: 0, charges: 0 },
    });
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "1.00" }]);
    wb.emulator.typeCells("Outbox", "A2", [["Unknown"]]);
    wb.emulator.typeCells("Outbox", "U2:V2", [["forged", `'${forged}`]]);
    pastTheWindow();
    run();
    const after = await wb.state();
    expect(after.funds.map((f) => f.balanceCents)).toEqual(before.funds.map((f) => f.balanceCents));
    expect(wb.outbox()[0]).toMatchObject({ state: "Refused" });
  });
});

describe("the confirmation names every movement", () => {
  it("lists each pending amount and target, and each interrupted row that may be sent again", async () => {
    await wb.faults([{ endpoint: "withdrawMoneyFromFund", fault: "drop-before-apply", times: 1 }]);
    wb.typeOutbox([{ operation: "Withdraw", targetId: fund.id, amount: "3.00" }]);
    run();
    wb.typeOutbox([{ operation: "Deposit", targetId: other.id, amount: "8.00" }], 3);
    pastTheWindow();
    wb.emulator.answers.length = 0;
    wb.emulator.answers.push("NO" as never, "OK" as never);
    ok(wb.emulator.tryRun("runOutbox", [], { as: "menu" }));
    const question = wb.emulator.ui.dialogs
      .filter((d) => String(d.prompt).includes("Send these operations now?"))
      .at(-1);
    const text = String(question?.prompt);
    expect(text).toContain(
      `• Row 2, interrupted: Withdrawal of ${moneyText(300, fund.currency, "en")} from fund ${fund.id}. Checked against the service first; sent again only if it was not applied.`,
    );
    expect(text).toContain(`• Row 3: Deposit of ${moneyText(800, other.currency, "en")} to fund ${other.id}`);
    expect(text).toContain("Totals include interrupted rows that may be sent again.");
  });
});

describe("the Fund sidebar follows the same rules", () => {
  it("a deposit whose answer timed out is never re-sent by a second click; opening the fund later settles it", async () => {
    const before = await movements(fund.id, 1, 2_222);
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "hold", times: 1 }]);
    const form = (id: string) => ({ requestId: id, fields: { Id: fund.id, DepositAmount: "22.22" } });
    const first = wb.sidebar("depositToFund", form("click-one-0001")) as { kind: string; message: string };
    expect(first.kind).toBe("unknown");
    expect(first.message).toMatch(
      /may still land\. Nothing more is sent for it; open the fund again after \d\d:\d\d/,
    );
    const second = wb.sidebar("depositToFund", form("click-two-0002")) as { kind: string; message: string };
    expect(second.kind).toBe("refused");
    expect(second.message).toMatch(
      /^Not sent: the earlier request \(Deposit of [A-Z]{3} 22\.22 to fund \d+\) got no answer/,
    );
    await wb.releaseHeld();
    await until(async () => (await movements(fund.id, 1, 2_222)) === before + 1);
    pastTheWindow();
    const view = wb.sidebar("getFundSidebarView", { fundId: fund.id }) as { notice: string };
    expect(view.notice).toBe(
      `The earlier request (Deposit of ${fund.currency} 22.22 to fund ${fund.id}) that got no answer had been applied.`,
    );
    expect(await movements(fund.id, 1, 2_222)).toBe(before + 1);
  }, 60_000);
});
