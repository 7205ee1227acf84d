/**
 * The "real shapes" mode: the same values as the exact shapes, in the JSON types the real
 * service varies (ids and numbers as strings, flags, numeric-string amounts, ExtraFields as JSON
 * text, null dates), deterministic for a seed; switching by reset; the error-in-200-v2 fault.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../dev/sandbox/index";
import { ENDPOINTS } from "../../src/api/endpoints";
import { tsxArgs } from "../support/tsx";
import { call, control, type Running, start } from "./sandbox-client";

let exact: Running;
let real: Running;
beforeAll(async () => {
  exact = await start({ funds: 30, reports: 120 });
  real = await start({ funds: 30, reports: 120, shapes: "real" });
});
afterAll(async () => {
  await exact.close();
  await real.close();
});

const REPORTS_QUERY = { TypeDateFilter: 2, Since: "2025-07-01", Until: "2026-06-15", ResultsPerPage: 500 };

/** Every value of a member across a list of records, by JSON type (null counted as "null"). */
function typesOf(records: Record<string, unknown>[], member: string): Set<string> {
  return new Set(records.map((r) => (r[member] === null ? "null" : typeof r[member])));
}

describe("real shapes", () => {
  it("getFunds: the same funds once parsed, ids and Records as strings, amounts and flags varied", async () => {
    const a = await call(exact, "getFunds", { ResultsPerPage: 100 });
    const b = await call(real, "getFunds", { ResultsPerPage: 100 });
    expect(b.status).toBe(200);
    expect(ENDPOINTS.getFunds.response.parse(b.body)).toEqual(ENDPOINTS.getFunds.response.parse(a.body));
    expect(b.body.Records).toEqual({
      TotalRecords: String(a.body.Records.TotalRecords),
      Funds: String(a.body.Records.Funds),
      Page: "1",
      Pages: "1",
    });
    const funds = b.body.Funds as Record<string, unknown>[];
    for (const member of ["Id", "IdAssignTo", "IdCreator"])
      expect(typesOf(funds, member)).toEqual(new Set(["string"]));
    expect(typesOf(funds, "Balance")).toEqual(new Set(["string", "number"]));
    expect(typesOf(funds, "Status")).toEqual(new Set(["string", "number"]));
    const texts = funds.map((f) => f.Balance).filter((b) => typeof b === "string");
    expect(texts.some((b) => /\.\d{2}$/.test(b as string))).toBe(true);
    expect(texts.some((b) => !/\.\d{2}$/.test(b as string))).toBe(true);
    expect(texts.some((b) => /\.\d{4}$/.test(b as string))).toBe(true);
    for (const fund of funds.filter((f) => typeof f.Balance === "string")) {
      expect(fund.Balance).toMatch(/^-?\d+(\.\d{1,2}|\.\d{2}00)?$/);
    }
    const times = funds.map((f) => String(f.CreatedAt));
    expect(times.some((t) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(t))).toBe(true);
    expect(times.some((t) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(t))).toBe(true);
    const flags = new Set(funds.flatMap((f) => [f.FlexibleFund, f.ManualDeposit, f.AutomaticBlock]));
    expect(flags).toEqual(new Set(["1", "0", "", true, false, 1, 0, "true", "false"]));
    expect(typesOf(funds, "ExpirationDate")).toEqual(new Set(["string", "null"]));
    expect(funds.some((f) => f.ExpirationDate === "0000-00-00")).toBe(true);
  });

  it("getExpenseReports: the same reports once parsed, with ExtraFields as JSON text on some", async () => {
    const a = await call(exact, "getExpenseReports", REPORTS_QUERY);
    const b = await call(real, "getExpenseReports", REPORTS_QUERY);
    expect(b.status).toBe(200);
    // File addresses name each sandbox's own port; everything else must be equal.
    const parse = (body: unknown) =>
      JSON.parse(
        JSON.stringify(ENDPOINTS.getExpenseReports.response.parse(body)).replace(/127\.0\.0\.1:\d+/g, "host"),
      );
    // The parser reads an Integrated of "" as unknown (null): only where the exact answer says
    // "0" may that happen, and nowhere else may the two differ.
    const fromReal = parse(b.body);
    const fromExact = parse(a.body);
    fromReal.expenseReports.forEach((r: { integrated: boolean | null }, i: number) => {
      if (r.integrated === null) {
        expect(fromExact.expenseReports[i].integrated).toBe(false);
        r.integrated = false;
      }
    });
    expect(fromReal).toEqual(fromExact);
    const reports = b.body.ExpenseReports as Record<string, unknown>[];
    expect(reports.length).toBeGreaterThan(20);
    for (const member of ["Id", "ReportNumber", "EmployeeId", "ApproverId", "PolicyId", "FundId"]) {
      expect(typesOf(reports, member)).toEqual(new Set(["string"]));
    }
    expect(typesOf(reports, "ExtraFields")).toEqual(new Set(["string", "object"]));
    // An empty list as null on some.
    expect(typesOf(reports, "Files")).toEqual(new Set(["object", "null"]));
    const dates = reports.map((r) => r.SendDate).filter((d) => typeof d === "string");
    expect(dates.some((d) => / 00:00:00$/.test(d as string))).toBe(true);
    expect(typesOf(reports, "ReportTotal")).toEqual(new Set(["string", "number"]));
    expect(typesOf(reports, "CloseDate")).toEqual(new Set(["string", "null"]));
    expect(new Set(reports.map((r) => r.Integrated))).toEqual(
      new Set(["1", "0", "", true, false, 1, 0, "true", "false"]),
    );
    expect(reports.some((r) => r.CloseDate === "0000-00-00")).toBe(true);
    // A report's only file as the file itself on some.
    expect(
      reports.some((r) => typeof r.Files === "object" && r.Files !== null && !Array.isArray(r.Files)),
    ).toBe(true);
    const text = reports.find((r) => typeof r.ExtraFields === "string");
    const same = (a.body.ExpenseReports as Record<string, unknown>[]).find((r) => r.Id === Number(text?.Id));
    expect(JSON.parse(String(text?.ExtraFields))).toEqual(same?.ExtraFields);
  });

  it("is deterministic: a record keeps its shape in the list, alone, and on every call", async () => {
    const list = await call(real, "getFunds", { ResultsPerPage: 100 });
    const again = await call(real, "getFunds", { ResultsPerPage: 7, Page: 1 });
    expect(again.body.Funds).toEqual(list.body.Funds.slice(0, 7));
    const first = list.body.Funds[0];
    const single = await call(real, "getFund", { Id: first.Id });
    for (const member of ["Id", "Balance", "FlexibleFund", "ManualDeposit", "AutomaticBlock"]) {
      expect(single.body[member]).toEqual(first[member]);
    }
    const other = await startSandbox({
      now: () => new Date("2026-06-15T12:00:00Z"),
      seed: 7,
      funds: 30,
      reports: 120,
      shapes: "real",
    });
    try {
      expect((await call(other, "getFunds", { ResultsPerPage: 100 })).body).toEqual(list.body);
    } finally {
      await other.close();
    }
  });

  it("a fund's movements as an object of their positions on some, the same movements once parsed", async () => {
    const ids = (await call(exact, "getFunds", { ResultsPerPage: 100 })).body.Funds.map(
      (f: { Id: number }) => f.Id,
    );
    let objects = 0;
    for (const Id of ids) {
      const a = await call(exact, "getFund", { Id });
      const b = await call(real, "getFund", { Id });
      if (!Array.isArray(b.body.Transactions)) objects += 1;
      expect(ENDPOINTS.getFund.response.parse(b.body)).toEqual(ENDPOINTS.getFund.response.parse(a.body));
    }
    expect(objects).toBeGreaterThan(0);
  });

  it("write answers vary too, and parse as the exact ones do", async () => {
    const fundId = Number((await call(real, "getFunds", { Status: 1 })).body.Funds[0].Id);
    const reply = await call(real, "depositMoneyToFund", {
      Id: fundId,
      IdAdmin: real.adminId,
      DepositAmount: 10,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.Id).toBe(String(fundId));
    expect(ENDPOINTS.depositMoneyToFund.response.parse(reply.body)).toMatchObject({ id: fundId });
  });

  it("the answer to marking a report integrated gives IntegrationStatus as a number, text or a boolean", async () => {
    const reports = (await call(real, "getExpenseReports", REPORTS_QUERY)).body.ExpenseReports.slice(0, 20);
    const types = new Set<string>();
    for (const r of reports) {
      const reply = await call(real, "setExpenseReportIntegration", {
        Id: Number(r.Id),
        IntegrationStatus: 1,
        IntegrationCode: "V-1",
        IntegrationDate: "2026-06-01 10:00:00",
      });
      types.add(typeof reply.body.IntegrationStatus);
      expect(ENDPOINTS.setExpenseReportIntegration.response.parse(reply.body)).toMatchObject({
        id: Number(r.Id),
        integrationStatus: 1,
      });
    }
    expect(types).toEqual(new Set(["number", "string", "boolean"]));
  });

  it("is chosen by reset: shapes real or exact, absent gives the start option, anything else is refused", async () => {
    const sandbox = await start({ funds: 5, reports: 5 });
    try {
      const idType = async () => typeof (await call(sandbox, "getFunds")).body.Funds[0].Id;
      expect(await idType()).toBe("number");
      expect((await control(sandbox, "POST", "/reset", { seed: 7, shapes: "real" })).body.shapes).toBe(
        "real",
      );
      expect(await idType()).toBe("string");
      expect((await control(sandbox, "GET", "")).body.shapes).toBe("real");
      await control(sandbox, "POST", "/reset", { seed: 7 });
      expect(await idType()).toBe("number");
      const refused = await control(sandbox, "POST", "/reset", { shapes: "Real" });
      expect(refused.status).toBe(400);
      expect(refused.body.Error.Field).toBe("body.shapes");
      expect(refused.body.Error.Message).toContain('"exact", "real"');
    } finally {
      await sandbox.close();
    }
    await expect(start({ shapes: "loose" as never })).rejects.toThrow(/shapes/);
  });

  it("leaves error answers in their exact shape", async () => {
    const reply = await call(real, "getFund", { Id: 999_999 });
    expect(reply.status).toBe(404);
    expect(reply.body.Error.Message).toEqual(expect.any(String));
  });
});

describe("error-in-200-v2", () => {
  it("answers HTTP 200 with statusCode 400 and a message, without applying the write", async () => {
    const fundId = Number((await call(real, "getFunds", { Status: 1 })).body.Funds[0].Id);
    const count = () => real.sandbox.service.ledger.fund(fundId).transactions.length;
    const before = count();
    await control(real, "POST", "/faults", {
      rules: [{ endpoint: "depositMoneyToFund", fault: "error-in-200-v2", times: 1 }],
    });
    const reply = await call(real, "depositMoneyToFund", {
      Id: fundId,
      IdAdmin: real.adminId,
      DepositAmount: 10,
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ statusCode: 400, message: expect.stringContaining("depositMoneyToFund") });
    expect(count()).toBe(before);
    const next = await call(real, "depositMoneyToFund", {
      Id: fundId,
      IdAdmin: real.adminId,
      DepositAmount: 10,
    });
    expect(next.body.Id).toBe(String(fundId));
    expect(count()).toBe(before + 1);
  });
});

describe("npm run sandbox -- --shapes", () => {
  const root = join(import.meta.dirname, "../..");
  const cli = (...args: string[]) =>
    spawn(process.execPath, tsxArgs(join(root, "dev/sandbox/cli.ts"), args), {
      stdio: ["ignore", "pipe", "pipe"],
    });

  it("--shapes real serves real shapes from the printed URL", async () => {
    const child = cli("--port", "0", "--funds", "2", "--reports", "3", "--shapes", "real");
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const api = /^API: (\S+)$/m.exec(out);
          if (api?.[1]) resolve(api[1]);
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      const res = await fetch(`${url}/getFunds`, { headers: { Authorization: "Bearer sandbox-demo-token" } });
      expect((await res.json()).Records.TotalRecords).toBe("2");
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("--shapes with another value exits 2 naming the flag and the choices", async () => {
    const child = cli("--port", "0", "--shapes", "loose");
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(err).toContain('--shapes: must be one of exact, real (got "loose")');
  });
});
