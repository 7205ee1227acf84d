/**
 * The close's marking engine against the sandbox over real HTTP (the add-on's client, a
 * synchronous transport as UrlFetchApp's): every report marked once, read before and after,
 * interrupted calls settled by reading, a report integrated under another code named, refusals,
 * the time budget, and a kill at every stored step. The sandbox counts the marks it applied to
 * each report (`integrationCalls`), so "never a second mark" is counted, not assumed.
 */
import { describe, expect, it } from "vitest";
import type { CallEvent } from "../../src/api/client";
import { MARK_RECORD_PREFIX, type MarkDeps, markVouchers } from "../../src/close/mark";
import type { CloseMark } from "../../src/close/types";
import {
  closeMarks as closeMarksOf,
  closeSandbox,
  memoryRecords,
  type StateReport,
  WINDOW_MS,
} from "./harness";

const h = closeSandbox({ seed: 5, funds: 20, reports: 400 });
const { control, reports, writes } = h;

const deps = (records = memoryRecords(), more: Partial<MarkDeps> = {}): MarkDeps => h.deps(records, more);

const closeMarks = (count: number) => closeMarksOf(h, count);

async function expectMarkedOnce(marks: readonly CloseMark[]) {
  const byId = new Map((await reports()).map((r) => [r.id, r]));
  for (const m of marks) {
    const r = byId.get(m.reportId) as StateReport;
    expect({ id: m.reportId, code: r.integrationExternalCode, calls: r.integrationCalls }).toEqual({
      id: m.reportId,
      code: m.voucher,
      calls: 1,
    });
  }
}

