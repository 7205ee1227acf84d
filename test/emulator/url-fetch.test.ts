import { resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureEmulator, inScript } from "./helpers";

// The server runs on its own thread: the emulated fetch blocks this one.
let server: Worker;
let base = "";
const em = fixtureEmulator({ fetchTimeoutMs: 500 });

beforeAll(async () => {
  server = new Worker(resolve(import.meta.dirname, "../fixtures/emulator/echo-server.mjs"));
  const { port } = await new Promise<{ port: number }>((done) => server.once("message", done));
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await em.close();
  await server.terminate();
});

const fetchSource = `var r = UrlFetchApp.fetch(args.url, args.options || {});
  return { code: r.getResponseCode(), text: r.getContentText(), headers: r.getHeaders(), all: r.getAllHeaders(),
    blob: r.getBlob().getDataAsString() };`;

describe("UrlFetchApp over real HTTP", () => {
  it("sends method, headers and payload, and reads the response", () => {
    const r = inScript(em, fetchSource, {
      url: `${base}/echo`,
      options: {
        method: "post",
        contentType: "application/json",
        payload: '{"Amount":10.5}',
        headers: { Authorization: "Bearer t" },
      },
    }) as { code: number; text: string; headers: Record<string, string>; blob: string };
    expect(r.code).toBe(200);
    const echoed = JSON.parse(r.text);
    expect(echoed).toMatchObject({ method: "POST", body: '{"Amount":10.5}' });
    expect(echoed.headers).toMatchObject({ authorization: "Bearer t", "content-type": "application/json" });
    expect(echoed.headers["user-agent"]).toContain("Google-Apps-Script");
    // When the call left, for the sandbox's latency (epoch milliseconds, this machine's clock).
    const sentAt = Number(echoed.headers["x-sandbox-sent-at"]);
    expect(Math.abs(Date.now() - sentAt)).toBeLessThan(5_000);
    expect(r.headers["Content-Type"]).toBe("application/json");
    expect(r.blob).toBe(r.text);
  });
  it("form-encodes an object payload", () => {
    const r = inScript(em, fetchSource, {
      url: `${base}/echo`,
      options: { method: "post", payload: { a: "1 2", b: "é" } },
    }) as { text: string };
    expect(JSON.parse(r.text)).toMatchObject({ body: "a=1%202&b=%C3%A9" });
  });
  it("throws for status >= 400 with Apps Script's message, unless muteHttpExceptions", () => {
    let message = "";
    try {
      inScript(em, fetchSource, { url: `${base}/status/500` });
    } catch (err) {
      message = (err as Error).message;
      expect((err as Error).name).toBe("Exception");
    }
    expect(message).toMatch(
      new RegExp(
        `^Request failed for ${base.replace(/\./g, "\\.")} returned code 500\\. Truncated server response: failure 500: x+\\.\\.\\. \\(use muteHttpExceptions option to examine full response\\)$`,
      ),
    );
    const muted = inScript(em, fetchSource, {
      url: `${base}/status/429`,
      options: { muteHttpExceptions: true },
    }) as {
      code: number;
      headers: Record<string, string>;
    };
    expect(muted.code).toBe(429);
    expect(muted.headers["Retry-After"]).toBe("7");
  });
  it("gives repeated headers as arrays in getAllHeaders", () => {
    const r = inScript(em, fetchSource, { url: `${base}/headers` }) as {
      all: Record<string, unknown>;
      headers: Record<string, unknown>;
    };
    expect(r.all["Set-Cookie"]).toEqual(["a=1", "b=2"]);
    expect(r.headers["Retry-After"]).toBe("3");
  });
  it("maps transport failures to Apps Script's messages, even with muteHttpExceptions", () => {
    expect(() =>
      inScript(em, fetchSource, { url: `${base}/drop`, options: { muteHttpExceptions: true } }),
    ).toThrow(`Address unavailable: ${base}/drop`);
    expect(() => inScript(em, fetchSource, { url: "http://127.0.0.1:9/closed" })).toThrow(
      "Address unavailable: http://127.0.0.1:9/closed",
    );
    expect(() => inScript(em, fetchSource, { url: `${base}/slow?ms=2000` })).toThrow(
      `Timeout: ${base}/slow?ms=2000`,
    );
    expect(() => inScript(em, fetchSource, { url: "http://no-such-host.invalid/x" })).toThrow(
      "DNS error: http://no-such-host.invalid/x",
    );
    expect(() => inScript(em, fetchSource, { url: "ftp://x" })).toThrow("Invalid argument: ftp://x");
  });
  it("fetchAll sends concurrently and answers in request order; one transport failure fails the batch", () => {
    // The server answers the two /together requests only once both are there: sent one after
    // the other, the first would time out (500 ms) waiting for the second.
    const codes = inScript(
      em,
      `return UrlFetchApp.fetchAll([args.base + "/together?name=fetchAll&count=2", args.base + "/slow?ms=50", args.base + "/together?name=fetchAll&count=2", { url: args.base + "/status/404", muteHttpExceptions: true }])
         .map(function (r) { return r.getResponseCode(); });`,
      { base },
    );
    expect(codes).toEqual([200, 200, 200, 404]);
    // A batch leaves at once, as Google's does: its requests carry one sent time, the batch's.
    const sent = (
      inScript(
        em,
        `return UrlFetchApp.fetchAll([args.base + "/echo", args.base + "/echo", args.base + "/echo"])
           .map(function (r) { return JSON.parse(r.getContentText()).headers["x-sandbox-sent-at"]; });`,
        { base },
      ) as string[]
    ).map(Number);
    expect(sent).toHaveLength(3);
    expect(new Set(sent).size).toBe(1);
    expect(Math.abs(Date.now() - (sent[0] as number))).toBeLessThan(5_000);
    expect(() =>
      inScript(em, `UrlFetchApp.fetchAll([args.base + "/echo", args.base + "/drop"]);`, { base }),
    ).toThrow(`Address unavailable: ${base}/drop`);
  });
  it("counts calls per user against the daily quota", () => {
    const quota = fixtureEmulator({ dailyUrlFetchQuota: 2 });
    try {
      inScript(quota, fetchSource, { url: `${base}/echo` });
      inScript(quota, fetchSource, { url: `${base}/echo` });
      expect(() => inScript(quota, fetchSource, { url: `${base}/echo` })).toThrow(
        "Service invoked too many times for one day: urlfetch.",
      );
      expect(quota.counters.urlFetch).toEqual({ "ana@example.com": 2 });
      // Another user has a quota of their own, and a new day starts afresh.
      expect(() =>
        inScript(quota, fetchSource, { url: `${base}/echo` }, { user: "ben@example.com" }),
      ).not.toThrow();
      quota.advanceTime(86_400_000);
      expect(() => inScript(quota, fetchSource, { url: `${base}/echo` })).not.toThrow();
    } finally {
      void quota.close();
    }
  });
});

