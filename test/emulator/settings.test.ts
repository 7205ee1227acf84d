import { afterAll, describe, expect, it } from "vitest";
import { FakeProperties } from "../../dev/emulator/properties";
import { storeCompanies, storeConnection } from "../../dev/emulator/settings";
import { createSettingsStore } from "../../src/settings/store";
import { fixtureEmulator } from "./helpers";

const em = fixtureEmulator();
afterAll(() => em.close());

describe("pre-storing a connection in a user's settings", () => {
  it("puts the token in that user's properties only, the rest in the document's settings", () => {
    storeConnection(
      em,
      { apiUrl: "http://127.0.0.1:4567/v1", token: "tok-abcdef", adminId: 1001 },
      "ben@example.com",
    );
    const stores = em.properties();
    expect(JSON.stringify(stores.user["ben@example.com"])).toContain("tok-abcdef");
    expect(stores.user["ana@example.com"] ?? {}).toEqual({});
    expect(JSON.stringify(stores.document)).not.toContain("tok-abcdef");
    expect(JSON.stringify(stores.document)).toContain("http://127.0.0.1:4567/v1");
    expect(JSON.stringify(stores.script)).not.toContain("tok-abcdef");
  });
  it("refuses what the settings rules refuse, naming the field", () => {
    expect(() => storeConnection(em, { apiUrl: "http://example.com/v1", token: "t", adminId: 1 })).toThrow(
      /baseUrl/,
    );
    expect(() =>
      storeConnection(em, { apiUrl: "https://example.com/v1", token: "has space", adminId: 1 }),
    ).toThrow(/token/);
  });
});

describe("pre-storing a document of several companies", () => {
  const URL = "http://127.0.0.1:4567/v1";
  const storeAs = (em: ReturnType<typeof fixtureEmulator>, user: string) =>
    createSettingsStore({
      document: new FakeProperties(em.documentPropertiesData),
      user: new FakeProperties(em.userPropertiesOf(user)),
    });

  it("lists every company in the document, each usable with the user's own token and IdAdmin", () => {
    const two = fixtureEmulator();
    try {
      const keys = storeCompanies(
        two,
        [
          { name: "Alpha", apiUrl: URL, token: "alpha-token-0001", adminId: 1001 },
          { name: "Beta", apiUrl: URL, token: "beta-token-00002", adminId: 2001 },
        ],
        "ben@example.com",
      );
      expect(keys[0]).toBe("c0");
      expect(keys[1]).toMatch(/^c[0-9a-z]{8}$/);
      const ben = storeAs(two, "ben@example.com");
      const companies = ben.companies();
      expect(companies.several).toBe(true);
      expect(companies.entries.map((e) => [e.key, e.name, e.apiUrl])).toEqual([
        ["c0", "Alpha", URL],
        [keys[1], "Beta", URL],
      ]);
      expect(ben.companyToken("c0", URL, "write")).toBe("alpha-token-0001");
      expect(ben.companyToken(keys[1] as string, URL, "write")).toBe("beta-token-00002");
      expect(ben.companyStatuses().map((s) => [s.name, s.writeStatus, s.adminId])).toEqual([
        ["Alpha", "ready", 1001],
        ["Beta", "ready", 2001],
      ]);
      // The first company keeps a one-company spreadsheet's settings: its URL and IdAdmin.
      expect(ben.load().settings).toMatchObject({ baseUrl: URL, adminId: 1001 });
      expect(ben.token(URL)).toBe("alpha-token-0001");
      // Another user has no token for either; no token is in the document's properties.
      expect(
        storeAs(two, "ana@example.com")
          .companyStatuses()
          .map((s) => s.status),
      ).toEqual(["noToken", "noToken"]);
      expect(JSON.stringify(two.properties().document)).not.toMatch(/alpha-token|beta-token/);
      // The same keys on every run (the playground's audit and cells read alike).
      const again = fixtureEmulator();
      try {
        expect(
          storeCompanies(again, [
            { name: "Alpha", apiUrl: URL, token: "alpha-token-0001", adminId: 1001 },
            { name: "Beta", apiUrl: URL, token: "beta-token-00002", adminId: 2001 },
          ]),
        ).toEqual(keys);
      } finally {
        again.close();
      }
    } finally {
      two.close();
    }
  });

  it("one company writes no list: a one-company spreadsheet, as storeConnection leaves it", () => {
    const one = fixtureEmulator();
    try {
      expect(
        storeCompanies(one, [{ name: "", apiUrl: URL, token: "alpha-token-0001", adminId: 1001 }]),
      ).toEqual(["c0"]);
      expect(one.properties().document["settings.companies"]).toBeUndefined();
      expect(storeAs(one, "ana@example.com").token(URL)).toBe("alpha-token-0001");
    } finally {
      one.close();
    }
  });

  it("refuses what the company rules refuse, naming the company", () => {
    const bad = fixtureEmulator();
    try {
      expect(() =>
        storeCompanies(bad, [
          { name: "Alpha", apiUrl: URL, token: "alpha-token-0001", adminId: 1001 },
          { name: "alpha", apiUrl: URL, token: "beta-token-00002", adminId: 2001 },
        ]),
      ).toThrow(/Could not add the company alpha/);
    } finally {
      bad.close();
    }
  });
});
