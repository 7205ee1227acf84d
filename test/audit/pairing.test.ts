/**
 * A write's two reports from the real client meet in one audit row: opened ("sending") before
 * the request leaves, completed after, never a second row, whatever record id each report has.
 */
import { describe, expect, it } from "vitest";
import { createClient } from "../../src/api";
import { type AuditSink, createAuditLog } from "../../src/audit/log";
import { callAudit } from "../../src/audit/observer";
import type { AuditRowSource } from "../../src/sheets/columns";
import { fakeClock, fixture, ok, type Reply, scriptedTransport } from "../api/fakes";

function recordingSink() {
  const rows: AuditRowSource[] = [];
  const steps: string[] = [];
  const sink: AuditSink = {
    append: (batch) => {
      steps.push(`append ${batch.map((r) => `${r.endpoint}:${r.outcome}`).join(",")}`);
      rows.push(...batch);
      return rows.length - batch.length + 2;
    },
    update: (n, row) => {
      steps.push(`update ${n} ${row.outcome}`);
      rows[n - 2] = row;
    },
    flush: () => steps.push("flush"),
  };
  return { rows, steps, sink };
}

function setup(replies: Reply[]) {
  const { rows, steps, sink } = recordingSink();
  const log = createAuditLog(sink, { user: "u", source: "outbox", secrets: [], now: () => new Date(0) });
  const audit = callAudit(log, () => "Create");
  const t = scriptedTransport(replies);
  const client = createClient({
    transport: t.transport,
    clock: fakeClock().clock,
    token: "tok-12345678",
    baseUrl: "https://sandbox.test/v1",
    onCall: (e) => {
      // The row must be on the sheet before the request leaves.
      if (e.phase === "before") steps.push(`before (sent so far: ${t.sent.length})`);
      audit.onCall(e);
    },
  });
  return { rows, steps, log, audit, client };
}

const newFund = {
  IdEmployee: 42,
  IdAdmin: 7,
  FundName: "Fondo nuevo",
  FundCurrency: "USD",
  FundAmount: "250.75",
};

describe("pairing a write's reports by the client's call id", () => {
  it("a created fund (record id known only after) completes its own sending row", () => {
    const s = setup([ok(fixture("createFund.json"))]);
    s.client.createFund(newFund);
    s.log.flush();
    expect(s.steps.slice(0, 3)).toEqual(["before (sent so far: 0)", "append createFund:sending", "flush"]);
    expect(s.steps).toContain("update 2 ok");
    expect(s.rows).toHaveLength(1);
    expect(s.rows[0]).toMatchObject({ outcome: "ok", recordId: "300" });
    expect(s.audit.requests()).toBe(1);
  });

  it("two writes to the same fund in one run each close their own row", () => {
    const s = setup([ok(fixture("depositMoneyToFund.json")), { transportError: "Timeout: x" }]);
    s.client.depositMoneyToFund({ Id: 101, IdAdmin: 7, DepositAmount: "10.00" });
    expect(() => s.client.depositMoneyToFund({ Id: 101, IdAdmin: 7, DepositAmount: "20.00" })).toThrow();
    s.log.flush();
    expect(s.rows.map((r) => [r.outcome, r.recordId])).toEqual([
      ["ok", "101"],
      ["unknown", "101"],
    ]);
  });
});
