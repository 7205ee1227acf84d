import { describe, expect, it } from "vitest";
import {
  acknowledgeCheckedWrite,
  checksToAcknowledge,
  type FormContext,
  type FormOutcome,
  once,
  type RecentSubmissions,
  readSubmission,
  recordedOutcome,
  submitWrite,
} from "../../src/outbox/forms";
import { IN_FLIGHT_WINDOW_MS, isUnsettled } from "../../src/outbox/records";
import { formWords } from "../../src/outbox/words";
import { FakeAudit, FakeClock, FakeLedger, formatUtc, memoryRecords } from "./fakes";

function context(ledger: FakeLedger, clock = new FakeClock()): FormContext & { applied: unknown[] } {
  const applied: unknown[] = [];
  let n = 0;
  return {
    service: ledger,
    audit: new FakeAudit(),
    now: clock.now,
    words: formWords("en"),
    numbers: "en",
    adminId: 1,
    newKey: () => `k${++n}`,
    applyResult: (r) => applied.push(r),
    records: memoryRecords(),
    format: formatUtc,
    by: "writer-a",
    applied,
  };
}

describe("readSubmission: what a form sent, checked before anything else", () => {
  it("takes the operation's fields with text, numbers and yes/no values", () => {
    expect(
      readSubmission("deposit", { requestId: "abcdefgh12", fields: { Id: 5, DepositAmount: "1.50" } }),
    ).toEqual({
      ok: true,
      requestId: "abcdefgh12",
      fields: { Id: 5, DepositAmount: "1.50" },
    });
  });

  it("refuses anything else, naming what was wrong", () => {
    expect(readSubmission("deposit", null)).toEqual({ ok: false, detail: "not a form" });
    expect(readSubmission("deposit", { requestId: "short", fields: {} })).toEqual({
      ok: false,
      detail: "requestId",
    });
    expect(readSubmission("deposit", { requestId: "abcdefgh12", fields: [] })).toEqual({
      ok: false,
      detail: "fields",
    });
    expect(readSubmission("deposit", { requestId: "abcdefgh12", fields: { IdAdmin: 1 } })).toEqual({
      ok: false,
      detail: "IdAdmin",
    });
    expect(readSubmission("deposit", { requestId: "abcdefgh12", fields: { Id: { $gt: 1 } } })).toEqual({
      ok: false,
      detail: "Id",
    });
  });
});

