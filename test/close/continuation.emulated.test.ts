/**
 * A long marking of the month-end close goes on by itself past the time limit, in the BUILT
 * add-on in the emulation against the sandbox: with a budget small enough (a slow service on the
 * emulator's clock, a lower execution limit) the approved journal's reports take three
 * executions, the first pressed in the sidebar, the others the user's own one-off clock trigger
 * an hour apart (the emulator's clock moved on). Every report is marked exactly once (the
 * sandbox counts each report's integration calls), one killed execution included; the sidebar's
 * view shows the progress between executions, and the outcome at the end (and in a notice on
 * opening); a change to the Journal between executions stops the marking, naming the change;
 * Stop ends it.
 */
import { describe, expect, it } from "vitest";
import { EXECUTION_LIMIT_KEY } from "../../src/app/entry";
import { setUpPerFile, sheetOf } from "../refresh/emulation";

const COMPANY = { seed: 7, funds: 12, reports: 2000 };
const s = setUpPerFile(
  { funds: COMPANY.funds, reports: COMPANY.reports, triggerSeesSpreadsheet: true },
  {
    form: {},
    company: COMPANY,
  },
);

/** Each round of requests to the service (a fetchAll) takes this long on the emulator's clock. */
const FETCH_MS = 20_000;
/** A batch (a round of reads, one of marks, one of reads back) is some 60 s: one fits in an execution of this. */
const LIMIT_MS = 120_000;
const HOUR_MS = 60 * 60 * 1000;

interface StateReport {
  id: number;
  status: number;
  integrated: boolean;
  closeDate: string | null;
  integrationExternalCode?: string;
  integrationCalls?: number;
}

interface Marked {
  ok: boolean;
  message: string;
  more: boolean;
  progress?: { done: number; count: number };
}

interface Status {
  state: "running" | "last" | "none";
  message: string;
  ok: boolean;
  mine: boolean;
  progress?: { done: number; count: number };
}

function run<T>(name: string, args: unknown[] = []): T {
  const out = s.emulator.tryRun(name, args, { as: "script.run" });
  if (!out.ok) throw new Error(`${name} failed: ${out.error}`);
  return out.result as T;
}

/** The close's month with the most closed, not integrated reports. */
async function busiestMonth(): Promise<string> {
  const state = await s.control("state");
  const counts = new Map<string, number>();
  for (const r of state.reports as StateReport[])
    if (r.status === 1 && !r.integrated && r.closeDate) {
      const month = r.closeDate.slice(0, 7);
      counts.set(month, (counts.get(month) ?? 0) + 1);
    }
  return ([...counts].sort((a, b) => b[1] - a[1])[0] as [string, number])[0];
}

/** Every Account cell of the Accounts sheet filled. */
function fillAccounts(): void {
  const accounts = sheetOf(s.emulator, "Accounts");
  if (!accounts) throw new Error("no Accounts sheet");
  const rows = accounts.values.slice(1).map((r) => {
    const kind = String(r[1]);
    return [kind === "Expense policy" ? `61-${r[2]}` : kind === "Fund" ? `11-${r[2]}` : "21-05"];
  });
  s.emulator.typeCells("Accounts", `E2:E${rows.length + 1}`, rows);
}

/**
 * The busiest month's journal built with every account filled and approved, then the slow
 * service and the short budget: the report Id → voucher of every report to mark.
 */
async function approvedJournal(): Promise<Map<number, string>> {
  const month = await busiestMonth();
  const input = { company: "c0", month, currency: null, pattern: "{yyyy}{mm}{nnn}", fourEyes: false };
  for (let i = 0; i < 3; i++) {
    run("closeBuildJournal", [input]);
    fillAccounts();
  }
  run("closeBuildJournal", [input]);
  const journal = sheetOf(s.emulator, "Journal");
  if (!journal) throw new Error("no Journal sheet");
  const h = (name: string) => journal.header.indexOf(name);
  const voucherOf = new Map<number, string>();
  for (const r of journal.values.slice(1))
    if (Number(r[h("Debit")]) > 0) voucherOf.set(Number(r[h("Report Id")]), String(r[h("Voucher")]));
  run("closeApproveJournal");
  s.emulator.documentPropertiesData.values.set(EXECUTION_LIMIT_KEY, String(LIMIT_MS));
  s.emulator.fetchLatencyMs = FETCH_MS;
  return voucherOf;
}

const closeTriggers = () => s.emulator.listTriggers().filter((t) => t.handler === "continueCloseMarking");

/** The hour goes by and the user's follow-up trigger fires. */
function fireFollowUp(): void {
  s.emulator.advanceTime(HOUR_MS + 1_000);
  const fired = s.emulator.fireTimeTriggers();
  expect(fired.map((f) => [f.handler, f.user, f.ok, f.ok ? "" : f.error])).toEqual([
    ["continueCloseMarking", s.user, true, ""],
  ]);
}

async function reportsById(): Promise<Map<number, StateReport>> {
  const state = await s.control("state");
  return new Map((state.reports as StateReport[]).map((r) => [r.id, r]));
}

