import { describe, expect, it } from "vitest";
import type { CallEvent } from "../../src/api/client";
import { type AuditSink, auditCompanyCell, createAuditLog } from "../../src/audit/log";
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

/** A deposit to fund 4 about to be sent. */
const DEPOSIT: CallEvent = {
  ...base,
  phase: "before",
  endpoint: "depositMoneyToFund",
  kind: "write",
  method: "POST",
  params: { Id: 4, DepositAmount: 10 },
  recordId: 4,
};

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
    const write = DEPOSIT;
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

describe("the company of the audited calls", () => {
  const read = (token: string): CallEvent => ({
    ...base,
    phase: "after",
    endpoint: "getFunds",
    kind: "read",
    method: "GET",
    params: { Page: 1, token },
    status: 401,
    outcome: "error",
    message: `Bearer ${token} refused`,
    durationMs: 5,
  });
  const write = DEPOSIT;
  const context = (secrets: string[]) => ({
    user: "u",
    source: "menu" as const,
    secrets,
    now: () => new Date(base.at),
    reads: "every" as const,
  });

  it("a named company's rows, writes and reads, say `Name (key)`, and never its token", () => {
    const { rows, s } = sink();
    const token = "tok-alpha-secret";
    const log = createAuditLog(s, context([token]));
    const audit = callAudit(log, () => "Deposit", { key: "c7k2p0qx", name: "Alpha" });
    audit.onCall(write);
    audit.onCall({ ...write, phase: "after", status: 200, outcome: "ok", durationMs: 80 });
    audit.onCall(read(token));
    log.flush();
    expect(rows.map((r) => r.company)).toEqual(["Alpha (c7k2p0qx)", "Alpha (c7k2p0qx)"]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("a one-company document's unnamed first company leaves the cell empty, as no company given does", () => {
    for (const company of [{ key: "c0", name: "" }, undefined]) {
      const { rows, s } = sink();
      const log = createAuditLog(s, context([]));
      callAudit(log, () => "Refresh funds", company).onCall(read("t"));
      log.flush();
      expect(rows[0]?.company).toBe("");
    }
    expect(auditCompanyCell({ key: "c0", name: "Main office" })).toBe("Main office (c0)");
  });

  it("the summed row of reads from two companies names each once", () => {
    const { rows, s } = sink();
    const log = createAuditLog(s, { ...context(["tok-a", "tok-b"]), reads: "summed" });
    const alpha = callAudit(log, () => "Refresh funds", { key: "c7k2p0qx", name: "Alpha" });
    const beta = callAudit(log, () => "Refresh funds", { key: "cb3m9z1a", name: "Beta" });
    alpha.onCall(read("tok-a"));
    beta.onCall(read("tok-b"));
    alpha.onCall(read("tok-a"));
    log.flush();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.company).toBe("Alpha (c7k2p0qx); Beta (cb3m9z1a)");
    expect(JSON.stringify(rows)).not.toMatch(/tok-a|tok-b/);
  });

  it("a company name holding a token is redacted like every other text", () => {
    const { rows, s } = sink();
    const log = createAuditLog(s, context(["tok-in-name"]));
    callAudit(log, () => "Refresh funds", { key: "c7k2p0qx", name: "Alpha tok-in-name" }).onCall(read("x"));
    log.flush();
    expect(rows[0]?.company).not.toContain("tok-in-name");
    expect(rows[0]?.company).toMatch(/^Alpha .* \(c7k2p0qx\)$/);
  });
});
