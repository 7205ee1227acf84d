/** The Outbox's audit rows (src/outbox/audit.ts) name the company the writes went to. */
import { describe, expect, it } from "vitest";
import type { CallEvent } from "../../src/api/client";
import { type AuditSink, createAuditLog } from "../../src/audit/log";
import { writeAudit } from "../../src/outbox/audit";
import type { WriteRequest } from "../../src/outbox/requests";
import { auditWords } from "../../src/outbox/run/words";
import type { AuditRowSource } from "../../src/sheets/columns";

function memoryLog(secrets: string[]) {
  const rows: AuditRowSource[] = [];
  const sink: AuditSink = {
    append: (batch) => {
      rows.push(...batch);
      return rows.length - batch.length + 2;
    },
    update: (n, row) => {
      rows[n - 2] = row;
    },
    flush: () => {},
  };
  const log = createAuditLog(sink, {
    user: "ana@example.com",
    source: "outbox",
    secrets,
    now: () => new Date(1_700_000_000_000),
    reads: "every",
  });
  return { rows, log };
}

const deposit: WriteRequest = { operation: "deposit", fundId: 12, amount: 1_000 };
const event: CallEvent = {
  url: "http://x/v1/depositMoneyToFund",
  attempt: 1,
  at: 1_700_000_000_000,
  phase: "before",
  endpoint: "depositMoneyToFund",
  kind: "write",
  method: "POST",
  params: { Id: 12, DepositAmount: 10 },
  recordId: 12,
};

/** One deposit sent and answered, then a verdict noted, as the write path reports them. */
function depositAndNote(audit: ReturnType<typeof writeAudit>): void {
  const handle = audit.port.beforeWrite({ key: "k1", request: deposit });
  audit.onCall(event);
  audit.onCall({ ...event, phase: "after", status: 200, outcome: "ok", durationMs: 40 });
  audit.port.afterWrite(handle, { outcome: "ok", message: "" });
  audit.port.note({ key: "k1", request: deposit, message: "settled" });
}

describe("the Outbox's audit rows", () => {
  it("name a named company as `Name (key)`, the write's row and a verdict's alike, no token in any", () => {
    const token = "tok-alpha-777";
    const { rows, log } = memoryLog([token]);
    depositAndNote(writeAudit(log, auditWords("en"), { key: "c7k2p0qx", name: "Alpha" }));
    expect(rows.map((r) => [r.endpoint, r.company, r.outcome])).toEqual([
      ["depositMoneyToFund", "Alpha (c7k2p0qx)", "ok"],
      ["depositMoneyToFund", "Alpha (c7k2p0qx)", "ok"],
    ]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("leave the cell empty for a one-company document's unnamed company, or when none is given", () => {
    for (const company of [{ key: "c0", name: "" }, undefined]) {
      const { rows, log } = memoryLog([]);
      depositAndNote(writeAudit(log, auditWords("en"), company));
      expect(rows.map((r) => r.company)).toEqual(["", ""]);
    }
  });
});
