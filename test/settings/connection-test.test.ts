import { describe, expect, it } from "vitest";
import { type Client, createClient, TransportError } from "../../src/api";
import { savedTestToken } from "../../src/app/company-clients";
import { connectionTestResult } from "../../src/app/connection-words";
import type { Language } from "../../src/i18n";
import {
  createSettingsStore,
  explainConnectionFailure as explainFailure,
  parseConnectionInput,
  testConnection as runTest,
} from "../../src/settings";
import type { SettingsStore } from "../../src/settings/store";
import { fakeClock, fixture, ok, type Reply, scriptedTransport } from "../api/fakes";
import { memoryStore } from "./stores";

/** The saved token as the add-on reads it for a test (src/app/company-clients.ts). */
const saved = (store: SettingsStore) => (target: { key?: string; url: string }) =>
  savedTestToken(store, target);

const TOKEN = "tok-1234567890-abcd";

/** The test as the sidebar receives it: the core's outcome, said in `language` by the adapter. */
const testConnection = (deps: Parameters<typeof runTest>[0], input: unknown, language: Language) =>
  connectionTestResult(runTest(deps, input), language);
const explainConnectionFailure = (err: unknown, language: Language) =>
  connectionTestResult(explainFailure(err), language);

/** Saved as the settings sidebar saves them: the fields in the document, the token for the user. */
function saveConnection(
  store: ReturnType<typeof createSettingsStore>,
  input: { baseUrl?: string; adminId?: string; token?: string },
): void {
  const { token, ...fields } = input;
  store.save(fields);
  if (token) store.saveToken(token);
}

function setup() {
  const document = memoryStore();
  const user = memoryStore();
  const store = createSettingsStore({ document: document.store, user: user.store });
  return { store, document, user };
}

/** The connection test over a scripted transport; records which URL and token were used. */
function tester(replies: Reply[]) {
  const t = scriptedTransport(replies);
  const used: { baseUrl: string; token: string }[] = [];
  const createClientFor = (baseUrl: string, token: string): Client => {
    used.push({ baseUrl, token });
    return createClient({
      transport: t.transport,
      clock: fakeClock().clock,
      baseUrl,
      token,
      retry: { maxAttempts: 1 },
    });
  };
  return { createClient: createClientFor, used, sent: t.sent };
}

describe("what the sidebar sends is checked", () => {
  it.each([
    ["a string", "x"],
    ["a list", [1]],
    ["an unknown key", { baseUrl: "https://x.test/v1", evil: 1 }],
    ["a wrong type", { baseUrl: 7 }],
    ["a field that is not the URL or the token", { adminId: "7" }],
    ["a token that is not text", { token: 12345 }],
  ])("refuses %s", (_label, input) => {
    expect(parseConnectionInput(input).ok).toBe(false);
  });

  it("accepts nothing at all, and the URL and token being typed", () => {
    expect(parseConnectionInput(undefined)).toEqual({ ok: true, value: {} });
    expect(parseConnectionInput({ baseUrl: "https://x.test/v1", token: "t" })).toEqual({
      ok: true,
      value: { baseUrl: "https://x.test/v1", token: "t" },
    });
  });
});

