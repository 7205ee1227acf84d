/**
 * Each user's token per company is bound to the company's key, and used only while the company
 * is listed with the name and origin its owner saved or confirmed: another editor's rename,
 * new URL or removal stops it until the owner looks again (table 2.3 of
 * docs/design/several-companies.md); the owner's own change takes it along. A save cut short
 * leaves a token bound to nothing. The property test at the end: whatever another editor does
 * to the list, a token is given only for the (key, name, origin) its owner saved it for.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { originOf } from "../../src/api/urls";
import {
  ADMIN_ID_KEY,
  bindingKeyOf,
  COMPANIES_KEY,
  type CompanyEntry,
  companiesFrom,
  companyKeyFromUuid,
  createSettingsStore,
  type PropertyStore,
  readBinding,
  type SettingsStore,
  settingsIssueText,
  settingsWords,
  statusInWords,
  TOKEN_KEY,
  TOKEN_ORIGIN_KEY,
  TokenNotBoundError,
  tokenKeyOf,
  usability,
  usabilityWords,
} from "../../src/settings";
import { memoryStore, saidIn } from "./stores";

const URL_A = "https://api.rindegastos.com/v1";
const URL_B = "https://beta.example.com/v1";
const TOKEN_1 = "ana-token-alpha-0001";
const TOKEN_2 = "ana-token-beta-00002";

let made = 0;
const context = () => ({
  newKey: () => companyKeyFromUuid(`${(++made).toString(16).padStart(12, "0")}-0000`),
  now: 1000,
});

/** One document, its token owner Ana and another editor Luis. */
function team() {
  const document = memoryStore({ "settings.form": JSON.stringify({ baseUrl: URL_A }) });
  const ana = memoryStore();
  const luis = memoryStore();
  let clock = 10_000;
  const now = () => ++clock;
  return {
    document,
    ana,
    asAna: createSettingsStore({ document: document.store, user: ana.store, now }),
    asLuis: createSettingsStore({ document: document.store, user: luis.store, now }),
  };
}

/** The statuses as Settings shows them: each with its message in `language` (the settings' words). */
function statusesOf(store: SettingsStore, language: "en" | "es" = "en") {
  return store.companyStatuses().map((s) => statusInWords(s, language));
}

function change(by: SettingsStore, body: Record<string, unknown>) {
  const r = by.changeCompanies({ rev: by.companies().rev, ...body }, context());
  if (!r.ok) throw new Error(r.issues.map((i) => settingsIssueText(i, "en")).join(" | "));
  return r.key;
}

function seenOf(store: SettingsStore, key: string) {
  const entry = store.companies().entries.find((e) => e.key === key) as CompanyEntry;
  return { name: entry.name, apiUrl: entry.apiUrl };
}

function saveFor(store: SettingsStore, key: string, token: string, adminId: unknown = 7) {
  const r = store.saveCompanyToken(key, token, adminId, seenOf(store, key));
  if (!r.ok) throw new Error(r.issues.map((i) => settingsIssueText(i, "en")).join(" | "));
}

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof TokenNotBoundError) return err.reason;
    throw err;
  }
  return "given";
}

/** Alpha (c0, Ana's token) and Beta (Ana's token), added by Ana. */
function alphaBeta() {
  const t = team();
  saveFor(t.asAna, "c0", TOKEN_1);
  const beta = change(t.asAna, { kind: "add", name: "Beta", apiUrl: URL_B, firstName: "Alpha" });
  saveFor(t.asAna, beta, TOKEN_2);
  return { ...t, beta };
}

