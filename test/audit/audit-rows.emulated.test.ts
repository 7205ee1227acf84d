/**
 * What the Audit sheet of the BUILT add-on says, run by the emulation against the sandbox: a
 * write stands out in a row of its own with its target, amount (in its currency's decimals),
 * currency and outcome; a refresh's reads are summed up in one row unless "every read" is
 * chosen; the connection test's calls are audited, the token tried never in a cell; and an
 * Audit sheet with the columns of an earlier version gets the new ones (Company; Target, Amount
 * and Currency) inserted, its rows and entry numbers kept.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { COMPANIES_KEY } from "../../src/settings/companies";
import { AUDIT_TABLE, headersOf } from "../../src/sheets/columns";
import { auditRows, openFundsOf, type SandboxFund, sweepKills, writeBackPerFile } from "../writeback/harness";

const wb = writeBackPerFile();
let openFunds: SandboxFund[];

beforeEach(async () => {
  await wb.reset();
  openFunds = await openFundsOf(wb, 2);
});

/** Every cell of every sheet, as text. */
function everyCell(): string {
  return JSON.stringify(wb.emulator.spreadsheet.sheets.map((sheet) => wb.sheetValues(sheet.name)));
}

/**
 * The Audit sheet as an earlier version left it: "previous", the columns of the version before
 * the Company column (which noted its layout as "1"); "older", also without Target, Amount and
 * Currency (that version kept no note of the layout).
 */
function asEarlierVersion(version: "previous" | "older"): void {
  const sheet = wb.emulator.spreadsheet.sheetByName("Audit");
  if (version === "previous") sheet?.deleteColumns(5, 1);
  else sheet?.deleteColumns(5, 4);
  const values = wb.emulator.documentPropertiesData.values;
  for (const key of [...values.keys()])
    if (key.startsWith("audit.layout.")) {
      if (version === "previous") values.set(key, "1");
      else values.delete(key);
    }
}

/** The headers of an earlier version's Audit sheet (see asEarlierVersion). */
function earlierHeaders(version: "previous" | "older", language: "en" | "es" = "en"): string[] {
  const gone = version === "previous" ? ["Company", "Empresa"] : ["Company", "Target", "Amount", "Currency"];
  const en = headersOf(AUDIT_TABLE, "en");
  return headersOf(AUDIT_TABLE, language).filter((_, i) => !gone.includes(en[i] as string));
}

function refreshFunds(): void {
  expect(wb.menu("refreshFunds")).toMatchObject({ ok: true });
}

describe("writes", () => {
  it("a deposit from the Outbox and a status change: one row each, target, amount, currency and outcome in their own columns", async () => {
    const [a, b] = openFunds as [SandboxFund, SandboxFund];
    const report = (await wb.state()).reports[0] as { Id?: number; id?: number };
    const reportId = Number(report.id ?? report.Id);
    expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "150.25" },
      { operation: "Set fund status", targetId: b.id, fundStatus: "Blocked" },
      { operation: "Set custom status", targetId: reportId, customStatus: "Pagado", customMessage: "Friday" },
    ]);
    expect(wb.menu("runOutbox", ["YES"])).toMatchObject({ ok: true });
    const rows = auditRows(wb);
    const deposits = rows.filter((r) => r.Endpoint === "depositMoneyToFund");
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toMatchObject({
      Target: `Fund ${a.id} · ${a.title}`,
      Amount: 150.25,
      Currency: a.currency,
      Outcome: "ok",
      Method: "POST",
    });
    const statuses = rows.filter((r) => r.Endpoint === "setFundStatus");
    expect(statuses).toHaveLength(1);
    expect(statuses[0]).toMatchObject({ Target: `Fund ${b.id}`, Amount: "", Currency: "", Outcome: "ok" });
    const custom = rows.filter((r) => r.Endpoint === "setExpenseReportCustomStatus");
    expect(custom).toHaveLength(1);
    expect(custom[0]).toMatchObject({ Target: `Report ${reportId}`, Amount: "", Outcome: "ok" });
    // The amount cell shows the currency's decimals, as the Funds sheet does.
    const sheet = wb.emulator.spreadsheet.sheetByName("Audit");
    const amountColumn = headersOf(AUDIT_TABLE, "en").indexOf("Amount") + 1;
    const at = rows.findIndex((r) => r.Endpoint === "depositMoneyToFund") + 2;
    const format = sheet?.cell(at, amountColumn)?.numberFormat ?? "";
    expect(format).toBe(a.currency === "CLP" ? "#,##0" : "#,##0.00");
    // The reads of the run (each fund read before a movement) are summed up in one row.
    const reads = rows.filter((r) => r.Method === "GET");
    expect(reads).toHaveLength(1);
    expect(String(reads[0]?.Message)).toMatch(/^\d+ calls?, \d+ pages? read\.$/);
    expect(reads[0]?.Action).toBe("Reads");
  });

  it("a run killed after the deposit was sent leaves its row as sending, with target and amount", () => {
    const [a] = openFunds as [SandboxFund];
    expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "10" }]);
    // The preview's read, the fund's read before the movement, then the deposit: killed once
    // the deposit reached the service, before the script saw the answer.
    const killed = wb.menu("runOutbox", ["YES"], { stopAt: { fetch: 3, when: "after" } });
    expect(killed.ok).toBe(false);
    const rows = auditRows(wb).filter((r) => r.Endpoint === "depositMoneyToFund");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ Outcome: "sending", Target: `Fund ${a.id} · ${a.title}`, Amount: 10 });
  });
});

