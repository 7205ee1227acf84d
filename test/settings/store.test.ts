import { describe, expect, it } from "vitest";
import { MAIL_ON_FAILURE_KEY } from "../../src/app/schedule-state";
import {
  createSettingsStore,
  DEFAULT_BASE_URL,
  FAILURE_EMAIL_KEY,
  SETTINGS_KEY,
  settingsIssueText,
  TOKEN_KEY,
  TOKEN_ORIGIN_KEY,
  TokenNotBoundError,
} from "../../src/settings";
import { memoryStore, saidIn } from "./stores";

const TOKEN = "abcdef-0123456789-XYZW";

function twoUsers() {
  const document = memoryStore();
  const ana = memoryStore();
  const luis = memoryStore();
  return {
    document,
    ana,
    luis,
    asAna: createSettingsStore({ document: document.store, user: ana.store }),
    asLuis: createSettingsStore({ document: document.store, user: luis.store }),
  };
}

describe("where settings live", () => {
  it("the token goes to the user's store only; the document store never holds it", () => {
    const s = twoUsers();
    expect(s.asAna.saveToken(`  ${TOKEN}  `)).toEqual({ ok: true });
    expect(s.asAna.save({ baseUrl: "https://api.example.com/v1", adminId: "7" }).ok).toBe(true);
    expect(s.ana.data.get(TOKEN_KEY)).toBe(TOKEN);
    expect([...s.document.data.values()].join("\n")).not.toContain(TOKEN);
    expect(JSON.parse(s.document.data.get(SETTINGS_KEY)!)).toMatchObject({
      baseUrl: "https://api.example.com/v1",
      adminId: "7",
    });
  });

  it("sharing the spreadsheet shares the settings but never the token", () => {
    const s = twoUsers();
    s.asAna.saveToken(TOKEN);
    s.asAna.save({ adminId: "7" });
    expect(s.asLuis.load().settings.adminId).toBe(7);
    expect(s.asLuis.token(DEFAULT_BASE_URL)).toBe("");
    expect(s.asLuis.tokenStatus()).toEqual({ saved: false, last4: "", host: "", confirmUrl: "" });
    expect(s.asAna.tokenStatus()).toEqual({
      saved: true,
      last4: "XYZW",
      host: "api.rindegastos.com",
      confirmUrl: "",
    });
    s.asLuis.saveToken("luis-token-000000000");
    expect(s.asAna.token(DEFAULT_BASE_URL)).toBe(TOKEN);
    s.asLuis.removeToken();
    expect(s.asAna.token(DEFAULT_BASE_URL)).toBe(TOKEN);
    expect(s.luis.data.has(TOKEN_KEY)).toBe(false);
  });

  it("a short token does not reveal its last characters", () => {
    const s = twoUsers();
    s.asAna.saveToken("short-tok");
    expect(s.asAna.tokenStatus()).toEqual({
      saved: true,
      last4: "",
      host: "api.rindegastos.com",
      confirmUrl: "",
    });
  });

  it.each([
    ["", "is empty"],
    ["   ", "is empty"],
    ["abc def", "spaces"],
    ["abc\ndef", "spaces"],
    ["x".repeat(2049), "longer than 2048"],
    [42, "must be text"],
  ])("refuses the token %j without quoting it", (token, reason) => {
    const s = twoUsers();
    const r = s.asAna.saveToken(token);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues[0]!.field).toBe("token");
    const message = settingsIssueText(r.issues[0]!, "en");
    expect(message).toContain(reason);
    if (typeof token === "string" && token.trim()) expect(message).not.toContain(token.trim());
    expect(s.ana.data.size).toBe(0);
  });
});

