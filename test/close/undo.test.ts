/**
 * Undoing a voucher against the sandbox: the reports found by §4.8 IntegrationCode (every page),
 * confirmed, set not integrated once each; nothing sent without the confirmation; a report
 * re-marked under another code meanwhile named and left; a lost call settled by reading.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { createClient } from "../../src/api/client";
import type { HttpRequest, Transport } from "../../src/api/transport";
import { type MarkDeps, type MarkRecord, markVouchers } from "../../src/close/mark";
import type { CloseMark } from "../../src/close/types";
import { type UndoDeps, undoVoucher } from "../../src/close/undo";
import { type SyncTransport, syncTransport } from "../sandbox/sync-transport";

const WINDOW_MS = 180_000;
const CODE = "202605001";
let sandbox: RunningSandbox;
let http: SyncTransport;
let sent: HttpRequest[][];
let now: number;

interface StateReport {
  id: number;
  reportNumber: string;
  status: number;
  integrated: boolean;
  integrationExternalCode: string;
  totalApprovedCents: number;
  currency: string;
  integrationCalls?: number;
  closeDate: string;
}

async function control(method: string, path: string, body?: unknown) {
  const res = await fetch(`${sandbox.origin}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, path).toBe(200);
  return res.json();
}
const reports = async (): Promise<StateReport[]> => (await control("GET", "/state")).reports;

beforeAll(async () => {
  sandbox = await startSandboxThread({ today: "2026-06-15", seed: 9, funds: 20, reports: 600 });
  http = syncTransport();
  await control("POST", "/snapshot", {});
});
afterAll(async () => {
  await http.close();
  await sandbox.close();
});
beforeEach(async () => {
  await control("POST", "/restore", {});
  sent = [];
  now = Date.parse("2026-06-15T12:00:00Z");
});

const counted: Transport = {
  send: (request) => {
    sent.push([request]);
    return http.send(request);
  },
  sendAll: (requests) => {
    sent.push([...requests]);
    return http.sendAll(requests);
  },
};
const writes = () => sent.flat().filter((r) => r.method !== "GET");

function memoryRecords(): MarkDeps["records"] & { map: Map<string, MarkRecord> } {
  const map = new Map<string, MarkRecord>();
  return {
    map,
    all: () => [...map.values()].map((r) => structuredClone(r)),
    put: (r) => void map.set(r.key, structuredClone(r)),
    remove: (key) => void map.delete(key),
  };
}

function client() {
  const clock = { now: () => now, sleep: () => {} };
  return createClient({
    transport: counted,
    baseUrl: sandbox.url,
    token: sandbox.token,
    clock,
    random: () => 0,
  });
}

function deps(records: MarkDeps["records"], confirm: UndoDeps["confirm"] = () => true): UndoDeps {
  const c = client();
  return {
    clientOf: () => c,
    records,
    clock: { now: () => now },
    windowMs: WINDOW_MS,
    batchSize: 25,
    confirm,
  };
}

/** Marks `count` closed reports with CODE (each once), and one more with another code. */
async function marked(count: number): Promise<{ marks: CloseMark[]; other: number }> {
  // Closed within the year the undo searches (the close marks a recent month's reports).
  const open = (await reports()).filter((r) => r.status === 1 && !r.integrated && r.closeDate > "2025-06-15");
  const marks = open.slice(0, count).map((r) => ({
    company: "c0",
    reportId: r.id,
    reportNumber: r.reportNumber,
    voucher: CODE,
    cents: r.totalApprovedCents,
    currency: r.currency,
    integrationDate: "2026-06-01 09:00:00",
  }));
  const other = open[count] as StateReport;
  const records = memoryRecords();
  const c = client();
  const result = markVouchers(
    [
      ...marks,
      {
        ...(marks[0] as CloseMark),
        reportId: other.id,
        reportNumber: other.reportNumber,
        currency: other.currency,
        voucher: "202605002",
      },
    ],
    { clientOf: () => c, records, clock: { now: () => now } },
  );
  expect(result.outcomes.every((o) => o.kind === "done")).toBe(true);
  sent = [];
  return { marks, other: other.id };
}