describe("the legacy mapping: a one-company spreadsheet keeps its keys", () => {
  it("today's token and IdAdmin are c0's, usable with the computed list, nothing written to the document", () => {
    const t = team();
    t.asAna.save({ adminId: "7" });
    expect(t.asAna.saveToken(TOKEN_1).ok).toBe(true);
    expect(t.asAna.companyAdminId("c0")).toBe(7);
    expect(t.asAna.companyToken("c0", URL_A)).toBe(TOKEN_1);
    expect(t.asAna.token(URL_A)).toBe(TOKEN_1);
    expect(t.document.data.has(COMPANIES_KEY)).toBe(false);
    expect(t.asAna.companyStatuses()).toMatchObject([
      {
        key: "c0",
        name: "",
        host: "api.rindegastos.com",
        status: "ready",
        writeStatus: "ready",
        last4: "0001",
      },
    ]);
  });

  it("c0 uses settings.token, settings.tokenOrigin, settings.adminIdConfirmed and settings.company.c0", () => {
    const t = team();
    saveFor(t.asAna, "c0", TOKEN_1, 7);
    expect(Object.fromEntries(t.ana.data)).toEqual({
      [TOKEN_KEY]: TOKEN_1,
      [TOKEN_ORIGIN_KEY]: "https://api.rindegastos.com",
      [ADMIN_ID_KEY]: "7",
      "settings.company.c0": JSON.stringify({ name: "", at: 10_001 }),
    });
    expect(tokenKeyOf("c0")).toBe("settings.token");
    expect(tokenKeyOf("cab12cd34")).toBe("settings.token.cab12cd34");
    expect(bindingKeyOf("cab12cd34")).toBe("settings.company.cab12cd34");
  });

  it("another key keeps its token and whole binding under its own keys", () => {
    const t = alphaBeta();
    expect(t.ana.data.get(`settings.token.${t.beta}`)).toBe(TOKEN_2);
    expect(JSON.parse(t.ana.data.get(`settings.company.${t.beta}`) as string)).toEqual({
      name: "Beta",
      origin: "https://beta.example.com",
      adminId: 7,
      at: expect.any(Number),
    });
  });

  it("a token saved before tokens were bound is bound to nothing", () => {
    const t = team();
    t.ana.data.set(TOKEN_KEY, TOKEN_1);
    expect(reasonOf(() => t.asAna.companyToken("c0", URL_A))).toBe("unbound");
    expect(statusesOf(t.asAna)[0]).toMatchObject({
      status: "unbound",
      confirm: { name: "", apiUrl: URL_A },
      message:
        "Your access token for the company at host api.rindegastos.com is tied to no service URL: confirm host api.rindegastos.com in Settings to use it there.",
    });
    expect(t.asAna.confirmCompany("c0", { name: "", apiUrl: URL_A }).ok).toBe(true);
    expect(t.asAna.companyToken("c0", URL_A)).toBe(TOKEN_1);
  });

  it("once the list exists, the baseUrl setting is set by the list only; each change copies c0's URL there", () => {
    const t = alphaBeta();
    const r = t.asLuis.save({ baseUrl: "https://evil.example/v1" });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.issues[0]).toMatchObject({ field: "baseUrl", rule: "companies" });
    change(t.asAna, { kind: "repoint", key: "c0", apiUrl: "https://api.rindegastos.com/v2" });
    expect(t.asLuis.load().settings.baseUrl).toBe("https://api.rindegastos.com/v2");
    expect(t.asLuis.save({ pageSize: "200" }).ok).toBe(true);
  });
});