describe("a token is bound to the origin it was saved for", () => {
  const ATTACKER = "https://collector.example/v1";

  it("is given for its own origin only, another path on it included", () => {
    const s = twoUsers();
    s.asAna.save({ baseUrl: "https://api.example.com/v1" });
    s.asAna.saveToken(TOKEN);
    expect(s.ana.data.get(TOKEN_ORIGIN_KEY)).toBe("https://api.example.com");
    expect(s.asAna.token("https://api.example.com/v1")).toBe(TOKEN);
    expect(s.asAna.token("https://API.example.com:443/v2")).toBe(TOKEN);
    for (const elsewhere of ["http://api.example.com/v1", "https://api.example.com:8443/v1", ATTACKER]) {
      expect(() => s.asAna.token(elsewhere)).toThrow(TokenNotBoundError);
    }
  });

  it("another editor's new URL stops the token, with the notice in the user's language", () => {
    const s = twoUsers();
    s.asAna.saveToken(TOKEN);
    // Luis (no token of his own) points the document at a server of his choosing.
    expect(s.asLuis.save({ baseUrl: ATTACKER }).ok).toBe(true);
    const url = s.asAna.load().settings.baseUrl;
    expect(() => s.asAna.token(url)).toThrow(
      `The service URL was changed by another editor to ${ATTACKER}: confirm it in Settings to use your token there.`,
    );
    expect(() => saidIn("es", () => s.asAna.token(url))).toThrow(
      `Otro editor cambió la URL del servicio a ${ATTACKER}: confírmela en Configuración para usar su token allí.`,
    );
    expect(s.asAna.tokenStatus()).toEqual({
      saved: true,
      last4: "XYZW",
      host: "api.rindegastos.com",
      confirmUrl: ATTACKER,
    });
    // Still given for the origin it was saved for.
    expect(s.asAna.token(DEFAULT_BASE_URL)).toBe(TOKEN);
  });

  it("the owner's explicit confirmation binds it to the document's URL, and only to that one", () => {
    const s = twoUsers();
    s.asAna.saveToken(TOKEN);
    s.asLuis.save({ baseUrl: ATTACKER });
    // A stale confirmation (the URL changed again since the sidebar showed it) binds nothing.
    expect(s.asAna.confirmTokenUrl("https://other.example/v1")).toBe(false);
    expect(s.asLuis.confirmTokenUrl(ATTACKER)).toBe(false);
    expect(() => s.asAna.token(ATTACKER)).toThrow(TokenNotBoundError);
    expect(s.asAna.confirmTokenUrl(ATTACKER)).toBe(true);
    expect(s.asAna.token(ATTACKER)).toBe(TOKEN);
    expect(s.asAna.tokenStatus()).toMatchObject({ host: "collector.example", confirmUrl: "" });
  });

  it("a token saved before tokens were bound is bound to nothing until confirmed", () => {
    const s = twoUsers();
    s.ana.data.set(TOKEN_KEY, TOKEN);
    expect(() => s.asAna.token(DEFAULT_BASE_URL)).toThrow(`confirm it in Settings to use your token there.`);
    expect(s.asAna.tokenStatus()).toEqual({
      saved: true,
      last4: "XYZW",
      host: "",
      confirmUrl: DEFAULT_BASE_URL,
    });
    // Saving other settings, even a new URL, does not bind it: only the confirmation does.
    s.asAna.save({ baseUrl: "https://api.example.com/v1" });
    expect(() => s.asAna.token("https://api.example.com/v1")).toThrow(TokenNotBoundError);
    expect(s.asAna.confirmTokenUrl("https://api.example.com/v1")).toBe(true);
    expect(s.asAna.token("https://api.example.com/v1")).toBe(TOKEN);
  });

  it("the owner changing the URL takes a usable token along; an unconfirmed one stays unconfirmed", () => {
    const s = twoUsers();
    s.asAna.saveToken(TOKEN);
    s.asAna.save({ baseUrl: "https://api.example.com/v1" });
    expect(s.asAna.token("https://api.example.com/v1")).toBe(TOKEN);
    s.asLuis.save({ baseUrl: ATTACKER });
    s.asAna.save({ baseUrl: "https://collector.example/v2" });
    expect(() => s.asAna.token("https://collector.example/v2")).toThrow(TokenNotBoundError);
  });

  it("a URL other than the document's is refused with its own message", () => {
    const s = twoUsers();
    s.asAna.saveToken(TOKEN);
    expect(() => s.asAna.token(ATTACKER)).toThrow(
      "Your access token is for host api.rindegastos.com, not collector.example",
    );
  });

  it("removing the token removes its binding", () => {
    const s = twoUsers();
    s.asAna.saveToken(TOKEN);
    s.asAna.removeToken();
    expect([...s.ana.data.keys()]).toEqual([]);
  });
});

