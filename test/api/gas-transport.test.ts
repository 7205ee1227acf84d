/**
 * The UrlFetchApp transport: every status reaches the client (muteHttpExceptions), the
 * exceptions UrlFetchApp still throws become TransportError, fetchAll fails as a whole.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TransportError } from "../../src/api";
import { appsScriptClock, urlFetchTransport } from "../../src/gas/transport";

type FetchParams = GoogleAppsScript.URL_Fetch.URLFetchRequestOptions & { url?: string };

function fakeResponse(status: number, body: string, headers: Record<string, string | string[]> = {}) {
  return {
    getResponseCode: () => status,
    getContentText: () => body,
    getAllHeaders: () => headers,
  };
}

const g = globalThis as Record<string, unknown>;
afterEach(() => {
  delete g.UrlFetchApp;
  delete g.Utilities;
});

function installUrlFetch(impl: {
  fetch?: (url: string, params: FetchParams) => unknown;
  fetchAll?: (requests: FetchParams[]) => unknown[];
}) {
  g.UrlFetchApp = impl;
}

describe("urlFetchTransport", () => {
  it("does not follow redirects: the 3xx comes back, so the token never goes where it points", () => {
    const seen: FetchParams[] = [];
    installUrlFetch({
      fetch: (_url, params) => {
        seen.push(params);
        return fakeResponse(302, "", { Location: "https://collector.example/" });
      },
      fetchAll: (requests) => {
        seen.push(...requests);
        return requests.map(() => fakeResponse(302, "", { Location: "https://collector.example/" }));
      },
    });
    const request = { method: "GET" as const, url: "https://x.test/v1/getFunds", headers: {} };
    expect(urlFetchTransport().send(request).status).toBe(302);
    expect(
      urlFetchTransport()
        .sendAll([request, request])
        .map((r) => r.headers.Location),
    ).toEqual(["https://collector.example/", "https://collector.example/"]);
    expect(seen.map((p) => p.followRedirects)).toEqual([false, false, false]);
  });

  it("sends with muteHttpExceptions, the method in lower case, the JSON body as payload", () => {
    const seen: { url: string; params: FetchParams }[] = [];
    installUrlFetch({
      fetch: (url, params) => {
        seen.push({ url, params });
        return fakeResponse(500, "boom", { "Retry-After": "3", "Set-Cookie": ["a=1", "b=2"] });
      },
    });
    const response = urlFetchTransport().send({
      method: "POST",
      url: "https://x.test/v1/createFund",
      headers: { Authorization: "Bearer t", "Content-Type": "application/json" },
      body: '{"a":1}',
    });
    expect(response).toEqual({
      status: 500,
      body: "boom",
      headers: { "Retry-After": "3", "Set-Cookie": "a=1, b=2" },
    });
    expect(seen[0]!.params).toMatchObject({
      method: "post",
      muteHttpExceptions: true,
      payload: '{"a":1}',
      contentType: "application/json",
      headers: { Authorization: "Bearer t" },
    });
  });

  it.each([
    "DNS error: https://x.test/v1/getFunds",
    "Timeout: https://x.test/v1/getFunds",
    "Address unavailable: https://x.test/v1/getFunds",
  ])("turns %j into a TransportError", (message) => {
    installUrlFetch({
      fetch: () => {
        const err = new Error(message);
        err.name = "Exception";
        throw err;
      },
    });
    const send = () =>
      urlFetchTransport().send({ method: "GET", url: "https://x.test/v1/getFunds", headers: {} });
    expect(send).toThrow(TransportError);
    expect(send).toThrow(message);
  });

  it("fetchAll answers in order, and one transport failure throws for the batch", () => {
    installUrlFetch({ fetchAll: (requests) => requests.map((r, i) => fakeResponse(200, `${i}:${r.url}`)) });
    const requests = [1, 2, 3].map((n) => ({
      method: "GET" as const,
      url: `https://x.test/v1/getFund?Id=${n}`,
      headers: {},
    }));
    expect(
      urlFetchTransport()
        .sendAll(requests)
        .map((r) => r.body),
    ).toEqual(requests.map((r, i) => `${i}:${r.url}`));
    installUrlFetch({
      fetchAll: () => {
        throw new Error("Timeout: https://x.test/v1/getFund?Id=2");
      },
    });
    expect(() => urlFetchTransport().sendAll(requests)).toThrow(TransportError);
    expect(urlFetchTransport().sendAll([])).toEqual([]);
  });
});

describe("appsScriptClock", () => {
  it("sleeps through Utilities.sleep in whole milliseconds", () => {
    const sleeps: number[] = [];
    g.Utilities = { sleep: (ms: number) => sleeps.push(ms) };
    const clock = appsScriptClock();
    clock.sleep(10.2);
    clock.sleep(0);
    expect(sleeps).toEqual([11]);
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(1000);
  });
});