describe("table 2.3: who changes what, and what happens to tokens", () => {
  it("rename by the token's owner: a usable token follows", () => {
    const t = alphaBeta();
    change(t.asAna, { kind: "rename", key: t.beta, name: "Beta SA" });
    expect(t.asAna.companyToken(t.beta, URL_B)).toBe(TOKEN_2);
  });

  it("rename by another editor: unusable until the owner confirms, the message naming both names", () => {
    const t = alphaBeta();
    change(t.asLuis, { kind: "rename", key: "c0", name: "Alpha SA" });
    expect(reasonOf(() => t.asAna.companyToken("c0", URL_A))).toBe("renamed");
    expect(() => t.asAna.companyToken("c0", URL_A)).toThrow(
      "Alpha was renamed Alpha SA by another editor: confirm it in Settings to use your token for it (host api.rindegastos.com).",
    );
    expect(() => saidIn("es", () => t.asAna.companyToken("c0", URL_A))).toThrow(
      "Otro editor cambió el nombre de Alpha a Alpha SA: confírmelo en Configuración para usar su token con ella (host api.rindegastos.com).",
    );
    expect(t.asAna.companyToken(t.beta, URL_B)).toBe(TOKEN_2);
    const status = t.asAna.companyStatuses()[0];
    expect(status).toMatchObject({ status: "renamed", confirm: { name: "Alpha SA", apiUrl: URL_A } });
    expect(t.asAna.confirmCompany("c0", status?.confirm).ok).toBe(true);
    expect(t.asAna.companyToken("c0", URL_A)).toBe(TOKEN_1);
    expect(t.asAna.companyAdminId("c0")).toBe(7);
  });

  it("naming an unnamed first company is a rename for every other user", () => {
    const t = team();
    saveFor(t.asAna, "c0", TOKEN_1);
    change(t.asLuis, { kind: "add", name: "Beta", apiUrl: URL_B, firstName: "Alpha" });
    expect(() => t.asAna.companyToken("c0", URL_A)).toThrow(
      "Another editor named Alpha the company at host api.rindegastos.com: confirm it in Settings to use your token for it.",
    );
  });

  it("the editor naming the first company takes their own usable token along", () => {
    const t = team();
    saveFor(t.asAna, "c0", TOKEN_1);
    change(t.asAna, { kind: "add", name: "Beta", apiUrl: URL_B, firstName: "Alpha" });
    expect(t.asAna.companyToken("c0", URL_A)).toBe(TOKEN_1);
  });

  it("re-point by the owner follows; by another editor to another origin, unusable until confirmed", () => {
    const t = alphaBeta();
    change(t.asAna, { kind: "repoint", key: t.beta, apiUrl: "https://beta2.example.com/v1" });
    expect(t.asAna.companyToken(t.beta, "https://beta2.example.com/v1/getFunds")).toBe(TOKEN_2);
    change(t.asLuis, { kind: "repoint", key: t.beta, apiUrl: "https://attacker.example/v1" });
    expect(reasonOf(() => t.asAna.companyToken(t.beta, "https://attacker.example/v1"))).toBe("repointed");
    expect(() => t.asAna.companyToken(t.beta, "https://attacker.example/v1")).toThrow(
      "Another editor changed the service URL of Beta to host attacker.example (your token is for host beta2.example.com): confirm it in Settings to use your token there.",
    );
    // Nor to the old host: the token asks its owner first.
    expect(reasonOf(() => t.asAna.companyToken(t.beta, "https://beta2.example.com/v1"))).toBe("repointed");
  });

  it("another path on the same origin keeps the token usable", () => {
    const t = alphaBeta();
    change(t.asLuis, { kind: "repoint", key: t.beta, apiUrl: "https://beta.example.com/v2" });
    expect(t.asAna.companyToken(t.beta, "https://beta.example.com/v2")).toBe(TOKEN_2);
  });

  it("reorder, by anyone: nothing", () => {
    const t = alphaBeta();
    change(t.asLuis, { kind: "move", key: t.beta, position: 1 });
    expect(t.asAna.companies().entries.map((e) => e.name)).toEqual(["Beta", "Alpha"]);
    expect(t.asAna.companyToken("c0", URL_A)).toBe(TOKEN_1);
    expect(t.asAna.companyToken(t.beta, URL_B)).toBe(TOKEN_2);
  });

  it("remove: tokens kept but not used; restore: the same key, usable again as name and origin match", () => {
    const t = alphaBeta();
    change(t.asLuis, { kind: "remove", key: t.beta, rows: "keep" });
    expect(reasonOf(() => t.asAna.companyToken(t.beta, URL_B))).toBe("removed");
    expect(t.ana.data.get(`settings.token.${t.beta}`)).toBe(TOKEN_2);
    expect(t.asAna.allTokens()).toContain(TOKEN_2);
    expect(t.asAna.companyStatuses()[1]).toMatchObject({ removed: true, status: "removed", confirm: null });
    expect(t.asAna.saveCompanyToken(t.beta, TOKEN_2, 7, { name: "Beta", apiUrl: URL_B })).toMatchObject({
      ok: false,
      issues: [{ rule: "removed" }],
    });
    change(t.asLuis, { kind: "restore", key: t.beta });
    expect(t.asAna.companyToken(t.beta, URL_B)).toBe(TOKEN_2);
  });

  it("a swap written straight into the document: both owners' bindings say renamed, nothing is given", () => {
    const t = alphaBeta();
    const stored = JSON.parse(t.document.data.get(COMPANIES_KEY) as string);
    [stored.entries[0].name, stored.entries[1].name] = [stored.entries[1].name, stored.entries[0].name];
    stored.entries[0].apiUrl = URL_B;
    stored.entries[1].apiUrl = URL_A;
    t.document.data.set(COMPANIES_KEY, JSON.stringify(stored));
    for (const [key, url] of [
      ["c0", URL_A],
      ["c0", URL_B],
      [t.beta, URL_A],
      [t.beta, URL_B],
    ] as const)
      expect(reasonOf(() => t.asAna.companyToken(key, url))).toMatch(/renamed|repointed/);
  });
});