describe("a long marking goes on by itself past the time limit", () => {
  it("takes three executions, the last two the user's own trigger; every report marked once, a killed execution included; the progress and the outcome shown", async () => {
    const voucherOf = await approvedJournal();
    const count = voucherOf.size;
    // Three batches of 25: three executions.
    expect(count).toBeGreaterThan(50);
    expect(count).toBeLessThanOrEqual(75);

    const first = run<Marked>("closeMarkVouchers");
    expect(first.more).toBe(true);
    expect(first.progress).toEqual({ done: 25, count });
    expect(first.message).toMatch(
      new RegExp(
        `^25 of ${count} reports marked, continuing automatically\\. It goes on while this sidebar is open; closed, it goes on by itself after \\d\\d:\\d\\d\\.$`,
      ),
    );
    // One follow-up of the user who pressed, an hour ahead (the least an add-on's may be).
    expect(closeTriggers().map((t) => t.creator)).toEqual([s.user]);

    // The sidebar, reopened between executions, shows the progress.
    const between = run<Status>("getCloseMarkingStatus");
    expect(between).toMatchObject({ state: "running", mine: true, progress: { done: 25, count } });
    expect(between.message).toContain(`25 of ${count} reports marked, continuing automatically.`);

    fireFollowUp();
    expect(run<Status>("getCloseMarkingStatus").progress).toEqual({ done: 50, count });
    expect(closeTriggers()).toHaveLength(1);

    // The third execution is killed in the middle of its marks: its record stays, and the
    // follow-up made before any call left settles it by reading first.
    s.emulator.advanceTime(HOUR_MS + 1_000);
    const [pending] = closeTriggers();
    const left = count - 50;
    const killed = s.emulator.tryRun("continueCloseMarking", [{ triggerUid: pending?.uid }], {
      as: "trigger",
      stopAt: { fetch: 2 + left + Math.ceil(left / 2), when: "after" },
    });
    expect(killed.ok).toBe(false);
    expect(
      [...s.emulator.documentPropertiesData.values.keys()].filter((k) => k.startsWith("close.mark.")),
    ).not.toEqual([]);
    expect(run<Status>("getCloseMarkingStatus").progress).toEqual({ done: 50, count });
    expect(closeTriggers()).toHaveLength(1);

    fireFollowUp();
    const reports = await reportsById();
    for (const [id, voucher] of voucherOf) {
      expect(reports.get(id)?.integrationExternalCode).toBe(voucher);
      expect(reports.get(id)?.integrationCalls).toBe(1);
    }
    // Every call in the Audit sheet: a row per mark sent, the killed execution's left "sending"
    // (their answer never came); a report sent again has that row first, then its answer.
    const audit = (sheetOf(s.emulator, "Audit")?.values ?? [])
      .map((row) => row.join(" "))
      .filter((c) => c.includes("setExpenseReportIntegration"));
    const rowsOf = (id: number) => audit.filter((c) => c.includes(`{"Id":${id},`));
    for (const id of voucherOf.keys()) {
      const rows = rowsOf(id);
      expect(rows.length).toBeGreaterThanOrEqual(1);
      expect(rows.length).toBeLessThanOrEqual(2);
      expect(rows.at(-1)).toMatch(rows.length === 1 ? / (200 ok|sending) / : / 200 ok /);
      if (rows.length === 2) expect(rows[0]).toMatch(/ sending /);
    }
    expect(audit.filter((c) => / 200 ok /.test(c)).length).toBeLessThan(count);
    // Nothing left behind: no record, no position, no trigger.
    const keys = [...s.emulator.documentPropertiesData.values.keys()];
    expect(keys.filter((k) => k.startsWith("close.mark.") || k.startsWith("close.continuation"))).toEqual([]);
    expect(closeTriggers()).toEqual([]);

    // The outcome: in a notice on opening the spreadsheet, then in the sidebar (and no more notices).
    s.emulator.open();
    const done = `${count} of ${count} reports marked integrated with their voucher's code.`;
    expect(s.emulator.ui.toasts.map((t) => [t.title, t.message])).toContainEqual(["Month-end close", done]);
    const last = run<Status>("getCloseMarkingStatus");
    expect(last).toMatchObject({ state: "last", ok: true });
    expect(last.message).toMatch(
      new RegExp(`^Last marking \\(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\):\\n${done}$`),
    );
    s.emulator.ui.toasts.length = 0;
    s.emulator.open();
    expect(s.emulator.ui.toasts.filter((t) => t.title === "Month-end close")).toEqual([]);
  }, 300_000);

  it("stops, naming the change, when the Journal changed between executions; nothing more is sent", async () => {
    const voucherOf = await approvedJournal();
    const first = run<Marked>("closeMarkVouchers");
    expect(first.more).toBe(true);
    const before = await reportsById();

    // A cell of the journal changes while the marking waits for its next execution.
    const journal = sheetOf(s.emulator, "Journal");
    const account = String.fromCharCode(65 + (journal?.header.indexOf("Account") ?? 0));
    s.emulator.typeCells("Journal", `${account}60`, [["99-99"]]);

    fireFollowUp();
    const status = run<Status>("getCloseMarkingStatus");
    expect(status.state).toBe("last");
    expect(status.ok).toBe(false);
    expect(status.message).toMatch(
      /The marking stopped after 25 of \d+ reports: .*row 60 \(voucher \d+\) changed/,
    );
    expect(closeTriggers()).toEqual([]);
    const after = await reportsById();
    for (const id of voucherOf.keys())
      expect(after.get(id)?.integrationCalls ?? 0).toBe(before.get(id)?.integrationCalls ?? 0);
  }, 300_000);

  it("Stop in the sidebar ends the marking: no trigger, no position, the outcome says who stopped it", async () => {
    await approvedJournal();
    expect(run<Marked>("closeMarkVouchers").more).toBe(true);
    const stopped = run<Status>("closeStopMarking");
    expect(stopped.state).toBe("last");
    expect(stopped.message).toMatch(
      new RegExp(`The marking stopped after 25 of \\d+ reports: stopped by ${s.user}\\.`),
    );
    expect(closeTriggers()).toEqual([]);
    expect(run<Marked>("closeContinueMarking").more).toBe(false);
    // Seen in the sidebar as it ended: no notice on opening the spreadsheet.
    s.emulator.open();
    expect(s.emulator.ui.toasts.filter((t) => t.title === "Month-end close")).toEqual([]);
  }, 300_000);
});
