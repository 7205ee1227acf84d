/** getExpenseReports, getExpenseReport, integration marks and custom statuses. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stateOf } from "../../dev/sandbox/server";
import { call, control, type Running, start, TODAY } from "./sandbox-client";

let sandbox: Running;
type LedgerReport = ReturnType<typeof stateOf>["reports"][number];
let ledgerReports: LedgerReport[];

beforeAll(async () => {
  sandbox = await start({ reports: 600 });
  ledgerReports = stateOf(sandbox.sandbox.service).reports.map((r) => ({ ...r }));
});
afterAll(() => sandbox.close());

const YEAR_AGO = "2025-06-15";

async function allReports(params: Record<string, unknown>) {
  const reply = await call(sandbox, "getExpenseReports", { ResultsPerPage: 1000, ...params });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.ExpenseReports as Array<Record<string, unknown>>;
}

const ids = (list: Array<{ Id?: unknown; id?: unknown }>) => list.map((r) => r.Id ?? r.id).sort();

describe("getExpenseReports filters", () => {
  it("filters on CloseDate by default, so open reports appear only with TypeDateFilter=2", async () => {
    const byClose = await allReports({ Since: YEAR_AGO });
    expect(byClose.length).toBeGreaterThan(0);
    expect(byClose.every((r) => r.Status === 1 && (r.CloseDate as string) >= YEAR_AGO)).toBe(true);
    expect(ids(byClose)).toEqual(
      ids(ledgerReports.filter((r) => r.closeDate !== "" && r.closeDate >= YEAR_AGO)),
    );
    const bySend = await allReports({ Since: YEAR_AGO, TypeDateFilter: 2 });
    expect(bySend.some((r) => r.Status === 0)).toBe(true);
    expect(ids(bySend)).toEqual(
      ids(ledgerReports.filter((r) => r.sendDate !== "" && r.sendDate >= YEAR_AGO)),
    );
  });

  it("keeps Since and Until inclusive", async () => {
    const day = ledgerReports.find((r) => r.closeDate !== "" && r.closeDate > "2026-01-01")
      ?.closeDate as string;
    const sameDay = await allReports({ Since: day, Until: day });
    expect(ids(sameDay)).toEqual(ids(ledgerReports.filter((r) => r.closeDate === day)));
    // Ordered by the filtered date, the window is a slice of the index: same inclusive bounds.
    const sent = ledgerReports.find((r) => r.sendDate > "2026-01-01")?.sendDate as string;
    for (const order of ["ASC", "DESC"]) {
      const sameSendDay = await allReports({
        Since: sent,
        Until: sent,
        TypeDateFilter: 2,
        OrderBy: 2,
        Order: order,
      });
      expect(ids(sameSendDay)).toEqual(ids(ledgerReports.filter((r) => r.sendDate === sent)));
      const byClose = await allReports({ Since: day, Until: day, OrderBy: 1, Order: order });
      expect(ids(byClose)).toEqual(ids(ledgerReports.filter((r) => r.closeDate === day)));
    }
  });

  it("applies Status, Currency, ExpensePolicyId, UserId and the integration filters", async () => {
    const base = { Since: YEAR_AGO, TypeDateFilter: 2 };
    const window = ledgerReports.filter((r) => r.sendDate !== "" && r.sendDate >= YEAR_AGO);
    const cases: Array<[Record<string, unknown>, (r: LedgerReport) => boolean]> = [
      [{ Status: 0 }, (r) => r.status === 0],
      [{ Status: 1 }, (r) => r.status === 1],
      [{ Currency: "MXN" }, (r) => r.currency === "MXN"],
      [{ Currency: "PEN" }, (r) => r.currency === "PEN"],
      [{ ExpensePolicyId: 204 }, (r) => r.policyId === 204],
      [{ UserId: window[0]?.employeeId }, (r) => r.employeeId === window[0]?.employeeId],
      [{ IntegrationStatus: 1 }, (r) => r.integrated],
      [{ IntegrationStatus: 0 }, (r) => !r.integrated],
    ];
    const integrated = window.find((r) => r.integrated) as LedgerReport;
    cases.push([
      { IntegrationCode: integrated.integrationExternalCode },
      (r) => r.integrated && r.integrationExternalCode === integrated.integrationExternalCode,
    ]);
    cases.push([
      { IntegrationDate: integrated.integrationDate.slice(0, 10) },
      (r) => r.integrated && r.integrationDate.startsWith(integrated.integrationDate.slice(0, 10)),
    ]);
    for (const [filter, keep] of cases) {
      const got = await allReports({ ...base, ...filter });
      const expected = window.filter(keep);
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(ids(got), JSON.stringify(filter)).toEqual(ids(expected));
    }
  });

  it("orders by SendDate descending by default, and by CloseDate or Id on request", async () => {
    const base = { Since: YEAR_AGO, TypeDateFilter: 2 };
    const byDefault = (await allReports(base)).map((r) => r.SendDate as string);
    expect(byDefault).toEqual([...byDefault].sort().reverse());
    const byId = (await allReports({ ...base, OrderBy: 3, Order: "ASC" })).map((r) => r.Id as number);
    expect(byId).toEqual([...byId].sort((a, b) => a - b));
    const byClose = (await allReports({ Since: YEAR_AGO, OrderBy: 1, Order: "ASC" })).map(
      (r) => r.CloseDate as string,
    );
    expect(byClose).toEqual([...byClose].sort());
  });

  it("pages through every match exactly once", async () => {
    const all = await allReports({ Since: YEAR_AGO, OrderBy: 3 });
    const paged: unknown[] = [];
    const first = await call(sandbox, "getExpenseReports", {
      Since: YEAR_AGO,
      OrderBy: 3,
      ResultsPerPage: 50,
    });
    const pages = first.body.Records.Pages;
    expect(first.body.Records).toMatchObject({ TotalRecords: all.length, Reports: 50, Page: 1 });
    expect(pages).toBe(Math.ceil(all.length / 50));
    for (let page = 1; page <= pages; page++) {
      const reply = await call(sandbox, "getExpenseReports", {
        Since: YEAR_AGO,
        OrderBy: 3,
        ResultsPerPage: 50,
        Page: page,
      });
      paged.push(...reply.body.ExpenseReports.map((r: { Id: number }) => r.Id));
    }
    expect(paged).toEqual(all.map((r) => r.Id));
  });
});

describe("the one-year rule and required Since", () => {
  it("requires Since", async () => {
    const reply = await call(sandbox, "getExpenseReports", {});
    expect(reply.status).toBe(400);
    expect(reply.body.Error.Field).toBe("Since");
    expect(reply.body.Error.Message).toMatch(/required/);
  });

  it("accepts exactly one year up to today and refuses one day more", async () => {
    expect((await call(sandbox, "getExpenseReports", { Since: YEAR_AGO })).status).toBe(200);
    const tooLong = await call(sandbox, "getExpenseReports", { Since: "2025-06-14" });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.Error.Field).toBe("Since");
    expect(tooLong.body.Error.Message).toContain(TODAY);
  });

  it("measures from Since to Until when Until is given, and refuses Until before Since", async () => {
    expect(
      (await call(sandbox, "getExpenseReports", { Since: "2024-03-01", Until: "2025-03-01" })).status,
    ).toBe(200);
    const tooLong = await call(sandbox, "getExpenseReports", { Since: "2024-03-01", Until: "2025-03-02" });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.Error.Field).toBe("Until");
    const reversed = await call(sandbox, "getExpenseReports", { Since: "2026-03-01", Until: "2026-02-01" });
    expect(reversed.status).toBe(400);
    expect(reversed.body.Error.Field).toBe("Until");
  });

  it("refuses Since after today when Until is absent (the range would end before it starts), naming Since", async () => {
    const reply = await call(sandbox, "getExpenseReports", { Since: "2026-06-16" });
    expect(reply.status).toBe(400);
    expect(reply.body.Error.Field).toBe("Since");
    expect(reply.body.Error.Message).toMatch(/^Since .*today \(2026-06-15\)/);
    expect((await call(sandbox, "getExpenseReports", { Since: TODAY })).status).toBe(200);
    const ahead = await call(sandbox, "getExpenseReports", { Since: "2026-07-01", Until: "2026-07-31" });
    expect(ahead.status).toBe(200);
    expect(ahead.body.Records).toEqual({ TotalRecords: 0, Reports: 0, Page: 1, Pages: 0 });
  });

  it("refuses malformed filters naming the field", async () => {
    for (const [params, field] of [
      [{ Since: "15-06-2026" }, "Since"],
      [{ Since: YEAR_AGO, TypeDateFilter: 3 }, "TypeDateFilter"],
      [{ Since: YEAR_AGO, Status: 2 }, "Status"],
      [{ Since: YEAR_AGO, OrderBy: 4 }, "OrderBy"],
      [{ Since: YEAR_AGO, IntegrationCode: "x".repeat(256) }, "IntegrationCode"],
      [{ Since: YEAR_AGO, Currency: "EURO" }, "Currency"],
      [{ Since: YEAR_AGO, ResultsPerPage: 0 }, "ResultsPerPage"],
    ] as const) {
      const reply = await call(sandbox, "getExpenseReports", params);
      expect(reply.status, field).toBe(400);
      expect(reply.body.Error.Field).toBe(field);
    }
  });
});

describe("getExpenseReport", () => {
  it("has the list item's fields except Integrated and IntegrationInternalCode", async () => {
    const [item] = await allReports({ Since: YEAR_AGO, IntegrationStatus: 1 });
    const reply = await call(sandbox, "getExpenseReport", { Id: item?.Id });
    expect(reply.status).toBe(200);
    const { Integrated, IntegrationInternalCode, ...rest } = item as Record<string, unknown>;
    expect(Integrated).toBe("1");
    expect(IntegrationInternalCode).not.toBe("");
    expect(reply.body).toEqual(rest);
    expect(reply.body.ExtraFields.length).toBeGreaterThan(0);
    expect(Object.keys(reply.body.ExtraFields[0]).sort()).toEqual(["Code", "Name", "Value"]);
  });

  it("serves the files it links to", async () => {
    const report = ledgerReports.find((r) => r.files.length > 0) as LedgerReport;
    const shown = (await call(sandbox, "getExpenseReport", { Id: report.id })).body;
    const res = await fetch(shown.Files[0].Url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(report.files[0]?.Name);
  });

  it("answers 404 for an unknown report", async () => {
    const reply = await call(sandbox, "getExpenseReport", { Id: 42 });
    expect(reply.status).toBe(404);
    expect(reply.body.Error.Field).toBe("Id");
  });
});

describe("setExpenseReportIntegration", () => {
  it("marks a report integrated with code and date, and the mark shows in filters; 0 clears it", async () => {
    const target = ledgerReports.find(
      (r) => r.status === 1 && !r.integrated && r.closeDate >= YEAR_AGO,
    ) as LedgerReport;
    const reply = await call(sandbox, "setExpenseReportIntegration", {
      Id: target.id,
      IntegrationStatus: 1,
      IntegrationCode: "ERP-2026-000777",
      IntegrationDate: "2026-06-14 09:30:00",
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      Id: target.id,
      Title: target.title,
      ReportNumber: target.reportNumber,
      IntegrationStatus: 1,
      IntegrationCode: "ERP-2026-000777",
      IntegrationDate: "2026-06-14 09:30:00",
    });
    const found = await allReports({ Since: YEAR_AGO, IntegrationCode: "ERP-2026-000777" });
    expect(ids(found)).toEqual([target.id]);
    const byDate = await allReports({ Since: YEAR_AGO, IntegrationDate: "2026-06-14", IntegrationStatus: 1 });
    expect(ids(byDate)).toContain(target.id);
    const cleared = await call(sandbox, "setExpenseReportIntegration", {
      Id: target.id,
      IntegrationStatus: 0,
    });
    expect(cleared.body).toMatchObject({ IntegrationStatus: 0, IntegrationCode: "", IntegrationDate: "" });
    const pending = await allReports({ Since: YEAR_AGO, IntegrationStatus: 0 });
    expect(ids(pending)).toContain(target.id);
  });

  it("defaults the integration date to now when integrating without one", async () => {
    const target = ledgerReports.find((r) => r.status === 1 && !r.integrated) as LedgerReport;
    const reply = await call(sandbox, "setExpenseReportIntegration", {
      Id: target.id,
      IntegrationStatus: 1,
      IntegrationCode: "V-1",
    });
    expect(reply.body.IntegrationDate).toBe(`${TODAY} 12:00:00`);
  });

  it("refuses an IntegrationDate with IntegrationStatus 0: a report not integrated has no integration date", async () => {
    const target = ledgerReports.find((r) => r.status === 1 && r.integrated) as LedgerReport;
    const refused = await call(sandbox, "setExpenseReportIntegration", {
      Id: target.id,
      IntegrationStatus: 0,
      IntegrationDate: "2026-06-14 09:30:00",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.Error.Field).toBe("IntegrationDate");
    expect(refused.body.Error.Message).toMatch(/^IntegrationDate .*IntegrationStatus/);
    const kept = (await call(sandbox, "getExpenseReport", { Id: target.id })).body;
    expect(kept.IntegrationDate).toBe(target.integrationDate);
    // Blank is absent: the date defaults to empty, in the answer and on the report.
    const cleared = await call(sandbox, "setExpenseReportIntegration", {
      Id: target.id,
      IntegrationStatus: 0,
      IntegrationDate: "",
    });
    expect(cleared.body.IntegrationDate).toBe("");
    expect((await call(sandbox, "getExpenseReport", { Id: target.id })).body.IntegrationDate).toBe("");
  });

  it("refuses missing or bad fields and unknown reports", async () => {
    const id = ledgerReports[0]?.id;
    for (const [body, field, status] of [
      [{ IntegrationStatus: 1 }, "Id", 400],
      [{ Id: id }, "IntegrationStatus", 400],
      [{ Id: id, IntegrationStatus: 2 }, "IntegrationStatus", 400],
      [{ Id: id, IntegrationStatus: 1, IntegrationDate: "2026-06-14" }, "IntegrationDate", 400],
      [{ Id: id, IntegrationStatus: 1, IntegrationCode: "c".repeat(256) }, "IntegrationCode", 400],
      [{ Id: 31337, IntegrationStatus: 1 }, "Id", 404],
    ] as const) {
      const reply = await call(sandbox, "setExpenseReportIntegration", body);
      expect(reply.status, field).toBe(status);
      expect(reply.body.Error.Field).toBe(field);
    }
  });
});

describe("setExpenseReportCustomStatus", () => {
  it("sets a status defined in the report's policy, by PUT or POST, and adds the message to the timeline", async () => {
    const target = ledgerReports.find((r) => r.policyId === 201) as LedgerReport;
    const put = await call(sandbox, "setExpenseReportCustomStatus", {
      Id: target.id,
      IdAdmin: sandbox.managerId,
      CustomStatus: "Observado",
      CustomMessage: "Falta la boleta del taxi",
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      Id: target.id,
      Title: target.title,
      ReportNumber: target.reportNumber,
      CustomStatus: "Observado",
    });
    const post = await call(
      sandbox,
      "setExpenseReportCustomStatus",
      { Id: target.id, IdAdmin: sandbox.adminId, CustomStatus: "Pagado" },
      { method: "POST" },
    );
    expect(post.status).toBe(200);
    expect((await call(sandbox, "getExpenseReport", { Id: target.id })).body.CustomStatus).toBe("Pagado");
    const timeline = sandbox.sandbox.service.ledger.report(target.id).timeline.map((e) => e.text);
    expect(timeline.some((t) => t.includes("Observado") && t.includes("Falta la boleta del taxi"))).toBe(
      true,
    );
  });

  it("refuses a text the report's policy does not define, naming CustomStatus and the policy's statuses, changing nothing", async () => {
    const target = ledgerReports.find((r) => r.policyId === 203 && r.customStatus === "") as LedgerReport;
    const policyBefore = [...(sandbox.sandbox.service.ledger.policies.get(203)?.customStatuses ?? [])];
    const timelineBefore = sandbox.sandbox.service.ledger.report(target.id).timeline.length;
    for (const text of ["x".repeat(20), "Paid", "pagado", "En revisión"]) {
      const reply = await call(sandbox, "setExpenseReportCustomStatus", {
        Id: target.id,
        IdAdmin: sandbox.managerId,
        CustomStatus: text,
      });
      expect(reply.status, text).toBe(400);
      expect(reply.body.Error.Field).toBe("CustomStatus");
      expect(reply.body.Error.Message).toMatch(/^CustomStatus: .*Observado, Pagado/);
    }
    expect((await call(sandbox, "getExpenseReport", { Id: target.id })).body.CustomStatus).toBe("");
    expect(sandbox.sandbox.service.ledger.policies.get(203)?.customStatuses).toEqual(policyBefore);
    expect(sandbox.sandbox.service.ledger.report(target.id).timeline).toHaveLength(timelineBefore);
    const defined = await call(sandbox, "setExpenseReportCustomStatus", {
      Id: target.id,
      IdAdmin: sandbox.managerId,
      CustomStatus: "Pagado",
    });
    expect(defined.status).toBe(200);
    expect(defined.body.CustomStatus).toBe("Pagado");
  });

  it("takes a status once a policy defines it through POST /_sandbox/policies/{id}/statuses", async () => {
    const target = ledgerReports.find((r) => r.policyId === 201 && r.customStatus === "") as LedgerReport;
    const evil = '=IMAGE("x")';
    const refused = await call(sandbox, "setExpenseReportCustomStatus", {
      Id: target.id,
      IdAdmin: sandbox.managerId,
      CustomStatus: evil,
    });
    expect(refused.status).toBe(400);
    const defined = await control(sandbox, "POST", "/policies/201/statuses", { CustomStatus: evil });
    expect(defined.status).toBe(200);
    expect(defined.body).toMatchObject({ Id: 201, CustomStatuses: expect.arrayContaining([evil, "Pagado"]) });
    const taken = await call(sandbox, "setExpenseReportCustomStatus", {
      Id: target.id,
      IdAdmin: sandbox.managerId,
      CustomStatus: evil,
    });
    expect(taken.status).toBe(200);
    expect(taken.body.CustomStatus).toBe(evil);
    for (const [path, body, status] of [
      ["/policies/999/statuses", { CustomStatus: "Visto" }, 404],
      ["/policies/201/statuses", { CustomStatus: "x".repeat(21) }, 400],
      ["/policies/201/statuses", { Status: "Visto" }, 400],
    ] as Array<[string, unknown, number]>) {
      expect((await control(sandbox, "POST", path, body)).status, path).toBe(status);
    }
  });

  it("requires CustomStatus: an empty text counts as absent", async () => {
    const id = ledgerReports[0]?.id;
    for (const body of [
      { Id: id, IdAdmin: sandbox.managerId },
      { Id: id, IdAdmin: sandbox.managerId, CustomStatus: "" },
    ]) {
      const reply = await call(sandbox, "setExpenseReportCustomStatus", body);
      expect(reply.status).toBe(400);
      expect(reply.body.Error.Field).toBe("CustomStatus");
    }
  });

  it("refuses users without the management role, too-long texts and unknown reports", async () => {
    const id = ledgerReports[1]?.id;
    const treasurer = await call(sandbox, "setExpenseReportCustomStatus", {
      Id: id,
      IdAdmin: 1003,
      CustomStatus: "Pagado",
    });
    expect(treasurer.status).toBe(403);
    expect(treasurer.body.Error.Field).toBe("IdAdmin");
    const long = await call(sandbox, "setExpenseReportCustomStatus", {
      Id: id,
      IdAdmin: sandbox.managerId,
      CustomStatus: "x".repeat(21),
    });
    expect(long.body.Error.Field).toBe("CustomStatus");
    const message = await call(sandbox, "setExpenseReportCustomStatus", {
      Id: id,
      IdAdmin: sandbox.managerId,
      CustomStatus: "Pagado",
      CustomMessage: "m".repeat(256),
    });
    expect(message.body.Error.Field).toBe("CustomMessage");
    const missing = await call(sandbox, "setExpenseReportCustomStatus", {
      Id: 5,
      IdAdmin: sandbox.managerId,
      CustomStatus: "Pagado",
    });
    expect(missing.status).toBe(404);
  });
});

describe("the one-year range across a leap day", () => {
  it("ends at the same calendar day a year on, 29 February mapping to 28 February, with or without Until", async () => {
    const leap = await start({ now: () => new Date("2024-02-29T12:00:00Z"), reports: 50 });
    try {
      for (const [params, status, field] of [
        [{ Since: "2023-02-28" }, 400, "Since"],
        [{ Since: "2023-03-01" }, 200, undefined],
        [{ Since: "2023-02-28", Until: "2024-02-28" }, 200, undefined],
        [{ Since: "2023-02-28", Until: "2024-02-29" }, 400, "Until"],
        [{ Since: "2024-02-29", Until: "2025-02-28" }, 200, undefined],
        [{ Since: "2024-02-29", Until: "2025-03-01" }, 400, "Until"],
        [{ Since: "2024-02-29", Until: "2024-02-28" }, 400, "Until"],
        [{ Since: "2024-03-01" }, 400, "Since"],
      ] as const) {
        const reply = await call(leap, "getExpenseReports", params);
        expect(reply.status, JSON.stringify(params)).toBe(status);
        if (field) expect(reply.body.Error.Field, JSON.stringify(params)).toBe(field);
      }
    } finally {
      await leap.close();
    }
  });
});