describe("reads", () => {
  it("a refresh is summed up in one row: which lists, how many calls and pages, the time, the outcome", () => {
    wb.settings({ pageSize: "3" });
    wb.emulator.resetCounters();
    refreshFunds();
    const rows = auditRows(wb);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      Action: "Refresh funds",
      Endpoint: "getFunds",
      Method: "GET",
      Outcome: "ok",
    });
    const [, calls, read] = /^(\d+) calls, (\d+) pages read\.$/.exec(String(rows[0]?.Message)) ?? [];
    // Eight funds, three a page: at least three pages, each one call.
    expect(Number(calls)).toBeGreaterThanOrEqual(3);
    expect(Number(read)).toBe(Number(calls));
    expect(rows[0]?.["Duration (ms)"]).toEqual(expect.any(Number));
    refreshFunds();
    expect(auditRows(wb)).toHaveLength(2);
  });

  it('with "every read" chosen, each call has its own row', () => {
    wb.settings({ pageSize: "3", auditReads: "every" });
    refreshFunds();
    const rows = auditRows(wb);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => r.Endpoint === "getFunds" && r.Outcome === "ok")).toBe(true);
    expect(rows.map((r) => r.Parameters)).toContainEqual(expect.stringContaining('"Page":2'));
  });
});

describe("the connection test", () => {
  it("is audited, with the saved token or one being typed, and no token reaches a cell", () => {
    const ok = wb.sidebar("testSettingsConnection", {}) as { ok: boolean };
    expect(ok.ok).toBe(true);
    const typed = "typed-but-wrong-token-5678";
    const refused = wb.sidebar("testSettingsConnection", { token: typed }) as { ok: boolean };
    expect(refused.ok).toBe(false);
    const rows = auditRows(wb);
    expect(rows.map((r) => [r.Action, r.Endpoint, r.Outcome])).toEqual([
      ["Test connection", "getFunds", "ok"],
      ["Test connection", "getFunds", "error"],
    ]);
    expect(rows[0]?.Message).toBe("1 call, 1 page read.");
    expect(String(rows[1]?.Message)).toMatch(/^1 call, 0 pages read\. 1 call did not succeed; the last: /);
    expect(rows[1]?.Source).toBe("sidebar");
    expect(everyCell()).not.toContain(typed);
    expect(everyCell()).not.toContain(wb.sandbox.token);
    // Nor the document's or the script's properties, the document cache, notes or the logs.
    const elsewhere = JSON.stringify([
      [...wb.emulator.documentPropertiesData.values.entries()],
      [...wb.emulator.scriptPropertiesData.values.entries()],
      wb.emulator.logs,
      wb.emulator.spreadsheet.sheets.map((sheet) => wb.emulator.spreadsheet.sheetByName(sheet.name)),
    ]);
    expect(elsewhere).toContain("Test connection");
    expect(elsewhere).not.toContain(typed);
    expect(elsewhere).not.toContain(wb.sandbox.token);
  });
});