describe("reading a token", () => {
  it("only for the company's origin: another URL is refused as elsewhere, whatever the key", () => {
    const t = alphaBeta();
    expect(reasonOf(() => t.asAna.companyToken("c0", URL_B))).toBe("elsewhere");
    expect(() => t.asAna.companyToken("c0", URL_B)).toThrow(
      "Your token for Alpha is for host api.rindegastos.com, not beta.example.com: it is not sent there.",
    );
    expect(reasonOf(() => t.asAna.companyToken("c0", "not a url"))).toBe("elsewhere");
    expect(reasonOf(() => t.asAna.companyToken("cnothere1", URL_A))).toBe("unknown");
  });

  it("no token saved: noToken; writes also need an IdAdmin saved with the token", () => {
    const t = alphaBeta();
    expect(reasonOf(() => t.asLuis.companyToken("c0", URL_A))).toBe("noToken");
    saveFor(t.asLuis, t.beta, "luis-token-beta-0009", "");
    expect(t.asLuis.companyToken(t.beta, URL_B)).toBe("luis-token-beta-0009");
    expect(reasonOf(() => t.asLuis.companyToken(t.beta, URL_B, "write"))).toBe("noAdminId");
    expect(statusesOf(t.asLuis)[1]).toMatchObject({
      status: "ready",
      writeStatus: "noAdminId",
      message:
        "No IdAdmin is saved with your token for Beta (host beta.example.com): save your token with an IdAdmin in Settings to write to it.",
    });
    expect(t.asAna.companyToken(t.beta, URL_B, "write")).toBe(TOKEN_2);
  });

  it("never puts a token in a message or an issue", () => {
    const t = alphaBeta();
    change(t.asLuis, { kind: "rename", key: t.beta, name: "Beta SA" });
    const texts = [
      ...statusesOf(t.asAna, "en").map((s) => s.message),
      ...statusesOf(t.asAna, "es").map((s) => s.message),
      JSON.stringify(
        t.asAna.saveCompanyToken(t.beta, `${TOKEN_2} x`, "zz", { name: "Beta SA", apiUrl: URL_B }),
      ),
    ];
    for (const [key, url] of [
      ["c0", URL_B],
      [t.beta, URL_B],
    ] as const)
      try {
        t.asAna.companyToken(key, url);
      } catch (err) {
        texts.push((err as Error).message);
      }
    for (const text of texts) {
      expect(text).not.toContain(TOKEN_1);
      expect(text).not.toContain(TOKEN_2);
    }
  });

  it("allTokens: every token of the user, removed companies' too, for redaction", () => {
    const t = alphaBeta();
    change(t.asAna, { kind: "remove", key: t.beta, rows: "remove" });
    expect(t.asAna.allTokens().sort()).toEqual([TOKEN_1, TOKEN_2].sort());
    t.asAna.removeCompanyToken(t.beta);
    expect(t.asAna.allTokens()).toEqual([TOKEN_1]);
  });
});