describe("undoVoucher", () => {
  it("finds the voucher's reports over every page, sends nothing unconfirmed, then sets each not integrated once", async () => {
    const { marks, other } = await marked(40);
    const records = memoryRecords();
    let shown: number[] = [];
    const refused = undoVoucher(
      "c0",
      CODE,
      deps(records, (found) => {
        shown = found.map((f) => f.reportId);
        return false;
      }),
    );
    expect(shown.sort()).toEqual(marks.map((m) => m.reportId).sort());
    expect(refused).toMatchObject({ confirmed: false, outcomes: [] });
    expect(writes()).toEqual([]);
    const done = undoVoucher("c0", CODE, deps(records));
    expect(done.confirmed).toBe(true);
    expect(done.outcomes.map((o) => o.kind)).toEqual(marks.map(() => "done"));
    expect(writes().map((r) => JSON.parse(r.body ?? "{}"))).toEqual(
      expect.arrayContaining([{ Id: marks[0]?.reportId, IntegrationStatus: 0 }]),
    );
    expect(writes().length).toBe(40);
    const byId = new Map((await reports()).map((r) => [r.id, r]));
    for (const m of marks) {
      expect([m.reportId, byId.get(m.reportId)?.integrated, byId.get(m.reportId)?.integrationCalls]).toEqual([
        m.reportId,
        false,
        2,
      ]);
    }
    // The other voucher's report is untouched.
    expect(byId.get(other)).toMatchObject({
      integrated: true,
      integrationExternalCode: "202605002",
      integrationCalls: 1,
    });
    // Again: nothing is found, nothing sent.
    sent = [];
    expect(undoVoucher("c0", CODE, deps(records)).found).toEqual([]);
    expect(writes()).toEqual([]);
  });

  it("names a report re-marked under another code after the confirmation, and leaves it", async () => {
    const { marks } = await marked(3);
    const target = marks[2] as CloseMark;
    const result = undoVoucher(
      "c0",
      CODE,
      deps(memoryRecords(), () => {
        client().setExpenseReportIntegration({
          Id: target.reportId,
          IntegrationStatus: 1,
          IntegrationCode: "ERP-9",
        });
        return true;
      }),
    );
    expect(result.outcomes.find((o) => o.reportId === target.reportId)).toEqual({
      kind: "otherCode",
      reportId: target.reportId,
      voucher: CODE,
      code: "ERP-9",
    });
    const kept = (await reports()).find((r) => r.id === target.reportId);
    expect(kept).toMatchObject({ integrated: true, integrationExternalCode: "ERP-9" });
  });

  it("settles a lost undo by reading: held while it may land, sent once after, each report unmarked once", async () => {
    const { marks } = await marked(5);
    await control("POST", "/faults", {
      rules: [{ endpoint: "setExpenseReportIntegration", fault: "drop-before-apply", times: 1 }],
    });
    const records = memoryRecords();
    const first = undoVoucher("c0", CODE, deps(records));
    expect(first.outcomes.filter((o) => o.kind === "unknown")).toHaveLength(1);
    expect(records.map.size).toBe(1);
    sent = [];
    now += WINDOW_MS - 1000;
    const held = undoVoucher("c0", CODE, deps(records));
    expect(held.outcomes.map((o) => o.kind)).toEqual(["unknown"]);
    expect(writes()).toEqual([]);
    now += 2000;
    const settled = undoVoucher("c0", CODE, deps(records));
    expect(settled.outcomes.map((o) => o.kind)).toEqual(["done"]);
    expect(records.map.size).toBe(0);
    const byId = new Map((await reports()).map((r) => [r.id, r]));
    for (const m of marks)
      expect(byId.get(m.reportId)).toMatchObject({ integrated: false, integrationCalls: 2 });
  });
});
