/** Fault injection on /v1 calls: each kind, its effect on the ledger, uses, latency and clearing. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SENT_AT_HEADER } from "../../dev/sandbox/server";
import { call, control, type Running, start } from "./sandbox-client";

let sandbox: Running;
let fundId: number;
beforeAll(async () => {
  sandbox = await start();
  const created = await call(sandbox, "createFund", {
    IdEmployee: 1101,
    IdAdmin: sandbox.adminId,
    FundName: "Fondo para fallas",
    FundCurrency: "CLP",
    FundAmount: 50000,
  });
  fundId = created.body.Id;
});
afterEach(() => control(sandbox, "DELETE", "/faults"));
afterAll(() => sandbox.close());

const deposit = () =>
  call(sandbox, "depositMoneyToFund", { Id: fundId, IdAdmin: sandbox.adminId, DepositAmount: 1000 });
const transactionCount = () => sandbox.sandbox.service.ledger.fund(fundId).transactions.length;

async function rules(...list: Array<Record<string, unknown>>) {
  const reply = await control(sandbox, "POST", "/faults", { rules: list });
  expect(reply.status).toBe(200);
}

async function rawDeposit(): Promise<
  { ok: true; status: number; text: string } | { ok: false; error: unknown }
> {
  try {
    const res = await fetch(`${sandbox.url}/depositMoneyToFund`, {
      method: "POST",
      headers: { Authorization: `Bearer ${sandbox.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ Id: fundId, IdAdmin: sandbox.adminId, DepositAmount: 1000 }),
    });
    return { ok: true, status: res.status, text: await res.text() };
  } catch (error) {
    return { ok: false, error };
  }
}

describe("faults", () => {
  it("status: answers the given status with Retry-After for `times` calls, without applying", async () => {
    await rules({ endpoint: "depositMoneyToFund", fault: "status", status: 503, retryAfter: 2, times: 1 });
    const before = transactionCount();
    const refused = await deposit();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("2");
    expect(refused.body.Error).toMatchObject({ Code: "InjectedFault", Field: "request" });
    expect(refused.body.Error.Message.startsWith(refused.body.Error.Field)).toBe(true);
    expect(transactionCount()).toBe(before);
    const next = await deposit();
    expect(next.status).toBe(200);
    expect(transactionCount()).toBe(before + 1);
  });

  it("status with apply: true applies the write, then answers the status", async () => {
    await rules({ endpoint: "depositMoneyToFund", fault: "status", status: 500, apply: true, times: 1 });
    const before = transactionCount();
    const reply = await deposit();
    expect(reply.status).toBe(500);
    expect(transactionCount()).toBe(before + 1);
    const bad = await control(sandbox, "POST", "/faults", { rules: [{ fault: "status", apply: "yes" }] });
    expect(bad.body.Error.Field).toBe("rules[0].apply");
  });

  it("matches only its endpoint, or every endpoint with *; the first matching rule with uses left fires", async () => {
    await rules(
      { endpoint: "getFund", fault: "status", status: 429, times: 1 },
      { endpoint: "*", fault: "status", status: 500, times: 2 },
    );
    expect((await call(sandbox, "getFund", { Id: fundId })).status).toBe(429);
    expect((await call(sandbox, "getFund", { Id: fundId })).status).toBe(500);
    expect((await call(sandbox, "getFunds")).status).toBe(500);
    expect((await call(sandbox, "getFunds")).status).toBe(200);
  });

  it("without times, fires on every call until cleared", async () => {
    await rules({ endpoint: "getFunds", fault: "status", status: 502 });
    const described = await control(sandbox, "GET", "/faults");
    expect(described.body.rules[0]).toMatchObject({
      endpoint: "getFunds",
      fault: "status",
      status: 502,
      times: null,
    });
    for (let i = 0; i < 3; i++) expect((await call(sandbox, "getFunds")).status).toBe(502);
    await control(sandbox, "DELETE", "/faults");
    expect((await call(sandbox, "getFunds")).status).toBe(200);
  });

  it("error-in-200: HTTP 200 with a top-level Error member, and the write is not applied", async () => {
    await rules({ endpoint: "depositMoneyToFund", fault: "error-in-200", times: 1 });
    const before = transactionCount();
    const reply = await deposit();
    expect(reply.status).toBe(200);
    expect(reply.body.Error.Message).toContain("depositMoneyToFund");
    expect(reply.body.Error.Field).toBe("request");
    expect(reply.body.Id).toBeUndefined();
    expect(transactionCount()).toBe(before);
  });

  it("error-in-200 with apply: true applies the write, then answers its record with an Error member beside it", async () => {
    await rules({ endpoint: "depositMoneyToFund", fault: "error-in-200", apply: true, times: 1 });
    const before = transactionCount();
    const reply = await deposit();
    expect(reply.status).toBe(200);
    expect(reply.body.Error).toMatchObject({ Code: "InjectedFault", Field: "request" });
    expect(reply.body.Id).toBe(fundId);
    expect(reply.body.Transactions).toHaveLength(before + 1);
    expect(transactionCount()).toBe(before + 1);
  });

  it("html-page: a proxy's HTML error page with the status, nothing applied; with apply, applied first", async () => {
    await rules({ endpoint: "depositMoneyToFund", fault: "html-page", status: 502, retryAfter: 3, times: 1 });
    const before = transactionCount();
    const page = await rawDeposit();
    expect(page.ok && page.status).toBe(502);
    if (!page.ok) return;
    expect(page.text).toMatch(/^<!DOCTYPE html>[\s\S]*<title>502 Bad Gateway<\/title>/);
    expect(transactionCount()).toBe(before);
    await rules({ endpoint: "depositMoneyToFund", fault: "html-page", apply: true, times: 1 });
    const applied = await rawDeposit();
    expect(applied.ok && applied.status).toBe(503);
    expect(transactionCount()).toBe(before + 1);
  });

  it("floor-pages: a list's Pages counted by a floor division, its records as they are", async () => {
    await rules({ endpoint: "getFunds", fault: "floor-pages" });
    const total = (await call(sandbox, "getFunds", { ResultsPerPage: 1000 })).body.Records.TotalRecords;
    const reply = await call(sandbox, "getFunds", { ResultsPerPage: 2 });
    expect(reply.status).toBe(200);
    expect(reply.body.Records).toMatchObject({ TotalRecords: total, Pages: Math.floor(total / 2) });
    expect(reply.body.Funds).toHaveLength(2);
    expect((await call(sandbox, "getFund", { Id: fundId })).body.Id).toBe(fundId);
  });

  it("empty-200: the write is applied, then HTTP 200 with an empty body", async () => {
    await rules({ endpoint: "depositMoneyToFund", fault: "empty-200", times: 1 });
    const before = transactionCount();
    const reply = await rawDeposit();
    expect(reply.ok && reply.status).toBe(200);
    expect(reply.ok && reply.text).toBe("");
    expect(transactionCount()).toBe(before + 1);
  });

  it("wrong-movement: the write is applied as asked, the answer shows one unit more in its newest movement and totals", async () => {
    await rules({ endpoint: "depositMoneyToFund", fault: "wrong-movement", times: 1 });
    const ledger = () => sandbox.sandbox.service.ledger.fund(fundId);
    const before = transactionCount();
    const deposits = ledger().depositsCents;
    const reply = await deposit();
    expect(reply.status).toBe(200);
    expect(transactionCount()).toBe(before + 1);
    expect(ledger().depositsCents).toBe(deposits + 100_000);
    expect(reply.body.Transactions).toHaveLength(before + 1);
    expect(reply.body.Transactions[before].TransactionAmount).toBe(1001);
    expect(Math.round(reply.body.Deposits * 100)).toBe(deposits + 100_100);
    expect(Math.round(reply.body.Balance * 100)).toBe(
      Math.round((reply.body.Deposits - reply.body.Charges) * 100),
    );
  });

  it("error-in-200 and error-in-200-v2 with apply: true apply the write, then answer the error", async () => {
    await rules(
      { endpoint: "depositMoneyToFund", fault: "error-in-200", apply: true, times: 1 },
      { endpoint: "depositMoneyToFund", fault: "error-in-200-v2", apply: true, times: 1 },
    );
    const before = transactionCount();
    const first = await deposit();
    expect(first.status).toBe(200);
    expect(first.body.Error.Code).toBe("InjectedFault");
    expect(transactionCount()).toBe(before + 1);
    const second = await deposit();
    expect(second.body).toMatchObject({ statusCode: 400 });
    expect(transactionCount()).toBe(before + 2);
  });

  it("malformed-json: HTTP 200 whose body is not JSON; the write is applied", async () => {
    await rules({ endpoint: "depositMoneyToFund", fault: "malformed-json", times: 1 });
    const before = transactionCount();
    const reply = await rawDeposit();
    expect(reply.ok && reply.status).toBe(200);
    if (!reply.ok) return;
    expect(() => JSON.parse(reply.text)).toThrow();
    expect(transactionCount()).toBe(before + 1);
  });

  it("drop-before-apply: the connection closes with no answer and nothing is applied", async () => {
    await rules({ endpoint: "depositMoneyToFund", fault: "drop-before-apply", times: 1 });
    const before = transactionCount();
    const reply = await rawDeposit();
    expect(reply.ok).toBe(false);
    expect(transactionCount()).toBe(before);
  });

  it("drop-after-apply: the write is applied once, then the connection closes with no answer", async () => {
    await rules({ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 });
    const before = transactionCount();
    const deposits = sandbox.sandbox.service.ledger.fund(fundId).depositsCents;
    const reply = await rawDeposit();
    expect(reply.ok).toBe(false);
    expect(transactionCount()).toBe(before + 1);
    expect(sandbox.sandbox.service.ledger.fund(fundId).depositsCents).toBe(deposits + 100_000);
  });

  it("slow: answers normally after delayMs", async () => {
    await rules({ endpoint: "getFund", fault: "slow", delayMs: 120, times: 1 });
    const started = performance.now();
    const reply = await call(sandbox, "getFund", { Id: fundId });
    expect(reply.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it("hold: keeps a write, unapplied, until released; then applies and answers it", async () => {
    await rules({ endpoint: "depositMoneyToFund", fault: "hold", times: 1 });
    const before = transactionCount();
    const held = deposit();
    for (let i = 0; i < 200 && (await control(sandbox, "GET", "/faults")).body.held === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await control(sandbox, "GET", "/faults")).body.held).toBe(1);
    expect(transactionCount()).toBe(before);
    expect((await control(sandbox, "POST", "/faults/release")).body).toEqual({ released: 1 });
    expect((await held).status).toBe(200);
    expect(transactionCount()).toBe(before + 1);
    expect((await control(sandbox, "POST", "/faults/release")).body).toEqual({ released: 0 });
  });

  it("hold: a release naming an endpoint lets only that endpoint's calls go on", async () => {
    await rules(
      { endpoint: "depositMoneyToFund", fault: "hold", times: 1 },
      { endpoint: "getFund", fault: "hold", times: 1 },
    );
    const before = transactionCount();
    const read = call(sandbox, "getFund", { Id: fundId });
    const write = deposit();
    for (let i = 0; i < 200 && (await control(sandbox, "GET", "/faults")).body.held < 2; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect([...(await control(sandbox, "GET", "/faults")).body.heldEndpoints].sort()).toEqual([
      "depositMoneyToFund",
      "getFund",
    ]);
    expect((await control(sandbox, "POST", "/faults/release", { endpoint: "getFund" })).body).toEqual({
      released: 1,
    });
    expect((await read).status).toBe(200);
    expect((await control(sandbox, "GET", "/faults")).body.heldEndpoints).toEqual(["depositMoneyToFund"]);
    expect(transactionCount()).toBe(before);
    const refused = await control(sandbox, "POST", "/faults/release", { endpoint: "noSuchEndpoint" });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("endpoint");
    expect((await control(sandbox, "POST", "/faults/release", {})).body).toEqual({ released: 1 });
    expect((await write).status).toBe(200);
    expect(transactionCount()).toBe(before + 1);
  });

  it("hold: goes on by itself after delayMs, and clearing the faults releases a held call", async () => {
    await rules({ endpoint: "getFund", fault: "hold", delayMs: 100, times: 1 });
    const started = performance.now();
    expect((await call(sandbox, "getFund", { Id: fundId })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    await rules({ endpoint: "getFund", fault: "hold", times: 1 });
    const held = call(sandbox, "getFund", { Id: fundId });
    for (let i = 0; i < 200 && (await control(sandbox, "GET", "/faults")).body.held === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await control(sandbox, "DELETE", "/faults");
    expect((await held).status).toBe(200);
  });

  it("with latency, a read is answered as the ledger stood when it arrived; a write is applied after the wait", async () => {
    await control(sandbox, "POST", "/faults", { latencyMs: 1_000 });
    const depositsCents = () => sandbox.sandbox.service.ledger.fund(fundId).depositsCents;
    const before = depositsCents();
    const read = call(sandbox, "getFund", { Id: fundId });
    // A deposit made while the read waits out its latency: the read was already answered.
    await new Promise((resolve) => setTimeout(resolve, 300));
    sandbox.sandbox.service.ledger.depositToFund({ id: fundId, idAdmin: sandbox.adminId, amountCents: 700 });
    expect(Math.round((await read).body.Deposits * 100)).toBe(before);
    // A write is not applied before its latency has passed.
    const write = deposit();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(depositsCents()).toBe(before + 700);
    await write;
    expect(depositsCents()).toBe(before + 700 + 100_000);
  });

  it("with latency, a read that says when it was sent waits only what is left of the latency", async () => {
    await control(sandbox, "POST", "/faults", { latencyMs: 1_500 });
    const read = async (sentAgoMs?: number) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${sandbox.token}` };
      if (sentAgoMs !== undefined)
        headers[SENT_AT_HEADER] = (performance.timeOrigin + performance.now() - sentAgoMs).toFixed(3);
      const started = performance.now();
      const res = await fetch(`${sandbox.url}/getFunds?ResultsPerPage=1`, { headers });
      expect(res.status).toBe(200);
      await res.text();
      return performance.now() - started;
    };
    // Sent 900 ms ago: 600 ms are left.
    const late = await read(900);
    expect(late).toBeGreaterThanOrEqual(550);
    expect(late).toBeLessThan(1_400);
    // A time from the future, or older than a second (another clock), counts for nothing.
    expect(await read(-500)).toBeGreaterThanOrEqual(1_450);
    expect(await read(5_000)).toBeGreaterThanOrEqual(1_450);
  });

  it("latencyMs delays every /v1 call and DELETE resets it to zero", async () => {
    await control(sandbox, "POST", "/faults", { latencyMs: 80 });
    let started = performance.now();
    await call(sandbox, "getFunds", { ResultsPerPage: 1 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(70);
    // Cleared from a latency no call could hide under a slow machine's own time: 5 s.
    await control(sandbox, "POST", "/faults", { latencyMs: 5_000 });
    await control(sandbox, "DELETE", "/faults");
    expect((await control(sandbox, "GET", "/faults")).body).toEqual({ latencyMs: 0, rules: [], held: 0 });
    started = performance.now();
    await call(sandbox, "getFunds", { ResultsPerPage: 1 });
    expect(performance.now() - started).toBeLessThan(2_500);
  });

  it("refuses a bad fault configuration naming the member, and keeps the previous one", async () => {
    await rules({ endpoint: "getFunds", fault: "status", status: 503 });
    for (const [body, field] of [
      [{ rules: [{ endpoint: "getFunds", fault: "explode" }] }, "rules[0].fault"],
      [{ rules: [{ endpoint: "getEverything", fault: "status" }] }, "rules[0].endpoint"],
      [{ rules: [{ fault: "status", status: 200 }] }, "rules[0].status"],
      [{ rules: [{ fault: "status", times: 0 }] }, "rules[0].times"],
      [{ latencyMs: -1 }, "latencyMs"],
      [{ rules: "all" }, "rules"],
      [{ rules: [{ fault: "status", staus: 500 }] }, "rules[0].staus"],
      [{ latency: 5, rules: [] }, "latency"],
    ] as const) {
      const reply = await control(sandbox, "POST", "/faults", body);
      expect(reply.status, field).toBe(400);
      expect(reply.body.Error.Field).toBe(field);
    }
    expect((await call(sandbox, "getFunds")).status).toBe(503);
  });

  it("takes null members as absent", async () => {
    const reply = await control(sandbox, "POST", "/faults", {
      latencyMs: 0,
      rules: [{ endpoint: "getFunds", fault: "status", status: 503, retryAfter: null, times: null }],
    });
    expect(reply.status).toBe(200);
    const refused = await call(sandbox, "getFunds");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBeNull();
  });

  it("never touches the /_sandbox routes", async () => {
    await rules({ endpoint: "*", fault: "drop-before-apply" });
    expect((await control(sandbox, "GET", "/users")).status).toBe(200);
  });
});