describe("testing the connection", () => {
  it("one small call with the saved settings: getFunds of the oldest funds, which mark the account", () => {
    const s = setup();
    saveConnection(s.store, { baseUrl: "https://api.example.com/v1", token: TOKEN });
    const t = tester([ok(fixture("getFunds.json"))]);
    const r = testConnection(
      { store: s.store, savedToken: saved(s.store), createClient: t.createClient },
      undefined,
      "en",
    );
    expect(r).toMatchObject({
      ok: true,
      kind: "ok",
      status: 200,
      message: "Connected: the service answered and lists 2 funds.",
      reached: { url: "https://api.example.com/v1" },
    });
    expect(r.reached?.funds.map((f) => f.id)).toHaveLength(2);
    expect(t.sent.map((x) => x.url)).toEqual([
      "https://api.example.com/v1/getFunds?OrderBy=1&Order=ASC&ResultsPerPage=3",
    ]);
  });

  it("tests the URL and token being typed, without saving them", () => {
    const s = setup();
    const t = tester([ok(fixture("getFunds.json"))]);
    const r = testConnection(
      { store: s.store, savedToken: saved(s.store), createClient: t.createClient },
      { baseUrl: "http://127.0.0.1:9/v1", token: TOKEN },
      "en",
    );
    expect(r.ok).toBe(true);
    expect(t.used).toEqual([{ baseUrl: "http://127.0.0.1:9/v1", token: TOKEN }]);
    expect(s.document.data.size + s.user.data.size).toBe(0);
  });

  it("without a token, says so and sends nothing", () => {
    const s = setup();
    const t = tester([]);
    expect(
      testConnection({ store: s.store, savedToken: saved(s.store), createClient: t.createClient }, {}, "en")
        .kind,
    ).toBe("noToken");
    expect(t.sent).toHaveLength(0);
  });

  it("a malformed URL is explained before any call", () => {
    const s = setup();
    s.store.saveToken(TOKEN);
    const t = tester([]);
    const r = testConnection(
      { store: s.store, savedToken: saved(s.store), createClient: t.createClient },
      { baseUrl: "not a url" },
      "en",
    );
    expect(r.kind).toBe("badSettings");
    expect(r.message).toContain("baseUrl");
    expect(t.sent).toHaveLength(0);
  });

  it.each([
    [
      "DNS failure",
      { transportError: "DNS error: https://nope.test/v1/getFunds" },
      "badUrl",
      "does not lead to the service",
    ],
    [
      "timeout",
      { transportError: "Timeout: https://slow.test/v1/getFunds" },
      "serviceDown",
      "down or unreachable",
    ],
    ["401", ok({ message: "Unauthorized" }, 401), "badToken", "refused the access token (HTTP 401)"],
    ["403", ok("", 403), "badToken", "HTTP 403"],
    ["404", ok("Not found", 404), "badUrl", "HTTP 404"],
    ["503", ok("", 503), "serviceDown", "HTTP 503"],
    ["error inside a 200", ok({ Error: "Company suspended" }), "serviceError", "Company suspended"],
    ["401 inside a 200", ok({ statusCode: 401, message: "Invalid token" }), "badToken", "access token"],
    ["a web page", ok("<html>Welcome</html>"), "unexpected", "not like the expected service"],
    ["a JSON of something else", ok({ hello: "world" }), "unexpected", "Records"],
    ["418", ok("teapot", 418), "httpError", "HTTP 418"],
  ] as const)("%s → %s", (_label, reply, kind, words) => {
    const s = setup();
    s.store.saveToken(TOKEN);
    const t = tester([reply as Reply]);
    const r = testConnection(
      { store: s.store, savedToken: saved(s.store), createClient: t.createClient },
      undefined,
      "en",
    );
    expect(r.ok).toBe(false);
    expect(r.kind).toBe(kind);
    expect(r.message).toContain(words);
    expect(r.message).not.toContain(TOKEN);
  });

  it("a redirect is explained naming the host it pointed to", () => {
    const s = setup();
    s.store.saveToken(TOKEN);
    const t = tester([ok("", 302, { Location: "https://collector.example/v1/getFunds?ResultsPerPage=1" })]);
    const r = testConnection(
      { store: s.store, savedToken: saved(s.store), createClient: t.createClient },
      undefined,
      "en",
    );
    expect(r).toMatchObject({ ok: false, kind: "redirect", status: 302 });
    expect(r.message).toBe(
      "The service URL answered with a redirect (HTTP 302) to host collector.example. Redirects are not followed, so your token was not sent there: check the service URL.",
    );
    expect(t.sent).toHaveLength(1);
  });

  it("a URL Apps Script refuses (outside the manifest's allowlist) is explained as that, not as an unreachable service", () => {
    const s = setup();
    s.store.saveToken(TOKEN);
    const refusal =
      "Request to https://api.rindegastos.com/v1/getFunds? failed because the URL has not been whitelisted in the script manifest.";
    const t = tester([{ transportError: refusal }]);
    const r = testConnection(
      { store: s.store, savedToken: saved(s.store), createClient: t.createClient },
      undefined,
      "en",
    );
    expect(r.kind).toBe("notAllowed");
    expect(r.message).toContain(refusal);
    expect(r.message).toContain("urlFetchWhitelist in appsscript.json");
    expect(r.message).not.toContain("does not lead to the service");
    const es = explainConnectionFailure(new TransportError(refusal, "getFunds"), "es");
    expect(es.message).toContain("Apps Script se negó a llamar a esta dirección");
  });

  it("the saved token is not used with a URL outside its origin; one being typed is", () => {
    const s = setup();
    s.store.saveToken(TOKEN);
    const t = tester([ok(fixture("getFunds.json"))]);
    const refused = testConnection(
      { store: s.store, savedToken: saved(s.store), createClient: t.createClient },
      { baseUrl: "https://collector.example/v1" },
      "en",
    );
    expect(refused).toMatchObject({ ok: false, kind: "tokenNotBound" });
    expect(refused.message).toContain(
      "Your access token is for host api.rindegastos.com, not collector.example",
    );
    expect(t.used).toEqual([]);
    // Another editor saved that URL: the notice of the runs.
    const other = createSettingsStore({ document: s.document.store, user: memoryStore().store });
    other.save({ baseUrl: "https://collector.example/v1" });
    const changed = testConnection(
      { store: s.store, savedToken: saved(s.store), createClient: t.createClient },
      undefined,
      "es",
    );
    expect(changed.message).toBe(
      "Otro editor cambió la URL del servicio a https://collector.example/v1: confírmela en Configuración para usar su token allí.",
    );
    // The store's notice travels as data (its words), said only by the adapter.
    const notice = runTest({ store: s.store, savedToken: saved(s.store), createClient: t.createClient }, {});
    expect(notice).toMatchObject({
      ok: false,
      kind: "tokenNotBound",
      params: {},
      words: { key: expect.any(String) },
    });
    expect(connectionTestResult(notice, "es").message).toBe(changed.message);
    expect(t.used).toEqual([]);
    const typed = testConnection(
      { store: s.store, savedToken: saved(s.store), createClient: t.createClient },
      { baseUrl: "https://collector.example/v1", token: "typed-token-0123456789" },
      "en",
    );
    expect(typed.ok).toBe(true);
    expect(t.used).toEqual([{ baseUrl: "https://collector.example/v1", token: "typed-token-0123456789" }]);
  });

  it("explains in Spanish", () => {
    expect(explainConnectionFailure(new TransportError("Timeout: x", "getFunds"), "es").message).toContain(
      "no está disponible",
    );
  });
});