describe("saving", () => {
  it("saves nothing when any field breaks a rule", () => {
    const s = twoUsers();
    s.asAna.save({ adminId: "7" });
    const before = s.document.data.get(SETTINGS_KEY);
    const r = s.asAna.save({ adminId: "8", pageSize: "0" });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.issues.map((i) => i.field)).toEqual(["pageSize"]);
    expect(s.document.data.get(SETTINGS_KEY)).toBe(before);
  });

  it("applies changes over what is stored and keeps keys it does not know", () => {
    const document = memoryStore({ [SETTINGS_KEY]: JSON.stringify({ adminId: "7", futureSetting: "x" }) });
    const store = createSettingsStore({ document: document.store, user: memoryStore().store });
    expect(store.save({ pageSize: "50" }).ok).toBe(true);
    expect(JSON.parse(document.data.get(SETTINGS_KEY)!)).toMatchObject({
      adminId: "7",
      pageSize: "50",
      futureSetting: "x",
    });
  });

  it("stores the normalised text", () => {
    const s = twoUsers();
    s.asAna.save({ reportCurrency: "usd", baseUrl: "https://x.test/v1///" });
    expect(s.asAna.text()).toMatchObject({ reportCurrency: "USD", baseUrl: "https://x.test/v1" });
  });
});

describe("loading", () => {
  it("defaults when nothing or garbage is stored", () => {
    for (const stored of [undefined, "not json", "[1,2]", "null"]) {
      const document = memoryStore(stored === undefined ? {} : { [SETTINGS_KEY]: stored });
      const loaded = createSettingsStore({ document: document.store, user: memoryStore().store }).load();
      expect(loaded.settings.pageSize).toBe(100);
      expect(loaded.issues).toEqual([]);
      if (stored !== undefined) expect(document.data.get(SETTINGS_KEY)).toBe(stored);
    }
  });

  it("a stored value that breaks its rule falls back to its default, is reported, and is kept", () => {
    const stored = JSON.stringify({ pageSize: "5000", adminId: "7" });
    const document = memoryStore({ [SETTINGS_KEY]: stored });
    const loaded = createSettingsStore({ document: document.store, user: memoryStore().store }).load();
    expect(loaded.settings.pageSize).toBe(100);
    expect(loaded.settings.adminId).toBe(7);
    expect(loaded.issues.map((i) => [i.field, i.rule])).toEqual([["pageSize", "max"]]);
    expect(document.data.get(SETTINGS_KEY)).toBe(stored);
  });

  it("reads the form the settings sidebar stores (explicit defaults)", () => {
    const form = {
      baseUrl: "https://api.rindegastos.com/v1",
      adminId: "",
      pageSize: "100",
      windowMode: "lastDays",
      windowDays: "30",
      reportTypeDateFilter: "1",
      fundOrderBy: "1",
      fundOrder: "DESC",
      sheetFunds: "Funds",
      sheetTransactions: "Fund transactions",
      sheetReports: "Expense reports",
      sheetAudit: "Audit",
      sheetOutbox: "Outbox",
      missingRows: "keep",
      language: "en",
    };
    const document = memoryStore({ [SETTINGS_KEY]: JSON.stringify(form) });
    const loaded = createSettingsStore({ document: document.store, user: memoryStore().store }).load();
    expect(loaded.issues).toEqual([]);
    expect(loaded.settings).toMatchObject({
      language: "en",
      fundFilters: { OrderBy: 1, Order: "DESC" },
      reportFilters: { TypeDateFilter: 1 },
    });
  });
});

describe("the failure e-mail opt-in", () => {
  it("is off by default, per user, under the key the schedule reads", () => {
    const s = twoUsers();
    expect(FAILURE_EMAIL_KEY).toBe(MAIL_ON_FAILURE_KEY);
    expect(s.asAna.failureEmail()).toBe(false);
    s.asAna.setFailureEmail(true);
    expect(s.asAna.failureEmail()).toBe(true);
    expect(s.asLuis.failureEmail()).toBe(false);
    expect(s.ana.data.get(FAILURE_EMAIL_KEY)).toBe("1");
    expect(s.document.data.size).toBe(0);
    s.asAna.setFailureEmail(false);
    expect(s.asAna.failureEmail()).toBe(false);
  });
});
