import { describe, expect, it } from "vitest";
import type { CallEvent } from "../../src/api/client";
import { type AuditSink, createAuditLog } from "../../src/audit/log";
import { callAudit } from "../../src/audit/observer";
import type { AuditRowSource } from "../../src/sheets/columns";

function sink() {
  const rows: AuditRowSource[] = [];
  const log: string[] = [];
  const s: AuditSink = {
    append: (batch) => {
      log.push(`append ${batch.map((r) => `${r.endpoint}:${r.outcome}`).join(",")}`);
      rows.push(...batch);
      return rows.length - batch.length + 2;
    },
    update: (n, row) => {
      log.push(`update ${n} ${row.outcome}`);
      rows[n - 2] = row;
    },
    flush: () => log.push("flush"),
  };
  return { rows, log, s };
}

const base = { url: "http://x/v1/e", attempt: 1, at: 1_700_000_000_000 } as const;

describe("audit of the client's calls", () => {
  it("opens a write's row before it is sent and completes it after; keeps reads for one batch", () => {
    const { rows, log, s } = sink();
    const auditLog = createAuditLog(s, {
      user: "u",
      source: "sidebar",
      secrets: ["tok-secret"],
      now: () => new Date(base.at),
      reads: "every",
    });
    const audit = callAudit(auditLog, () => "Deposit");
    const write: CallEvent = {
      ...base,
      phase: "before",
      endpoint: "depositMoneyToFund",
      kind: "write",
      method: "POST",
      params: { Id: 4, DepositAmount: 10 },
      recordId: 4,
    };
    audit.onCall(write);
    expect(log).toEqual(["append depositMoneyToFund:sending", "flush"]);
    audit.onCall({ ...write, phase: "after", status: 200, outcome: "ok", durationMs: 80 });
    audit.onCall({
      ...base,
      phase: "after",
      endpoint: "getFund",
      kind: "read",
      method: "GET",
      params: { Id: 4 },
      status: 503,
      outcome: "error",
      message: "Bearer tok-secret failed",
      durationMs: 5,
    });
    expect(log).toEqual(["append depositMoneyToFund:sending", "flush", "update 2 ok"]);
    expect(audit.requests()).toBe(2);
    expect(rows[0]).toMatchObject({
      outcome: "ok",
      httpStatus: 200,
      durationMs: 80,
      recordId: "4",
      action: "Deposit",
    });
    auditLog.flush();
    expect(log.at(-1)).toBe("append getFund:error");
    expect(rows[1]).toMatchObject({ httpStatus: 503, parameters: '{"Id":4}' });
    expect(rows[1]?.message).not.toContain("tok-secret");
  });
});
