/**
 * Several companies on one URL, told apart by the token: ids that overlap, ledgers that never
 * touch, faults and control routes per company, the one 401 for an unknown token, and the CLI.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningCompany, startSandboxThread } from "../../dev/sandbox/index";
import { createSandboxServer } from "../../dev/sandbox/server";
import { tsxArgs } from "../support/tsx";
import { call, control, type Running, start } from "./sandbox-client";

const root = join(import.meta.dirname, "../..");
let sandbox: Running;
let alpha: RunningCompany;
let beta: RunningCompany;
beforeAll(async () => {
  sandbox = await start({ companies: 2, funds: 12, reports: 40 });
  [alpha, beta] = sandbox.companies as [RunningCompany, RunningCompany];
});
afterAll(() => sandbox.close());

/** A /_sandbox route of one company. */
const controlOf = (company: string, method: string, path: string, body?: unknown) =>
  control(sandbox, method, `${path}?company=${encodeURIComponent(company)}`, body);
const stateText = async (company: string) => JSON.stringify((await controlOf(company, "GET", "/state")).body);

describe("companies by token", () => {
  it("names them Alpha and Beta, keeps the first's token and admin at the top, moves Beta's users by 1000", () => {
    expect(sandbox.companies).toEqual([
      { name: "Alpha", token: "sandbox-demo-token", adminId: 1001, managerId: 1002 },
      { name: "Beta", token: "sandbox-demo-token-2", adminId: 2001, managerId: 2002 },
    ]);
    expect(sandbox).toMatchObject({ token: "sandbox-demo-token", adminId: 1001, managerId: 1002 });
    expect(sandbox.sandbox.companies[0]?.service).toBe(sandbox.sandbox.service);
  });

  it("gives each company a fund with the same Id as one of the other's, with its own data", async () => {
    const ofAlpha = await call(sandbox, "getFund", { Id: 5001 }, { token: alpha.token });
    const ofBeta = await call(sandbox, "getFund", { Id: 5001 }, { token: beta.token });
    expect(ofAlpha.status).toBe(200);
    expect(ofBeta.status).toBe(200);
    expect(ofBeta.body.Id).toBe(ofAlpha.body.Id);
    // Seeds 7 and 8 (the start seed + i): the same Id names two different funds.
    expect(ofBeta.body).not.toEqual(ofAlpha.body);
    const ids = async (token: string) =>
      (await call(sandbox, "getFunds", { ResultsPerPage: 100 }, { token })).body.Funds.map(
        (f: { Id: number }) => f.Id,
      ).sort();
    expect(await ids(beta.token)).toEqual(await ids(alpha.token));
  });

  it("lists each company's users on its control route, the first's when none is named", async () => {
    const ids = (reply: { body: { Users: Array<{ Id: number }> } }) => reply.body.Users.map((u) => u.Id);
    const first = ids(await control(sandbox, "GET", "/users"));
    expect(first.slice(0, 4)).toEqual([1001, 1002, 1003, 1004]);
    expect(ids(await controlOf("Alpha", "GET", "/users"))).toEqual(first);
    // Names are matched case aside.
    expect(ids(await controlOf("beta", "GET", "/users")).slice(0, 5)).toEqual([2001, 2002, 2003, 2004, 2101]);
    const info = await controlOf("Beta", "GET", "");
    expect(info.body).toMatchObject({
      company: "Beta",
      adminId: 2001,
      companies: [
        { name: "Alpha", adminId: 1001 },
        { name: "Beta", adminId: 2001 },
      ],
    });
  });

  it("answers 404 naming company for a company it does not serve", async () => {
    const reply = await controlOf("Gamma", "GET", "/state");
    expect(reply.status).toBe(404);
    expect(reply.body.Error.Field).toBe("company");
    expect(reply.body.Error.Message).toContain("Alpha, Beta");
  });

  it("serves each company's file links from its own reports", async () => {
    const state = (await controlOf("Beta", "GET", "/state")).body as {
      reports: Array<{ id: number; files: Array<{ Name: string; Url: string }> }>;
    };
    const report = state.reports.find((r) => r.files.length > 0);
    if (!report) throw new Error("no report of Beta has a file");
    const file = report.files[0] as { Name: string; Url: string };
    expect(file.Url).toBe(`/_sandbox/files/${report.id}/${file.Name}?company=Beta`);
    const res = await fetch(`${sandbox.origin}${file.Url}`);
    expect(res.status).toBe(200);
  });
});