describe("submitWrite: one send, an unknown outcome settled by one read", () => {
  it("done: the sheet is updated from the answer", () => {
    const ledger = new FakeLedger();
    ledger.addFund({ id: 1, balance: 1000 });
    const ctx = context(ledger);
    const outcome = submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "2" });
    expect(outcome).toMatchObject({ kind: "done", message: "Done. Fund 1: balance CLP 12." });
    expect(ctx.applied).toHaveLength(1);
  });

  it("drop after apply: unknown, nothing more sent for that fund until it can no longer land, then settled as applied", () => {
    const ledger = new FakeLedger();
    ledger.addFund({ id: 1, balance: 1000 });
    ledger.faults.push({ endpoint: "deposit", when: "after" });
    const clock = new FakeClock();
    const ctx = context(ledger, clock);
    const outcome = submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "2" });
    expect(outcome).toMatchObject({ kind: "unknown", applied: null });
    expect(outcome.kind === "unknown" && outcome.message).toBe(
      "No answer came in time: Deposit of CLP 2 to fund 1 may still land. Nothing more is sent for it; open the fund again after 09:03 to see whether it was applied.\n\nDetails: connection dropped",
    );
    // A second click (a new request id) while the first may still land: refused, nothing sent.
    const second = submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "2" });
    expect(second).toEqual({
      kind: "refused",
      message:
        "Not sent: the earlier request (Deposit of CLP 2 to fund 1) got no answer and may still land until 09:03. Open the fund again after that time: the add-on checks it first.",
    });
    expect(ledger.sentOf("deposit")).toBe(1);
    // After the window: the first is found applied and the user is told; nothing new is sent
    // in that click (the form may still show the same amount).
    clock.advance(IN_FLIGHT_WINDOW_MS);
    const third = submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "2" });
    expect(third).toEqual({
      kind: "refused",
      message:
        "The earlier request (Deposit of CLP 2 to fund 1) that got no answer had been applied. Nothing new was sent: check the fund, then press again to send this one.",
    });
    expect(ledger.sentOf("deposit")).toBe(1);
    expect(ledger.funds.get(1)?.balance).toBe(1200);
    // Pressed again, knowingly: sent once.
    const fourth = submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "2" });
    expect(fourth).toMatchObject({ kind: "done", message: "Done. Fund 1: balance CLP 14." });
    expect(ledger.sentOf("deposit")).toBe(2);
    expect(ledger.funds.get(1)?.balance).toBe(1400);
    // Both finished, kept with what each page was told (a repeated request id gets it back).
    expect(ctx.records.all().filter(isUnsettled)).toEqual([]);
    expect(ctx.records.all().map((r) => [r.state, r.answer?.slice(0, 20)])).toEqual([
      ["done", "The earlier request "],
      ["done", "Done. Fund 1: balanc"],
    ]);
  });

  it("an earlier request reading cannot settle holds the fund until its writer acknowledges; a colleague cannot release it", () => {
    const ledger = new FakeLedger();
    ledger.addFund({ id: 1, balance: 1000 });
    ledger.faults.push({ endpoint: "deposit", when: "after" });
    const clock = new FakeClock();
    const ctx = context(ledger, clock);
    expect(submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "2" })).toMatchObject({ kind: "unknown" });
    // Someone else deposits the same amount meanwhile: counting cannot tell which is ours.
    ledger.send({ operation: "deposit", fundId: 1, amount: 200 });
    clock.advance(IN_FLIGHT_WINDOW_MS);
    const writerTold = {
      kind: "refused",
      message:
        'Not sent: your earlier request (Deposit of CLP 2 to fund 1) cannot be settled by reading the fund (more matching movements than expected: check the fund). Check the fund in the service, then press "I checked the fund" in the Fund sidebar; until then nothing more is sent on this fund. If the movement is not there, send it again afterwards.',
    };
    expect(submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "2" })).toEqual(writerTold);
    // A colleague opening or using the fund first sees it held by someone else's write, and
    // does not release it (nor may they acknowledge it).
    const colleague = { ...ctx, by: "writer-b" };
    const held = submitWrite(colleague, "deposit", { Id: 1, DepositAmount: "3" });
    expect(held).toMatchObject({ kind: "refused" });
    expect(held.kind === "refused" && held.message).toContain("held by a colleague's earlier request");
    const key = (ctx.records.all()[0] as { key: string }).key;
    expect(checksToAcknowledge(colleague, 1)).toEqual([]);
    expect(acknowledgeCheckedWrite(colleague, key)).toMatchObject({ kind: "refused" });
    // The writer is still told, however many times the fund is opened or used.
    expect(submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "2" })).toEqual(writerTold);
    expect(ledger.sentOf("deposit")).toBe(2);
    expect(checksToAcknowledge(ctx, 1)).toEqual([
      {
        key,
        sent: "Deposit of CLP 2 to fund 1",
        message: "more matching movements than expected: check the fund",
      },
    ]);
    // Acknowledged by the writer: the fund is no longer held.
    expect(acknowledgeCheckedWrite(ctx, key)).toMatchObject({ kind: "done" });
    expect(submitWrite(colleague, "deposit", { Id: 1, DepositAmount: "3" })).toMatchObject({ kind: "done" });
    expect(ledger.sentOf("deposit")).toBe(3);
    expect(ctx.records.all().filter(isUnsettled)).toEqual([]);
  });

  it("drop before apply: unknown; after the window the earlier one is found not applied", () => {
    const ledger = new FakeLedger();
    ledger.addFund({ id: 1, balance: 1000 });
    ledger.faults.push({ endpoint: "withdraw", when: "before" });
    const clock = new FakeClock();
    const ctx = context(ledger, clock);
    const outcome = submitWrite(ctx, "withdraw", { Id: 1, WithdrawAmount: "2" });
    expect(outcome).toMatchObject({ kind: "unknown", applied: null });
    expect(ledger.funds.get(1)?.balance).toBe(1000);
    clock.advance(IN_FLIGHT_WINDOW_MS);
    const again = submitWrite(ctx, "withdraw", { Id: 1, WithdrawAmount: "2" });
    expect(again).toEqual({
      kind: "refused",
      message:
        "The earlier request (Withdrawal of CLP 2 from fund 1) that got no answer had not been applied. Nothing new was sent: check the fund, then press again to send this one.",
    });
    expect(ledger.funds.get(1)?.balance).toBe(1000);
    expect(submitWrite(ctx, "withdraw", { Id: 1, WithdrawAmount: "2" })).toMatchObject({ kind: "done" });
    expect(ledger.funds.get(1)?.balance).toBe(800);
    expect(ctx.records.all().map((r) => r.state)).toEqual(["refused", "done"]);
  });

  it("a sheet that cannot be updated after a done deposit or a settlement loses neither, and sends nothing twice", () => {
    const ledger = new FakeLedger();
    ledger.addFund({ id: 1, balance: 1000 });
    ledger.faults.push({ endpoint: "deposit", when: "after" });
    const clock = new FakeClock();
    // A co-editor protected the Funds sheet: every update of it throws.
    const ctx = {
      ...context(ledger, clock),
      applyResult: () => {
        throw new Error("You are trying to edit a protected cell or object.");
      },
    };
    expect(submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "2" })).toMatchObject({ kind: "unknown" });
    clock.advance(IN_FLIGHT_WINDOW_MS);
    // The settlement is kept and told, never "Nothing was changed"; nothing new is sent.
    const settled = submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "2" });
    expect(settled).toMatchObject({ kind: "refused" });
    expect(settled.kind === "refused" && settled.message).toMatch(
      /^The earlier request .* had been applied\./,
    );
    expect(settled.kind === "refused" && settled.message).not.toContain("Nothing was changed");
    expect(ctx.records.all().map((r) => r.state)).toEqual(["done"]);
    expect(ledger.sentOf("deposit")).toBe(1);
    // A deposit answered done is done, its record finished, whatever the sheet does.
    expect(submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "2" })).toMatchObject({ kind: "done" });
    expect(ctx.records.all().map((r) => r.state)).toEqual(["done", "done"]);
    expect(ledger.sentOf("deposit")).toBe(2);
    // And the next click sends at once: nothing is left to settle.
    expect(submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "2" })).toMatchObject({ kind: "done" });
    expect(ledger.sentOf("deposit")).toBe(3);
  });

  it("an unknown fund is refused before anything is sent", () => {
    const ledger = new FakeLedger();
    const outcome = submitWrite(context(ledger), "withdraw", { Id: 9, WithdrawAmount: "2" });
    expect(outcome).toEqual({
      kind: "refused",
      message:
        "The service refused the request. Nothing was changed. Check the values and try again.\n\nDetails: Id: no fund 9",
    });
    expect(ledger.sent).toEqual([]);
  });
});

