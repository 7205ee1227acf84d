import { describe, expect, it } from "vitest";
import { MAIL_ON_FAILURE_KEY } from "../../src/app/schedule";
import { createSettingsStore, FAILURE_EMAIL_KEY, SETTINGS_KEY, TOKEN_KEY } from "../../src/settings";
import { memoryStore } from "./stores";

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
    expect(s.asLuis.token()).toBe("");
    expect(s.asLuis.tokenStatus()).toEqual({ saved: false, last4: "" });
    expect(s.asAna.tokenStatus()).toEqual({ saved: true, last4: "XYZW" });
    s.asLuis.saveToken("luis-token-000000000");
    expect(s.asAna.token()).toBe(TOKEN);
    s.asLuis.removeToken();
    expect(s.asAna.token()).toBe(TOKEN);
    expect(s.luis.data.has(TOKEN_KEY)).toBe(false);
  });

  it("a short token does not reveal its last characters", () => {
    const s = twoUsers();
    s.asAna.saveToken("short-tok");
    expect(s.asAna.tokenStatus()).toEqual({ saved: true, last4: "" });
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
    expect(r.issues[0]!.message).toContain(reason);
    if (typeof token === "string" && token.trim()) expect(r.issues[0]!.message).not.toContain(token.trim());
    expect(s.ana.data.size).toBe(0);
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
