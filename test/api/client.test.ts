import { describe, expect, it } from "vitest";
import {
  type CallEvent,
  createClient,
  ENDPOINT_NAMES,
  ENDPOINTS,
  HttpError,
  InvalidRequestError,
  ServiceError,
  TransportError,
  UnexpectedResponseError,
  type WriteEndpointName,
} from "../../src/api";
import { SPEC_ENDPOINTS } from "../support/endpoint-names";
import { thrown } from "../support/thrown";
import { fakeClock, fixture, fixtureText, ok, type Reply, scriptedTransport } from "./fakes";

const TOKEN = "tok-9f8e7d6c5b4a";
const BASE = "https://sandbox.test/v1";

function setup(replies: Reply[], extra: { random?: () => number; retry?: object } = {}) {
  const t = scriptedTransport(replies);
  const c = fakeClock();
  const events: CallEvent[] = [];
  const client = createClient({
    transport: t.transport,
    clock: c.clock,
    token: TOKEN,
    baseUrl: BASE,
    random: extra.random ?? (() => 0.5),
    retry: extra.retry,
    onCall: (e) => events.push(e),
  });
  return { client, events, ...t, ...c };
}

const fundBody = () => fixtureText("getFund.json");

/** A valid request of every write endpoint; the list is checked against ENDPOINTS below. */
const writeInputs: Record<WriteEndpointName, Record<string, unknown>> = {
  createFund: { IdEmployee: 1, IdAdmin: 7, FundName: "x", FundCurrency: "CLP", FundAmount: 1 },
  updateFund: { Id: 101, IdAdmin: 7, FundName: "y" },
  depositMoneyToFund: { Id: 101, IdAdmin: 7, DepositAmount: "100.10" },
  withdrawMoneyFromFund: { Id: 101, IdAdmin: 7, WithdrawAmount: 5 },
  setFundStatus: { Id: 101, IdAdmin: 7, FundStatus: 2 },
  setExpenseReportIntegration: { Id: 7001, IntegrationStatus: 1 },
  setExpenseReportCustomStatus: { Id: 7001, IdAdmin: 7, CustomStatus: "Observado" },
};
const writeEndpoints = ENDPOINT_NAMES.filter((n) => ENDPOINTS[n].kind === "write") as WriteEndpointName[];
const deposit = { Id: 101, IdAdmin: 7, DepositAmount: "100.10" };

