/**
 * The Fund and Report sidebars' server functions of the BUILT add-on, called as
 * google.script.run calls them, against the sandbox: every operation, the contract's messages
 * (the very ones the forms show as the user types), arguments checked server-side, refusals,
 * faults settled by reading once, a double send answered from the first result, and the rows
 * of the Funds and Expense reports sheets updated from each response.
 */

import { beforeEach, describe, expect, it } from "vitest";
import { displayCell } from "../../dev/emulator/spreadsheet/format";
import { formatCents } from "../../src/api";
import { moneyText } from "../../src/api/money";
import { LEDGER_KEY } from "../../src/app/quota";
import type { ReportSidebarView } from "../../src/app/report-sidebar";
import { translate } from "../../src/i18n";
import type { FormOutcome } from "../../src/outbox/forms";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { checkWrite } from "../../src/outbox/requests";
import { writeProblemText } from "../../src/outbox/words";
import { FUNDS_TABLE, headersOf, REPORT_COLUMNS } from "../../src/sheets/columns";
import { columnLetter } from "../support/column-letter";
import { openFundsOf, openReports, type SandboxFund, sentFor, writeBackPerFile } from "./harness";

let fund: SandboxFund;
let requestCount = 0;
/** Another editor of the spreadsheet. */
const BEN = "ben@example.com";

const wb = writeBackPerFile({ otherUsers: [BEN] });

beforeEach(async () => {
  await wb.reset();
  [fund] = (await openFundsOf(wb)) as [SandboxFund];
});

const requestId = () => `test-request-${++requestCount}-abcdef`;
const send = (name: string, fields: Record<string, unknown>, id = requestId()) =>
  wb.sidebar(name, { requestId: id, fields }) as FormOutcome;

/** A Funds sheet as a refresh leaves it, with only the cells these tests look at filled. */
function fundsSheet(funds: SandboxFund[]): void {
  wb.emulator.spreadsheet.addSheet("Funds");
  const headers = headersOf(FUNDS_TABLE, "en");
  const balance = headers.indexOf(translate("en", "col.balance"));
  const rows = funds.map((f) =>
    headers.map((_, i) => (i === 0 ? f.id : i === balance ? f.balanceCents / 100 : "")),
  );
  wb.emulator.typeCells("Funds", `A1:${columnLetter(headers.length)}${funds.length + 1}`, [headers, ...rows]);
}

function cellOf(sheet: string, rowIndex: number, header: string): unknown {
  const values = wb.sheetValues(sheet);
  return values[rowIndex]?.[(values[0] ?? []).indexOf(header)];
}

describe("Menu items open the sidebars", () => {
  it("Fund… and Expense reports… show the built pages with titles in the user's language", () => {
    wb.settings({ language: "es" });
    const fundRun = wb.menu("showFundSidebar");
    expect(fundRun.ok).toBe(true);
    expect(wb.emulator.ui.sidebar).toMatchObject({ kind: "sidebar", title: "Fondo" });
    expect(wb.emulator.ui.sidebar?.html).toContain('<main id="app"');
    wb.menu("showReportSidebar");
    expect(wb.emulator.ui.sidebar).toMatchObject({ kind: "sidebar", title: "Rendiciones" });
    const menu = wb.emulator.open();
    expect(menu.ok).toBe(true);
    const labels = wb.emulator.ui.menus.flatMap((m) => m.items.map((i) => i.label));
    // The menu follows the document's language too.
    expect(labels).toEqual(
      expect.arrayContaining(["Crear hoja Bandeja de salida", "Ejecutar la Bandeja de salida", "Fondo…"]),
    );
  });
});