describe("the Company column", () => {
  it("a named company's calls say `Name (key)`, a refresh's reads and an Outbox deposit alike, and no token is in any cell", () => {
    const [a] = openFunds as [SandboxFund];
    // The registry as it is once a second company was added: the first one named.
    const entry = (key: string, name: string) => ({ key, name, apiUrl: wb.sandbox.url, formerNames: [] });
    wb.emulator.documentPropertiesData.values.set(
      COMPANIES_KEY,
      JSON.stringify({
        v: 1,
        rev: 1,
        several: true,
        entries: [entry("c0", "Alpha"), entry("c7k2p0qx", "Beta")],
      }),
    );
    // Ana named it herself: her token is bound to the name she gave (settings.company.c0).
    wb.emulator
      .userPropertiesOf(wb.user)
      .values.set("settings.company.c0", JSON.stringify({ name: "Alpha", at: 1 }));
    refreshFunds();
    expect(wb.menu("createOutboxSheet")).toMatchObject({ ok: true });
    // With two companies a row names its company (an empty Company cell is refused).
    wb.typeOutbox([{ company: "Alpha", operation: "Deposit", targetId: a.id, amount: "5" }]);
    expect(wb.menu("runOutbox", ["YES"])).toMatchObject({ ok: true });
    const rows = auditRows(wb);
    expect(rows.map((r) => [r.Action, r.Endpoint, r.Company])).toEqual(
      expect.arrayContaining([
        ["Refresh funds", "getFunds", "Alpha (c0)"],
        [expect.stringMatching(/^Deposit · /), "depositMoneyToFund", "Alpha (c0)"],
      ]),
    );
    expect(rows.every((r) => r.Company === "Alpha (c0)")).toBe(true);
    expect(everyCell()).not.toContain(wb.sandbox.token);
  });
});