describe("stopping an execution around a request", () => {
  const count = () =>
    JSON.parse((inScript(em, fetchSource, { url: `${base}/count` }) as { text: string }).text)
      .recorded as number;
  const writeTwice = `UrlFetchApp.fetch(args.base + "/record", { method: "post" });
    PropertiesService.getUserProperties().setProperty("firstAnswered", "yes");
    UrlFetchApp.fetch(args.base + "/record", { method: "post" });
    PropertiesService.getUserProperties().setProperty("secondAnswered", "yes");`;

  it("before: the n-th request never reaches the server", () => {
    const start = count();
    expect(() => inScript(em, writeTwice, { base }, { stopAt: { fetch: 2, when: "before" } })).toThrow(
      "Exceeded maximum execution time",
    );
    expect(count()).toBe(start + 1);
    expect(em.userPropertiesOf().toObject().firstAnswered).toBe("yes");
  });
  it("after: the server acted on the n-th request but the script never saw the answer", () => {
    em.userPropertiesOf().values.clear();
    const start = count();
    expect(() => inScript(em, writeTwice, { base }, { stopAt: { fetch: 2, when: "after" } })).toThrow(
      "Exceeded maximum execution time",
    );
    expect(count()).toBe(start + 2);
    expect(em.userPropertiesOf().toObject().secondAnswered).toBeUndefined();
  });
  it("after, inside fetchAll: requests up to the n-th are sent, none of the answers is seen", () => {
    const start = count();
    expect(() =>
      inScript(
        em,
        `UrlFetchApp.fetchAll([args.base + "/record", args.base + "/record", args.base + "/record"]); return "seen";`,
        { base },
        {
          stopAt: { fetch: 2, when: "after" },
        },
      ),
    ).toThrow("Exceeded maximum execution time");
    expect(count()).toBe(start + 2);
  });
});

