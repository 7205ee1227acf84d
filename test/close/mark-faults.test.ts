/**
 * The close's marking under every fault the sandbox can inject, on the mark itself and on the
 * reads around it (each once, and the mark's faults also twice in a row): a refusal before or
 * after the write took effect, an error inside an HTTP 200 (both shapes), a body that is not the
 * service's JSON (malformed, an HTML page, empty), a throttle with Retry-After, a dropped
 * connection before or after the write landed, a slow answer. Whatever happens, the marking run
 * again (the clock moved past the window for a call that may still land) ends with every report
 * integrated with its voucher's code, marked exactly once (the sandbox counts each report's
 * marks), and no record left.
 */
import { describe, expect, it } from "vitest";
import { MARK_RECORD_PREFIX, markVouchers } from "../../src/close/mark";
import {
  closeMarks as closeMarksOf,
  closeSandbox,
  memoryRecords,
  type StateReport,
  WINDOW_MS,
} from "./harness";

const h = closeSandbox({ seed: 7, funds: 20, reports: 300 });

const closeMarks = (count: number) => closeMarksOf(h, count);

type Rule = Record<string, unknown>;
const MARK = "setExpenseReportIntegration";
const READ = "getExpenseReport";

/** Each fault the sandbox injects (FAULT_KINDS, less those of other endpoints' shapes). */
const FAULTS: Array<[string, Rule]> = [
  ["503 before the write", { fault: "status", status: 503 }],
  ["500 after the write took effect", { fault: "status", status: 500, apply: true }],
  ["429 with Retry-After", { fault: "status", status: 429, retryAfter: 1 }],
  ["an error inside a 200", { fault: "error-in-200" }],
  ["an error inside a 200, after the write took effect", { fault: "error-in-200", apply: true }],
  ["an error inside a 200, the other shape", { fault: "error-in-200-v2" }],
  ["malformed JSON", { fault: "malformed-json" }],
  ["an HTML page", { fault: "html-page", status: 502 }],
  ["an empty 200", { fault: "empty-200" }],
  ["a connection dropped before the write", { fault: "drop-before-apply" }],
  ["a connection dropped after the write landed", { fault: "drop-after-apply" }],
  ["a slow answer", { fault: "slow", delayMs: 300 }],
];

const CASES = [
  ...FAULTS.map(([name, rule]) => ({
    name: `${name}, on the mark`,
    rules: [{ endpoint: MARK, ...rule, times: 1 }],
  })),
  ...FAULTS.map(([name, rule]) => ({
    name: `${name}, on the mark, twice running`,
    rules: [{ endpoint: MARK, ...rule, times: 2 }],
  })),
  ...FAULTS.map(([name, rule]) => ({
    name: `${name}, on a read`,
    rules: [{ endpoint: READ, ...rule, times: 1 }],
  })),
];

describe("the close's marking under every sandbox fault", () => {
  it.each(CASES)("$name: each report marked once, with its code, no record left", async ({ rules }) => {
    const marks = await closeMarks(6);
    await h.control("POST", "/faults", { rules });
    const records = memoryRecords();
    let runs = 0;
    for (; runs < 5; runs++) {
      const run = markVouchers(marks, h.deps(records));
      if (run.outcomes.length === marks.length && run.outcomes.every((o) => o.kind === "done")) break;
      // Never marked while it may still land: the next run comes once that window has passed.
      h.now += WINDOW_MS + 1000;
    }
    expect(runs, "runs before every report read as done").toBeLessThan(5);
    // Each fault fired as many times as it was set to (the sandbox counts its uses down).
    const left = (await h.control("GET", "/faults")) as { rules: Array<{ times: number | null }> };
    expect(left.rules.map((r) => r.times ?? -1).filter((t) => t > 0)).toEqual([]);
    const byId = new Map((await h.reports()).map((r) => [r.id, r]));
    for (const m of marks) {
      const r = byId.get(m.reportId) as StateReport;
      expect({ id: m.reportId, code: r.integrationExternalCode, calls: r.integrationCalls }).toEqual({
        id: m.reportId,
        code: m.voucher,
        calls: 1,
      });
    }
    expect([...records.map.keys()].filter((k) => k.startsWith(MARK_RECORD_PREFIX))).toEqual([]);
  });
});