describe("recordedOutcome: a request id answered from the records", () => {
  it("gives a finished form write's answer to the same writer only, and says when it is still unsettled", () => {
    const ledger = new FakeLedger();
    ledger.addFund({ id: 1, balance: 1000 });
    const ctx = { ...context(ledger), requestId: "req-000001" };
    const done = submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "2" });
    expect(done.kind).toBe("done");
    expect(recordedOutcome(ctx.records, "writer-a", "req-000001", ctx.words)).toEqual({
      kind: "done",
      message: (done as { message: string }).message,
    });
    expect(recordedOutcome(ctx.records, "writer-b", "req-000001", ctx.words)).toBeNull();
    expect(recordedOutcome(ctx.records, "writer-a", "req-000002", ctx.words)).toBeNull();
    ledger.faults.push({ endpoint: "withdraw", when: "after" });
    submitWrite({ ...ctx, requestId: "req-000003" }, "withdraw", { Id: 1, WithdrawAmount: "1" });
    expect(recordedOutcome(ctx.records, "writer-a", "req-000003", ctx.words)).toBe("pending");
  });
});

describe("once: a request id is answered once", () => {
  it("answers a repeated id with the first result, and says when it is still being sent", () => {
    const store = new Map<string, FormOutcome | "pending">();
    const recent: RecentSubmissions = {
      get: (id) => store.get(id) ?? null,
      put: (id, v) => void store.set(id, v),
    };
    let sends = 0;
    const send = (): FormOutcome => {
      sends += 1;
      return { kind: "done", message: "Done." };
    };
    expect(once(recent, "r1", formWords("en"), send)).toEqual({ kind: "done", message: "Done." });
    expect(once(recent, "r1", formWords("en"), send)).toEqual({
      kind: "done",
      message: "Done.",
      repeated: true,
    });
    store.set("r2", "pending");
    expect(once(recent, "r2", formWords("en"), send)).toMatchObject({ kind: "unknown", repeated: true });
    expect(sends).toBe(1);
  });
});

describe("submitWrite: amounts as typed in the user's language", () => {
  it("reads a decimal comma in Spanish, and refuses an amount whose separator may group thousands", () => {
    const ledger = new FakeLedger();
    ledger.addFund({ id: 1, balance: 1000 });
    const ctx = { ...context(ledger), words: formWords("es"), numbers: "es" as const };
    expect(submitWrite(ctx, "deposit", { Id: 1, DepositAmount: "1234,50" })).toMatchObject({ kind: "done" });
    expect(ledger.funds.get(1)?.balance).toBe(1000 + 123450);
    const refused = submitWrite(ctx, "withdraw", { Id: 1, WithdrawAmount: "1.234" });
    expect(refused).toMatchObject({ kind: "invalid", problems: [{ field: "WithdrawAmount" }] });
    expect(refused.kind === "invalid" && refused.problems[0]?.message).toContain("sin separador de miles");
    const english = submitWrite(context(ledger), "deposit", { Id: 1, DepositAmount: "1,234" });
    expect(english.kind === "invalid" && english.problems[0]?.message).toContain(
      "without a thousands separator",
    );
  });
});
