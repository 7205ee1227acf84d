import { afterAll, describe, expect, it } from "vitest";
import { storeConnection } from "../../dev/emulator/settings";
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