describe("saving and confirming are made knowing the company as shown", () => {
  it("a save whose seen name or URL is not the company's now is refused, nothing written", () => {
    const t = alphaBeta();
    change(t.asLuis, { kind: "rename", key: t.beta, name: "Beta SA" });
    const before = new Map(t.ana.data);
    const r = t.asAna.saveCompanyToken(t.beta, "ana-token-beta-new01", 7, { name: "Beta", apiUrl: URL_B });
    expect({
      ok: r.ok,
      issues: !r.ok && r.issues.map(({ words, ...i }) => ({ ...i, message: settingsWords(words, "en") })),
    }).toEqual({
      ok: false,
      issues: [
        {
          field: "seen",
          rule: "stale",
          message:
            "Beta changed since it was shown (now Beta SA, host beta.example.com): reload Settings and look again. Nothing was saved.",
        },
      ],
    });
    expect(t.asAna.confirmCompany(t.beta, { name: "Beta", apiUrl: URL_B }).ok).toBe(false);
    expect(t.asAna.confirmCompany(t.beta, null).ok).toBe(false);
    expect(new Map(t.ana.data)).toEqual(before);
  });

  it("token and IdAdmin are checked, each issue naming its field", () => {
    const t = alphaBeta();
    const r = t.asAna.saveCompanyToken(t.beta, "two words", "x", seenOf(t.asAna, t.beta));
    expect(!r.ok && r.issues.map((i) => [i.field, settingsIssueText(i, "en")])).toEqual([
      ["token", "The access token contains spaces or line breaks; paste the token alone."],
      ["adminId", 'Administrator id for writes (IdAdmin) must be a whole number (got "x").'],
    ]);
  });

  it("confirming needs a saved token", () => {
    const t = alphaBeta();
    expect(t.asLuis.confirmCompany(t.beta, seenOf(t.asLuis, t.beta))).toMatchObject({
      ok: false,
      issues: [{ field: "token", rule: "noToken" }],
    });
  });

  it("removing a token removes its binding; a malformed key removes nothing", () => {
    const t = alphaBeta();
    const before = new Map(t.ana.data);
    for (const key of ["", "x", "c0.extra", "C0"]) t.asAna.removeCompanyToken(key);
    expect(new Map(t.ana.data)).toEqual(before);
    t.asAna.removeCompanyToken(t.beta);
    t.asAna.removeCompanyToken("c0");
    expect([...t.ana.data.keys()]).toEqual([ADMIN_ID_KEY]);
  });
});

/** A user store that fails after `ops` writes: a save cut short. */
function cutAfter(store: PropertyStore, ops: number): PropertyStore {
  let left = ops;
  const step = () => {
    if (left-- <= 0) throw new Error("cut short");
  };
  return {
    getProperty: (k) => store.getProperty(k),
    setProperty: (k, v) => {
      step();
      return store.setProperty(k, v);
    },
    deleteProperty: (k) => {
      step();
      return store.deleteProperty(k);
    },
  };
}

