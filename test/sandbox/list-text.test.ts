/**
 * The list answers joined from each record's kept text (service.listText) are the very text of
 * the answer built and serialised whole, before and after every kind of write, on every page.
 */
import { describe, expect, it } from "vitest";
import { ADMIN_ID, MANAGER_ID } from "../../dev/sandbox/demo";
import { jsonText } from "../../dev/sandbox/json-text";
import { parseRequest } from "../../dev/sandbox/requests";
import { SandboxService } from "../../dev/sandbox/service";
import { fixedClock, fundInput, TODAY } from "./sandbox-client";

const ORIGIN = "http://127.0.0.1:8787";

function service(): SandboxService {
  return new SandboxService(fixedClock, { seed: 7, funds: 30, reports: 400 });
}

/** Every page of both lists at a few page sizes, ascending and descending. */
function requests(): Array<[string, Record<string, string>]> {
  const out: Array<[string, Record<string, string>]> = [];
  for (const size of ["7", "100", "1000"]) {
    for (const order of ["ASC", "DESC"]) {
      for (let page = 1; page <= 4; page++) {
        const paging = { ResultsPerPage: size, Page: String(page), Order: order };
        out.push(["getFunds", paging]);
        out.push([
          "getExpenseReports",
          { ...paging, Since: "2025-07-01", Until: TODAY, TypeDateFilter: "2" },
        ]);
        out.push(["getExpenseReports", { ...paging, Since: "2025-06-15", Until: TODAY, OrderBy: "3" }]);
      }
    }
  }
  return out;
}

function expectSameTexts(sandbox: SandboxService, origin = ORIGIN): void {
  for (const [endpoint, raw] of requests()) {
    const input = parseRequest(endpoint as "getFunds", raw, TODAY);
    const whole = jsonText(sandbox.call(endpoint, input, origin));
    expect(sandbox.listText(endpoint, input, origin), `${endpoint} ${JSON.stringify(raw)}`).toBe(whole);
  }
}

describe("list answers from kept record texts", () => {
  it("give the whole answer's text on every page, asked once and asked again", () => {
    const sandbox = service();
    expectSameTexts(sandbox);
    expectSameTexts(sandbox);
    // Another origin: file links are absolute, so the kept texts must not serve it.
    expectSameTexts(sandbox, "http://localhost:9999");
  });

  it("give the new text after every kind of write, kept texts made before it notwithstanding", () => {
    const sandbox = service();
    const ledger = sandbox.ledger;
    const fund = [...ledger.funds.values()].find((f) => f.status === 1 && !f.autoBlock);
    const report = [...ledger.reports.values()].find((r) => r.fundId !== 0 && r.sendDate !== "");
    if (!fund || !report) throw new Error("the demo data lacks an open fund or a sent report");
    const linked = ledger.fund(report.fundId);
    const writes: Array<() => unknown> = [
      () => ledger.depositToFund({ id: fund.id, idAdmin: ADMIN_ID, amountCents: 12_345 }),
      () => ledger.withdrawFromFund({ id: fund.id, idAdmin: ADMIN_ID, amountCents: 1 }),
      () => ledger.setFundStatus(fund.id, ADMIN_ID, 3),
      // A fund's title shows in its reports' FundName.
      () => ledger.updateFund({ id: linked.id, idAdmin: ADMIN_ID, name: `${linked.title} (renamed)` }),
      () => ledger.setReportIntegration({ id: report.id, integrated: true, code: "X-1", date: "" }),
      () =>
        ledger.setReportCustomStatus({
          id: report.id,
          idAdmin: MANAGER_ID,
          customStatus: report.customStatus === "Observado" ? "Pagado" : "Observado",
          customMessage: "",
        }),
      () =>
        ledger.createDraftReport({
          employeeId: report.employeeId,
          fundId: 0,
          totalCents: 500,
          title: "Nuevo",
        }),
      () => ledger.sendReport([...ledger.reports.values()].at(-1)?.id ?? 0),
      () => ledger.closeReport(report.id, report.totalCents),
      () => ledger.createFund(fundInput("CLP", 100, { idEmployee: fund.assignedTo, name: "Fondo nuevo" })),
    ];
    expectSameTexts(sandbox);
    for (const write of writes) {
      write();
      expectSameTexts(sandbox);
    }
  });

  it("are only for the list endpoints", () => {
    const sandbox = service();
    const fund = [...sandbox.ledger.funds.values()][0];
    expect(sandbox.listText("getFund", { Id: fund?.id }, ORIGIN)).toBeUndefined();
  });
});
