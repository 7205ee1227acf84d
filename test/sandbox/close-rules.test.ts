/**
 * The rules of the service the month-end close relies on, each against the spec's own words
 * (§4.8 getExpenseReports, §4.10 setExpenseReportIntegration), and the switch that makes the
 * sandbox take setExpenseReportIntegration by POST only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stateOf } from "../../dev/sandbox/server";
import { call, control, type Running, start } from "./sandbox-client";

let sandbox: Running;
type LedgerReport = ReturnType<typeof stateOf>["reports"][number];

beforeAll(async () => {
  sandbox = await start({ reports: 800 });
});
afterAll(() => sandbox.close());

const MONTH = { Since: "2026-05-01", Until: "2026-05-31" };
const ledger = (): LedgerReport[] => stateOf(sandbox.sandbox.service).reports;

/** Every page of a query, at `per` a page, with the pages' own counts. */
async function everyPage(params: Record<string, unknown>, per: number) {
  const first = await call(sandbox, "getExpenseReports", { ...params, ResultsPerPage: per, Page: 1 });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const pages = first.body.Records.Pages as number;
  const items = [...first.body.ExpenseReports];
  for (let page = 2; page <= pages; page++) {
    const next = await call(sandbox, "getExpenseReports", { ...params, ResultsPerPage: per, Page: page });
    items.push(...next.body.ExpenseReports);
  }
  return { items: items as Array<Record<string, unknown>>, total: first.body.Records.TotalRecords as number };
}

const idsOf = (list: ReadonlyArray<{ Id?: unknown; id?: unknown }>) =>
  list.map((r) => Number(r.Id ?? r.id)).sort((a, b) => a - b);

async function mark(id: number, code: string, status: 0 | 1 = 1, method?: string) {
  const body: Record<string, unknown> = { Id: id, IntegrationStatus: status };
  if (status === 1) body.IntegrationCode = code;
  return call(sandbox, "setExpenseReportIntegration", body, method ? { method } : {});
}