describe("write order: binding deleted, token, binding", () => {
  for (const which of ["c0", "another key"] as const) {
    it(`${which}: a save cut short at any step leaves the token bound to nothing, never a new token to an old binding`, () => {
      // Ana's token T1 is bound to Beta at URL_B; Luis re-points the company; Ana types T2 for
      // the new URL and the save is cut short after n writes.
      for (let n = 0; ; n++) {
        const t = alphaBeta();
        const key = which === "c0" ? "c0" : t.beta;
        const old = t.asAna.companyToken(key, which === "c0" ? URL_A : URL_B);
        const newUrl = "https://moved.example.com/v1";
        change(t.asLuis, { kind: "repoint", key, apiUrl: newUrl });
        const cut = createSettingsStore({ document: t.document.store, user: cutAfter(t.ana.store, n) });
        let finished = true;
        try {
          cut.saveCompanyToken(key, "ana-token-moved-0003", 7, seenOf(t.asAna, key));
        } catch (_err) {
          finished = false;
        }
        const token = t.ana.data.get(tokenKeyOf(key));
        const binding = readBinding(t.ana.store, key);
        if (finished) {
          expect(t.asAna.companyToken(key, newUrl)).toBe("ana-token-moved-0003");
          expect(n).toBeGreaterThan(2);
          break;
        }
        expect(reasonOf(() => t.asAna.companyToken(key, newUrl))).toMatch(/^(unbound|repointed)$/);
        // Either untouched (the old token with its old binding) or bound to nothing.
        if (binding) {
          expect(token).toBe(old);
          expect(binding.origin).not.toBe(originOf(newUrl));
        }
      }
    });
  }
});

describe("usability", () => {
  const entry: CompanyEntry = { key: "c1", name: "Alpha", apiUrl: URL_A, formerNames: [] };
  const bound = { name: "Alpha", origin: "https://api.rindegastos.com", adminId: 7, at: 1 };

  it("gives each status, the origin before the name", () => {
    expect(usability(entry, bound, true)).toBe("ready");
    expect(usability(entry, bound, false)).toBe("noToken");
    expect(usability(entry, null, true)).toBe("unbound");
    expect(usability(entry, { ...bound, name: "Alpha SA" }, true)).toBe("renamed");
    expect(usability(entry, { ...bound, origin: "https://x.example" }, true)).toBe("repointed");
    expect(usability(entry, { ...bound, origin: "https://x.example", name: "X" }, true)).toBe("repointed");
    expect(usability({ ...entry, removed: { at: 1, rows: "keep" } }, bound, true)).toBe("removed");
  });

  it("has a message for each, in English and Spanish, naming the company and the host", () => {
    for (const status of [
      "ready",
      "noToken",
      "unbound",
      "renamed",
      "repointed",
      "removed",
      "noAdminId",
    ] as const)
      for (const language of ["en", "es"] as const) {
        const text = settingsWords(usabilityWords(status, entry, { ...bound, name: "Alfa" }), language);
        expect(text, `${status} ${language}`).toContain("Alpha");
        expect(text, `${status} ${language}`).toContain("api.rindegastos.com");
        expect(text).not.toMatch(/\{\w+\}/);
      }
  });
});

// ---- The property: a token only for the (key, name, origin) its owner saved it for ----

const NAMES = ["Alpha", "Beta", "Gamma", "alpha", "Alpha SA", "Delta"];
const URLS = [
  "https://a.example/v1",
  "https://a.example/v2",
  "https://b.example/v1",
  "http://127.0.0.1:8080/v1",
];

type Step =
  | { by: "editor" | "owner"; kind: "rename"; pick: number; name: string }
  | { by: "editor" | "owner"; kind: "repoint"; pick: number; url: string }
  | { by: "editor" | "owner"; kind: "move"; pick: number; position: number }
  | { by: "editor" | "owner"; kind: "remove"; pick: number }
  | { by: "editor" | "owner"; kind: "restore"; pick: number }
  | { by: "editor" | "owner"; kind: "add"; name: string; url: string; firstName: string }
  | { by: "raw"; kind: "swap"; pick: number; other: number }
  | { by: "raw"; kind: "set"; pick: number; name: string; url: string }
  | { by: "raw"; kind: "drop"; pick: number }
  | { by: "raw"; kind: "clear" }
  | { by: "owner"; kind: "save"; pick: number; stale: boolean }
  | { by: "owner"; kind: "confirm"; pick: number; stale: boolean }
  | { by: "owner"; kind: "forget"; pick: number };