describe("separate ledgers", () => {
  it("moves money only in the ledger of the token's company; the other stays byte-identical", async () => {
    const alphaBefore = await stateText("Alpha");
    const fundOf = async (token: string) => (await call(sandbox, "getFund", { Id: 5001 }, { token })).body;
    const betaBefore = await fundOf(beta.token);
    const reply = await call(
      sandbox,
      "depositMoneyToFund",
      { Id: 5001, IdAdmin: beta.adminId, DepositAmount: 1234.5 },
      { token: beta.token },
    );
    expect(reply.status).toBe(200);
    const betaAfter = await fundOf(beta.token);
    expect(betaAfter.Transactions.length).toBe(betaBefore.Transactions.length + 1);
    expect(Math.round((betaAfter.Deposits - betaBefore.Deposits) * 100)).toBe(123_450);
    expect(await stateText("Alpha")).toBe(alphaBefore);
  });

  it("refuses one company's admin with another company's token (403), changing nothing", async () => {
    const betaBefore = await stateText("Beta");
    const reply = await call(
      sandbox,
      "depositMoneyToFund",
      { Id: 5001, IdAdmin: alpha.adminId, DepositAmount: 10 },
      { token: beta.token },
    );
    expect(reply.status).toBe(403);
    expect(reply.body.Error.Field).toBe("IdAdmin");
    expect(await stateText("Beta")).toBe(betaBefore);
  });

  it("resets one company only, to its own seed 42 + i", async () => {
    const alphaBefore = await stateText("Alpha");
    const deposit = await call(
      sandbox,
      "depositMoneyToFund",
      { Id: 5001, IdAdmin: beta.adminId, DepositAmount: 5 },
      { token: beta.token },
    );
    expect(deposit.status).toBe(200);
    const reset = await controlOf("Beta", "POST", "/reset", { funds: 12, reports: 40 });
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ seed: 43, adminId: 2001 });
    const fresh = createSandboxServer({
      companies: 2,
      funds: 12,
      reports: 40,
      now: () => new Date("2026-06-15T12:00:00Z"),
    });
    const freshBeta = fresh.companies[1]?.service.ledger.fund(5001);
    expect(sandbox.sandbox.companies[1]?.service.ledger.fund(5001)).toEqual(freshBeta);
    expect(await stateText("Alpha")).toBe(alphaBefore);
  });
});

describe("faults per company", () => {
  it("faults only the calls of the company named on the route", async () => {
    const set = await controlOf("Beta", "POST", "/faults", {
      rules: [{ endpoint: "getFunds", fault: "status", status: 503 }],
    });
    try {
      expect(set.status).toBe(200);
      expect(set.body.rules).toEqual([expect.objectContaining({ endpoint: "getFunds", company: "Beta" })]);
      expect((await call(sandbox, "getFunds", {}, { token: beta.token })).status).toBe(503);
      expect((await call(sandbox, "getFunds", {}, { token: alpha.token })).status).toBe(200);
      expect((await control(sandbox, "GET", "/faults")).body).toEqual({ latencyMs: 0, rules: [], held: 0 });
    } finally {
      await controlOf("Beta", "DELETE", "/faults");
    }
    expect((await call(sandbox, "getFunds", {}, { token: beta.token })).status).toBe(200);
  });

  it("refuses a rule that names another company than the route's, naming the member", async () => {
    const reply = await control(sandbox, "POST", "/faults", {
      rules: [{ endpoint: "*", fault: "status", company: "Beta" }],
    });
    expect(reply.status).toBe(400);
    expect(reply.body.Error.Field).toBe("rules[0].company");
    const own = await controlOf("Beta", "POST", "/faults", {
      rules: [{ endpoint: "getFund", fault: "status", company: "beta", times: 1 }],
    });
    expect(own.status).toBe(200);
    expect((await call(sandbox, "getFund", { Id: 5001 }, { token: beta.token })).status).toBe(503);
    expect((await call(sandbox, "getFund", { Id: 5001 }, { token: beta.token })).status).toBe(200);
  });

  it("delays only the company whose latency is set", async () => {
    // Beta's latency is 5 s while Alpha calls: a call delayed by it could not take under 2.5 s,
    // however slow the machine; then 150 ms, which Beta's own call must wait out.
    await controlOf("Beta", "POST", "/faults", { latencyMs: 5_000 });
    try {
      let started = performance.now();
      await call(sandbox, "getFunds", { ResultsPerPage: 1 }, { token: alpha.token });
      expect(performance.now() - started).toBeLessThan(2_500);
      await controlOf("Beta", "POST", "/faults", { latencyMs: 150 });
      started = performance.now();
      await call(sandbox, "getFunds", { ResultsPerPage: 1 }, { token: beta.token });
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await controlOf("Beta", "DELETE", "/faults");
    }
  });
});