describe("§4.8 getExpenseReports, as the close reads a month", () => {
  it('"TypeDateFilter 1 = CloseDate (default)", Status 1 "closed", IntegrationStatus 0 "not integrated": exactly the month\'s closed reports not integrated, over every page', async () => {
    const expected = ledger().filter(
      (r) => r.status === 1 && !r.integrated && r.closeDate >= MONTH.Since && r.closeDate <= MONTH.Until,
    );
    expect(expected.length).toBeGreaterThan(7);
    const read = await everyPage({ ...MONTH, TypeDateFilter: 1, Status: 1, IntegrationStatus: 0 }, 7);
    expect(read.total).toBe(expected.length);
    expect(idsOf(read.items)).toEqual(idsOf(expected));
    // No report twice across the pages.
    expect(new Set(idsOf(read.items)).size).toBe(read.items.length);
    const byDefault = await everyPage({ ...MONTH, Status: 1, IntegrationStatus: 0 }, 1000);
    expect(idsOf(byDefault.items)).toEqual(idsOf(expected));
    // SendDate instead (2) is another set: open reports sent that month come in.
    const bySend = await everyPage({ ...MONTH, TypeDateFilter: 2, Status: 0 }, 1000);
    expect(bySend.items.every((r) => r.Status === 0 && String(r.SendDate) >= MONTH.Since)).toBe(true);
  });

  it('"The range between Since and Until is at most one year": a month is taken, a year and a day is refused naming Until', async () => {
    const refused = await call(sandbox, "getExpenseReports", {
      Since: "2025-05-01",
      Until: "2026-05-02",
      Status: 1,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.Error.Field).toBe("Until");
  });

  it('"IntegrationCode: Filter integrated reports by their integration response code": exactly the reports marked with it, and none once unmarked', async () => {
    const pending = ledger().filter((r) => r.status === 1 && !r.integrated);
    const [a, b, c, other] = pending as [LedgerReport, LedgerReport, LedgerReport, LedgerReport];
    for (const r of [a, b, c]) expect((await mark(r.id, "202605001")).status).toBe(200);
    expect((await mark(other.id, "202605002")).status).toBe(200);
    const since = { Since: "2025-06-16" };
    const found = await everyPage({ ...since, IntegrationCode: "202605001", TypeDateFilter: 2 }, 2);
    const expected = [a, b, c].filter((r) => r.sendDate >= since.Since);
    expect(idsOf(found.items)).toEqual(idsOf(expected));
    expect(found.items.every((r) => r.IntegrationExternalCode === "202605001" && r.Integrated === "1")).toBe(
      true,
    );
    // The filter matches integrated reports only: with IntegrationStatus 0 nothing is left.
    const none = await everyPage(
      { ...since, IntegrationCode: "202605001", IntegrationStatus: 0, TypeDateFilter: 2 },
      100,
    );
    expect(none.total).toBe(0);
    // Unmarked (IntegrationStatus 0), a report no longer answers to its old code.
    expect((await mark(a.id, "", 0)).status).toBe(200);
    const after = await everyPage({ ...since, IntegrationCode: "202605001", TypeDateFilter: 2 }, 100);
    expect(idsOf(after.items)).toEqual(idsOf(expected.filter((r) => r.id !== a.id)));
  });

  it('"IntegrationCode: string, max 255" in the filter and the mark: 255 characters taken, 256 refused naming it', async () => {
    const target = ledger().find((r) => r.status === 1 && !r.integrated) as LedgerReport;
    const long = "V".repeat(255);
    const marked = await mark(target.id, long);
    expect(marked.status).toBe(200);
    expect(marked.body.IntegrationCode).toBe(long);
    const found = await everyPage({ Since: "2025-06-16", TypeDateFilter: 2, IntegrationCode: long }, 10);
    expect(idsOf(found.items)).toContain(target.id);
    const tooLong = await call(sandbox, "getExpenseReports", {
      Since: "2025-06-16",
      IntegrationCode: `${long}V`,
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.Error.Field).toBe("IntegrationCode");
  });
});

describe("§4.10 setExpenseReportIntegration", () => {
  it('"Response: object with Id, Title, ReportNumber, IntegrationStatus, IntegrationCode, IntegrationDate": the mark echoed, and a read shows it', async () => {
    const target = ledger().find((r) => r.status === 1 && !r.integrated) as LedgerReport;
    const reply = await call(sandbox, "setExpenseReportIntegration", {
      Id: target.id,
      IntegrationStatus: 1,
      IntegrationCode: "202605017",
      IntegrationDate: "2026-06-01 08:00:00",
    });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(
      ["Id", "IntegrationCode", "IntegrationDate", "IntegrationStatus", "ReportNumber", "Title"].sort(),
    );
    expect(reply.body).toMatchObject({
      Id: target.id,
      ReportNumber: target.reportNumber,
      IntegrationStatus: 1,
      IntegrationCode: "202605017",
      IntegrationDate: "2026-06-01 08:00:00",
    });
    const read = await call(sandbox, "getExpenseReport", { Id: target.id });
    expect(read.body).toMatchObject({
      IntegrationExternalCode: "202605017",
      IntegrationDate: "2026-06-01 08:00:00",
    });
    // "IntegrationStatus 0 = not integrated": the date "default is empty", the code cleared.
    const undone = await mark(target.id, "", 0);
    expect(undone.body).toMatchObject({
      Id: target.id,
      IntegrationStatus: 0,
      IntegrationCode: "",
      IntegrationDate: "",
    });
  });

  it('"IntegrationDate: datetime YYYY-MM-DD HH:MM:SS": a date alone, or another form, is refused naming it and nothing changes', async () => {
    const target = ledger().find((r) => r.status === 1 && !r.integrated) as LedgerReport;
    for (const date of ["2026-06-01", "2026-06-01T08:00:00", "01/06/2026 08:00:00"]) {
      const reply = await call(sandbox, "setExpenseReportIntegration", {
        Id: target.id,
        IntegrationStatus: 1,
        IntegrationCode: "X",
        IntegrationDate: date,
      });
      expect(reply.status, date).toBe(400);
      expect(reply.body.Error.Field).toBe("IntegrationDate");
    }
    expect(ledger().find((r) => r.id === target.id)?.integrated).toBe(false);
  });

  it("answers an unknown report 404 naming Id, and its method is PUT (POST is 405 naming PUT)", async () => {
    const unknown = await mark(31337, "X");
    expect(unknown.status).toBe(404);
    expect(unknown.body.Error.Field).toBe("Id");
    const target = ledger().find((r) => r.status === 1 && !r.integrated) as LedgerReport;
    const post = await mark(target.id, "X", 1, "POST");
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("PUT");
    expect(ledger().find((r) => r.id === target.id)?.integrated).toBe(false);
  });
});

describe("the switch: setExpenseReportIntegration by POST only", () => {
  it("answers PUT 405 (Allow: POST) without applying it and takes POST, per company, until switched back or reset", async () => {
    const target = ledger().find((r) => r.status === 1 && !r.integrated) as LedgerReport;
    expect((await control(sandbox, "GET", "/methods")).body).toEqual({ setExpenseReportIntegration: "PUT" });
    const set = await control(sandbox, "POST", "/methods", { setExpenseReportIntegration: "POST" });
    expect(set.body).toEqual({ setExpenseReportIntegration: "POST" });
    const put = await mark(target.id, "S-1");
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("POST");
    expect(put.body.Error.Field).toBe("method");
    expect(ledger().find((r) => r.id === target.id)?.integrated).toBe(false);
    const post = await mark(target.id, "S-1", 1, "POST");
    expect(post.status).toBe(200);
    expect(post.body).toMatchObject({ Id: target.id, IntegrationStatus: 1, IntegrationCode: "S-1" });
    // Other endpoints keep their methods.
    expect(
      (await call(sandbox, "setFundStatus", { Id: 5001, IdAdmin: sandbox.adminId, FundStatus: 1 })).status,
    ).toBe(200);
    await control(sandbox, "POST", "/methods", { setExpenseReportIntegration: "PUT" });
    expect((await mark(target.id, "S-1", 1, "POST")).status).toBe(405);
    await control(sandbox, "POST", "/methods", { setExpenseReportIntegration: "POST" });
    await control(sandbox, "POST", "/reset", { reports: 800, seed: 7, funds: 30 });
    expect((await control(sandbox, "GET", "/methods")).body).toEqual({ setExpenseReportIntegration: "PUT" });
  });

  it("refuses a body that is not the one switch, naming what is wrong", async () => {
    for (const [body, field] of [
      [{ setExpenseReportIntegration: "PATCH" }, "setExpenseReportIntegration"],
      [{}, "setExpenseReportIntegration"],
      [{ setFundStatus: "POST" }, "setFundStatus"],
    ] as const) {
      const reply = await control(sandbox, "POST", "/methods", body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.Error.Field).toBe(field);
    }
    expect((await control(sandbox, "DELETE", "/methods")).status).toBe(405);
  });

  it("starts switched with the option integrationMethod, every company alike", async () => {
    const switched = await start({ reports: 20, companies: 2, integrationMethod: "POST" });
    try {
      for (const company of ["Alpha", "Beta"]) {
        const res = await fetch(`${switched.origin}/_sandbox/methods?company=${company}`);
        expect(await res.json()).toEqual({ setExpenseReportIntegration: "POST" });
      }
    } finally {
      await switched.close();
    }
    await expect(start({ integrationMethod: "PATCH" as "PUT" })).rejects.toThrow(/integrationMethod/);
  });
});
