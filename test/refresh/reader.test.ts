/**
 * The refresh's reads over the client: a single fund or report the service says does not exist
 * comes back null (its rows are then marked or removed), however the service says it; any other
 * failure fails the refresh.
 */
import { describe, expect, it } from "vitest";
import { createClient, ServiceError } from "../../src/api";
import { clientReader } from "../../src/refresh/reader";
import { fakeClock, fixtureText, ok, scriptedTransport } from "../api/fakes";

function reader(...replies: ReturnType<typeof ok>[]) {
  const t = scriptedTransport(replies);
  const client = createClient({
    transport: t.transport,
    clock: fakeClock().clock,
    token: "tok-reader-test",
    baseUrl: "https://sandbox.test/v1",
    random: () => 0.5,
  });
  return clientReader(client);
}

describe("a fund the service no longer has", () => {
  it("is null whether it says so with HTTP 404 or with a statusCode of 404 inside a 200", () => {
    const funds = reader(
      ok(fixtureText("getFund.json")),
      ok({ Error: { Message: "Fund not found" } }, 404),
      ok({ statusCode: 404, message: "Fund not found" }),
    ).funds([101, 102, 103]);
    expect(funds.map((f) => f?.id ?? null)).toEqual([101, null, null]);
  });

  it("an error inside a 200 that says nothing of a status still fails the refresh", () => {
    expect(() => reader(ok({ Error: "IdAdmin has no permission" })).funds([101])).toThrow(ServiceError);
  });
});

describe("a page count that disagrees with the total", () => {
  const funds = JSON.parse(fixtureText("getFunds.json")) as { Funds: unknown[] };
  const page = (records: Record<string, number>) => ok({ Records: records, Funds: funds.Funds });

  it("counted by a floor division (5 records at 2 a page: 2 pages), a full page counts the pages the total needs", () => {
    const [first] = reader(page({ TotalRecords: 5, Funds: 2, Page: 1, Pages: 2 })).fundPages([
      { Page: 1, ResultsPerPage: 2 },
    ]);
    expect(first?.pages).toBe(3);
  });

  it("0 pages beside a full page holding the whole total count 1; a page not full keeps the count given", () => {
    const pages = reader(
      page({ TotalRecords: 2, Funds: 2, Page: 1, Pages: 0 }),
      page({ TotalRecords: 9, Funds: 2, Page: 1, Pages: 1 }),
    ).fundPages([
      { Page: 1, ResultsPerPage: 2 },
      { Page: 1, ResultsPerPage: 3 },
    ]);
    expect(pages.map((p) => p.pages)).toEqual([1, 1]);
  });

  it("a total far beyond its pages (one that ignores the filters) adds no page", () => {
    const [first] = reader(page({ TotalRecords: 5000, Funds: 2, Page: 1, Pages: 3 })).fundPages([
      { Page: 1, ResultsPerPage: 2 },
    ]);
    expect(first?.pages).toBe(3);
  });

  it("a count beyond any sheet's rows (a billion pages) is cut to 100,000, planned without running out of memory", () => {
    const [first] = reader(page({ TotalRecords: 2, Funds: 2, Page: 1, Pages: 1e9 })).fundPages([
      { Page: 1, ResultsPerPage: 2 },
    ]);
    expect(first?.pages).toBe(1e5);
  });
});
