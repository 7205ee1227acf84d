/**
 * Reads of several clients (one per company: its own token and base URL) sent together by
 * runRounds: one sendAll per pass, each client's answers read and retried by that client alone,
 * one sleep per pass, and a batch failure of a mixed batch split so that only the company that
 * really fails loses its reads.
 */
import { describe, expect, it } from "vitest";
import {
  type CallEvent,
  type Client,
  createClient,
  type HttpRequest,
  type HttpResponse,
  InvalidRequestError,
  runRounds,
  type Transport,
  TransportError,
} from "../../src/api";
import { fakeClock, fixture, ok } from "./fakes";

const ALPHA = { token: "tok-alpha-1111", baseUrl: "https://alpha.test/v1" };
const BETA = { token: "tok-beta-2222", baseUrl: "https://beta.test/v1" };

/** The list of funds to getFunds, else a fund with the Id the request asked for. */
function fundFor(request: HttpRequest): HttpResponse {
  if (new URL(request.url).pathname.endsWith("/getFunds")) return ok(fixture("getFunds.json"));
  const id = Number(new URL(request.url).searchParams.get("Id"));
  return ok({ ...(fixture("getFund.json") as object), Id: id });
}

type Answer = (request: HttpRequest, attempt: number) => HttpResponse;

/**
 * A transport standing for two services: each request is answered by `answer` (a fund by
 * default), told how many times that URL was sent before; a batch holding a request to a host
 * in `down` fails as a whole, as UrlFetchApp.fetchAll does.
 */
function twoServices(answer: Answer = (r) => fundFor(r), down: string[] = []) {
  const batches: HttpRequest[][] = [];
  const times = new Map<string, number>();
  const transport: Transport = {
    send: () => {
      throw new Error("a batch read sends with sendAll");
    },
    sendAll(requests) {
      batches.push([...requests]);
      const dead = requests.find((r) => down.some((host) => new URL(r.url).host === host));
      if (dead) throw new TransportError(`DNS error: ${new URL(dead.url).host}`);
      return requests.map((r) => {
        const n = (times.get(r.url) ?? 0) + 1;
        times.set(r.url, n);
        return answer(r, n);
      });
    },
  };
  return { transport, batches };
}

function setup(answer?: Answer, down?: string[], retry?: object) {
  const services = twoServices(answer, down);
  const c = fakeClock();
  const events: CallEvent[] = [];
  const client = (company: typeof ALPHA): Client =>
    createClient({
      transport: services.transport,
      clock: c.clock,
      ...company,
      random: () => 0.5,
      retry,
      onCall: (e) => events.push(e),
    });
  return { alpha: client(ALPHA), beta: client(BETA), events, ...services, ...c };
}

const funds = (...ids: number[]) => ids.map((Id) => ({ name: "getFund" as const, input: { Id } }));
/** Each request of a batch as "host Id" (or "host endpoint" without an Id). */
const sentTo = (batch: HttpRequest[]) =>
  batch.map((r) => {
    const url = new URL(r.url);
    return `${url.host} ${url.searchParams.get("Id") ?? url.pathname.split("/").pop()}`;
  });

