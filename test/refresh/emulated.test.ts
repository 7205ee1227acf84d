/**
 * Refreshes of the BUILT add-on in the Apps Script emulation against the sandbox service: what
 * a user sees in the sheets, what the emulator's counters say about calls and writes, and what
 * the audit sheet records.
 */

import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { storeToken } from "../../dev/emulator/settings";
import { displayCell } from "../../dev/emulator/spreadsheet/format";
import { translate } from "../../src/i18n";
import { loadText, saveText } from "../../src/refresh/stored-text";
import type { SettingsView } from "../../src/settings/view";
import { NEEDED_COLUMNS } from "../../src/summary/records";
import { columnLetter } from "../support/column-letter";
import { RANGE_FORM, setUpPerFile, sheetOf } from "./emulation";

let employeeId: number;

const FORM = {
  ...RANGE_FORM,
  // Each call in a row of its own, so that the calls can be checked one by one.
  auditReads: "every",
};

const s = setUpPerFile(
  { funds: 12, reports: 40, triggerSeesSpreadsheet: true },
  { form: FORM, company: { seed: 7, funds: 12, reports: 40 } },
);

beforeAll(async () => {
  const users = await s.control("users");
  employeeId =
    users.Users.find((u: { Roles: string[] }) => u.Roles.includes("employee"))?.Id ?? users.Users[0].Id;
}, 120_000);

beforeEach(() => {
  s.emulator.resetCounters();
});

function run(name: string, as: "menu" | "trigger" | "script.run" = "menu", args: unknown[] = []) {
  const out = s.emulator.tryRun(name, args, { as });
  if (!out.ok) throw new Error(`${name} failed: ${out.error}`);
  return out;
}

async function allFunds(extra: Record<string, unknown> = {}): Promise<{ Id: number; Title: string }[]> {
  const first = await s.api(`getFunds?ResultsPerPage=1000&OrderBy=2&Order=ASC${query(extra)}`);
  return first.Funds;
}

function query(params: Record<string, unknown>): string {
  return Object.entries(params)
    .map(([k, v]) => `&${k}=${encodeURIComponent(String(v))}`)
    .join("");
}

async function createFund(name: string, code = "", amount = 100): Promise<number> {
  const fund = await s.api("createFund", {
    IdEmployee: employeeId,
    IdAdmin: s.sandbox.adminId,
    FundName: name,
    FundCurrency: "CLP",
    FundCode: code,
    FundAmount: amount,
  });
  return fund.Id;
}

const fundsSheet = () => sheetOf(s.emulator, "Funds") as NonNullable<ReturnType<typeof sheetOf>>;
const col = (header: unknown[], label: string) => header.indexOf(label);