describe("typed methods", () => {
  it("getFunds sends the request and returns the normalised list", () => {
    const s = setup([ok(fixture("getFunds.json"))]);
    const list = s.client.getFunds({ ResultsPerPage: 1 });
    expect(list.funds.map((f) => f.id)).toEqual([101, 102]);
    expect(s.sent[0]!.url).toBe(`${BASE}/getFunds?ResultsPerPage=1`);
    expect(s.sent[0]!.headers.Authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("uses the default base URL when none is set", () => {
    const t = scriptedTransport([ok(fixture("getFund.json"))]);
    createClient({ transport: t.transport, clock: fakeClock().clock, token: TOKEN }).getFund({ Id: 101 });
    expect(t.sent[0]!.url).toBe("https://api.rindegastos.com/v1/getFund?Id=101");
  });

  it("every endpoint has a method", () => {
    const s = setup([]);
    for (const name of SPEC_ENDPOINTS) {
      expect(typeof (s.client as unknown as Record<string, unknown>)[name]).toBe("function");
    }
  });
});

describe("typed errors", () => {
  it("an invalid request is never sent and carries the issues", () => {
    const s = setup([]);
    const err = thrown(() => s.client.depositMoneyToFund({ Id: 101, IdAdmin: 7, DepositAmount: "1.234,50" }));
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect((err as InvalidRequestError).issues[0]).toMatchObject({
      field: "DepositAmount",
      rule: "amountComma",
    });
    expect((err as InvalidRequestError).outcome).toBe("refused");
    expect(s.sent).toHaveLength(0);
    expect(s.events).toHaveLength(0);
  });

  it("a missing token refuses the call before sending", () => {
    const t = scriptedTransport([]);
    const client = createClient({ transport: t.transport, clock: fakeClock().clock, token: "" });
    expect(() => client.getFunds({})).toThrow(InvalidRequestError);
    expect(t.sent).toHaveLength(0);
  });

  it("HTTP 401 → HttpError with the service's message, refused, not retried", () => {
    const s = setup([ok({ message: "Invalid token" }, 401)]);
    const err = thrown(() => s.client.getFunds({})) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect([err.status, err.serviceMessage, err.outcome]).toEqual([401, "Invalid token", "refused"]);
    expect(s.sent).toHaveLength(1);
  });

  it("an error inside a 200 → ServiceError, for reads and writes", () => {
    const s = setup([ok(fixture("error-in-200.v1.json")), ok(fixture("error-in-200.v2.json"))]);
    expect(thrown(() => s.client.getFund({ Id: 1 }))).toBeInstanceOf(ServiceError);
    const err = thrown(() => s.client.depositMoneyToFund(deposit)) as ServiceError;
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.outcome).toBe("refused");
    expect(s.sent).toHaveLength(2);
  });

  it("a malformed answer to a write → UnexpectedResponseError with an unknown outcome", () => {
    const s = setup([ok({ Id: 101 })]);
    const err = thrown(() => s.client.depositMoneyToFund(deposit)) as UnexpectedResponseError;
    expect(err).toBeInstanceOf(UnexpectedResponseError);
    expect(err.outcome).toBe("unknown");
    expect(err.field).toBe("Deposits");
  });

  it("anything the transport throws becomes a TransportError with an unknown outcome", () => {
    const s = setup([
      () => {
        throw new Error(`Timeout: ${BASE}/depositMoneyToFund`);
      },
    ]);
    const err = thrown(() => s.client.depositMoneyToFund(deposit)) as TransportError;
    expect(err).toBeInstanceOf(TransportError);
    expect(err.outcome).toBe("unknown");
    expect(err.message).toContain("Timeout");
    expect(err.endpoint).toBe("depositMoneyToFund");
  });

  it("no error message ever carries the token", () => {
    const s = setup([
      ok(`token ${TOKEN} rejected`, 403),
      ok({ Error: `bad ${TOKEN}` }),
      () => {
        throw new Error(`DNS error: https://x/?t=${TOKEN}`);
      },
    ]);
    for (let i = 0; i < 3; i++) {
      const err = thrown(() =>
        s.client.createFund({ IdEmployee: 1, IdAdmin: 7, FundName: "x", FundCurrency: "CLP", FundAmount: 1 }),
      );
      expect(err.message).not.toContain(TOKEN);
      expect(err.message).toContain("[redacted]");
    }
    expect(JSON.stringify(s.events)).not.toContain(TOKEN);
  });
});

describe("retries of reads", () => {
  it("retries 408, 429, 5xx and transport errors, then succeeds", () => {
    const s = setup(
      [ok("", 503), ok("", 408), { transportError: "Address unavailable: x" }, ok("", 429), ok(fundBody())],
      {
        retry: { maxAttempts: 5 },
      },
    );
    expect(s.client.getFund({ Id: 101 }).id).toBe(101);
    expect(s.sent).toHaveLength(5);
    expect(s.sleeps).toHaveLength(4);
  });

  it("backs off exponentially with jitter within bounds: [ceiling/2, ceiling], ceiling capped", () => {
    const low = setup([ok("", 500), ok("", 500), ok("", 500), ok("", 500), ok("", 500)], {
      random: () => 0,
      retry: { maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 500 },
    });
    low.replies.push(ok(fundBody()));
    low.client.getFund({ Id: 101 });
    expect(low.sleeps).toEqual([50, 100, 200, 250, 250]);
    const high = setup([ok("", 500), ok("", 500), ok("", 500), ok(fundBody())], {
      random: () => 0.999999,
      retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 500 },
    });
    high.client.getFund({ Id: 101 });
    expect(high.sleeps).toEqual([99, 199, 399]);
  });

  it("stops after maxAttempts and throws the last error", () => {
    const s = setup([ok("down", 502), ok("down", 502), ok("still down", 502)], { retry: { maxAttempts: 3 } });
    const err = thrown(() => s.client.getFunds({})) as HttpError;
    expect([err.status, err.serviceMessage]).toEqual([502, "still down"]);
    expect(s.sent).toHaveLength(3);
    expect(s.sleeps).toHaveLength(2);
  });

  it("honours Retry-After (seconds) when longer than the backoff", () => {
    const s = setup([ok("", 429, { "Retry-After": "7" }), ok(fundBody())]);
    s.client.getFund({ Id: 101 });
    expect(s.sleeps).toEqual([7000]);
  });

  it("keeps all the waits of one call under maxTotalDelayMs", () => {
    const s = setup(
      [
        ok("", 503, { "Retry-After": "20" }),
        ok("", 503, { "Retry-After": "20" }),
        ok("", 503, { "Retry-After": "25" }),
      ],
      {
        retry: { maxAttempts: 5, maxTotalDelayMs: 45_000 },
      },
    );
    const err = thrown(() => s.client.getFunds({})) as HttpError;
    expect(err.status).toBe(503);
    expect(s.sleeps).toEqual([20_000, 20_000]);
    expect(s.sent).toHaveLength(3);
  });

  it("gives up at once when Retry-After exceeds the bound", () => {
    const s = setup([ok("", 503, { "retry-after": "31" })]);
    expect(thrown(() => s.client.getFunds({}))).toBeInstanceOf(HttpError);
    expect(s.sleeps).toEqual([]);
  });

  it("does not retry 4xx other than 408/429, errors inside 200s or unexpected shapes", () => {
    const s = setup([ok("", 404), ok({ Error: "x" }), ok({ nope: 1 })]);
    expect(() => s.client.getFund({ Id: 1 })).toThrow(HttpError);
    expect(() => s.client.getFund({ Id: 1 })).toThrow(ServiceError);
    expect(() => s.client.getFund({ Id: 1 })).toThrow(UnexpectedResponseError);
    expect(s.sent).toHaveLength(3);
    expect(s.sleeps).toEqual([]);
  });

  it("honours Retry-After as an HTTP date, on a 429 and on a 200 whose body says 429", () => {
    const at = (s: ReturnType<typeof setup>, seconds: number) =>
      new Date(s.clock.now() + seconds * 1000).toUTCString();
    const s = setup([]);
    s.replies.push(ok("", 429, { "Retry-After": at(s, 9) }), ok(fundBody()));
    s.client.getFund({ Id: 101 });
    expect(s.sleeps).toEqual([9000]);
    const v2 = setup([]);
    v2.replies.push(
      ok({ statusCode: 429, message: "slow down" }, 200, { "Retry-After": at(v2, 12) }),
      ok(fundBody()),
    );
    expect(v2.client.getFund({ Id: 101 }).id).toBe(101);
    expect(v2.sleeps).toEqual([12_000]);
  });

  it("retries an error inside a 200 that reports 503", () => {
    const s = setup([ok({ statusCode: 503, message: "busy" }), ok(fundBody())]);
    expect(s.client.getFund({ Id: 101 }).id).toBe(101);
    expect(s.sent).toHaveLength(2);
  });
});

describe("writes are never sent twice on an unknown outcome", () => {
  it.each([
    ["a 500", ok("oops", 500)],
    ["a 504", ok("", 504)],
    ["a 408", ok("", 408)],
    ["a transport failure", { transportError: "Timeout: x" } as Reply],
    ["a malformed body", ok("<html>")],
  ])("%s → one request, outcome unknown", (_label, reply) => {
    const s = setup([reply, ok(fundBody())]);
    const err = thrown(() => s.client.depositMoneyToFund(deposit)) as HttpError;
    expect(err.outcome).toBe("unknown");
    expect(s.sent).toHaveLength(1);
    expect(s.sleeps).toEqual([]);
  });

  it("a 400 is refused and not retried", () => {
    const s = setup([ok({ message: "Fund closed" }, 400)]);
    const err = thrown(() =>
      s.client.withdrawMoneyFromFund({ Id: 1, IdAdmin: 7, WithdrawAmount: 5 }),
    ) as HttpError;
    expect([err.outcome, err.serviceMessage]).toEqual(["refused", "Fund closed"]);
    expect(s.sent).toHaveLength(1);
  });

  // A 429 may come from a limiter in front of a service that already did the work.
  it.each(writeEndpoints)("%s answered 429 → one request only, outcome unknown", (name) => {
    const s = setup([ok("", 429, { "Retry-After": "2" }), ok(fixture(`${name}.json`)), ok(fundBody())]);
    const err = thrown(() => s.client.call(name, writeInputs[name])) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect([err.status, err.outcome]).toEqual([429, "unknown"]);
    expect(s.sent).toHaveLength(1);
    expect(s.sleeps).toEqual([]);
    expect(s.events.filter((e) => e.phase === "after").map((e) => e.outcome)).toEqual(["unknown"]);
  });

  it("a 503 with Retry-After → one request, outcome unknown", () => {
    const s = setup([ok("busy", 503, { "Retry-After": "1" }), ok(fixture("depositMoneyToFund.json"))]);
    const err = thrown(() => s.client.depositMoneyToFund(deposit)) as HttpError;
    expect([err.status, err.outcome, err.retryAfterMs]).toEqual([503, "unknown", 1000]);
    expect(s.sent).toHaveLength(1);
    expect(s.sleeps).toEqual([]);
  });

  it.each([301, 302, 303, 307, 308])("a %d → one request, outcome unknown", (status) => {
    const s = setup([
      ok("", status, { Location: `${BASE}/elsewhere` }),
      ok(fixture("depositMoneyToFund.json")),
    ]);
    const err = thrown(() => s.client.depositMoneyToFund(deposit)) as HttpError;
    expect([err.status, err.outcome]).toEqual([status, "unknown"]);
    expect(s.sent).toHaveLength(1);
  });

  it.each([
    ["an unexpected 2xx body", ok({ Id: 101 })],
    ["an empty 204", ok("", 204)],
    ["an error inside a 200 that says 429", ok({ statusCode: 429, message: "slow down" })],
    ["an error inside a 200 that says 503", ok({ statusCode: 503, message: "busy" })],
  ])("%s → one request, outcome unknown", (_label, reply) => {
    const s = setup([reply, ok(fixture("depositMoneyToFund.json"))]);
    const err = thrown(() => s.client.depositMoneyToFund(deposit)) as HttpError;
    expect(err.outcome).toBe("unknown");
    expect(s.sent).toHaveLength(1);
  });

  it.each([
    ["a 403 with the service's error", ok({ Error: { Message: "IdAdmin may not" } }, 403)],
    ["a 409", ok({ Error: { Message: "WithdrawAmount above the balance" } }, 409)],
    ["an error inside a 200 (v1)", ok(fixture("error-in-200.v1.json"))],
    ["an error inside a 200 that says 400 (v2)", ok(fixture("error-in-200.v2.json"))],
  ])("%s → refused, one request", (_label, reply) => {
    const s = setup([reply, ok(fixture("depositMoneyToFund.json"))]);
    expect((thrown(() => s.client.depositMoneyToFund(deposit)) as HttpError).outcome).toBe("refused");
    expect(s.sent).toHaveLength(1);
  });

  it("the same 429 and 503 to a read are still waited out and retried", () => {
    const s = setup([
      ok("", 429, { "Retry-After": "2" }),
      ok("", 503, { "Retry-After": "3" }),
      ok(fundBody()),
    ]);
    expect(s.client.getFund({ Id: 101 }).id).toBe(101);
    expect(s.sent).toHaveLength(3);
    expect(s.sleeps).toEqual([2000, 3000]);
  });
});

describe("setExpenseReportCustomStatus: PUT, then POST once on 404/405", () => {
  const input = { Id: 7001, IdAdmin: 7, CustomStatus: "Observado", CustomMessage: "Falta boleta" };

  it("PUT succeeds: one request", () => {
    const s = setup([ok(fixture("setExpenseReportCustomStatus.json"))]);
    expect(s.client.setExpenseReportCustomStatus(input).customStatus).toBe("Observado");
    expect(s.sent.map((r) => r.method)).toEqual(["PUT"]);
  });

  it.each([404, 405])("PUT answered %d → the same request as POST", (status) => {
    const s = setup([ok("", status), ok(fixture("setExpenseReportCustomStatus.json"))]);
    expect(s.client.setExpenseReportCustomStatus(input).id).toBe(7001);
    expect(s.sent.map((r) => r.method)).toEqual(["PUT", "POST"]);
    expect(s.sent[1]!.body).toBe(s.sent[0]!.body);
    expect(s.sent[1]!.url).toBe(s.sent[0]!.url);
  });

  it("POST failing too ends the call: no third request", () => {
    const s = setup([ok("", 405), ok("", 404)]);
    const err = thrown(() => s.client.setExpenseReportCustomStatus(input)) as HttpError;
    expect(err.status).toBe(404);
    expect(s.sent.map((r) => r.method)).toEqual(["PUT", "POST"]);
  });

  it("setExpenseReportIntegration falls back the same way: PUT answered 405 → POST once, same body", () => {
    const answer = {
      Id: 7001,
      Title: "T",
      ReportNumber: "1000",
      IntegrationStatus: 1,
      IntegrationCode: "202605001",
      IntegrationDate: "2026-05-31 18:00:00",
    };
    const s = setup([ok("", 405), ok(JSON.stringify(answer))]);
    const mark = {
      Id: 7001,
      IntegrationStatus: 1,
      IntegrationCode: "202605001",
      IntegrationDate: "2026-05-31 18:00:00",
    } as const;
    expect(s.client.setExpenseReportIntegration(mark).integrationCode).toBe("202605001");
    expect(s.sent.map((r) => r.method)).toEqual(["PUT", "POST"]);
    expect(s.sent[1]!.body).toBe(s.sent[0]!.body);
  });

  it("other write endpoints do not fall back", () => {
    const s = setup([ok("", 405)]);
    expect(() => s.client.setFundStatus({ Id: 1, IdAdmin: 7, FundStatus: 2 })).toThrow(HttpError);
    expect(s.sent).toHaveLength(1);
  });
});

describe("writeMany: writes of one endpoint in one batch, each sent once", () => {
  const mark = (Id: number) => ({ Id, IntegrationStatus: 1, IntegrationCode: "202605001" });
  const answer = (Id: number) =>
    JSON.stringify({
      Id,
      Title: "T",
      ReportNumber: String(Id),
      IntegrationStatus: 1,
      IntegrationCode: "202605001",
      IntegrationDate: "2026-05-31 18:00:00",
    });

  it("sends every write in one sendAll after every before event; 404/405 ones go again together by POST", () => {
    const s = setup([ok(answer(1)), ok("", 405), ok("", 400), ok("", 404), ok(answer(2)), ok("", 404)]);
    const results = s.client.writeMany("setExpenseReportIntegration", [mark(1), mark(2), mark(3), mark(4)]);
    expect(s.sent.map((r) => `${r.method} ${JSON.parse(r.body ?? "{}").Id}`)).toEqual([
      "PUT 1",
      "PUT 2",
      "PUT 3",
      "PUT 4",
      "POST 2",
      "POST 4",
    ]);
    expect(results.map((r) => (r.ok ? "ok" : r.error.outcome))).toEqual(["ok", "ok", "refused", "refused"]);
    const phases = s.events.map((e) => `${e.phase} ${e.method} ${e.recordId}`);
    expect(phases.slice(0, 4)).toEqual(["before PUT 1", "before PUT 2", "before PUT 3", "before PUT 4"]);
  });

  it("a batch with no answer leaves each of its writes unknown, and none is sent again", () => {
    const s = setup([ok(answer(1)), { transportError: "Timeout: x" }]);
    const results = s.client.writeMany("setExpenseReportIntegration", [mark(1), mark(2)]);
    expect(results.map((r) => (r.ok ? "ok" : r.error.outcome))).toEqual(["unknown", "unknown"]);
    expect(s.sent).toHaveLength(2);
  });

  it("an invalid write is refused at once and not sent", () => {
    const s = setup([ok(answer(1))]);
    const results = s.client.writeMany("setExpenseReportIntegration", [
      mark(1),
      { Id: 2, IntegrationStatus: 3 },
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, false]);
    expect(s.sent).toHaveLength(1);
  });
});

describe("call events for the audit", () => {
  it("a write emits before (prior to sending) and after, with parameters and no token", () => {
    const order: string[] = [];
    const t = scriptedTransport([
      (req) => {
        order.push(`send ${req.method}`);
        return ok(fixture("depositMoneyToFund.json"));
      },
    ]);
    const c = fakeClock();
    const events: CallEvent[] = [];
    const client = createClient({
      transport: t.transport,
      clock: {
        now: c.clock.now,
        sleep: c.clock.sleep,
      },
      token: TOKEN,
      baseUrl: BASE,
      onCall: (e) => {
        order.push(e.phase);
        events.push(e);
      },
    });
    client.depositMoneyToFund(deposit);
    expect(order).toEqual(["before", "send POST", "after"]);
    expect(events[1]).toMatchObject({
      phase: "after",
      endpoint: "depositMoneyToFund",
      kind: "write",
      method: "POST",
      url: `${BASE}/depositMoneyToFund`,
      params: { Id: 101, IdAdmin: 7, DepositAmount: 100.1 },
      status: 200,
      outcome: "ok",
      recordId: 101,
      attempt: 1,
    });
    expect(JSON.stringify(events)).not.toContain(TOKEN);
  });

  it("a read emits after only; failures carry the outcome and message", () => {
    const s = setup([ok("", 500), ok(fundBody())]);
    s.client.getFund({ Id: 101 });
    expect(s.events.map((e) => [e.phase, e.status, e.outcome, e.attempt])).toEqual([
      ["after", 500, "error", 1],
      ["after", 200, "ok", 2],
    ]);
    expect(s.events[0]!.message).toContain("HTTP 500");
  });

  it("createFund's record id is the new fund's id; durations come from the clock", () => {
    const t = scriptedTransport([
      () => {
        c.advance(250);
        return ok(fixture("createFund.json"));
      },
    ]);
    const c = fakeClock();
    const events: CallEvent[] = [];
    const client = createClient({
      transport: t.transport,
      clock: c.clock,
      token: TOKEN,
      onCall: (e) => events.push(e),
    });
    client.createFund({
      IdEmployee: 42,
      IdAdmin: 7,
      FundName: "Fondo nuevo",
      FundCurrency: "USD",
      FundAmount: "250.75",
    });
    expect(events[1]).toMatchObject({ recordId: 300, durationMs: 250, outcome: "ok" });
  });

  it("a write with an unknown outcome says so in its event", () => {
    const s = setup([{ transportError: "Timeout: x" }]);
    expect(() => s.client.depositMoneyToFund(deposit)).toThrow(TransportError);
    expect(s.events.map((e) => [e.phase, e.outcome, e.status])).toEqual([
      ["before", undefined, undefined],
      ["after", "unknown", 0],
    ]);
  });

  it("an observer that throws does not change the call's result", () => {
    const t = scriptedTransport([ok(fundBody())]);
    const client = createClient({
      transport: t.transport,
      clock: fakeClock().clock,
      token: TOKEN,
      onCall: () => {
        throw new Error("audit sheet full");
      },
    });
    expect(client.getFund({ Id: 101 }).id).toBe(101);
  });

  it("a write whose before report cannot be recorded is not sent: the observer's error is thrown", () => {
    const t = scriptedTransport([ok(fundBody())]);
    const client = createClient({
      transport: t.transport,
      clock: fakeClock().clock,
      token: TOKEN,
      onCall: (event) => {
        if (event.phase === "before") throw new Error("audit sheet full");
      },
    });
    expect(() => client.depositMoneyToFund(deposit)).toThrow("audit sheet full");
    expect(t.sent).toHaveLength(0);
  });
});

describe("batch reads", () => {
  it("sends all at once and answers in order", () => {
    const s = setup([ok(fundBody()), ok({ ...(fixture("getFund.json") as object), Id: 102 })]);
    const results = s.client.readMany("getFund", [{ Id: 101 }, { Id: 102 }]);
    expect(results.map((r) => r.ok && r.value.id)).toEqual([101, 102]);
    expect(s.batches).toHaveLength(1);
    expect(s.batches[0]!.map((r) => r.url)).toEqual([`${BASE}/getFund?Id=101`, `${BASE}/getFund?Id=102`]);
  });

  it("retries only the failed items", () => {
    const s = setup([
      ok(fundBody()),
      ok("", 503),
      ok({ Error: "not found" }),
      ok({ ...(fixture("getFund.json") as object), Id: 102 }),
    ]);
    const results = s.client.readMany("getFund", [{ Id: 101 }, { Id: 102 }, { Id: 103 }]);
    expect(s.batches.map((b) => b.map((r) => r.url.split("=")[1]))).toEqual([["101", "102", "103"], ["102"]]);
    expect(results[0]).toMatchObject({ ok: true });
    expect(results[1]).toMatchObject({ ok: true, value: { id: 102 } });
    expect(results[2]!.ok).toBe(false);
    expect(!results[2]!.ok && results[2]!.error).toBeInstanceOf(ServiceError);
    expect(s.sleeps).toHaveLength(1);
  });

  it("backs off once for the whole batch on 429s, for the longest Retry-After, and retries them together", () => {
    const s = setup([
      ok(fundBody()),
      ok("", 429, { "Retry-After": "2" }),
      ok("", 429, { "Retry-After": "7" }),
      ok({ ...(fixture("getFund.json") as object), Id: 102 }),
      ok({ ...(fixture("getFund.json") as object), Id: 103 }),
    ]);
    const results = s.client.readMany("getFund", [{ Id: 101 }, { Id: 102 }, { Id: 103 }]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(s.batches.map((b) => b.map((r) => r.url.split("=")[1]))).toEqual([
      ["101", "102", "103"],
      ["102", "103"],
    ]);
    expect(s.sleeps).toEqual([7_000]);
  });

  it("reads several endpoints in one batch, each answer read by its own endpoint", () => {
    const s = setup([
      ok(fixtureText("getFunds.json")),
      ok(fundBody()),
      ok(fixtureText("getExpenseReports.json")),
    ]);
    const results = s.client.readAll([
      { name: "getFunds", input: { Page: 1, ResultsPerPage: 100 } },
      { name: "getFund", input: { Id: 101 } },
      {
        name: "getExpenseReports",
        input: { Page: 1, ResultsPerPage: 100, Since: "2024-01-01", Until: "2024-06-30" },
      },
    ]);
    expect(s.batches).toHaveLength(1);
    expect(s.batches[0]!.map((r) => r.url.split("?")[0])).toEqual([
      `${BASE}/getFunds`,
      `${BASE}/getFund`,
      `${BASE}/getExpenseReports`,
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    expect(results[0]!.ok && "funds" in (results[0]!.value as object)).toBe(true);
    expect(results[2]!.ok && "expenseReports" in (results[2]!.value as object)).toBe(true);
  });

  it("a transport failure of the whole batch retries every pending item", () => {
    let calls = 0;
    const t = scriptedTransport([]);
    const c = fakeClock();
    const client = createClient({
      transport: {
        send: t.transport.send,
        sendAll: (requests) => {
          calls++;
          if (calls === 1) throw new TransportError("DNS error: sandbox.test");
          return requests.map(() => ok(fundBody()));
        },
      },
      clock: c.clock,
      token: TOKEN,
    });
    const results = client.readMany("getFund", [{ Id: 1 }, { Id: 2 }]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(calls).toBe(2);
  });

  it("invalid items fail alone without being sent", () => {
    const s = setup([ok(fundBody())]);
    const results = s.client.readMany("getFund", [{ Id: "abc" }, { Id: 101 }]);
    expect(!results[0]!.ok && results[0]!.error).toBeInstanceOf(InvalidRequestError);
    expect(results[1]!.ok).toBe(true);
    expect(s.sent).toHaveLength(1);
  });

  it("gives up after maxAttempts with each item's last error", () => {
    const s = setup([ok("", 500), ok("", 500)], { retry: { maxAttempts: 2 } });
    const [r] = s.client.readMany("getFund", [{ Id: 1 }]);
    expect(r!.ok).toBe(false);
    expect(s.sent).toHaveLength(2);
  });

  it("refuses a write endpoint", () => {
    const s = setup([]);
    expect(() => s.client.readMany("depositMoneyToFund" as "getFund", [deposit])).toThrow(
      InvalidRequestError,
    );
  });
});