describe("an unknown token", () => {
  it("gets the same 401 as with one company, never reaching a company", async () => {
    const one = await start({ funds: 2, reports: 2 });
    try {
      for (const token of ["sandbox-demo-token-3", "nope"]) {
        const several = await call(sandbox, "getFund", { Id: 5001 }, { token });
        const single = await call(one, "getFund", { Id: 5001 }, { token });
        expect(several.status).toBe(401);
        expect(several.headers.get("www-authenticate")).toBe(single.headers.get("www-authenticate"));
        expect(several.body).toEqual(single.body);
        expect(JSON.stringify(several.body)).not.toContain(token);
      }
    } finally {
      await one.close();
    }
  });
});

describe("the companies option", () => {
  it("takes a list with names, tokens, admin ids and seeds", async () => {
    const listed = await start({
      funds: 3,
      reports: 3,
      companies: [
        { name: "Norte SpA", token: "tok-norte", seed: 9 },
        { name: "Sur Ltda", token: "tok-sur", adminId: 7001 },
      ],
    });
    try {
      expect(listed.companies).toEqual([
        { name: "Norte SpA", token: "tok-norte", adminId: 1001, managerId: 1002 },
        { name: "Sur Ltda", token: "tok-sur", adminId: 7001, managerId: 7002 },
      ]);
      expect(listed.token).toBe("tok-norte");
      const sur = await call(listed, "getFunds", {}, { token: "tok-sur" });
      expect(sur.body.Records.TotalRecords).toBe(3);
      const users = await control(listed, "GET", `/users?company=${encodeURIComponent("Sur Ltda")}`);
      expect(users.body.Users[0].Id).toBe(7001);
    } finally {
      await listed.close();
    }
  });

  it("refuses a repeated name or token and a count out of range, naming the option", () => {
    expect(() => createSandboxServer({ companies: [{ name: "A" }, { name: "a" }] })).toThrow(
      "companies[1].name",
    );
    expect(() =>
      createSandboxServer({
        companies: [
          { name: "A", token: "t" },
          { name: "B", token: "t" },
        ],
      }),
    ).toThrow("companies[1].token");
    expect(() => createSandboxServer({ companies: 0 })).toThrow("companies: must be a whole number");
    expect(() => createSandboxServer({ companies: 11 })).toThrow("companies: must be a whole number");
  });

  it("is carried by startSandboxThread", async () => {
    const running = await startSandboxThread({ today: "2026-06-15", funds: 2, reports: 2, companies: 2 });
    try {
      expect(running.companies.map((c) => [c.name, c.token, c.adminId])).toEqual([
        ["Alpha", "sandbox-demo-token", 1001],
        ["Beta", "sandbox-demo-token-2", 2001],
      ]);
      expect(running).toMatchObject({ token: "sandbox-demo-token", adminId: 1001 });
    } finally {
      await running.close();
    }
  });
});

describe("npm run sandbox -- --companies", () => {
  const cli = (...args: string[]) =>
    spawn(process.execPath, tsxArgs(join(root, "dev/sandbox/cli.ts"), args), {
      stdio: ["ignore", "pipe", "pipe"],
    });

  it("--companies 2 prints each company's token and ids labelled with its name, and serves both", async () => {
    const child = cli("--port", "0", "--funds", "2", "--reports", "3", "--companies", "2");
    try {
      const lines = await new Promise<string[]>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          if (/^Control: /m.test(out)) resolve(out.trim().split("\n"));
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      expect(lines[0]).toMatch(/^API: http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(lines.slice(1, 7)).toEqual([
        "Token (Alpha): sandbox-demo-token",
        "Admin id (Alpha): 1001",
        "Manager id (Alpha): 1002",
        "Token (Beta): sandbox-demo-token-2",
        "Admin id (Beta): 2001",
        "Manager id (Beta): 2002",
      ]);
      expect(lines[7]).toMatch(
        /^Control: http:\/\/127\.0\.0\.1:\d+\/_sandbox \(users, state, reset, faults; \?company=<name> picks one, default Alpha\)$/,
      );
      // No unlabelled line that a one-company reader would take for the only token.
      expect(lines.some((line) => /^(Token|Admin id):/.test(line))).toBe(false);
      const url = (lines[0] as string).slice("API: ".length);
      for (const token of ["sandbox-demo-token", "sandbox-demo-token-2"]) {
        const res = await fetch(`${url}/getFunds`, { headers: { Authorization: `Bearer ${token}` } });
        expect((await res.json()).Records.TotalRecords).toBe(2);
      }
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("--companies out of range exits 2 naming the flag", async () => {
    const child = cli("--port", "0", "--companies", "0");
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(err).toContain('--companies: must be a whole number from 1 to 10 (got "0")');
  });
});