describe("the test's outcome is data, said in the user's words by the adapter", () => {
  it("carries a kind and the values its message names, never a sentence", () => {
    const s = setup();
    saveConnection(s.store, { baseUrl: "https://api.example.com/v1", token: TOKEN });
    const t = tester([ok(fixture("getFunds.json"))]);
    const outcome = runTest({ store: s.store, savedToken: saved(s.store), createClient: t.createClient }, {});
    expect(outcome).toMatchObject({ ok: true, kind: "ok", params: { count: 2 }, status: 200 });
    expect(outcome).not.toHaveProperty("message");
    expect(connectionTestResult(outcome, "es").message).toBe(
      "Conectado: el servicio respondió e informa 2 fondos.",
    );
    expect(explainFailure(new TransportError("Timeout: x", "getFunds"))).toEqual({
      ok: false,
      kind: "serviceDown",
      params: { detail: "Timeout: x" },
    });
  });

  it("says what refused the settings from its values, in either language", () => {
    const s = setup();
    const t = tester([]);
    const deps = { store: s.store, savedToken: saved(s.store), createClient: t.createClient };
    const url = runTest(deps, { baseUrl: "ftp://x.test/v1" });
    expect(url).toMatchObject({
      kind: "badSettings",
      problem: { problem: "setting", issue: { field: "baseUrl" } },
    });
    const token = runTest(deps, { baseUrl: "https://x.test/v1", token: "a b c" });
    expect(token).toMatchObject({ kind: "badSettings", problem: { problem: "token", reason: "spaces" } });
    expect(connectionTestResult(token, "en").message).toBe(
      "The settings are not valid: The access token contains spaces or line breaks; paste the token alone.",
    );
    expect(connectionTestResult(token, "es").message).toBe(
      "La configuración no es válida: El token de acceso contiene espacios o saltos de línea; pegue solo el token.",
    );
    const company = runTest(deps, { key: "c9" });
    expect(company).toMatchObject({ kind: "badSettings", problem: { problem: "company", key: "c9" } });
    expect(t.sent).toHaveLength(0);
  });
});