describe("markVouchers", () => {
  it("marks every report once, read before and after, in three fetchAll rounds a batch", async () => {
    const marks = await closeMarks(60);
    const records = memoryRecords();
    const result = markVouchers(marks, deps(records));
    expect(result.mustContinue).toBe(false);
    expect(result.outcomes.map((o) => o.kind)).toEqual(marks.map(() => "done"));
    expect(result.outcomes.map((o) => o.reportId)).toEqual(marks.map((m) => m.reportId));
    await expectMarkedOnce(marks);
    // 60 reads, 60 writes (PUT), 60 reads back, in batches of 25: 3 batches × 3 rounds.
    expect(h.sent.length).toBe(9);
    expect(h.sent.flat().length).toBe(180);
    expect(writes().every((r) => r.method === "PUT")).toBe(true);
    expect(records.map.size).toBe(0);
    // Again: read, found done, nothing sent.
    h.sent = [];
    const again = markVouchers(marks, deps(records));
    expect(again.outcomes.every((o) => o.kind === "done")).toBe(true);
    expect(writes()).toEqual([]);
    await expectMarkedOnce(marks);
  });

  it("hands every call to the client's call observer (what the Audit sheet records): a write before it leaves and after", async () => {
    const marks = await closeMarks(30);
    const events: CallEvent[] = [];
    const client = h.client({ onCall: (e) => events.push(e) });
    markVouchers(marks, { ...deps(), clientOf: () => client });
    const after = events.filter((e) => e.phase === "after");
    const before = events.filter((e) => e.phase === "before");
    expect(after.length).toBe(h.sent.flat().length);
    expect(before.map((e) => e.recordId).sort()).toEqual(marks.map((m) => m.reportId).sort());
    // Each write's before is paired with its after by callId.
    for (const b of before) expect(after.filter((e) => e.callId === b.callId)).toHaveLength(1);
  });

  it("goes through a service that takes the mark by POST only (PUT 405, then POST once)", async () => {
    await control("POST", "/methods", { setExpenseReportIntegration: "POST" });
    const marks = await closeMarks(5);
    const result = markVouchers(marks, deps());
    expect(result.outcomes.every((o) => o.kind === "done")).toBe(true);
    expect(writes().map((r) => r.method)).toEqual([...marks.map(() => "PUT"), ...marks.map(() => "POST")]);
    await expectMarkedOnce(marks);
    await control("POST", "/methods", { setExpenseReportIntegration: "PUT" });
  });

  it("names a report integrated meanwhile under another code and does not overwrite it", async () => {
    const marks = await closeMarks(4);
    const taken = marks[1] as CloseMark;
    const other = h.client({ transport: h.http });
    other.setExpenseReportIntegration({
      Id: taken.reportId,
      IntegrationStatus: 1,
      IntegrationCode: "ERP-77",
    });
    const result = markVouchers(marks, deps());
    expect(result.outcomes[1]).toEqual({
      kind: "otherCode",
      reportId: taken.reportId,
      voucher: taken.voucher,
      code: "ERP-77",
    });
    expect(writes().map((r) => JSON.parse(r.body ?? "{}").Id)).not.toContain(taken.reportId);
    const kept = (await reports()).find((r) => r.id === taken.reportId) as StateReport;
    expect([kept.integrationExternalCode, kept.integrationCalls]).toEqual(["ERP-77", 1]);
    await expectMarkedOnce(marks.filter((m) => m !== taken));
  });

  it("reports the service's refusal with its reason, and an unknown report, sending nothing more", async () => {
    const marks = await closeMarks(3);
    const unknown: CloseMark = { ...(marks[0] as CloseMark), reportId: 31337, reportNumber: "X" };
    await control("POST", "/faults", {
      rules: [{ endpoint: "setExpenseReportIntegration", fault: "status", status: 400, times: 1 }],
    });
    const records = memoryRecords();
    const result = markVouchers([...marks, unknown], deps(records));
    expect(result.outcomes.map((o) => o.kind)).toEqual(["refused", "done", "done", "refused"]);
    expect(result.outcomes[0]).toMatchObject({
      reason: { code: "service", message: expect.stringMatching(/injected|refused|400/i) },
    });
    expect(result.outcomes[3]).toMatchObject({
      reportId: 31337,
      reason: { code: "service", message: expect.stringMatching(/Id/) },
    });
    expect(writes().length).toBe(3);
    expect(records.map.size).toBe(0);
    const first = (await reports()).find((r) => r.id === marks[0]?.reportId) as StateReport;
    expect(first.integrated).toBe(false);
  });

  it("refuses a report whose read is not the journal's (another number or currency under that Id), sending nothing for it", async () => {
    const marks = await closeMarks(2);
    const [first, second] = marks as [CloseMark, CloseMark];
    const result = markVouchers([{ ...first, reportNumber: `${first.reportNumber}-other` }, second], deps());
    expect(result.outcomes.map((o) => o.kind)).toEqual(["refused", "done"]);
    expect(result.outcomes[0]).toMatchObject({
      reportId: first.reportId,
      reason: {
        code: "otherReport",
        reportId: first.reportId,
        number: first.reportNumber,
        expectedNumber: `${first.reportNumber}-other`,
      },
    });
    expect(writes().length).toBe(1);
    const read = (await reports()).find((r) => r.id === first.reportId) as StateReport;
    expect(read.integrated).toBe(false);
    expect(read.integrationCalls ?? 0).toBe(0);
  });

  it("refuses every mark to the person who approved the journal when four eyes are asked, before any call", async () => {
    const marks = await closeMarks(2);
    const result = markVouchers(
      marks,
      deps(undefined, { fourEyes: { approvedBy: "ana@x.cl", markedBy: "ana@x.cl" } }),
    );
    expect(result.outcomes.map((o) => o.kind)).toEqual(["refused", "refused"]);
    expect(h.sent).toEqual([]);
  });

  for (const fault of ["drop-before-apply", "drop-after-apply", "status-503-applied"] as const) {
    it(`settles a batch whose call was lost (${fault}) by reading, and never marks a report twice`, async () => {
      const marks = await closeMarks(6);
      const rule =
        fault === "status-503-applied"
          ? { endpoint: "setExpenseReportIntegration", fault: "status", status: 503, apply: true, times: 1 }
          : { endpoint: "setExpenseReportIntegration", fault, times: 1 };
      await control("POST", "/faults", { rules: [rule] });
      const records = memoryRecords();
      const first = markVouchers(marks, deps(records));
      const lost = fault === "drop-before-apply";
      // One dropped connection fails the whole fetchAll: the reads back settle each write.
      expect(first.outcomes.filter((o) => o.kind === "unknown").length).toBe(lost ? 1 : 0);
      expect(first.outcomes.filter((o) => o.kind === "done").length).toBe(lost ? 5 : 6);
      expect(records.map.size).toBe(lost ? 1 : 0);
      // Within the window the lost one is held: read, not sent again.
      h.sent = [];
      h.now += WINDOW_MS - 1000;
      const held = markVouchers(marks, deps(records));
      expect(writes()).toEqual([]);
      expect(held.outcomes.filter((o) => o.kind === "unknown").length).toBe(lost ? 1 : 0);
      // Past it, a request that never landed cannot land any more: sent once, then done.
      h.now += 2000;
      const settled = markVouchers(marks, deps(records));
      expect(settled.outcomes.every((o) => o.kind === "done")).toBe(true);
      expect(writes().length).toBe(lost ? 1 : 0);
      expect(records.map.size).toBe(0);
      await expectMarkedOnce(marks);
    });
  }

  it("stops at the time budget and goes on from where it stopped in the next execution", async () => {
    const marks = await closeMarks(60);
    const records = memoryRecords();
    let asked = 0;
    // Stops before the third batch.
    const budget = { shouldStop: () => ++asked > 2 };
    const first = markVouchers(marks, deps(records, { budget }));
    expect(first.mustContinue).toBe(true);
    expect(first.outcomes.length).toBe(50);
    expect(first.remaining.map((m) => m.reportId)).toEqual(marks.slice(50).map((m) => m.reportId));
    const next = markVouchers(first.remaining, deps(records));
    expect(next.mustContinue).toBe(false);
    expect(next.outcomes.every((o) => o.kind === "done")).toBe(true);
    await expectMarkedOnce(marks);
  });

  it("killed at any stored step (a record put or removed), run again: each report marked exactly once", async () => {
    const marks = await closeMarks(30);
    for (let killAt = 1; ; killAt++) {
      await control("POST", "/restore", {});
      const records = memoryRecords();
      let steps = 0;
      const killing: MarkDeps["records"] = {
        all: records.all,
        put: (r) => {
          if (++steps === killAt) throw new Error("killed");
          records.put(r);
        },
        remove: (key) => {
          if (++steps === killAt) throw new Error("killed");
          records.remove(key);
        },
      };
      let killed = false;
      try {
        markVouchers(marks, deps(records, { records: killing }));
      } catch {
        killed = true;
      }
      // The next executions: after the window, whatever was in flight is settled by reading.
      h.now += WINDOW_MS + 1000;
      const after = markVouchers(marks, deps(records));
      expect(
        after.outcomes.every((o) => o.kind === "done"),
        `killed at step ${killAt}`,
      ).toBe(true);
      expect([...records.map.keys()].filter((k) => k.startsWith(MARK_RECORD_PREFIX))).toEqual([]);
      await expectMarkedOnce(marks);
      if (!killed) break;
    }
  });
});