const pick = fc.nat(9);
const who = fc.constantFrom("editor" as const, "editor" as const, "owner" as const);
const name = fc.constantFrom(...NAMES);
const url = fc.constantFrom(...URLS);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ by: who, kind: fc.constant("rename" as const), pick, name }),
  fc.record({ by: who, kind: fc.constant("repoint" as const), pick, url }),
  fc.record({ by: who, kind: fc.constant("move" as const), pick, position: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ by: who, kind: fc.constant("remove" as const), pick }),
  fc.record({ by: who, kind: fc.constant("restore" as const), pick }),
  fc.record({ by: who, kind: fc.constant("add" as const), name, url, firstName: name }),
  fc.record({ by: fc.constant("raw" as const), kind: fc.constant("swap" as const), pick, other: pick }),
  fc.record({ by: fc.constant("raw" as const), kind: fc.constant("set" as const), pick, name, url }),
  fc.record({ by: fc.constant("raw" as const), kind: fc.constant("drop" as const), pick }),
  fc.record({ by: fc.constant("raw" as const), kind: fc.constant("clear" as const) }),
  fc.record({
    by: fc.constant("owner" as const),
    kind: fc.constant("save" as const),
    pick,
    stale: fc.boolean(),
  }),
  fc.record({
    by: fc.constant("owner" as const),
    kind: fc.constant("save" as const),
    pick,
    stale: fc.boolean(),
  }),
  fc.record({
    by: fc.constant("owner" as const),
    kind: fc.constant("confirm" as const),
    pick,
    stale: fc.boolean(),
  }),
  fc.record({ by: fc.constant("owner" as const), kind: fc.constant("forget" as const), pick }),
);

/** Tokens the property test saw given: it must reach cases where a token is usable. */
let givenInAll = 0;

