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