describe("refresh through the emulation", () => {
  it("sums up its reads in one row by default: every list read, as many calls as were made, the time", () => {
    s.settings({ ...FORM, auditReads: "" });
    run("refreshAll");
    const calls = s.emulator.counters.urlFetchTotal;
    const audit = sheetOf(s.emulator, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
    expect(audit.values).toHaveLength(2);
    const row = audit.values[1] ?? [];
    expect(row[col(audit.header, "Action")]).toBe("Refresh all");
    expect(String(row[col(audit.header, "Endpoint")]).split(", ").sort()).toEqual(
      ["getExpenseReports", "getFund", "getFunds"].sort(),
    );
    expect(row[col(audit.header, "Message")]).toBe(`${calls} calls, ${calls} pages read.`);
    expect(row[col(audit.header, "Outcome")]).toBe("ok");
    expect(row[col(audit.header, "Duration (ms)")]).toEqual(expect.any(Number));
  });

  it("fills the four sheets, with the minimum calls, one setValues per sheet, and an audit row per call", async () => {
    run("refreshAll");
    const funds = await allFunds();
    const sheet = fundsSheet();
    expect(sheet.values.slice(1).map((r) => r[0])).toEqual(funds.map((f) => f.Id));
    expect(sheet.sheet.frozenRows).toBe(1);
    expect(sheet.formats[1]?.[col(sheet.header, "Balance")]).toBe("#,##0.00");
    expect(sheet.formats[1]?.[col(sheet.header, "Title")]).toBe("@");

    // Minimum: pages of getFunds (12 at 5 per page = 3), one getFund per fund, report pages.
    const calls = s.emulator.counters.urlFetchTotal;
    const audit = sheetOf(s.emulator, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
    const endpoints = audit.values.slice(1).map((r) => r[col(audit.header, "Endpoint")]);
    expect(endpoints.filter((e) => e === "getFunds")).toHaveLength(3);
    expect(endpoints.filter((e) => e === "getFund")).toHaveLength(12);
    expect(audit.values.length - 1).toBe(calls);
    for (const row of audit.values.slice(1)) {
      expect(row[col(audit.header, "User")]).toBe("ana@example.com");
      expect(row[col(audit.header, "Source")]).toBe("menu");
      expect(row[col(audit.header, "Outcome")]).toBe("ok");
    }
    expect(JSON.stringify(audit.values)).not.toContain(s.sandbox.token);
    expect(s.emulator.spreadsheet.protections.some((p) => p.warningOnly)).toBe(true);

    // A second refresh with no change: only the list calls, and no write of data: every row is
    // already what the sheet holds (the emulator counts every write call); the one cell written
    // is the note on the header's first cell saying when and by whom the sheet was refreshed.
    s.emulator.resetCounters();
    run("refreshAll");
    const counters = s.emulator.counters;
    const auditAfter = sheetOf(s.emulator, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
    const second = auditAfter.values.slice(audit.values.length).map((r) => r[col(audit.header, "Endpoint")]);
    expect(second.filter((e) => e === "getFund")).toHaveLength(0);
    expect(counters.urlFetchTotal).toBe(second.length);
    expect(counters.sheets.Funds).toMatchObject({ writes: 1, cellsWritten: 1 });
    // No fund's totals moved: the movements sheet is not even rewritten.
    expect(counters.sheets["Fund transactions"]).toMatchObject({ writes: 0 });
    expect(counters.sheets["Expense reports"]).toMatchObject({ writes: 1, cellsWritten: 1 });
    const fundsData = s.emulator.spreadsheet.sheetByName("Funds");
    expect(fundsData?.cell(1, 1)?.note).toMatch(/^Refreshed \d{4}-\d\d-\d\d \d\d:\d\d by .+\.$/);
  });

  it("with no page size set, asks the service for 1,000 per page and remembers what it took", async () => {
    s.settings({ ...FORM, pageSize: "" });
    await s.control("reset", { seed: 7, funds: 1_200, reports: 40 });
    run("refreshFunds");
    const audit = sheetOf(s.emulator, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
    const asked = audit.values
      .slice(1)
      .filter((r) => r[col(audit.header, "Endpoint")] === "getFunds")
      .map((r) => JSON.parse(String(r[col(audit.header, "Parameters")])) as { ResultsPerPage: number });
    // 1,200 funds: two pages of 1,000 instead of 240 of 5 or 12 of 100.
    expect(asked.map((p) => p.ResultsPerPage)).toEqual([1000, 1000]);
    expect(fundsSheet().values).toHaveLength(1_201);
    // Kept in the user's own properties: the document's are any editor's to write.
    const kept = s.emulator.userPropertiesOf().values.get("refresh.pageSizes");
    expect(JSON.parse(kept ?? "{}")).toEqual({ [s.sandbox.url]: 1000 });
    expect(s.emulator.documentPropertiesData.values.has("refresh.pageSizes")).toBe(false);
  });

  it("asks for the page size it found itself, not one another editor wrote in the document", async () => {
    s.settings({ ...FORM, pageSize: "" });
    await s.control("reset", { seed: 7, funds: 30, reports: 40 });
    // One record per page would spend the user's UrlFetch day thirty times faster.
    s.emulator.documentPropertiesData.values.set("refresh.pageSizes", JSON.stringify({ [s.sandbox.url]: 1 }));
    run("refreshFunds");
    const audit = sheetOf(s.emulator, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
    const asked = audit.values
      .slice(1)
      .filter((r) => r[col(audit.header, "Endpoint")] === "getFunds")
      .map(
        (r) =>
          (JSON.parse(String(r[col(audit.header, "Parameters")])) as { ResultsPerPage: number })
            .ResultsPerPage,
      );
    expect(asked).toEqual([1000]);
    expect(fundsSheet().values).toHaveLength(31);
  });

  it("keeps users' columns and formulas beside their record when funds are added, removed and reordered", async () => {
    s.settings({ ...FORM, fundStatus: "1", missingRows: "remove" });
    run("refreshFunds");
    let sheet = fundsSheet();
    const width = sheet.header.length;
    const balance = String.fromCharCode(65 + col(sheet.header, "Balance"));
    const rows = sheet.values.length;
    // The user adds two columns: a formula on the row's balance and a note naming the fund.
    s.emulator.typeCells("Funds", `${columnLetter(width + 1)}1:${columnLetter(width + 2)}1`, [
      ["Double", "Note"],
    ]);
    const typed = sheet.values.slice(1).map((r, i) => [`=${balance}${i + 2}*2`, `note for ${r[0]}`]);
    s.emulator.typeCells("Funds", `${columnLetter(width + 1)}2:${columnLetter(width + 2)}${rows}`, typed);

    const before = await allFunds({ Status: 1 });
    const [gone, renamed] = before as [{ Id: number; Title: string }, { Id: number; Title: string }];
    // Closed: no longer in the "open" list. Renamed: moves in the service's title order.
    await s.api("setFundStatus", { Id: gone.Id, IdAdmin: s.sandbox.adminId, FundStatus: 2 }, "PUT");
    await s.api(
      "updateFund",
      { Id: renamed.Id, IdAdmin: s.sandbox.adminId, FundName: "ZZZ last by title" },
      "PUT",
    );
    const added = await createFund("AAA first by title");

    run("refreshFunds");
    sheet = fundsSheet();
    const ids = sheet.values.slice(1).map((r) => r[0]);
    expect(ids).not.toContain(gone.Id);
    expect(ids).toContain(added);
    expect(ids.at(-1)).toBe(added); // new records come at the bottom; others keep their place
    sheet.values.slice(1).forEach((r, i) => {
      const row = i + 2;
      const note = r[width + 1];
      const formula = sheet.formulas[i + 1]?.[width];
      if (r[0] === added) {
        expect([formula, note]).toEqual(["", ""]);
      } else {
        expect(note).toBe(`note for ${r[0]}`);
        expect(formula).toBe(`=${balance}${row}*2`);
      }
    });
    expect(sheet.values[0]?.slice(width)).toEqual(["Double", "Note"]);
    expect(sheet.values.find((r) => r[0] === renamed.Id)?.[1]).toBe("ZZZ last by title");
  });

  it("reads only the add-on's columns when no row moves; users' columns only when rows are added", async () => {
    run("refreshFunds");
    const width = fundsSheet().header.length;
    const rows = fundsSheet().values.length;
    s.emulator.typeCells("Funds", `${columnLetter(width + 1)}1:${columnLetter(width + 2)}1`, [
      ["Double", "Note"],
    ]);
    s.emulator.typeCells("Funds", `${columnLetter(width + 1)}2:${columnLetter(width + 2)}2`, [
      ["=1+1", "mine"],
    ]);

    // Nothing changed: values, formulas and formats of the add-on's columns only, nothing written
    // (then the Summary reads back the few columns it needs, one each, data rows only).
    const summaryReads = (rows - 1) * NEEDED_COLUMNS.funds.length;
    s.emulator.resetCounters();
    run("refreshFunds");
    expect(s.emulator.counters.sheets.Funds).toMatchObject({
      cellsRead: 3 * rows * width + summaryReads,
      cellsWritten: 1, // the note saying when it was refreshed
    });

    // A fund renamed in place: still only the add-on's columns, and only its row is written.
    const [first] = await allFunds();
    await s.api("updateFund", { Id: first?.Id, IdAdmin: s.sandbox.adminId, FundName: "Renamed" }, "PUT");
    s.emulator.resetCounters();
    run("refreshFunds");
    expect(s.emulator.counters.sheets.Funds).toMatchObject({ cellsRead: 3 * rows * width + summaryReads });
    expect(s.emulator.counters.sheets.Funds?.cellsWritten).toBe(2 * width + 1); // its row, and the note

    // A new fund: its row's users' cells take the formats above, so the whole sheet is read.
    await createFund("New fund");
    s.emulator.resetCounters();
    run("refreshFunds");
    expect(s.emulator.counters.sheets.Funds?.cellsRead).toBe(
      3 * rows * width + 3 * rows * (width + 2) + rows * NEEDED_COLUMNS.funds.length,
    );
    const sheet = fundsSheet();
    expect(sheet.values).toHaveLength(rows + 1);
    expect(sheet.values[1]?.[width + 1]).toBe("mine");
    expect(sheet.formulas[1]?.[width]).toBe("=1+1");
  });

  it("refuses a refresh that would take the spreadsheet past 10 million cells, writing nothing", async () => {
    // The spreadsheet is 100 cells short of Google's limit once the Audit sheet (1000 × 26) is
    // added; the Funds sheet would need more.
    s.emulator.spreadsheet.addSheet("Funds").maxRows = 1;
    const pad = s.emulator.spreadsheet.addSheet("Padding");
    pad.maxColumns = 1;
    const used = s.emulator.spreadsheet.sheets.reduce((n, sh) => n + sh.maxRows * sh.maxColumns, 0);
    pad.maxRows += 10_000_000 - 100 - 26_000 - used;
    s.emulator.answers.push("OK");
    const out = s.emulator.tryRun("refreshFunds", [], { as: "menu" });
    expect(out.ok).toBe(true);
    const said = s.emulator.ui.dialogs.map((d) => d.prompt).join("\n");
    expect(said).toMatch(
      /Funds: this refresh would make the spreadsheet hold [\d,]+ cells, above Google's limit of 10,000,000\. Nothing was written\./,
    );
    expect(fundsSheet().values).toEqual([]);
  });

  it("marks a vanished fund's row by default instead of removing it", async () => {
    s.settings({ ...FORM, fundStatus: "1" });
    run("refreshFunds");
    const [gone] = (await allFunds({ Status: 1 })) as [{ Id: number; Title: string }];
    await s.api("setFundStatus", { Id: gone.Id, IdAdmin: s.sandbox.adminId, FundStatus: 2 }, "PUT");
    run("refreshFunds");
    const sheet = fundsSheet();
    const at = sheet.values.findIndex((r) => r[0] === gone.Id);
    const row = sheet.values[at] as unknown[];
    expect(String(row[col(sheet.header, "Refresh note")])).toMatch(
      /^Not returned by the last refresh \(\d{4}-\d\d-\d\d\): deleted, or outside the filters$/,
    );
    // Greyed: the add-on's cells of that row only; current rows and users' cells keep the default.
    const data = s.emulator.spreadsheet.sheetByName("Funds");
    const colors = (r: number) =>
      Array.from({ length: sheet.header.length + 1 }, (_, c) => data?.cell(r, c + 1)?.style?.color ?? "");
    expect(colors(at + 1)).toEqual([...sheet.header.map(() => "#999999"), ""]);
    const current = sheet.values.findIndex((r, i) => i > 0 && r[0] !== gone.Id);
    expect(colors(current + 1).every((c) => c === "")).toBe(true);
    // Nothing changed since: nothing written but the freshness note, the row still greyed.
    s.emulator.resetCounters();
    run("refreshFunds");
    expect(s.emulator.counters.sheets.Funds).toMatchObject({ writes: 1, cellsWritten: 1 });
    // Back in the list: a current row again, in the default colour, its note gone.
    await s.api("setFundStatus", { Id: gone.Id, IdAdmin: s.sandbox.adminId, FundStatus: 1 }, "PUT");
    run("refreshFunds");
    const back = fundsSheet();
    const again = back.values.findIndex((r) => r[0] === gone.Id);
    expect(back.values[again]?.[col(back.header, "Refresh note")]).toBe("");
    expect(colors(again + 1).every((c) => c === "")).toBe(true);
  });

  it("shows each amount in its currency's decimals, the value exact, and dates alone without a time", async () => {
    const whole = await createFund("Whole pesos", "", 1235);
    const cents = await createFund("Pesos with cents", "", 1234.5);
    const usd = await s.api("createFund", {
      IdEmployee: employeeId,
      IdAdmin: s.sandbox.adminId,
      FundName: "Dollars",
      FundCurrency: "USD",
      FundCode: "",
      FundAmount: 1235,
    });
    run("refreshTransactions");
    const sheet = fundsSheet();
    const moves = sheetOf(s.emulator, "Fund transactions") as NonNullable<ReturnType<typeof sheetOf>>;
    const move = (id: number) => {
      const r = moves.values.findIndex((row) => row[0] === `${id}-1`);
      const c = col(moves.header, "Amount");
      return displayCell(moves.values[r]?.[c] as number, moves.formats[r]?.[c] ?? "", "UTC").text;
    };
    expect([move(whole), move(cents), move(usd.Id)]).toEqual(["1,235", "1,234.50", "1,235.00"]);
    const shown = (id: number, label: string) => {
      const r = sheet.values.findIndex((row) => row[0] === id);
      const c = col(sheet.header, label);
      return [
        sheet.values[r]?.[c],
        displayCell(sheet.values[r]?.[c] as number, sheet.formats[r]?.[c] ?? "", "UTC").text,
      ];
    };
    expect(shown(whole, "Balance")).toEqual([1235, "1,235"]);
    expect(shown(cents, "Balance")).toEqual([1234.5, "1,234.50"]);
    expect(shown(usd.Id, "Balance")).toEqual([1235, "1,235.00"]);
    const c = col(sheet.header, "Created");
    const created = sheet.formats.slice(1).map((row) => row[c]);
    // Times in one format, hours and minutes: never the seconds, nor "00:00:00" on a date alone.
    expect(created).toContain("yyyy-mm-dd hh:mm");
    expect(created.every((f) => f === "yyyy-mm-dd hh:mm" || f === "yyyy-mm-dd")).toBe(true);
  });

  it("writes text from the service literally: formulas, signs, leading zeros, date-like codes, unicode, long text", async () => {
    const cases: [string, string][] = [
      ['=HYPERLINK("http://evil.example","click")', "00123"],
      ["+1-2", "2024-01-05"],
      ["-x", "=1+1"],
      ["@x", "'quoted"],
      ["Ñandú — 日本語 😀", "0001"],
      ["\t=1+1 with tab", "1e5"],
      [`${"y".repeat(195)}=end`, "TRUE"],
    ];
    const ids: number[] = [];
    for (const [name, code] of cases) ids.push(await createFund(name, code));
    run("refreshFunds");
    const sheet = fundsSheet();
    const title = col(sheet.header, "Title");
    const code = col(sheet.header, "Code");
    for (const id of ids) {
      // What the service holds for the fund is what the cells must hold, character for character.
      const fund = await s.api(`getFund?Id=${id}`);
      const i = sheet.values.findIndex((r) => r[0] === id);
      expect(i, fund.Title).toBeGreaterThan(0);
      expect(sheet.values[i]?.[title]).toBe(fund.Title);
      expect(sheet.values[i]?.[code]).toBe(fund.Code);
      expect(sheet.formulas[i]?.[title]).toBe("");
      expect(sheet.formulas[i]?.[code]).toBe("");
    }
    const served = await Promise.all(ids.map((id) => s.api(`getFund?Id=${id}`)));
    expect(served.map((f) => f.Code)).toEqual(cases.map(([, c]) => c));
  });

  it("fetches movements again only for funds whose totals changed", async () => {
    run("refreshTransactions");
    const [fund] = (await allFunds()) as [{ Id: number; Title: string }];
    await s.api("depositMoneyToFund", { Id: fund.Id, IdAdmin: s.sandbox.adminId, DepositAmount: 12.34 });
    s.emulator.resetCounters();
    run("refreshTransactions");
    const audit = sheetOf(s.emulator, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
    const last = audit.values.slice(-s.emulator.counters.urlFetchTotal);
    expect(last.map((r) => r[col(audit.header, "Endpoint")]).sort()).toEqual([
      "getFund",
      "getFunds",
      "getFunds",
      "getFunds",
    ]);
    expect(
      last.find((r) => r[col(audit.header, "Endpoint")] === "getFund")?.[col(audit.header, "Record id")],
    ).toBe(String(fund.Id));
    const tx = sheetOf(s.emulator, "Fund transactions") as NonNullable<ReturnType<typeof sheetOf>>;
    const amounts = tx.values.filter((r) => r[1] === fund.Id).map((r) => r[col(tx.header, "Amount")]);
    expect(amounts).toContain(12.34);
    // The new movement sits right after the fund's others, not at the bottom of the sheet.
    const rowsOfFund = tx.values.flatMap((r, i) => (r[1] === fund.Id ? [i] : []));
    expect(rowsOfFund.at(-1) as number).toBe((rowsOfFund[0] as number) + rowsOfFund.length - 1);
    expect(tx.values[rowsOfFund.at(-1) as number]?.[col(tx.header, "Amount")]).toBe(12.34);
  });

  it("refreshes only the selected rows", async () => {
    s.settings({ ...FORM, fundStatus: "1" });
    run("refreshFunds");
    const sheet = fundsSheet();
    const [a, b] = [sheet.values[2]?.[0] as number, sheet.values[3]?.[0] as number];
    for (const id of [a, b])
      await s.api("depositMoneyToFund", { Id: id, IdAdmin: s.sandbox.adminId, DepositAmount: 1000 });
    s.emulator.select("Funds", "B3");
    s.emulator.resetCounters();
    run("refreshSelectedRows");
    expect(s.emulator.counters.urlFetchTotal).toBe(1);
    const after = fundsSheet();
    const deposits = col(after.header, "Deposits");
    expect(after.values[2]?.[deposits]).toBe((sheet.values[2]?.[deposits] as number) + 1000);
    expect(after.values[3]?.[deposits]).toBe(sheet.values[3]?.[deposits]);
  });

  it("refreshes the movements of the funds of the selected transaction rows", async () => {
    s.settings({ ...FORM, fundStatus: "1" });
    run("refreshTransactions");
    const tx = sheetOf(s.emulator, "Fund transactions") as NonNullable<ReturnType<typeof sheetOf>>;
    const fundId = tx.values[1]?.[1] as number;
    const before = tx.values.filter((r) => r[1] === fundId).length;
    await s.api("withdrawMoneyFromFund", { Id: fundId, IdAdmin: s.sandbox.adminId, WithdrawAmount: 1.5 });
    s.emulator.select("Fund transactions", "A2");
    s.emulator.resetCounters();
    run("refreshSelectedRows");
    expect(s.emulator.counters.urlFetchTotal).toBe(1);
    const after = sheetOf(s.emulator, "Fund transactions") as NonNullable<ReturnType<typeof sheetOf>>;
    const rows = after.values.filter((r) => r[1] === fundId);
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)?.[col(after.header, "Type")]).toBe("Withdrawal");
    expect(rows.at(-1)?.[col(after.header, "Amount")]).toBe(1.5);
  });

  it("refreshes only the selected report rows, keeping what only the list carries", async () => {
    run("refreshReports");
    const sheet = sheetOf(s.emulator, "Expense reports") as NonNullable<ReturnType<typeof sheetOf>>;
    const internal = col(sheet.header, "Integration internal code");
    const custom = col(sheet.header, "Custom status");
    // A report the list shows with an internal integration code, and the row below it.
    const row = sheet.values.findIndex((r, i) => i > 0 && r[internal] !== "" && i + 1 < sheet.values.length);
    expect(row).toBeGreaterThan(0);
    const [a, b] = [sheet.values[row]?.[0] as number, sheet.values[row + 1]?.[0] as number];
    for (const id of [a, b]) {
      await s.api(
        "setExpenseReportCustomStatus",
        { Id: id, IdAdmin: s.sandbox.managerId, CustomStatus: "Pagado" },
        "PUT",
      );
    }
    s.emulator.select("Expense reports", `C${row + 1}`);
    s.emulator.resetCounters();
    run("refreshSelectedRows");
    expect(s.emulator.counters.urlFetchTotal).toBe(1);
    const after = sheetOf(s.emulator, "Expense reports") as NonNullable<ReturnType<typeof sheetOf>>;
    expect(after.values[row]?.[custom]).toBe("Pagado");
    expect(after.values[row + 1]?.[custom]).toBe(sheet.values[row + 1]?.[custom]);
    expect(after.values[row]?.[internal]).toBe(sheet.values[row]?.[internal]);
  });

  it("retries a read the service failed once, and audits both tries", async () => {
    await s.control("faults", { rules: [{ endpoint: "getFunds", fault: "status", status: 503, times: 1 }] });
    run("refreshFunds");
    expect(fundsSheet().values.length).toBe(13);
    const audit = sheetOf(s.emulator, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
    const tries = audit.values
      .slice(1)
      .filter((r) => r[col(audit.header, "Endpoint")] === "getFunds")
      .map((r) => [r[col(audit.header, "HTTP status")], r[col(audit.header, "Outcome")]]);
    expect(tries[0]).toEqual([503, "error"]);
    expect(tries.slice(1).every(([status, outcome]) => status === 200 && outcome === "ok")).toBe(true);
    expect(tries).toHaveLength(4);
  });

  it("reads every fund when the service counts its pages by a floor division (12 at 5 a page: 2)", async () => {
    await s.control("faults", { rules: [{ endpoint: "getFunds", fault: "floor-pages" }] });
    run("refreshFunds");
    expect(fundsSheet().values.length).toBe(13);
  });

  it("leaves the previous data when a refresh fails, and says why", async () => {
    run("refreshReports");
    const before = sheetOf(s.emulator, "Expense reports")?.values;
    await s.control("faults", {
      rules: [{ endpoint: "getExpenseReports", fault: "status", status: 500, times: 50 }],
    });
    s.emulator.answers.push("OK");
    run("refreshReports");
    expect(sheetOf(s.emulator, "Expense reports")?.values).toEqual(before);
    const alert = s.emulator.ui.dialogs.at(-1);
    expect(alert?.prompt).toMatch(
      /^The service is not answering right now\. The sheets keep their previous data\./,
    );
    expect(alert?.prompt).toMatch(/\n\nDetails: .*500/);
    const audit = sheetOf(s.emulator, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
    expect(audit.values.at(-1)?.[col(audit.header, "Outcome")]).toBe("error");
    expect(audit.values.at(-1)?.[col(audit.header, "HTTP status")]).toBe(500);
  });

  it("with the service down, a menu refresh says so in one alert: plain words first, the HTTP status in its details", async () => {
    run("refreshFunds");
    const before = fundsSheet().values;
    await s.control("faults", { rules: [{ endpoint: "getFunds", fault: "status", status: 503, times: 50 }] });
    const dialogs = s.emulator.ui.dialogs.length;
    const toasts = s.emulator.ui.toasts.length;
    s.emulator.answers.push("OK", "OK");
    run("refreshFunds");
    expect(fundsSheet().values).toEqual(before);
    const shown = s.emulator.ui.dialogs.slice(dialogs).map((d) => d.prompt);
    expect(shown).toHaveLength(1);
    const [plain, details] = (shown[0] ?? "").split("\n\n");
    expect(plain).toBe(
      "The service is not answering right now. The sheets keep their previous data. Try again in a few minutes.",
    );
    expect(details).toMatch(/^Details: getFunds: .*HTTP 503/);
    expect(shown[0]).not.toContain(s.sandbox.token);
    // No toast repeats the alert.
    expect(s.emulator.ui.toasts.slice(toasts).map((t) => t.message)).not.toContain(shown[0]);
    s.settings({ ...FORM, language: "es" });
    run("refreshFunds");
    const spanish = s.emulator.ui.dialogs.at(-1)?.prompt ?? "";
    expect(spanish).toMatch(/^El servicio no está respondiendo en este momento\. Las hojas conservan/);
    expect(spanish).toMatch(/\n\nDetalles: getFunds: .*HTTP 503/);
  });

  it("with no token saved for the user, a menu refresh says so in the user's language", async () => {
    s.emulator.resetState();
    s.settings({ ...FORM, language: "es" });
    const dialogs = s.emulator.ui.dialogs.length;
    s.emulator.answers.push("OK", "OK");
    run("refreshFunds");
    const shown = s.emulator.ui.dialogs.slice(dialogs).map((d) => d.prompt);
    expect(shown.join("\n")).toContain(
      "No hay un token de acceso guardado para usted: ingréselo en Configuración.",
    );
    expect(sheetOf(s.emulator, "Fondos")).toBeNull();
  });

  it("puts report titles literally, extra fields in columns of their own, files as links", async () => {
    const draft = await s.control("reports", { EmployeeId: employeeId, Title: "=IMPORTXML(A1) +1-2 00123" });
    await s.control(`reports/${draft.Id ?? draft.id}/send`, {});
    s.settings({ ...FORM, reportTypeDateFilter: "2" });
    run("refreshReports");
    const sheet = sheetOf(s.emulator, "Expense reports") as NonNullable<ReturnType<typeof sheetOf>>;
    const id = draft.Id ?? draft.id;
    const row = sheet.values.findIndex((r) => r[0] === id);
    expect(row).toBeGreaterThan(0);
    const title = col(sheet.header, "Title");
    expect(sheet.values[row]?.[title]).toBe("=IMPORTXML(A1) +1-2 00123");
    expect(sheet.formulas[row]?.[title]).toBe("");
    // Extra fields of the demo data become columns after the add-on's fixed ones.
    const note = col(sheet.header, "Refresh note");
    expect(sheet.header.length).toBeGreaterThan(note + 1);
    const files = col(sheet.header, "Files");
    const links = sheet.formulas
      .slice(1)
      .map((r) => r[files])
      .filter((f) => f);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links)
      expect(link).toMatch(/^=HYPERLINK\("http:\/\/127\.0\.0\.1:\d+\/_sandbox\/files\//);
  });

  it("keeps a column layout beyond one property value (9 KB): long extra-field names refresh without a failure, and again in place", async () => {
    const names = Array.from({ length: 40 }, (_v, i) => `Campo ${i} ${"x".repeat(300)}`);
    const draft = await s.control("reports", {
      EmployeeId: employeeId,
      ExtraFields: names.map((Name, i) => ({ Name, Value: `v${i}` })),
    });
    const id = draft.Id ?? draft.id;
    await s.control(`reports/${id}/send`, {});
    s.settings({ ...FORM, reportTypeDateFilter: "2" });
    const dialogs = s.emulator.ui.dialogs.length;
    run("refreshReports");
    run("refreshReports");
    expect(s.emulator.ui.dialogs.slice(dialogs).map((d) => d.prompt)).toEqual([]);
    const sheet = sheetOf(s.emulator, "Expense reports") as NonNullable<ReturnType<typeof sheetOf>>;
    // Each name once: the second refresh read the stored layout back, and added no columns.
    for (const name of names) expect(sheet.header.filter((h) => h === name)).toHaveLength(1);
    const row = sheet.values.findIndex((r) => r[0] === id);
    expect(sheet.values[row]?.[col(sheet.header, names[39] as string)]).toBe("v39");
    const stored = s.emulator.documentPropertiesData.values;
    expect(Number(stored.get("sheets.layout.reports"))).toBeGreaterThan(1);
    expect(
      loadText({ getProperty: (k: string) => stored.get(k) ?? null } as never, "sheets.layout.reports"),
    ).toContain(`extra:${names[39]}`);
  });

  it("keeps the audit bounded: the oldest rows move to the archive", async () => {
    s.settings({ ...FORM, auditMaxRows: "10" });
    // 3 calls each; the bound is checked when a run opens the audit, so it may pass it by one run.
    for (let i = 0; i < 5; i++) run("refreshFunds");
    const audit = sheetOf(s.emulator, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
    const archive = sheetOf(s.emulator, "Audit archive") as NonNullable<ReturnType<typeof sheetOf>>;
    expect(audit.values.length - 1).toBeLessThanOrEqual(10 + 3);
    expect(archive.values.length - 1).toBeGreaterThan(0);
    expect(archive.values.length - 1 + audit.values.length - 1).toBe(15);
    expect(archive.header).toEqual(audit.header);
    // Oldest first in the archive, newest last in the audit.
    const time = (r: unknown[]) => new Date(r[0] as string).getTime();
    expect(time(archive.values.at(-1) as unknown[])).toBeLessThanOrEqual(time(audit.values[1] as unknown[]));
  });

  it("stops near the time limit and the next refresh continues without duplicates or gaps", async () => {
    run("refreshAll");
    const straight = ["Funds", "Fund transactions", "Expense reports"].map(
      (n) => sheetOf(s.emulator, n)?.values,
    );
    s.emulator.resetState();
    storeToken(s.emulator, s.user, s.sandbox.token, s.sandbox.url);
    s.settings({ ...FORM, fetchBatchSize: "2" });
    // A budget so short that every execution stops after a step or two.
    s.emulator.documentPropertiesData.values.set("longrun.executionLimitMs", "60");
    await s.control("faults", { latencyMs: 15, rules: [] });
    let executions = 0;
    for (;;) {
      executions++;
      const out = s.emulator.tryRun("refreshFromSidebar", ["all"]);
      const summary = (out.ok ? out.result : null) as { ok: boolean; finished: boolean } | null;
      expect(summary?.ok).toBe(true);
      if (summary?.finished) break;
      expect(executions).toBeLessThan(200);
    }
    await s.control("faults", undefined, "DELETE");
    expect(executions).toBeGreaterThan(1);
    const continued = ["Funds", "Fund transactions", "Expense reports"].map(
      (n) => sheetOf(s.emulator, n)?.values,
    );
    continued.forEach((values, i) => {
      const ids = (values ?? []).slice(1).map((r) => r[0]);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.map(String).sort()).toEqual(
        (straight[i] ?? [])
          .slice(1)
          .map((r) => String(r[0]))
          .sort(),
      );
    });
  });

  it("goes on without a click only with the user's own pause, not with a position another editor wrote", async () => {
    s.emulator.documentPropertiesData.values.set("longrun.executionLimitMs", "60");
    await s.control("faults", { latencyMs: 15, rules: [] });
    const out = s.emulator.tryRun("refreshFromSidebar", ["all"]);
    await s.control("faults", undefined, "DELETE");
    expect(out.ok && (out.result as { finished: boolean }).finished).toBe(false);
    const view = () =>
      (s.emulator.tryRun("getRefreshSidebarView", []) as { result: { paused: { continueNow: boolean } } })
        .result.paused;
    expect(view()).toMatchObject({ continueNow: true });
    // Another editor writes the position again, as fresh as can be.
    const store = {
      getProperty: (k: string) => s.emulator.documentPropertiesData.values.get(k) ?? null,
      setProperty: (k: string, v: string) => s.emulator.documentPropertiesData.values.set(k, v),
      deleteProperty: (k: string) => s.emulator.documentPropertiesData.values.delete(k),
    };
    const text = loadText(store, "refresh.menuCursor") ?? "{}";
    const stored = JSON.parse(text);
    saveText(store, "refresh.menuCursor", JSON.stringify({ ...stored, pausedAt: stored.pausedAt + 1 }));
    expect(view()).toMatchObject({ continueNow: false });
    // The same time, another position: nothing left to do, so that the refresh would be done at once.
    const forged = JSON.stringify({ ...stored, cursor: { v: 1, stages: [] } });
    saveText(store, "refresh.menuCursor", forged);
    expect(view()).toMatchObject({ continueNow: false });
    // The user's own pause in another spreadsheet, copied by an editor who saw it there: not
    // this document's pause either.
    const mine = s.emulator.userPropertiesOf().values;
    const key = `refresh.pausedByMe.${s.emulator.spreadsheet.id}`;
    const mark = String(mine.get(key));
    mine.delete(key);
    mine.set("refresh.pausedByMe.other-id", mark);
    saveText(store, "refresh.menuCursor", text);
    expect(view()).toMatchObject({ continueNow: false });
    mine.set(key, mark);
    expect(view()).toMatchObject({ continueNow: true });
    // Continued by a click, a position the user did not store starts the refresh again.
    saveText(store, "refresh.menuCursor", forged);
    s.emulator.resetCounters();
    const again = s.emulator.tryRun("refreshFromSidebar", ["all"]);
    expect(again.ok && (again.result as { records: number }).records).toBeGreaterThan(0);
  });

  it("killed in the middle of a refresh, leaves every sheet either as it was or complete", async () => {
    // Where the movements start in a refresh of everything: after its first getFund, the funds
    // were written, the movements not.
    run("refreshAll");
    const whole = sheetOf(s.emulator, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
    const order = whole.values.slice(1).map((r) => r[col(whole.header, "Endpoint")]);
    const firstGetFund = order.indexOf("getFund") + 1;
    expect(firstGetFund).toBeGreaterThan(3);
    s.emulator.resetState();
    storeToken(s.emulator, s.user, s.sandbox.token, s.sandbox.url);
    s.settings(FORM);
    run("refreshFunds");
    const funds = sheetOf(s.emulator, "Funds")?.values;
    const out = s.emulator.tryRun("refreshAll", [], {
      as: "menu",
      stopAt: { fetch: firstGetFund + 1, when: "after" },
    });
    expect(out.ok).toBe(false);
    // The Funds sheet is complete: the same rows, the employees now named by the report pages
    // read with the funds' (the funds-only refresh had no name to show but the id).
    const header = sheetOf(s.emulator, "Funds")?.header ?? [];
    const nameAt = header.indexOf("Assigned to");
    const idAt = header.indexOf("Assigned to (id)");
    const written = sheetOf(s.emulator, "Funds")?.values ?? [];
    const withoutNames = (rows: unknown[][] | undefined) =>
      rows?.map((r) => r.filter((_v, c) => c !== nameAt));
    expect(withoutNames(written)).toEqual(withoutNames(funds));
    expect(written.slice(1).some((r) => String(r[nameAt]) !== String(r[idAt]))).toBe(true);
    expect(sheetOf(s.emulator, "Fund transactions")).toBeNull();
    expect(sheetOf(s.emulator, "Expense reports")).toBeNull();
    // The reads behind the Funds sheet it did write are in the audit, killed run included.
    const audit = sheetOf(s.emulator, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
    expect(audit.values.filter((r) => r[col(audit.header, "Endpoint")] === "getFunds")).toHaveLength(6);
    // The next refresh completes the work.
    run("refreshAll");
    expect((sheetOf(s.emulator, "Fund transactions")?.values.length ?? 0) > 1).toBe(true);
  });

  it("records a scheduled run as 'schedule (<creator>)' in the audit", async () => {
    s.emulator.run("saveSchedule", [{ kind: "hours", every: 1 }]);
    s.emulator.advanceTime(2 * 60 * 60 * 1000);
    const fired = s.emulator.fireTimeTriggers();
    expect(fired.some((f) => f.handler === "runScheduledRefresh" && f.ok)).toBe(true);
    expect((sheetOf(s.emulator, "Funds")?.values.length ?? 0) > 1).toBe(true);
    const audit = sheetOf(s.emulator, "Audit") as NonNullable<ReturnType<typeof sheetOf>>;
    const users = new Set(audit.values.slice(1).map((r) => r[col(audit.header, "User")]));
    const sources = new Set(audit.values.slice(1).map((r) => r[col(audit.header, "Source")]));
    expect([...users]).toEqual(["schedule (ana@example.com)"]);
    expect([...sources]).toEqual(["schedule"]);
  });

  it("in a Spanish document, names a scheduled run 'programación (<creator>)' and writes the audit's words in Spanish; back in English, the note follows", async () => {
    s.settings({ ...FORM, language: "es" });
    s.emulator.run("saveSchedule", [{ kind: "hours", every: 1 }]);
    s.emulator.advanceTime(2 * 60 * 60 * 1000);
    expect(s.emulator.fireTimeTriggers().some((f) => f.handler === "runScheduledRefresh" && f.ok)).toBe(true);
    const corner = () => s.emulator.spreadsheet.sheetByName(translate("en", "sheet.funds"))?.cell(1, 1)?.note;
    const fondos = s.emulator.spreadsheet.sheetByName(translate("es", "sheet.funds"));
    expect(fondos?.cell(1, 1)?.note).toMatch(/^Actualizada el .+ por programación \(ana@example\.com\)\.$/);
    const view = run("getRefreshSidebarView", "script.run").result as { fresh: string[] };
    expect(view.fresh[0]).toMatch(/: actualizada el .+ por programación \(ana@example\.com\)\.$/);
    const words = (language: "en" | "es", key: "col.user" | "col.source" | "col.outcome") => {
      const audit = sheetOf(s.emulator, translate(language, "sheet.audit")) as NonNullable<
        ReturnType<typeof sheetOf>
      >;
      return [...new Set(audit.values.slice(1).map((r) => r[col(audit.header, translate(language, key))]))];
    };
    expect(words("es", "col.user")).toEqual(["programación (ana@example.com)"]);
    expect(words("es", "col.source")).toEqual(["programada"]);
    expect(words("es", "col.outcome")).toEqual(["correcto"]);

    const form = (run("getSettingsView", "script.run").result as SettingsView).form;
    expect(run("saveSettings", "script.run", [{ ...form, language: "en" }]).result).toMatchObject({
      ok: true,
    });
    expect(corner()).toMatch(/^Refreshed .+ by schedule \(ana@example\.com\)\.$/);
    // The audit's rows keep the language they were written in (its header follows the document's).
    run("refreshFunds");
    expect(words("en", "col.source")).toEqual(["programada", "menu"]);
    expect(words("en", "col.outcome")).toEqual(["correcto", "ok"]);
  });

  it("speaks the user's language: sheet names, headers and labels in Spanish", async () => {
    s.settings({ ...FORM, language: "es" });
    run("refreshFunds");
    const sheet = sheetOf(s.emulator, "Fondos") as NonNullable<ReturnType<typeof sheetOf>>;
    expect(sheet.header.slice(0, 5)).toEqual(["Id", "Título", "Código", "Moneda", "Estado"]);
    const labels = new Set(sheet.values.slice(1).map((r) => r[4]));
    expect([...labels].every((l) => ["Abierto", "Cerrado", "Bloqueado"].includes(String(l)))).toBe(true);
    expect(sheetOf(s.emulator, "Auditoría")).not.toBeNull();
    expect(s.emulator.ui.toasts.at(-1)?.message).toMatch(
      /^12 registros actualizados con 3 llamadas en [\d.]+ s\.$/,
    );
  });

  it("shows the service's days as dates in the spreadsheet's time zone, even when the script's differs", async () => {
    // The script runs in America/Santiago; midnight there is still the day before in Honolulu.
    s.emulator.spreadsheet.timeZone = "Pacific/Honolulu";
    run("refreshTransactions");
    const tx = sheetOf(s.emulator, "Fund transactions") as NonNullable<ReturnType<typeof sheetOf>>;
    const dateAt = col(tx.header, "Date");
    const [fund] = (await allFunds()) as [{ Id: number; Title: string }];
    const served = (await s.api(`getFund?Id=${fund.Id}`)).Transactions.map(
      (t: { TransactionDate: string }) => t.TransactionDate,
    );
    const shown = tx.values
      .filter((r) => r[1] === fund.Id)
      .map((r) =>
        new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Honolulu" }).format(r[dateAt] as Date),
      );
    expect(shown).toEqual(served);
    expect(tx.formats[1]?.[dateAt]).toBe("yyyy-mm-dd");
  });

  it("offers a sidebar whose buttons call the refresh, with the summary as the answer", async () => {
    run("showRefreshSidebar");
    expect(s.emulator.ui.sidebar?.title).toBe("Refresh");
    expect(s.emulator.ui.sidebar?.html).toContain('id="app"');
    expect(s.emulator.run("getRefreshSidebarView", [])).toEqual({ language: "en", fresh: [], paused: null });
    const summary = s.emulator.run("refreshFromSidebar", ["funds"]) as {
      ok: boolean;
      records: number;
      calls: number;
    };
    expect(summary).toMatchObject({ ok: true, records: 12, calls: 3 });
    // The sidebar then says how fresh the data is, sheet by sheet, and who refreshed it.
    const view = s.emulator.run("getRefreshSidebarView", []) as { fresh: string[] };
    expect(view.fresh).toEqual([
      expect.stringMatching(/^Funds: refreshed \d{4}-\d\d-\d\d \d\d:\d\d by ana@example\.com\.$/),
    ]);
    expect(s.emulator.tryRun("refreshFromSidebar", ["everything"])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/kind: must be one of funds, transactions, reports, all, selected/),
    });
  });

  it("runs in a trigger, where there is no Ui", async () => {
    run("refreshFunds", "trigger");
    expect(fundsSheet().values.length).toBe(13);
  });
});
