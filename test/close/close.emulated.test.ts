/**
 * The month-end close walked by the BUILT add-on in the emulation against the sandbox, up to an
 * approved journal: the first build lists what the Accounts sheet lacks and books nothing; once
 * the accounts are filled, each closed, not integrated report of the month is in exactly one
 * balanced voucher, an unmapped policy blocks its reports; the approval holds until a cell of
 * the journal changes, and the refusal names the row; four eyes refuse the approver; the CSV.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { storeToken } from "../../dev/emulator/settings";
import type { Report } from "../../dev/sandbox/model";
import { privateBuild, type Setup, setUp, sheetOf } from "../refresh/emulation";

let s: Setup;

/** A report as the sandbox stores it (`GET /_sandbox/state`). */
type StateReport = Report;

beforeAll(async () => {
  s = await setUp({ distDir: privateBuild(), funds: 12, reports: 60 });
}, 120_000);
afterAll(async () => {
  await s?.close();
});
beforeEach(async () => {
  await s.control("reset", { seed: 7, funds: 12, reports: 60 });
  s.emulator.resetState();
  storeToken(s.emulator, s.user, s.sandbox.token, s.sandbox.url);
  s.settings({});
});

function run<T>(name: string, args: unknown[] = [], user?: string): T {
  const out = s.emulator.tryRun(name, args, { as: "script.run", ...(user ? { user } : {}) });
  if (!out.ok) throw new Error(`${name} failed: ${out.error}`);
  return out.result as T;
}

function refused(name: string, args: unknown[] = []): string {
  const out = s.emulator.tryRun(name, args, { as: "script.run" });
  if (out.ok) throw new Error(`${name} did not fail`);
  return out.error;
}

/** The month with the most closed, not integrated reports in the sandbox, and those reports. */
async function busiestMonth(): Promise<{ month: string; reports: StateReport[] }> {
  const state = await s.control("state");
  const open = (state.reports as StateReport[]).filter((r) => r.status === 1 && !r.integrated && r.closeDate);
  const byMonth = new Map<string, StateReport[]>();
  for (const r of open) {
    const month = (r.closeDate as string).slice(0, 7);
    byMonth.set(month, [...(byMonth.get(month) ?? []), r]);
  }
  const [month, reports] = [...byMonth].sort((a, b) => b[1].length - a[1].length)[0] as [
    string,
    StateReport[],
  ];
  return { month, reports };
}

type Build = { ok: boolean; message: string; vouchers: string[]; blocked: string[]; attention: unknown[] };

function journal() {
  const sheet = sheetOf(s.emulator, "Journal");
  if (!sheet) throw new Error("no Journal sheet");
  const h = (name: string) => sheet.header.indexOf(name);
  return { ...sheet, h, rows: sheet.values.slice(1).filter((r) => r[h("Voucher")] !== "") };
}

/** Fills every Account cell of the Accounts sheet but those of `skipPolicy`. */
function fillAccounts(skipPolicy: number | null): void {
  const accounts = sheetOf(s.emulator, "Accounts");
  if (!accounts) throw new Error("no Accounts sheet");
  const rows = accounts.values.slice(1).map((r) => {
    const kind = String(r[1]);
    if (kind === "Expense policy" && Number(r[2]) === skipPolicy) return [""];
    return [kind === "Expense policy" ? `61-${r[2]}` : kind === "Fund" ? `11-${r[2]}` : "21-05"];
  });
  s.emulator.typeCells("Accounts", `E2:E${rows.length + 1}`, rows);
}

/**
 * The journal of the busiest month, every account filled (two builds list what the Accounts
 * sheet lacks, the third books every report), the month and the build's input.
 */
async function fullJournal() {
  const { month } = await busiestMonth();
  const input = { company: "c0", month, currency: null, pattern: "{yyyy}{mm}{nnn}", fourEyes: false };
  run<Build>("closeBuildJournal", [input]);
  fillAccounts(null);
  run<Build>("closeBuildJournal", [input]);
  fillAccounts(null);
  run<Build>("closeBuildJournal", [input]);
  return { month, input };
}