describe("an Audit sheet with the previous version's columns", () => {
  it("a new one has the Company column right after Action", () => {
    refreshFunds();
    const header = wb.sheetValues("Audit")[0] as string[];
    expect(header).toEqual(headersOf(AUDIT_TABLE, "en"));
    expect(header.slice(3, 6)).toEqual(["Action", "Company", "Target"]);
    // One company, never named: its user reads no company in the cell.
    expect(auditRows(wb).map((r) => r.Company)).toEqual([""]);
  });

  for (const version of ["previous", "older"] as const) {
    it(`${version === "previous" ? "without Company" : "without Company, Target, Amount and Currency"}: gets the new columns inserted where they go, its rows, entry numbers and a user's column kept, nothing reported`, () => {
      wb.settings({ pageSize: "3", auditReads: "every" });
      refreshFunds();
      const before = auditRows(wb);
      // The earlier version's sheet: the same without the columns added since, and a column of
      // notes a user added to its right.
      asEarlierVersion(version);
      const old = earlierHeaders(version);
      const notes = String.fromCharCode(65 + old.length);
      wb.emulator.typeCells("Audit", `${notes}1:${notes}2`, [["My notes"], ["checked by Ana"]]);
      expect(wb.sheetValues("Audit")[0]).toEqual([...old, "My notes"]);
      refreshFunds();
      const values = wb.sheetValues("Audit");
      expect(values[0]).toEqual([...headersOf(AUDIT_TABLE, "en"), "My notes"]);
      expect(values[1]?.[AUDIT_TABLE.columns.length]).toBe("checked by Ana");
      const after = auditRows(wb);
      const strip = (r: Record<string, unknown>) => ({
        ...r,
        Timestamp: String(r.Timestamp),
        "My notes": "",
      });
      expect(after.slice(0, before.length).map(strip)).toEqual(before.map(strip));
      expect(after.map((r) => r["Entry no."])).toEqual(after.map((_, i) => i + 1));
      expect(after.some((r) => r.Action === "Audit check")).toBe(false);
      expect(
        wb.emulator.documentPropertiesData.values.get(
          [...wb.emulator.documentPropertiesData.values.keys()].find((k) => k.startsWith("audit.layout.")) ??
            "",
        ),
      ).toBe("2");
    });
  }

  for (const version of ["previous", "older"] as const) {
    it(`one of this version whose header an editor types over with the ${version} one's: no column inserted, every row kept in place`, () => {
      wb.settings({ pageSize: "3", auditReads: "every" });
      refreshFunds();
      const before = wb.sheetValues("Audit").slice(1);
      const typed = earlierHeaders(version);
      wb.emulator.typeCells("Audit", `A1:${String.fromCharCode(64 + typed.length)}1`, [typed]);
      refreshFunds();
      const values = wb.sheetValues("Audit");
      expect(values[0]).toEqual(headersOf(AUDIT_TABLE, "en"));
      // The typed row is kept as a row of its own (the entry check points at it); no cell moved.
      expect(values[1]?.slice(0, typed.length)).toEqual(typed);
      expect(values.slice(2, 2 + before.length)).toEqual(before);
    });
  }

  it("three executions at once on an old sheet: one header, the new columns once, entry numbers unique and in order", async () => {
    wb.settings({ pageSize: "3", auditReads: "every" });
    refreshFunds();
    asEarlierVersion("previous");
    const before = auditRows(wb).length;
    // Each test's call answers after the same delay: all three then open the sheet at once.
    await wb.faults([{ endpoint: "getFunds", fault: "slow", delayMs: 400, times: 3 }]);
    const test = { fn: "testSettingsConnection", args: [{}], options: { as: "script.run" as const } };
    const outcomes = await wb.emulator.runConcurrently([test, test, test]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true]);
    expect(wb.sheetValues("Audit")[0]).toEqual(headersOf(AUDIT_TABLE, "en"));
    const after = auditRows(wb);
    expect(after.slice(before).map((r) => [r.Action, r.Endpoint])).toEqual(
      Array(3).fill(["Test connection", "getFunds"]),
    );
    expect(after.map((r) => r["Entry no."])).toEqual(after.map((_, i) => i + 1));
    expect(after.some((r) => r.Action === "Audit check")).toBe(false);
  });

  for (const version of ["previous", "older"] as const) {
    it(`the ${version} one, killed at any call while its new columns go in, keeps every earlier row under the right headers`, async () => {
      wb.emulator.resetState();
      wb.settings({ pageSize: "3", auditReads: "every" });
      refreshFunds();
      const before = auditRows(wb);
      asEarlierVersion(version);
      // Every kill point starts from this spreadsheet, made once.
      const start = wb.emulator.saveState();
      await sweepKills(wb.emulator, {
        restore: () => wb.emulator.restoreState(start),
        kill: (call) => wb.menu("refreshFunds", ["OK"], { stopAt: { serviceCall: call } }),
        check(where) {
          refreshFunds();
          expect(wb.sheetValues("Audit")[0], where).toEqual(headersOf(AUDIT_TABLE, "en"));
          const after = auditRows(wb).filter((r) => before.some((b) => b["Entry no."] === r["Entry no."]));
          const strip = (r: Record<string, unknown>) => ({ ...r, Timestamp: String(r.Timestamp) });
          expect(after.map(strip), where).toEqual(before.map(strip));
        },
        within: 1_000,
      });
    }, 300_000);
  }

  it("in Spanish, written before entries were numbered, keeps its 12 columns' rows under the right headers", () => {
    const headers = headersOf(AUDIT_TABLE, "es");
    const old = earlierHeaders("older", "es").slice(0, -1);
    expect(old).toHaveLength(12);
    wb.emulator.spreadsheet.addSheet("Audit");
    wb.emulator.typeCells("Audit", "A1:L2", [
      old,
      [
        "2024-01-01 09:00:00",
        "ana@example.com",
        "menu",
        "Depósito",
        "POST",
        "depositMoneyToFund",
        "",
        200,
        "ok",
        "",
        120,
        "5001",
      ],
    ]);
    refreshFunds();
    const values = wb.sheetValues("Audit");
    expect(values[0]).toEqual(headers);
    const row = Object.fromEntries(headers.map((h, i) => [h, values[1]?.[i]]));
    expect(row).toMatchObject({
      Acción: "Depósito",
      Empresa: "",
      Destino: "",
      Método: "POST",
      Endpoint: "depositMoneyToFund",
      "Id del registro": 5001,
    });
  });
});