describe("property: another editor's changes never send a token anywhere its owner did not save it for", () => {
  it("for any sequence of changes, a token is given only for (key, name, origin) exactly as saved or confirmed", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => {
        const document = memoryStore({ "settings.form": JSON.stringify({ baseUrl: URLS[0] }) });
        const users = { owner: memoryStore(), editor: memoryStore() };
        let clock = 0;
        const now = () => ++clock;
        const as = {
          owner: createSettingsStore({ document: document.store, user: users.owner.store, now }),
          editor: createSettingsStore({ document: document.store, user: users.editor.store, now }),
        };
        let keys = 0;
        const made = {
          newKey: () => companyKeyFromUuid(`${(++keys).toString(16).padStart(12, "0")}`),
          now: 0,
        };
        // What the owner saved or confirmed, per key: the model the store must agree with.
        const saved = new Map<string, { token: string; name: string; origin: string }>();
        const keysSeen = new Set(["c0"]);
        let tokens = 0;
        // A form the owner opened a while ago: what a stale save or confirmation sends.
        let shown = as.owner.companies();

        const entries = () => as.owner.companies().entries;
        const entryAt = (i: number) => {
          const list = entries();
          return list[i % list.length] as CompanyEntry;
        };
        const ready = (key: string) => {
          const entry = entries().find((e) => e.key === key);
          const mine = saved.get(key);
          return (
            !!entry &&
            !entry.removed &&
            !!mine &&
            mine.name === entry.name &&
            mine.origin === originOf(entry.apiUrl)
          );
        };

        for (const s of steps) {
          if (s.by === "raw") {
            const list = as.owner.companies();
            if (s.kind === "clear") document.data.delete(COMPANIES_KEY);
            else {
              const a = list.entries[s.pick % list.entries.length] as CompanyEntry;
              if (s.kind === "swap") {
                const b = list.entries[s.other % list.entries.length] as CompanyEntry;
                [a.name, b.name] = [b.name, a.name];
                [a.apiUrl, b.apiUrl] = [b.apiUrl, a.apiUrl];
              } else if (s.kind === "set") {
                a.name = s.name;
                a.apiUrl = s.url;
              } else if (list.entries.length > 1) list.entries.splice(list.entries.indexOf(a), 1);
              document.data.set(COMPANIES_KEY, JSON.stringify({ ...list, rev: list.rev + 1 }));
            }
          } else if (s.kind === "save" || s.kind === "confirm" || s.kind === "forget") {
            const entry = s.kind === "forget" ? entryAt(s.pick) : entryAt(s.pick);
            if (s.kind === "forget") {
              as.owner.removeCompanyToken(entry.key);
              saved.delete(entry.key);
            } else {
              const old = shown.entries.find((e) => e.key === entry.key);
              const seen =
                s.stale && old
                  ? { name: old.name, apiUrl: old.apiUrl }
                  : { name: entry.name, apiUrl: entry.apiUrl };
              const acceptable = !entry.removed && seen.name === entry.name && seen.apiUrl === entry.apiUrl;
              if (s.kind === "save") {
                const token = `owner-token-${++tokens}-000000`;
                const r = as.owner.saveCompanyToken(entry.key, token, 7, seen);
                expect(r.ok).toBe(acceptable);
                if (r.ok) saved.set(entry.key, { token, name: entry.name, origin: originOf(entry.apiUrl) });
              } else {
                const mine = saved.get(entry.key);
                const r = as.owner.confirmCompany(entry.key, seen);
                expect(r.ok).toBe(acceptable && !!mine);
                if (r.ok && mine)
                  saved.set(entry.key, { ...mine, name: entry.name, origin: originOf(entry.apiUrl) });
              }
            }
          } else {
            const by = as[s.by];
            const before = by.companies();
            const body =
              s.kind === "add"
                ? { kind: s.kind, name: s.name, apiUrl: s.url, firstName: s.firstName }
                : {
                    kind: s.kind,
                    key: entryAt(s.pick).key,
                    name: "name" in s ? s.name : undefined,
                    apiUrl: "url" in s ? s.url : undefined,
                    position: "position" in s ? s.position : undefined,
                    rows: "keep",
                  };
            const wasReady = new Map(before.entries.map((e) => [e.key, ready(e.key)]));
            const r = by.changeCompanies({ ...body, rev: before.rev }, made);
            // The owner's own change takes their usable token along; nobody else's does.
            if (r.ok && s.by === "owner")
              for (const e of r.companies.entries) {
                const mine = saved.get(e.key);
                if (mine && wasReady.get(e.key) && !e.removed)
                  saved.set(e.key, { ...mine, name: e.name, origin: originOf(e.apiUrl) });
              }
          }
          if (s.by === "owner" && s.kind !== "save" && s.kind !== "confirm" && s.kind !== "forget")
            shown = as.owner.companies();
          for (const e of entries()) keysSeen.add(e.key);

          // The property, for every key ever listed and every URL.
          const list = entries();
          for (const key of keysSeen) {
            const entry = list.find((e) => e.key === key);
            const mine = saved.get(key);
            for (const u of URLS) {
              const expected =
                entry &&
                !entry.removed &&
                mine &&
                mine.name === entry.name &&
                mine.origin === originOf(entry.apiUrl) &&
                mine.origin === originOf(u)
                  ? mine.token
                  : null;
              let given: string | null = null;
              try {
                given = as.owner.companyToken(key, u);
              } catch (err) {
                if (!(err instanceof TokenNotBoundError)) throw err;
              }
              expect(given, `${key} ${u}`).toBe(expected);
              if (given !== null) givenInAll++;
            }
          }
        }
        // Whatever was saved for the owner is found for redaction.
        for (const mine of saved.values()) expect(as.owner.allTokens()).toContain(mine.token);
      }),
      // A fixed seed: the same cases on every run, so a failure is reproduced by anyone.
      { numRuns: 250, seed: 20261128 },
    );
    expect(givenInAll).toBeGreaterThan(500);
  });
});

describe("companiesFrom and the store agree", () => {
  it("the store's list is companiesFrom of the property and the service URL", () => {
    const t = alphaBeta();
    expect(t.asLuis.companies()).toEqual(companiesFrom(t.document.data.get(COMPANIES_KEY) ?? null, URL_A));
  });
});
