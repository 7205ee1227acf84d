/** The HTTP surface: authentication, methods, unknown routes, bad bodies, the thread start and the CLI. */
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandboxThread } from "../../dev/sandbox/index";
import { call, type Running, start } from "./sandbox-client";

const root = join(import.meta.dirname, "../..");
let sandbox: Running;
beforeAll(async () => {
  sandbox = await start({ token: "tok-S3CRET-123" });
});
afterAll(() => sandbox.close());

const SPEC_METHODS: Record<string, string[]> = {
  getFunds: ["GET"],
  getFund: ["GET"],
  createFund: ["POST"],
  updateFund: ["PUT"],
  depositMoneyToFund: ["POST"],
  withdrawMoneyFromFund: ["POST"],
  setFundStatus: ["PUT"],
  getExpenseReports: ["GET"],
  getExpenseReport: ["GET"],
  setExpenseReportIntegration: ["PUT"],
  setExpenseReportCustomStatus: ["PUT", "POST"],
};

describe("authentication", () => {
  it("answers 401 without the header, with another scheme or with a wrong token, never echoing it", async () => {
    for (const headers of [
      {},
      { Authorization: "Basic abc" },
      { Authorization: "Bearer tok-WRONG-999" },
    ] as Array<Record<string, string>>) {
      const res = await fetch(`${sandbox.url}/getFunds`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      const text = await res.text();
      expect(JSON.parse(text).Error).toMatchObject({ Code: "Unauthorized", Field: "Authorization" });
      expect(text).not.toContain("tok-");
    }
  });

  it("accepts the right token on every endpoint", async () => {
    const reply = await call(sandbox, "getFunds", {}, { token: "tok-S3CRET-123" });
    expect(reply.status).toBe(200);
  });

  it("asks for the token before telling whether an endpoint or a method exists", async () => {
    for (const [path, method] of [
      ["getFundz", "GET"],
      ["getFunds", "DELETE"],
      ["createFund", "GET"],
    ]) {
      const res = await fetch(`${sandbox.url}/${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect((await res.json()).Error.Field).toBe("Authorization");
    }
  });

  it("checks the token before validating or applying a write", async () => {
    const reply = await call(sandbox, "createFund", { FundName: "x" }, { token: null });
    expect(reply.status).toBe(401);
  });
});

describe("methods and routes", () => {
  it("accepts each endpoint's spec methods and answers 405 with Allow for the others", async () => {
    for (const [name, methods] of Object.entries(SPEC_METHODS)) {
      for (const method of ["GET", "POST", "PUT", "DELETE", "PATCH"]) {
        const res = await fetch(`${sandbox.url}/${name}`, {
          method,
          headers: { Authorization: `Bearer ${sandbox.token}`, "Content-Type": "application/json" },
          body: method === "GET" ? undefined : "{}",
        });
        await res.text();
        if (methods.includes(method)) {
          expect(res.status, `${method} ${name}`).not.toBe(405);
        } else {
          expect(res.status, `${method} ${name}`).toBe(405);
          expect(res.headers.get("allow")).toBe(methods.join(", "));
        }
      }
    }
  });

  it("answers 404 naming the endpoint for unknown endpoints", async () => {
    const reply = await call(sandbox, "getFundz");
    expect(reply.status).toBe(404);
    expect(reply.body.Error.Field).toBe("endpoint");
    expect(reply.body.Error.Message).toContain("getFunds");
  });

  it("refuses a query parameter given twice, naming it, rather than picking one value", async () => {
    const res = await fetch(`${sandbox.url}/getFunds?Status=1&Status=2`, {
      headers: { Authorization: `Bearer ${sandbox.token}` },
    });
    expect(res.status).toBe(400);
    const error = (await res.json()).Error;
    expect(error.Field).toBe("Status");
    expect(error.Message).toMatch(/^Status: .*more than once/);
  });

  it("refuses a write with query parameters, naming them, so that an amount never travels two ways", async () => {
    const before = (await call(sandbox, "getFund", { Id: 5001 })).body.Deposits;
    const res = await fetch(`${sandbox.url}/depositMoneyToFund?DepositAmount=500`, {
      method: "POST",
      headers: { Authorization: `Bearer ${sandbox.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ Id: 5001, IdAdmin: sandbox.adminId, DepositAmount: 1 }),
    });
    expect(res.status).toBe(400);
    const error = (await res.json()).Error;
    expect(error.Field).toBe("DepositAmount");
    expect(error.Message).toMatch(/^DepositAmount: .*JSON body/);
    expect((await call(sandbox, "getFund", { Id: 5001 })).body.Deposits).toBe(before);
  });

  it("answers a CORS preflight without the token, as the README says", async () => {
    const res = await fetch(`${sandbox.url}/updateFund`, {
      method: "OPTIONS",
      headers: { "Access-Control-Request-Method": "PUT", Origin: "http://elsewhere.test" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
  });

  it("refuses a member given twice in a write body, naming it, rather than keeping the last value", async () => {
    const before = (await call(sandbox, "getFund", { Id: 5001 })).body.Deposits;
    for (const body of [
      '{"Id": 5001, "IdAdmin": 1001, "DepositAmount": 1, "DepositAmount" \n: 900}',
      '{"Id": 5001, "IdAdmin": 1001, "DepositAmount": 1, "Depo\\u0073itAmount": 900}',
    ]) {
      const res = await fetch(`${sandbox.url}/depositMoneyToFund`, {
        method: "POST",
        headers: { Authorization: `Bearer ${sandbox.token}`, "Content-Type": "application/json" },
        body,
      });
      expect(res.status, body).toBe(400);
      const error = (await res.json()).Error;
      expect(error.Field).toBe("DepositAmount");
      expect(error.Message).toMatch(/^DepositAmount: .*more than once/);
    }
    expect((await call(sandbox, "getFund", { Id: 5001 })).body.Deposits).toBe(before);
    // The same name inside a nested value, or as a text value, is no repetition.
    const nested = await fetch(`${sandbox.url}/setExpenseReportCustomStatus`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${sandbox.token}`, "Content-Type": "application/json" },
      body: '{"Id": 1, "IdAdmin": 1001, "CustomStatus": "Id", "CustomMessage": "\\"Id\\": {\\"Id\\": 2}"}',
    });
    expect((await nested.json()).Error.Field).toBe("Id");
    expect(nested.status).toBe(404);
  });

  it("refuses a body that is not JSON or not an object", async () => {
    for (const body of ["{not json", "[1,2]", '"text"', "null"]) {
      const res = await fetch(`${sandbox.url}/createFund`, {
        method: "POST",
        headers: { Authorization: `Bearer ${sandbox.token}`, "Content-Type": "application/json" },
        body,
      });
      expect(res.status, body).toBe(400);
      const error = (await res.json()).Error;
      expect(["body", "request"]).toContain(error.Field);
    }
  });

  it("treats an empty write body as no fields, naming every required one", async () => {
    const res = await fetch(`${sandbox.url}/depositMoneyToFund`, {
      method: "POST",
      headers: { Authorization: `Bearer ${sandbox.token}`, "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    const error = (await res.json()).Error;
    expect(error.Issues.map((i: { Field: string }) => i.Field).sort()).toEqual([
      "DepositAmount",
      "Id",
      "IdAdmin",
    ]);
  });
});

describe("Content-Type of writes", () => {
  it("refuses a write body not sent as application/json with 415 naming Content-Type, applying nothing", async () => {
    const deposit = JSON.stringify({ Id: 5001, IdAdmin: sandbox.adminId, DepositAmount: 1 });
    const send = (headers: Record<string, string>) =>
      fetch(`${sandbox.url}/depositMoneyToFund`, {
        method: "POST",
        headers: { Authorization: `Bearer ${sandbox.token}`, ...headers },
        body: deposit,
      });
    const balance = async () =>
      (await call(sandbox, "getFund", { Id: 5001 }, { token: "tok-S3CRET-123" })).body.Balance;
    const before = await balance();
    for (const type of [
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "application/jsonp",
    ]) {
      const res = await send({ "Content-Type": type });
      expect(res.status, type).toBe(415);
      const error = (await res.json()).Error;
      expect(error).toMatchObject({ Code: "UnsupportedMediaType", Field: "Content-Type" });
      expect(error.Message.startsWith("Content-Type")).toBe(true);
    }
    // fetch() sends a string body as text/plain unless told otherwise.
    expect((await send({})).status).toBe(415);
    expect(await balance()).toBe(before);
    const ok = await send({ "Content-Type": "Application/JSON; charset=utf-8" });
    expect(ok.status).toBe(200);
  });
});

describe("encoding of writes", () => {
  it("refuses a body in another charset or not valid UTF-8, rather than storing mangled text", async () => {
    const name = "Caja José Muñoz";
    const body = JSON.stringify({ Id: 5001, IdAdmin: 1001, FundName: name });
    const send = (type: string, bytes: Buffer) =>
      fetch(`${sandbox.url}/updateFund`, {
        method: "PUT",
        headers: { Authorization: `Bearer ${sandbox.token}`, "Content-Type": type },
        body: new Uint8Array(bytes),
      });
    const latin1 = Buffer.from(body, "latin1");
    const before = (await call(sandbox, "getFund", { Id: 5001 })).body.Title;
    const declared = await send("application/json; charset=ISO-8859-1", latin1);
    expect(declared.status).toBe(415);
    expect((await declared.json()).Error.Field).toBe("Content-Type");
    const mangled = await send("application/json", latin1);
    expect(mangled.status).toBe(400);
    expect((await mangled.json()).Error).toMatchObject({
      Field: "body",
      Message: expect.stringMatching(/UTF-8/),
    });
    expect((await call(sandbox, "getFund", { Id: 5001 })).body.Title).toBe(before);
    const utf8 = await send('application/json;charset="utf-8"', Buffer.from(body, "utf8"));
    expect(utf8.status).toBe(200);
    expect((await utf8.json()).Title).toBe(name);
  });
});

describe("messages", () => {
  it("speaks Spanish to callers that prefer it, English otherwise, naming the field either way", async () => {
    const ask = (language?: string) =>
      fetch(`${sandbox.url}/getExpenseReports`, {
        headers: {
          Authorization: `Bearer ${sandbox.token}`,
          ...(language ? { "Accept-Language": language } : {}),
        },
      }).then((r) => r.json());
    expect((await ask("es-CL,es;q=0.9")).Error.Message).toBe("Since es obligatorio.");
    expect((await ask()).Error.Message).toBe("Since is required.");
  });
});

describe("startSandboxThread", () => {
  it("serves from a worker thread, so a caller that blocks its own thread still gets answers", async () => {
    const running = await startSandboxThread({ today: "2026-06-15", funds: 3, reports: 5, token: "t-1" });
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(running.origin).toBe(running.url.slice(0, -3));
      expect(running).toMatchObject({ token: "t-1", adminId: 1001, managerId: 1002 });
      // execFileSync blocks this thread until the child has its answer: only a server on another
      // thread can give it one.
      const script = `fetch(process.argv[1] + "/getFunds", { headers: { Authorization: "Bearer t-1" } }).then(r => r.json()).then(b => console.log(b.Records.TotalRecords))`;
      const out = execFileSync(process.execPath, ["-e", script, running.url], {
        encoding: "utf8",
        timeout: 10_000,
      });
      expect(out.trim()).toBe("3");
    } finally {
      await running.close();
    }
    await expect(fetch(`${running.url}/getFunds`)).rejects.toThrow();
  });
});

describe("npm run sandbox", () => {
  it("prints API, Token and Admin id first, one per line, and serves that URL", async () => {
    const child = spawn(
      process.execPath,
      [
        join(root, "node_modules/tsx/dist/cli.mjs"),
        join(root, "dev/sandbox/cli.ts"),
        "--port",
        "0",
        "--funds",
        "2",
        "--reports",
        "3",
        "--seed",
        "5",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const lines = await new Promise<string[]>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const lines = out.split("\n");
          if (lines.length > 3) resolve(lines);
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      expect(lines[0]).toMatch(/^API: http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(lines[1]).toBe("Token: sandbox-demo-token");
      expect(lines[2]).toBe("Admin id: 1001");
      const url = (lines[0] as string).slice("API: ".length);
      const res = await fetch(`${url}/getFunds`, { headers: { Authorization: "Bearer sandbox-demo-token" } });
      expect((await res.json()).Records.TotalRecords).toBe(2);
    } finally {
      child.kill("SIGTERM");
    }
  });
});

describe("the time zone option", () => {
  it("refuses a name that is no time zone, naming the option", async () => {
    const { createSandboxServer } = await import("../../dev/sandbox/server");
    expect(() => createSandboxServer({ timeZone: "Mars/Olympus_Mons" })).toThrow(
      'timeZone: "Mars/Olympus_Mons" is not a time zone name',
    );
  });
});
