import { describe, expect, it } from "vitest";
import {
  type FormContext,
  type FormOutcome,
  once,
  type RecentSubmissions,
  readSubmission,
  submitWrite,
} from "../../src/outbox/forms";
import { FakeAudit, FakeClock, FakeLedger } from "./fakes";

function context(ledger: FakeLedger): FormContext & { applied: unknown[] } {
  const applied: unknown[] = [];
  let n = 0;
  return {
    service: ledger,
    audit: new FakeAudit(),
    now: new FakeClock().now,
    language: "en",
    adminId: 1,
    newKey: () => `k${++n}`,
    applyResult: (r) => applied.push(r),
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
    expect(outcome).toMatchObject({ kind: "done", message: "Done. Fund 1: balance CLP 12.00." });
    expect(ctx.applied).toHaveLength(1);
  });

  it("drop after apply: says it was applied and does not send again", () => {
    const ledger = new FakeLedger();
    ledger.addFund({ id: 1, balance: 1000 });
    ledger.faults.push({ endpoint: "deposit", when: "after" });
    const outcome = submitWrite(context(ledger), "deposit", { Id: 1, DepositAmount: "2" });
    expect(outcome).toMatchObject({ kind: "unknown", applied: true });
    expect(ledger.sentOf("deposit")).toBe(1);
    expect(ledger.funds.get(1)?.balance).toBe(1200);
  });

  it("drop before apply: says it was not applied, and leaves sending again to the person", () => {
    const ledger = new FakeLedger();
    ledger.addFund({ id: 1, balance: 1000 });
    ledger.faults.push({ endpoint: "withdraw", when: "before" });
    const outcome = submitWrite(context(ledger), "withdraw", { Id: 1, WithdrawAmount: "2" });
    expect(outcome).toMatchObject({ kind: "unknown", applied: false });
    expect(ledger.funds.get(1)?.balance).toBe(1000);
  });

  it("an unknown fund is refused before anything is sent", () => {
    const ledger = new FakeLedger();
    const outcome = submitWrite(context(ledger), "withdraw", { Id: 9, WithdrawAmount: "2" });
    expect(outcome).toEqual({ kind: "refused", message: "The service refused: Id: no fund 9" });
    expect(ledger.sent).toEqual([]);
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
    expect(once(recent, "r1", "en", send)).toEqual({ kind: "done", message: "Done." });
    expect(once(recent, "r1", "en", send)).toEqual({ kind: "done", message: "Done.", repeated: true });
    store.set("r2", "pending");
    expect(once(recent, "r2", "en", send)).toMatchObject({ kind: "unknown", repeated: true });
    expect(sends).toBe(1);
  });
});
