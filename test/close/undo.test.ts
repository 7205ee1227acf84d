/**
 * Undoing a voucher against the sandbox: the reports found by §4.8 IntegrationCode (every page),
 * confirmed, set not integrated once each; nothing sent without the confirmation; a report
 * re-marked under another code meanwhile named and left; a lost call settled by reading.
 */
import { describe, expect, it } from "vitest";
import { type MarkDeps, markVouchers } from "../../src/close/mark";
import type { CloseMark } from "../../src/close/types";
import { type UndoDeps, undoVoucher } from "../../src/close/undo";
import { closeSandbox, memoryRecords, type StateReport, WINDOW_MS } from "./harness";

const CODE = "202605001";
const h = closeSandbox({ seed: 9, funds: 20, reports: 600 });
const { control, reports, writes } = h;
const client = () => h.client();

function deps(records: MarkDeps["records"], confirm: UndoDeps["confirm"] = () => true): UndoDeps {
  return { ...h.deps(records), confirm };
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
    { clientOf: () => c, records, clock: { now: () => h.now } },
  );
  expect(result.outcomes.every((o) => o.kind === "done")).toBe(true);
  h.sent = [];
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
    h.sent = [];
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
    h.sent = [];
    h.now += WINDOW_MS - 1000;
    const held = undoVoucher("c0", CODE, deps(records));
    expect(held.outcomes.map((o) => o.kind)).toEqual(["unknown"]);
    expect(writes()).toEqual([]);
    h.now += 2000;
    const settled = undoVoucher("c0", CODE, deps(records));
    expect(settled.outcomes.map((o) => o.kind)).toEqual(["done"]);
    expect(records.map.size).toBe(0);
    const byId = new Map((await reports()).map((r) => [r.id, r]));
    for (const m of marks)
      expect(byId.get(m.reportId)).toMatchObject({ integrated: false, integrationCalls: 2 });
  });
});