describe("runRounds", () => {
  it("sends the reads of two clients in one sendAll, each answer read by its own client", () => {
    const s = setup();
    const a = s.alpha.startReads(funds(101, 102));
    const b = s.beta.startReads([
      ...funds(5001),
      { name: "getFunds", input: { Page: 1, ResultsPerPage: 100 } },
    ]);
    runRounds(s.transport, s.clock, [a, b]);
    expect(s.batches.map(sentTo)).toEqual([
      ["alpha.test 101", "alpha.test 102", "beta.test 5001", "beta.test getFunds"],
    ]);
    expect(a.results().map((r) => r.ok && (r.value as { id: number }).id)).toEqual([101, 102]);
    const [one, list] = b.results();
    expect(one?.ok && (one.value as { id: number }).id).toBe(5001);
    expect(list?.ok && (list.value as { funds: { id: number }[] }).funds.map((f) => f.id)).toEqual([
      101, 102,
    ]);
    expect(s.sleeps).toEqual([]);
  });

  it("each request carries its own client's Authorization header and URL", () => {
    const s = setup();
    const a = s.alpha.startReads(funds(101));
    const b = s.beta.startReads(funds(101));
    runRounds(s.transport, s.clock, [a, b]);
    const [batch] = s.batches;
    expect(batch?.map((r) => [r.url, r.headers.Authorization])).toEqual([
      [`${ALPHA.baseUrl}/getFund?Id=101`, `Bearer ${ALPHA.token}`],
      [`${BETA.baseUrl}/getFund?Id=101`, `Bearer ${BETA.token}`],
    ]);
  });

  it("retries one client's 429 and 5xx without sending the other's finished reads again", () => {
    const s = setup((r, n) => {
      if (r.url === `${ALPHA.baseUrl}/getFund?Id=102` && n === 1) return ok("", 503);
      if (r.url === `${ALPHA.baseUrl}/getFund?Id=103` && n < 3) return ok("", 429, { "Retry-After": "1" });
      return fundFor(r);
    });
    const a = s.alpha.startReads(funds(101, 102, 103));
    const b = s.beta.startReads(funds(5001, 5002));
    runRounds(s.transport, s.clock, [a, b]);
    expect(s.batches.map(sentTo)).toEqual([
      ["alpha.test 101", "alpha.test 102", "alpha.test 103", "beta.test 5001", "beta.test 5002"],
      ["alpha.test 102", "alpha.test 103"],
      ["alpha.test 103"],
    ]);
    expect([...a.results(), ...b.results()].every((r) => r.ok)).toBe(true);
    expect(s.sleeps).toEqual([1000, 1000]);
    // Each client counts its own attempts.
    const attempts = (url: string) => s.events.filter((e) => e.url === url).map((e) => e.attempt);
    expect(attempts(`${ALPHA.baseUrl}/getFund?Id=103`)).toEqual([1, 2, 3]);
    expect(attempts(`${BETA.baseUrl}/getFund?Id=5001`)).toEqual([1]);
  });

  it("sleeps once a pass, for the longest wait any client asked for", () => {
    const s = setup((r, n) => {
      if (n > 1) return fundFor(r);
      if (r.url.startsWith(ALPHA.baseUrl)) return ok("", 429, { "Retry-After": "2" });
      return ok("", 429, { "Retry-After": "7" });
    });
    const a = s.alpha.startReads(funds(101));
    const b = s.beta.startReads(funds(5001));
    runRounds(s.transport, s.clock, [a, b]);
    expect(s.sleeps).toEqual([7000]);
    expect(s.batches.map(sentTo)).toEqual([
      ["alpha.test 101", "beta.test 5001"],
      ["alpha.test 101", "beta.test 5001"],
    ]);
    expect([...a.results(), ...b.results()].every((r) => r.ok)).toBe(true);
  });

  it("a batch failure is sent again round by round: only the failing client's reads fail", () => {
    const s = setup(undefined, ["alpha.test"], { maxAttempts: 2 });
    const a = s.alpha.startReads(funds(101, 102));
    const b = s.beta.startReads(funds(5001));
    runRounds(s.transport, s.clock, [a, b]);
    expect(s.batches.map(sentTo)).toEqual([
      ["alpha.test 101", "alpha.test 102", "beta.test 5001"],
      ["alpha.test 101", "alpha.test 102"],
      ["beta.test 5001"],
      // Beta is done: alpha's retry goes alone, and fails alone.
      ["alpha.test 101", "alpha.test 102"],
    ]);
    const [b1] = b.results();
    expect(b1?.ok && (b1.value as { id: number }).id).toBe(5001);
    for (const r of a.results()) {
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toBeInstanceOf(TransportError);
      expect(!r.ok && r.error.message).toContain("alpha.test");
    }
    // Beta's read was answered once: its event says ok, on the first attempt.
    const beta = s.events.filter((e) => e.url.startsWith(BETA.baseUrl));
    expect(beta.map((e) => [e.attempt, e.outcome])).toEqual([[1, "ok"]]);
    expect(s.sleeps).toHaveLength(1);
  });

  it("a batch failure with a single round in it goes to that round, not sent again in the pass", () => {
    const s = setup(undefined, ["alpha.test"], { maxAttempts: 2 });
    const a = s.alpha.startReads(funds(101));
    runRounds(s.transport, s.clock, [a]);
    expect(s.batches.map(sentTo)).toEqual([["alpha.test 101"], ["alpha.test 101"]]);
    expect(a.results()[0]?.ok).toBe(false);
  });

  it("an answer count that does not match the batch is a failure split by round", () => {
    const services = twoServices();
    let first = true;
    const transport: Transport = {
      send: services.transport.send,
      sendAll(requests) {
        const answers = services.transport.sendAll(requests);
        if (first) {
          first = false;
          return answers.slice(1);
        }
        return answers;
      },
    };
    const c = fakeClock();
    const alpha = createClient({ transport, clock: c.clock, ...ALPHA });
    const beta = createClient({ transport, clock: c.clock, ...BETA });
    const a = alpha.startReads(funds(101));
    const b = beta.startReads(funds(5001));
    runRounds(transport, c.clock, [a, b]);
    expect(services.batches.map(sentTo)).toEqual([
      ["alpha.test 101", "beta.test 5001"],
      ["alpha.test 101"],
      ["beta.test 5001"],
    ]);
    expect([...a.results(), ...b.results()].every((r) => r.ok)).toBe(true);
    expect(c.sleeps).toEqual([]);
  });

  it("a round with nothing to send (every read invalid, or no token) is done without a request", () => {
    const s = setup();
    const a = s.alpha.startReads(funds(101));
    const noToken = createClient({
      transport: s.transport,
      clock: s.clock,
      baseUrl: BETA.baseUrl,
      token: "",
    });
    const b = noToken.startReads(funds(5001));
    expect(b.done()).toBe(true);
    runRounds(s.transport, s.clock, [a, b]);
    expect(s.batches.map(sentTo)).toEqual([["alpha.test 101"]]);
    expect(!b.results()[0]?.ok && b.results()[0]).toMatchObject({ error: expect.any(InvalidRequestError) });
  });

  it("sends nothing when every round is done", () => {
    const s = setup();
    runRounds(s.transport, s.clock, [s.alpha.startReads([]), s.beta.startReads([])]);
    expect(s.batches).toEqual([]);
  });

  it("a round's results are asked for only once it is done", () => {
    const s = setup();
    expect(() => s.alpha.startReads(funds(101)).results()).toThrow(/before the reads are done/);
  });
});