describe("Fund sidebar", () => {
  it("shows the fund of the selected row, read fresh, and of an Id typed in", async () => {
    const state = await wb.state();
    const other = state.funds.find((f) => f.id !== fund.id) as SandboxFund;
    fundsSheet([fund, other]);
    wb.emulator.select("Funds", "C3");
    const selected = wb.sidebar("getFundSidebarView", {}) as {
      fund: { id: number; balance: string };
      error: string;
    };
    expect(selected.error).toBe("");
    expect(selected.fund.id).toBe(other.id);
    const typed = wb.sidebar("getFundSidebarView", { fundId: String(fund.id) }) as {
      fund: { id: number; balance: string; currency: string };
      employees: { id: number }[];
    };
    expect(typed.fund.id).toBe(fund.id);
    expect(typed.fund.balance).toBe(
      formatCents(fund.balanceCents, { locale: "en", currency: fund.currency }),
    );
    const missing = wb.sidebar("getFundSidebarView", { fundId: "999999" }) as { fund: null; error: string };
    expect(missing.fund).toBeNull();
    expect(missing.error).not.toBe("");
  });

  it("a fund that cannot be read is said in plain words first, the HTTP status in the details", async () => {
    await wb.faults([{ endpoint: "getFund", fault: "status", status: 503, times: 50 }]);
    try {
      const view = wb.sidebar("getFundSidebarView", { fundId: String(fund.id) }) as {
        fund: null;
        error: string;
      };
      expect(view.fund).toBeNull();
      const [plain, details] = view.error.split("\n\n");
      expect(plain).toBe(
        "The fund could not be read, so it is not shown. Check its Id, or try again in a few minutes.",
      );
      expect(details).toMatch(/^Details: getFund: .*HTTP 503/);
    } finally {
      await wb.clearFaults();
    }
  });

  it("dates stay dates after a write: Created as the refresh writes it, and a refresh repairs a date left as text", () => {
    expect(wb.menu("refreshFunds").ok).toBe(true);
    const sheet = wb.emulator.spreadsheet.sheetByName("Funds");
    if (!sheet) throw new Error("no Funds sheet");
    const values = wb.sheetValues("Funds");
    const column = (values[0] ?? []).indexOf("Created") + 1;
    const row = values.findIndex((r) => r[0] === fund.id) + 1;
    const created = () => {
      const cell = sheet.cell(row, column);
      return { type: Object.prototype.toString.call(cell?.value), format: cell?.numberFormat };
    };
    const refreshed = created();
    expect(refreshed.type).toBe("[object Date]");
    expect(send("depositToFund", { Id: fund.id, DepositAmount: "1" }).kind).toBe("done");
    expect(created()).toEqual(refreshed);
    // A Created cell left as literal text (by an earlier version's write): the very text the
    // refresh plans, so only its type differs. A refresh repairs it.
    const cell = sheet.cell(row, column);
    if (!cell) throw new Error("no Created cell");
    const shown = displayCell(
      (cell.value as Date).toISOString(),
      "yyyy-mm-dd hh:mm:ss",
      wb.emulator.spreadsheet.timeZone,
    );
    cell.value = shown.text;
    expect(created().type).toBe("[object String]");
    expect(wb.menu("refreshFunds").ok).toBe(true);
    expect(created()).toEqual(refreshed);
  });

  it("deposit, withdraw, update, status and create: each sent once, the Funds row updated from the answer", async () => {
    fundsSheet([fund]);
    const deposit = send("depositToFund", { Id: fund.id, DepositAmount: "10.50" });
    expect(deposit).toMatchObject({ kind: "done", fund: { id: fund.id } });
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents + 1_050);
    expect(cellOf("Funds", 1, "Balance")).toBe((fund.balanceCents + 1_050) / 100);

    const withdraw = send("withdrawFromFund", { Id: fund.id, WithdrawAmount: "0.50" });
    expect(withdraw.kind).toBe("done");
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents + 1_000);

    const update = send("updateFundDetails", {
      Id: fund.id,
      FundName: "Caja <b>norte</b>",
      FundCode: "N-1",
      FundFlexibility: true,
    });
    expect(update.kind).toBe("done");
    expect(await wb.fund(fund.id)).toMatchObject({ title: "Caja <b>norte</b>", code: "N-1" });
    expect(cellOf("Funds", 1, "Title")).toBe("Caja <b>norte</b>");

    const close = send("changeFundStatus", { Id: fund.id, FundStatus: "2" });
    expect(close.kind).toBe("done");
    expect((await wb.fund(fund.id)).status).toBe(2);

    const created = send("createFundForEmployee", {
      IdEmployee: String(fund.assignedTo),
      FundName: "Anticipo viaje",
      FundCurrency: "usd",
      FundAmount: "250",
      FundExpirationDate: "2024-12-31",
    });
    expect(created).toMatchObject({ kind: "done" });
    const state = await wb.state();
    expect(state.funds.find((f) => f.title === "Anticipo viaje")).toMatchObject({
      currency: "USD",
      assignedTo: fund.assignedTo,
      balanceCents: 25_000,
    });
  });

  it("a form sent twice with the same request id moves the money once and shows the first result", async () => {
    const id = requestId();
    const first = send("depositToFund", { Id: fund.id, DepositAmount: "5" }, id);
    const second = send("depositToFund", { Id: fund.id, DepositAmount: "5" }, id) as FormOutcome & {
      repeated?: boolean;
    };
    expect(second).toMatchObject({ kind: first.kind, repeated: true });
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents + 500);
  });

  it("shows the contract's messages, the same the form shows as the user types", async () => {
    const cases: [
      string,
      "deposit" | "withdraw" | "updateFund" | "createFund" | "setFundStatus",
      Record<string, unknown>,
    ][] = [
      ["depositToFund", "deposit", { Id: fund.id, DepositAmount: "10,50" }],
      ["depositToFund", "deposit", { Id: fund.id, DepositAmount: "10.505" }],
      ["depositToFund", "deposit", { Id: fund.id, DepositAmount: "-3" }],
      ["depositToFund", "deposit", { Id: fund.id, DepositAmount: "" }],
      ["withdrawFromFund", "withdraw", { Id: "abc", WithdrawAmount: "1" }],
      ["changeFundStatus", "setFundStatus", { Id: fund.id, FundStatus: "7" }],
      [
        "updateFundDetails",
        "updateFund",
        { Id: fund.id, FundName: "x".repeat(201), FundCode: "c".repeat(51), FundComment: "m".repeat(256) },
      ],
      ["updateFundDetails", "updateFund", { Id: fund.id, FundName: "ok", FundExpirationDate: "2024-02-30" }],
      [
        "createFundForEmployee",
        "createFund",
        { IdEmployee: "", FundName: "", FundCurrency: "PESO", FundAmount: "1,5" },
      ],
    ];
    for (const [name, operation, fields] of cases) {
      const outcome = send(name, fields);
      const typed = checkWrite(operation, fields, { adminId: wb.sandbox.adminId });
      expect(typed.ok).toBe(false);
      const said = typed.ok
        ? []
        : typed.problems.map((p) => ({ field: p.field, message: writeProblemText("en", p) }));
      expect(outcome).toEqual({ kind: "invalid", problems: said });
    }
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents);
    expect(wb.emulator.counters.urlFetchTotal).toBe(0);
  });

  it("checks its arguments server-side: anything but a well-formed form is refused unsent", async () => {
    for (const bad of [
      null,
      "10",
      { fields: { Id: fund.id, DepositAmount: "1" } },
      { requestId: "x", fields: {} },
    ]) {
      expect(wb.sidebar("depositToFund", bad)).toMatchObject({ kind: "invalid" });
    }
    const sneaky = wb.sidebar("depositToFund", {
      requestId: requestId(),
      fields: { Id: fund.id, DepositAmount: "1", IdAdmin: 1 },
    });
    expect(sneaky).toMatchObject({ kind: "invalid", problems: [{ field: "IdAdmin" }] });
    expect(wb.emulator.counters.urlFetchTotal).toBe(0);
  });

  it("a deposit waits for a running Outbox (the document lock) and says so if it cannot", async () => {
    const held = wb.emulator.holdLock("document");
    const busy = send("depositToFund", { Id: fund.id, DepositAmount: "1" });
    held.release();
    expect(busy).toEqual({
      kind: "refused",
      message: "A run of the Outbox is already in progress in this spreadsheet. Try again when it ends.",
    });
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents);
  });

  it("refusals by the service: an administrator without the permission, an unknown fund", async () => {
    wb.settings({ adminId: String(wb.sandbox.managerId) });
    const refused = send("depositToFund", { Id: fund.id, DepositAmount: "1" });
    expect(refused.kind).toBe("refused");
    expect((refused as { message: string }).message).toMatch(
      /^The service refused Administrator id for writes \(IdAdmin\): user \d+ \(.*\) is not allowed to administer funds\. Nothing was changed\.\n\nDetails: .*IdAdmin/,
    );
    wb.settings({});
    const unknown = send("withdrawFromFund", { Id: 999_999, WithdrawAmount: "1" });
    expect(unknown.kind).toBe("refused");
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents);
  });

  it("drop-after-apply: unknown; opening the fund once the request can no longer land says it was applied (once)", async () => {
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 }]);
    const outcome = send("depositToFund", { Id: fund.id, DepositAmount: "20" });
    expect(outcome).toMatchObject({ kind: "unknown", applied: null });
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents + 2_000);
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS);
    const view = wb.sidebar("getFundSidebarView", { fundId: fund.id }) as { notice: string };
    expect(view.notice).toBe(
      `The earlier request (Deposit of ${moneyText(2_000, fund.currency, "en")} to fund ${fund.id}) that got no answer had been applied.`,
    );
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents + 2_000);
  });

  it("drop-before-apply: unknown; after the window the next withdrawal finds it was not applied and sends nothing until pressed again", async () => {
    await wb.faults([{ endpoint: "withdrawMoneyFromFund", fault: "drop-before-apply", times: 1 }]);
    const outcome = send("withdrawFromFund", { Id: fund.id, WithdrawAmount: "20" });
    expect(outcome).toMatchObject({ kind: "unknown", applied: null });
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents);
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS);
    const again = send("withdrawFromFund", { Id: fund.id, WithdrawAmount: "20" });
    expect(again.kind).toBe("refused");
    expect((again as { message: string }).message).toMatch(
      /^The earlier request \(Withdrawal of [A-Z]{3} 20(\.00)? from fund \d+\) that got no answer had not been applied\. Nothing new was sent/,
    );
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents);
    expect(send("withdrawFromFund", { Id: fund.id, WithdrawAmount: "20" }).kind).toBe("done");
    expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents - 2_000);
  });
});