describe("fetchLatencyMs: a slow service on the emulator clock", () => {
  it("moves the script's clock by the latency per fetch and per fetchAll batch, with no real wait", () => {
    em.fetchLatencyMs = 30_000;
    try {
      const started = performance.now();
      const r = inScript(
        em,
        `var t0 = Date.now();
         UrlFetchApp.fetch(args.url);
         var t1 = Date.now();
         UrlFetchApp.fetchAll([{ url: args.url }, { url: args.url }, { url: args.url }]);
         return [t1 - t0, Date.now() - t1];`,
        { url: `${base}/echo` },
      ) as [number, number];
      expect(r[0]).toBeGreaterThanOrEqual(30_000);
      expect(r[0]).toBeLessThan(40_000);
      // Three requests sent side by side: one latency.
      expect(r[1]).toBeGreaterThanOrEqual(30_000);
      expect(r[1]).toBeLessThan(40_000);
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      em.fetchLatencyMs = 0;
    }
  });

  it("counts against the execution's time: a run past its budget is stopped as Apps Script would", () => {
    em.fetchLatencyMs = 40_000;
    try {
      expect(() =>
        inScript(
          em,
          "for (var i = 0; i < 3; i++) UrlFetchApp.fetch(args.url); return i;",
          { url: `${base}/echo` },
          {
            budgetMs: 60_000,
          },
        ),
      ).toThrow("Exceeded maximum execution time");
    } finally {
      em.fetchLatencyMs = 0;
    }
  });
});

describe("kept-alive connections", () => {
  const patient = fixtureEmulator({ fetchTimeoutMs: 10_000 });
  afterAll(async () => {
    await patient.close();
  });
  const connections = () =>
    (
      JSON.parse(
        inScript(patient, "return UrlFetchApp.fetch(args.url).getContentText();", {
          url: `${base}/connections`,
        }) as string,
      ) as {
        connections: number;
      }
    ).connections;

  it("sends requests one after another over one connection, and a batch's side by side", () => {
    const before = connections();
    inScript(patient, "for (var i = 0; i < 5; i++) UrlFetchApp.fetch(args.url); return i;", {
      url: `${base}/echo`,
    });
    // The connection that read the count carries the five requests and the next count.
    expect(connections()).toBe(before);
    inScript(patient, "return UrlFetchApp.fetchAll([args.url, args.url, args.url]).length;", {
      url: `${base}/echo`,
    });
    const after = connections();
    // Side by side needs three at once: at most two new ones beside the kept one.
    expect(after - before).toBeLessThanOrEqual(2);
    expect(after - before).toBeGreaterThanOrEqual(1);
  });

  it("gives up an idle connection before a server would close it, never an answer still coming", async () => {
    const before = connections();
    // An answer slower than the idle limit (1 s) still arrives over its connection.
    const slow = inScript(patient, "return UrlFetchApp.fetch(args.url).getContentText();", {
      url: `${base}/slow?ms=1500`,
    }) as string;
    expect(JSON.parse(slow)).toEqual({ slow: true });
    // Idle for longer than the limit: the next request makes a connection of its own.
    const idle = connections();
    await new Promise((done) => setTimeout(done, 2_500));
    expect(connections()).toBe(idle + 1);
    expect(idle).toBeGreaterThanOrEqual(before);
  });
});
