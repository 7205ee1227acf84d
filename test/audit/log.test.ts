import { describe, expect, it } from "vitest";
import { type AuditSink, createAuditLog, planRotation } from "../../src/audit/log";
import type { AuditRowSource } from "../../src/sheets/columns";

/** A sink that keeps rows in memory and notes every call, like the audit sheet would. */
function memorySink() {
  const rows: AuditRowSource[] = [];
  const calls: string[] = [];
  const sink: AuditSink = {
    append(batch) {
      calls.push(`append:${batch.length}`);
      rows.push(...batch);
      return rows.length - batch.length + 2;
    },
    update(rowNumber, row) {
      calls.push(`update:${rowNumber}`);
      rows[rowNumber - 2] = row;
    },
    flush() {
      calls.push("flush");
    },
  };
  return { rows, calls, sink };
}

const token = "secret-token-123";
const clock = { t: 0 };
const context = {
  user: "ana@example.com",
  source: "outbox" as const,
  secrets: [token],
  now: () => {
    clock.t += 250;
    return new Date(1_700_000_000_000 + clock.t);
  },
};

describe("audit log", () => {
  it("writes and flushes a write's row before it is sent, then completes the same row", () => {
    const { rows, calls, sink } = memorySink();
    const log = createAuditLog(sink, context);
    const handle = log.begin({
      action: "Deposit",
      method: "post",
      endpoint: "depositMoneyToFund",
      params: { Id: 7, IdAdmin: 1, DepositAmount: 10.5, token },
      recordId: 7,
    });
    expect(calls).toEqual(["append:1", "flush"]);
    expect(rows[0]?.outcome).toBe("sending");
    expect(rows[0]?.method).toBe("POST");
    handle.complete({ outcome: "ok", httpStatus: 200, message: `done ${token}` });
    handle.complete({ outcome: "error" });
    expect(calls).toEqual(["append:1", "flush", "update:2"]);
    expect(rows[0]).toMatchObject({
      outcome: "ok",
      httpStatus: 200,
      recordId: "7",
      user: "ana@example.com",
      source: "outbox",
    });
    expect(rows[0]?.durationMs).toBe(250);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("keeps the row of a write that never completed as 'sending'", () => {
    const { rows, sink } = memorySink();
    createAuditLog(sink, context).begin({
      action: "Withdraw",
      method: "POST",
      endpoint: "withdrawMoneyFromFund",
    });
    expect(rows.map((r) => r.outcome)).toEqual(["sending"]);
  });

  it("with every read chosen, appends each read's row in one batch", () => {
    const { rows, calls, sink } = memorySink();
    const log = createAuditLog(sink, { ...context, reads: "every" });
    for (let i = 1; i <= 3; i++) {
      log.recordRead(
        { action: "Refresh funds", method: "GET", endpoint: "getFunds", params: { Page: i } },
        { outcome: "ok", httpStatus: 200 },
      );
    }
    expect(log.pending()).toBe(3);
    log.flush();
    log.flush();
    expect(calls).toEqual(["append:3"]);
    expect(rows.map((r) => r.parameters)).toEqual(['{"Page":1}', '{"Page":2}', '{"Page":3}']);
  });

  it("sums up a run's reads in one row, written at the first flush and brought up to date after", () => {
    const { rows, calls, sink } = memorySink();
    const log = createAuditLog(sink, context);
    const read = (endpoint: string, outcome: "ok" | "error", durationMs: number) =>
      log.recordRead(
        { action: "Refresh all", method: "GET", endpoint, params: { Page: 1 } },
        outcome === "ok"
          ? { outcome, httpStatus: 200, durationMs }
          : { outcome, httpStatus: 503, durationMs, message: `503 for Bearer ${token}` },
      );
    read("getFunds", "ok", 100);
    read("getFunds", "ok", 120);
    expect(log.pending()).toBe(1);
    log.flush();
    read("getFund", "error", 30);
    read("getFund", "ok", 50);
    log.flush();
    log.flush();
    expect(calls).toEqual(["append:1", "update:2"]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: "Refresh all",
      method: "GET",
      endpoint: "getFunds, getFund",
      parameters: "",
      outcome: "error",
      httpStatus: 503,
      durationMs: 300,
      message: "4 calls, 3 pages read. 1 call did not succeed; the last: 503 for Bearer [redacted]",
    });
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("names in the summed row each action its reads were for, once", () => {
    const { rows, sink } = memorySink();
    const log = createAuditLog(sink, context);
    for (const action of ["Deposit · k1", "Deposit · k1", "Withdraw · k2"])
      log.recordRead({ action, method: "GET", endpoint: "getFund" }, { outcome: "ok" });
    log.flush();
    expect(rows[0]).toMatchObject({ action: "Deposit · k1; Withdraw · k2", endpoint: "getFund" });
    expect(rows[0]?.message).toBe("3 calls, 3 pages read.");
  });

  it("says the summed row in the document's language", () => {
    const { rows, sink } = memorySink();
    const log = createAuditLog(sink, { ...context, language: "es" });
    log.recordRead({ action: "Probar conexión", method: "GET", endpoint: "getFunds" }, { outcome: "ok" });
    log.flush();
    expect(rows[0]?.message).toBe("1 llamada, 1 página leída.");
  });

  it("gives a write its target, amount and currency in columns of their own", () => {
    const { rows, sink } = memorySink();
    createAuditLog(sink, context)
      .begin({
        action: "Deposit · k1",
        method: "POST",
        endpoint: "depositMoneyToFund",
        target: "Fund 12 · Petty cash",
        amountCents: 1_234_567,
        currency: "CLP",
      })
      .complete({ outcome: "ok", httpStatus: 200 });
    expect(rows[0]).toMatchObject({
      target: "Fund 12 · Petty cash",
      amountCents: 1_234_567,
      currency: "CLP",
      outcome: "ok",
    });
  });

  it("plans rotation so the sheet and its archive stay bounded", () => {
    expect(planRotation(100, 0, { maxRows: 100, maxArchiveRows: 300 })).toEqual({
      moveToArchive: 0,
      dropFromArchive: 0,
    });
    expect(planRotation(101, 0, { maxRows: 100, maxArchiveRows: 300 })).toEqual({
      moveToArchive: 21,
      dropFromArchive: 0,
    });
    expect(planRotation(101, 290, { maxRows: 100, maxArchiveRows: 300 })).toEqual({
      moveToArchive: 21,
      dropFromArchive: 11,
    });
  });
});