describe("Report sidebar", () => {
  async function reportsSheet(): Promise<number[]> {
    const state = await wb.state();
    const ids = state.reports.slice(0, 3).map((r) => Number((r as { id: number }).id));
    // Wider than a new sheet's 26 columns, as a refresh would have made it.
    wb.emulator.spreadsheet.addSheet("Expense reports").maxColumns = 40;
    const headers = REPORT_COLUMNS.map((c) => translate("en", c.header as never));
    const rows = ids.map((id) => headers.map((_, i) => (i === 0 ? id : "")));
    wb.emulator.typeCells("Expense reports", `A1:${columnLetter(headers.length)}${ids.length + 1}`, [
      headers,
      ...rows,
    ]);
    return ids;
  }

  it("marks the selected reports integrated, then not integrated, and sets a custom status", async () => {
    const ids = await reportsSheet();
    wb.emulator.select("Expense reports", "B2:C2,A4");
    const view = wb.sidebar("getReportSidebarView") as ReportSidebarView;
    expect(view.reports.map((r) => r.id)).toEqual([ids[0], ids[2]]);
    expect(view.now).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const { reportIds } = sentFor(view);
    const integrated = wb.sidebar("markReportsIntegrated", {
      requestId: requestId(),
      ...sentFor(view),
      fields: { IntegrationCode: "ERP-77", IntegrationDate: view.now },
    }) as { results: { outcome: FormOutcome }[]; summary: string };
    expect(integrated.results.map((r) => r.outcome.kind)).toEqual(["done", "done"]);
    expect(integrated.summary).toBe("2 done, 0 refused, 0 unknown.");
    expect(cellOf("Expense reports", 1, "Integrated")).toBe("Yes");
    expect(
      cellOf("Expense reports", 3, "Voucher code") ??
        cellOf("Expense reports", 3, translate("en", "col.integrationCode")),
    ).toBe("ERP-77");
    const state = await wb.state();
    const marked = state.reports.filter((r) => reportIds.includes(Number((r as { id: number }).id)));
    expect(JSON.stringify(marked)).toContain("ERP-77");

    const notIntegrated = wb.sidebar("markReportsNotIntegrated", {
      requestId: requestId(),
      ...sentFor(view),
      fields: {},
    }) as {
      results: { outcome: FormOutcome }[];
    };
    expect(notIntegrated.results.map((r) => r.outcome.kind)).toEqual(["done", "done"]);
    expect(cellOf("Expense reports", 1, "Integrated")).toBe("No");

    wb.emulator.select("Expense reports", "A3");
    const custom = wb.sidebar("setReportsCustomStatus", {
      requestId: requestId(),
      ...sentFor(wb.sidebar("getReportSidebarView") as ReportSidebarView),
      fields: { CustomStatus: "Observado", CustomMessage: "Falta la boleta" },
    }) as { results: { outcome: FormOutcome }[] };
    expect(custom.results[0]?.outcome.kind).toBe("done");
    expect(cellOf("Expense reports", 2, translate("en", "col.customStatus"))).toBe("Observado");
  });

  it("shows what the service says each selected Id is, and marks only a report it showed so", async () => {
    type Report = { id: number; reportNumber: string; title: string; integrationExternalCode: string };
    const [r0, r1, r2] = (await wb.state()).reports.slice(0, 3) as Report[] as [Report, Report, Report];
    // A refreshed sheet: Id, report number and title of r0 and r2.
    wb.emulator.spreadsheet.addSheet("Expense reports").maxColumns = 40;
    const headers = REPORT_COLUMNS.map((c) => translate("en", c.header as never));
    const cells = (r: Report) =>
      REPORT_COLUMNS.map((c) =>
        c.key === "id" ? r.id : c.key === "reportNumber" || c.key === "title" ? r[c.key] : "",
      );
    wb.emulator.typeCells("Expense reports", `A1:${columnLetter(headers.length)}3`, [
      headers,
      cells(r0),
      cells(r2),
    ]);
    const voucher = async (r: Report) =>
      ((await wb.state()).reports.find((x) => Number(x.id) === r.id) as Report).integrationExternalCode;
    const mark = (sent: object, code: string) =>
      wb.sidebar("markReportsIntegrated", {
        requestId: requestId(),
        ...sent,
        fields: { IntegrationCode: code, IntegrationDate: "2024-06-30 10:00:00" },
      }) as {
        results: { id: number; outcome: FormOutcome }[];
      };
    const notShown = (r: Report) => ({
      kind: "refused",
      message: translate("en", "form.report.notShown", { id: r.id }),
    });

    wb.emulator.select("Expense reports", "A2");
    const seen = wb.sidebar("getReportSidebarView") as ReportSidebarView;
    expect(seen.reports).toMatchObject([
      {
        id: r0.id,
        check: "read",
        reportNumber: r0.reportNumber,
        title: r0.title,
        sheetNumber: r0.reportNumber,
      },
    ]);

    // Another editor puts r1's Id in that row, its number and title left as they were.
    wb.emulator.typeCells("Expense reports", "A2", [[r1.id]], BEN);
    // The page shown before goes on marking the report it showed, never the one now in the cell.
    expect(mark(sentFor(seen), "ERP-1").results[0]?.outcome.kind).toBe("done");
    expect(await voucher(r0)).toBe("ERP-1");
    expect(await voucher(r1)).not.toBe("ERP-1");

    // Loaded again: the service's r1, with the row's own number beside it for the warning.
    const now = wb.sidebar("getReportSidebarView") as ReportSidebarView;
    expect(now.reports).toEqual([
      expect.objectContaining({
        id: r1.id,
        check: "read",
        reportNumber: r1.reportNumber,
        title: r1.title,
        sheetNumber: r0.reportNumber,
      }),
    ]);
    // What this view did not show is refused, whatever a page sends: r0 (shown before, not now),
    // r2 (never shown), r1 with the number of another report.
    const writes = () =>
      wb.sheetValues("Audit").filter((row) => row.includes("setExpenseReportIntegration")).length;
    const before = writes();
    const forged = mark(
      {
        reportIds: [r0.id, r2.id, r1.id],
        reportNumbers: { [r0.id]: r0.reportNumber, [r2.id]: r2.reportNumber, [r1.id]: r0.reportNumber },
      },
      "ERP-2",
    );
    expect(forged.results.map((r) => r.outcome)).toEqual([notShown(r0), notShown(r2), notShown(r1)]);
    expect(writes()).toBe(before);
    expect([await voucher(r0), await voucher(r1), await voucher(r2)]).not.toContain("ERP-2");

    // An Id the service does not know, and a read that failed: shown so, and not marked.
    wb.emulator.typeCells("Expense reports", "A2", [[987_654_321]], BEN);
    const unknown = wb.sidebar("getReportSidebarView") as ReportSidebarView;
    expect(unknown.reports).toEqual([{ id: 987_654_321, check: "unknown", sheetNumber: r0.reportNumber }]);
    expect(mark(sentFor(unknown), "ERP-3").results[0]?.outcome.kind).toBe("refused");
    wb.emulator.typeCells("Expense reports", "A2", [[r1.id]], BEN);
    await wb.faults([{ endpoint: "getExpenseReport", fault: "status", status: 400, times: 1 }]);
    const unread = wb.sidebar("getReportSidebarView") as ReportSidebarView;
    expect(unread.reports).toEqual([{ id: r1.id, check: "unread", sheetNumber: r0.reportNumber }]);
    expect(
      mark({ reportIds: [r1.id], reportNumbers: { [r1.id]: r1.reportNumber } }, "ERP-3").results[0]?.outcome,
    ).toEqual(notShown(r1));
    expect(writes()).toBe(before);
    // Read again, it can be marked.
    expect(
      mark(sentFor(wb.sidebar("getReportSidebarView") as ReportSidebarView), "ERP-4").results[0]?.outcome
        .kind,
    ).toBe("done");
    expect(await voucher(r1)).toBe("ERP-4");

    // Every read is in the audit and in this user's count of today's calls: one per view, and
    // one before each of the two marks sent (what the report showed before it).
    const reads = wb.sheetValues("Audit").filter((row) => row.includes("getExpenseReport")).length;
    expect(reads).toBe(7);
    const ledger = JSON.parse(wb.emulator.userPropertiesOf(wb.user).values.get(LEDGER_KEY) ?? "{}");
    expect(ledger.calls).toBe(wb.emulator.urlFetchToday());
  });

  it("a Report sidebar opened by the same user in another spreadsheet leaves this one's marks alone", async () => {
    const ids = await reportsSheet();
    const { sent } = openReports(wb, [ids[0] as number]);
    // The same user's cache serves every spreadsheet: their sidebar there, with nothing selected.
    const doc = wb.emulator.spreadsheet as unknown as { id: string };
    const here = doc.id;
    doc.id = "another-spreadsheet";
    wb.emulator.select("Sheet1", "A1");
    expect((wb.sidebar("getReportSidebarView") as ReportSidebarView).reports).toEqual([]);
    doc.id = here;
    const marked = wb.sidebar("markReportsIntegrated", {
      ...sent,
      requestId: requestId(),
      fields: { IntegrationCode: "ERP-9", IntegrationDate: "2024-06-30 10:00:00" },
    }) as { results: { outcome: FormOutcome }[] };
    expect(marked.results.map((r) => r.outcome.kind)).toEqual(["done"]);
  });

  it("refuses a custom status longer than 20 characters and a mark without a voucher code, unsent", async () => {
    const ids = await reportsSheet();
    const { sent } = openReports(wb, [ids[0] as number]);
    const reads = wb.emulator.counters.urlFetchTotal;
    const tooLong = wb.sidebar("setReportsCustomStatus", {
      requestId: requestId(),
      ...sent,
      fields: { CustomStatus: "x".repeat(21) },
    }) as { results: { outcome: FormOutcome }[] };
    expect(tooLong.results[0]?.outcome).toEqual({
      kind: "invalid",
      problems: [
        { field: "CustomStatus", message: "CustomStatus must be at most 20 characters long (got 21)." },
      ],
    });
    const noCode = wb.sidebar("markReportsIntegrated", {
      requestId: requestId(),
      ...sent,
      fields: { IntegrationDate: "2024-06-30 10:00:00" },
    }) as { results: { outcome: FormOutcome }[] };
    expect(noCode.results[0]?.outcome).toMatchObject({
      kind: "invalid",
      problems: [{ field: "IntegrationCode" }],
    });
    expect(wb.emulator.counters.urlFetchTotal).toBe(reads);
    expect(
      wb.sidebar("markReportsIntegrated", { requestId: requestId(), reportIds: [], fields: {} }),
    ).toMatchObject({
      results: [{ outcome: { kind: "invalid" } }],
    });
  });

  it("a custom status set by someone without the management role is refused by the service", async () => {
    const ids = await reportsSheet();
    const state = await wb.state();
    const employee = state.users.find((u) => u.Roles.includes("employee"));
    wb.settings({ adminId: String(employee?.Id) });
    const refused = wb.sidebar("setReportsCustomStatus", {
      requestId: requestId(),
      ...openReports(wb, [ids[0] as number]).sent,
      fields: { CustomStatus: "Pagado" },
    }) as { results: { outcome: FormOutcome }[] };
    expect(refused.results[0]?.outcome.kind).toBe("refused");
    expect(wb.sheetValues("Audit").flat()).toContain("setExpenseReportCustomStatus");
  });
});