describe("the month-end close, up to an approved journal", () => {
  it("books each closed, not integrated report of the month in one balanced voucher; an unmapped policy blocks its own", async () => {
    const { month, reports } = await busiestMonth();
    expect(reports.length).toBeGreaterThan(2);
    const input = { company: "c0", month, currency: null, pattern: "{yyyy}{mm}{nnn}", fourEyes: false };

    // What the sidebar sends is checked: a month that is none, a company not listed.
    expect(refused("closeBuildJournal", [{ ...input, month: "2024-13" }])).toContain(
      "Choose a month (YYYY-MM).",
    );
    expect(refused("closeBuildJournal", [{ ...input, company: "c9" }])).toContain(
      "Choose one of the listed companies.",
    );

    // No Accounts sheet yet: nothing is booked to a default, every report is blocked with its reason.
    const first = run<Build>("closeBuildJournal", [input]);
    expect(first.vouchers).toEqual([]);
    expect(first.blocked).toHaveLength(reports.length);
    expect(first.blocked.every((b) => / no account for the expense policy /.test(b))).toBe(true);
    expect(first.message).toMatch(/fill in each Account/);
    const policies = [...new Set(reports.map((r) => r.policyId))].sort((a, b) => a - b);
    const accounts = sheetOf(s.emulator, "Accounts");
    const listed = (accounts?.values ?? [])
      .slice(1)
      .filter((r) => r[1] === "Expense policy")
      .map((r) => Number(r[2]));
    expect(listed.sort((a, b) => a - b)).toEqual(policies);

    // A first pass lists the funds and the employee account once the policies are filled.
    fillAccounts(null);
    run<Build>("closeBuildJournal", [input]);
    fillAccounts(null);
    const unmapped = policies.length > 1 ? (policies[0] as number) : null;
    fillAccounts(unmapped);
    const built = run<Build>("closeBuildJournal", [input]);
    const blockedIds = reports.filter((r) => r.policyId === unmapped).map((r) => r.id);
    expect(built.blocked).toHaveLength(blockedIds.length);
    const j = journal();
    const booked = j.rows.filter((r) => Number(r[j.h("Debit")]) > 0).map((r) => Number(r[j.h("Report Id")]));
    const expected = reports.filter((r) => r.policyId !== unmapped).map((r) => r.id);
    // Exactly once each: no report in two vouchers, none left out.
    expect([...booked].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    const credits = j.rows
      .filter((r) => Number(r[j.h("Credit")]) > 0)
      .map((r) => Number(r[j.h("Report Id")]));
    expect([...credits].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    const vouchers = new Map<string, { debit: number; credit: number; currencies: Set<string> }>();
    for (const r of j.rows) {
      const v = vouchers.get(String(r[j.h("Voucher")])) ?? { debit: 0, credit: 0, currencies: new Set() };
      v.debit += Math.round(Number(r[j.h("Debit")] || 0) * 100);
      v.credit += Math.round(Number(r[j.h("Credit")] || 0) * 100);
      v.currencies.add(String(r[j.h("Currency")]));
      vouchers.set(String(r[j.h("Voucher")]), v);
    }
    expect(vouchers.size).toBe(
      new Set(reports.filter((r) => r.policyId !== unmapped).map((r) => r.currency)).size,
    );
    for (const [code, v] of vouchers) {
      expect(code).toMatch(new RegExp(`^${month.replace("-", "")}\\d{3}$`));
      expect(v.debit).toBe(v.credit);
      expect(v.currencies.size).toBe(1);
    }
    expect(built.vouchers).toHaveLength(vouchers.size);
  }, 120_000);

  it("approves the journal; a cell changed afterwards voids the approval, naming its row; four eyes refuse the approver", async () => {
    const { input } = await fullJournal();
    const j = journal();
    expect(j.rows.length).toBeGreaterThan(0);

    expect(run<{ ok: boolean }>("closeCheckMarking")).toMatchObject({ ok: false, count: 0 });
    const approved = run<{ message: string }>("closeApproveJournal");
    expect(approved.message).toMatch(/^Approved by ana@example\.com at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.$/);
    const check = run<{ ok: boolean; count: number; vouchers: string[] }>("closeCheckMarking");
    expect(check).toMatchObject({ ok: true, count: j.rows.length / 2 });

    // An account typed over after the approval: refused until approved again, the row named.
    const col = String.fromCharCode(65 + j.h("Account"));
    const voucher = String(j.rows[1]?.[j.h("Voucher")]);
    s.emulator.typeCells("Journal", `${col}3`, [["99-99"]]);
    const changed = run<{ ok: boolean; message: string }>("closeCheckMarking");
    expect(changed.ok).toBe(false);
    expect(changed.message).toContain(`row 3 (voucher ${voucher}) changed`);
    const marking = run<{ ok: boolean; message: string }>("closeMarkVouchers");
    expect(marking).toMatchObject({ ok: false, message: changed.message });

    // A debit typed over so that its voucher no longer balances: not approved, the voucher named.
    const debit = String.fromCharCode(65 + j.h("Debit"));
    s.emulator.typeCells("Journal", `${debit}2`, [[Number(j.rows[0]?.[j.h("Debit")]) + 0.01]]);
    expect(refused("closeApproveJournal")).toMatch(
      new RegExp(
        `The journal cannot be approved: voucher ${String(j.rows[0]?.[j.h("Voucher")])} has debits \\d+\\.\\d\\d and credits`,
      ),
    );

    // Four eyes, a setting of the document: the one who approved the journal may not mark it.
    run<Build>("closeBuildJournal", [input]);
    run("closeSetFourEyes", [{ on: true }]);
    run("closeApproveJournal");
    expect(run<{ ok: boolean; message: string }>("closeCheckMarking").message).toBe(
      "Four eyes: ana@example.com approved this journal, so someone else marks its reports.",
    );
  }, 120_000);

  it("downloads the journal as CSV in the format chosen, remembered for the user", async () => {
    const { month } = await fullJournal();
    const rows = journal().rows.length;
    const options = {
      layout: "reports",
      dateFormat: "DD/MM/YYYY",
      decimal: ",",
      separator: ";",
      header: true,
    };
    const file = run<{ fileName: string; text: string; lines: number }>("closeExportCsv", [
      { ...options, columns: ["voucher", "date", "amount", "debitAccount", "creditAccount", "reportNumber"] },
    ]);
    expect(file.fileName).toBe(`journal-${month}.csv`);
    expect(file.lines).toBe(rows / 2);
    const lines = file.text.split("\r\n");
    expect(lines[0]).toBe("voucher;date;amount;debitAccount;creditAccount;reportNumber");
    expect(lines[1]).toMatch(/^\d{9};\d\d\/\d\d\/\d{4};\d+,\d\d;61-\d+;(11-\d+|21-05);/);
    const view = run<{ csv: typeof options }>("getCloseView");
    expect(view.csv).toMatchObject(options);
  }, 120_000);
});

describe("the month-end close, marking the approved journal's reports", () => {
  it("marks every report of the approved journal once with its voucher's code and date; a second marking sends no write", async () => {
    await fullJournal();
    const j = journal();
    const voucherOf = new Map<number, string>();
    for (const r of j.rows)
      if (Number(r[j.h("Debit")]) > 0) voucherOf.set(Number(r[j.h("Report Id")]), String(r[j.h("Voucher")]));
    expect(voucherOf.size).toBeGreaterThan(0);
    run("closeApproveJournal");

    const marking = run<{ ok: boolean; message: string; more: boolean }>("closeMarkVouchers");
    expect(marking.ok).toBe(true);
    expect(marking.more).toBe(false);
    expect(marking.message.split("\n")[0]).toBe(
      `${voucherOf.size} of ${voucherOf.size} ${voucherOf.size === 1 ? "report" : "reports"} marked integrated with their voucher's code.`,
    );
    const state = await s.control("state");
    const reports = new Map((state.reports as StateReport[]).map((r) => [r.id, r]));
    for (const [id, voucher] of voucherOf) {
      const r = reports.get(id);
      expect(r?.integrated).toBe(true);
      expect(r?.integrationExternalCode).toBe(voucher);
      expect(r?.integrationDate).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(r?.integrationCalls).toBe(1);
    }
    // Every call in the Audit sheet, the marks included.
    const audit = sheetOf(s.emulator, "Audit");
    const calls = (audit?.values ?? []).map((row) => row.join(" "));
    expect(calls.filter((c) => c.includes("setExpenseReportIntegration")).length).toBe(voucherOf.size);
    // No record of the marking is left once every report is settled.
    expect(
      [...s.emulator.documentPropertiesData.values.keys()].filter((k) => k.startsWith("close.mark.")),
    ).toEqual([]);

    // Pressed again: each report read shows its code, so nothing is sent again.
    const again = run<{ ok: boolean }>("closeMarkVouchers");
    expect(again.ok).toBe(true);
    const after = await s.control("state");
    for (const r of after.reports as StateReport[])
      if (voucherOf.has(r.id)) expect(r.integrationCalls).toBe(1);
  }, 180_000);

  it("refuses to mark a journal whose Company key cell was changed before the approval, naming the row; nothing is sent", async () => {
    await fullJournal();
    const j = journal();
    const col = String.fromCharCode(65 + j.h("Company key"));
    s.emulator.typeCells("Journal", `${col}4`, [["c1zzzzzzz"]]);
    run("closeApproveJournal");
    const before = JSON.stringify((await s.control("state")).reports);
    const marking = run<{ ok: boolean; message: string }>("closeMarkVouchers");
    expect(marking.ok).toBe(false);
    expect(marking.message).toMatch(
      /^Row 4 of the Journal sheet names .*, the company this journal was built for/,
    );
    expect(JSON.stringify((await s.control("state")).reports)).toBe(before);
  }, 180_000);
});
