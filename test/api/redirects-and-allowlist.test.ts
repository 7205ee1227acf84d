/**
 * What the client makes of a redirect (an error naming the host it pointed to, never a second
 * request) and of Apps Script refusing a URL outside the manifest's allowlist (nothing was
 * sent: a write is refused, a read is not retried). The URL helpers both rest on.
 */
import { describe, expect, it } from "vitest";
import { createClient, RedirectError, TransportError } from "../../src/api";
import { allowedByPrefix, hostOf, originOf, urlParts } from "../../src/api/urls";
import { thrown } from "../support/thrown";
import { fakeClock, ok, type Reply, scriptedTransport } from "./fakes";

const TOKEN = "tok-9f8e7d6c5b4a";
const BASE = "https://sandbox.test/v1";
const REFUSAL =
  "Request to https://sandbox.test/v1/getFunds? failed because the URL has not been whitelisted in the script manifest.";

function setup(replies: Reply[]) {
  const t = scriptedTransport(replies);
  const c = fakeClock();
  const client = createClient({ transport: t.transport, clock: c.clock, token: TOKEN, baseUrl: BASE });
  return { client, ...t, ...c };
}

describe("a redirect is an error naming the new location's host", () => {
  it.each([301, 302, 303, 307, 308])("HTTP %i to a read: one request, no retry", (status) => {
    const s = setup([ok("", status, { location: `https://collector.example/steal?t=${TOKEN}` })]);
    const err = thrown(() => s.client.getFunds({})) as RedirectError;
    expect(err).toBeInstanceOf(RedirectError);
    expect(err.locationHost).toBe("collector.example");
    expect(err.message).toBe(
      `getFunds: the service answered HTTP ${status}, a redirect to host collector.example. Redirects are not followed: nothing was sent there.`,
    );
    expect(err.location).not.toContain(TOKEN);
    expect(s.sent).toHaveLength(1);
  });

  it("to a write: sent once, its outcome unknown as for any 3xx to a write", () => {
    const s = setup([ok("", 307, { Location: "https://collector.example:8443/v1/depositMoneyToFund" })]);
    const err = thrown(() =>
      s.client.depositMoneyToFund({ Id: 101, IdAdmin: 7, DepositAmount: "1.00" }),
    ) as RedirectError;
    expect(err.locationHost).toBe("collector.example:8443");
    expect(err.outcome).toBe("unknown");
    expect(s.sent).toHaveLength(1);
  });

  it("a location on the same host says so", () => {
    const s = setup([ok("", 302, { Location: "/v2/getFunds" })]);
    expect(thrown(() => s.client.getFunds({})).message).toContain(
      "a redirect to /v2/getFunds on the same host",
    );
  });
});

describe("a URL outside the manifest's allowlist", () => {
  it("a read is not retried: nothing was sent and trying again cannot help", () => {
    const s = setup([{ transportError: REFUSAL }, { transportError: REFUSAL }, { transportError: REFUSAL }]);
    const err = thrown(() => s.client.getFunds({})) as TransportError;
    expect(err).toBeInstanceOf(TransportError);
    expect(err.notAllowed).toBe(true);
    expect(err.message).toBe(`getFunds: ${REFUSAL}`);
    expect(s.sent).toHaveLength(1);
    expect(s.sleeps).toEqual([]);
  });

  it("a write is refused (not of unknown outcome)", () => {
    const s = setup([{ transportError: REFUSAL.replace("getFunds?", "depositMoneyToFund") }]);
    const err = thrown(() =>
      s.client.depositMoneyToFund({ Id: 101, IdAdmin: 7, DepositAmount: "1.00" }),
    ) as TransportError;
    expect(err.notAllowed).toBe(true);
    expect(err.outcome).toBe("refused");
  });

  it("other transport failures keep their unknown outcome", () => {
    const err = new TransportError("Address unavailable: https://sandbox.test/v1/getFunds", "getFunds");
    expect(err.notAllowed).toBe(false);
    expect(err.outcome).toBe("unknown");
  });
});

describe("URLs read without the URL class", () => {
  it("the host is what follows the last @", () => {
    expect(hostOf("https://api.rindegastos.com@attacker.example/v1")).toBe("attacker.example");
    expect(urlParts("https://user:pw@host.example/")).toMatchObject({
      userInfo: "user:pw",
      hostname: "host.example",
    });
    expect(hostOf("http://127.0.0.1:8080/v1")).toBe("127.0.0.1:8080");
    expect(hostOf("not a url")).toBe("");
  });

  it("an origin is scheme, host and port, default ports dropped", () => {
    expect(originOf("HTTPS://API.Rindegastos.com:443/v1")).toBe("https://api.rindegastos.com");
    expect(originOf("http://localhost:3000/v1")).toBe("http://localhost:3000");
    expect(originOf("ftp://x/")).toBe("");
  });

  it.each([
    ["https://api.rindegastos.com/v1/getFunds", "https://api.rindegastos.com/", true],
    ["https://api.rindegastos.com/v1/getFunds?x=1", "https://api.rindegastos.com/v1", true],
    ["https://api.rindegastos.com/v1", "https://api.rindegastos.com/v1", true],
    ["https://api.rindegastos.com/v10/getFunds", "https://api.rindegastos.com/v1", false],
    ["https://api.rindegastos.com/V1/getFunds", "https://api.rindegastos.com/v1/", false],
    ["https://eu.rindegastos.com/v1/getFunds", "https://*.rindegastos.com/", true],
    ["https://rindegastos.com/v1/getFunds", "https://*.rindegastos.com/", false],
    ["https://api.rindegastos.com.attacker.example/v1", "https://api.rindegastos.com/", false],
    ["https://api.rindegastos.com@attacker.example/v1", "https://api.rindegastos.com/", false],
    ["https://api.rindegastos.com:8443/v1", "https://api.rindegastos.com/", false],
    ["http://api.rindegastos.com/v1", "https://api.rindegastos.com/", false],
  ])("%s under %s: %s", (url, prefix, allowed) => {
    expect(allowedByPrefix(url, prefix)).toBe(allowed);
  });
});
