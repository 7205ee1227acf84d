/**
 * The IdAdmin a user's writes carry is one that user saved: another editor's change of the
 * document's IdAdmin stops that user's writes (with the reason) until they save it themselves.
 */
import { describe, expect, it } from "vitest";
import { ADMIN_ID_KEY, createSettingsStore, type SettingsStore } from "../../src/settings/store";
import { settingsWords } from "../../src/settings/words";
import { memoryStore } from "./stores";

/** The store's IdAdmin issue as the user reads it, in `language` (the settings' words). */
function issueOf(store: SettingsStore, language: "en" | "es" = "en"): string | null {
  const words = store.adminIdIssue();
  return words && settingsWords(words, language);
}

function twoUsers() {
  const document = memoryStore();
  const ana = memoryStore();
  const luis = memoryStore();
  return {
    ana,
    asAna: createSettingsStore({ document: document.store, user: ana.store }),
    asLuis: createSettingsStore({ document: document.store, user: luis.store }),
  };
}

describe("IdAdmin is bound to the user who saved it", () => {
  it("a user's own save (form or token) lets their writes carry it", () => {
    const s = twoUsers();
    s.asAna.save({ adminId: "7" });
    expect(s.asAna.adminIdIssue()).toBeNull();
    expect(s.ana.data.get(ADMIN_ID_KEY)).toBe("7");
    s.asLuis.saveToken("luis-token-000000000");
    expect(s.asLuis.adminIdIssue()).toBeNull();
  });

  it("another editor's change stops them, naming both ids, in either language", () => {
    const s = twoUsers();
    s.asAna.save({ adminId: "7" });
    s.asLuis.save({ adminId: "8" });
    expect(s.asLuis.adminIdIssue()).toBeNull();
    expect(issueOf(s.asAna)).toBe(
      "IdAdmin 8 is not the one you saved (7): save it in Settings to write as 8.",
    );
    expect(issueOf(s.asAna, "es")).toBe(
      "IdAdmin 8 no es el que usted guardó (7): guárdelo en Configuración para escribir como 8.",
    );
    s.asAna.save({ pageSize: "200" }); // her save, with IdAdmin 8 in the form
    expect(s.asAna.adminIdIssue()).toBeNull();
  });

  it("a user who never saved one (a token from before) is asked to, not bound to the document's", () => {
    const s = twoUsers();
    s.asLuis.save({ adminId: "9" });
    s.ana.data.set("settings.token", "ana-token-0000000000");
    expect(issueOf(s.asAna)).toBe("IdAdmin 9 is not the one you saved: save it in Settings to write as 9.");
  });

  it("no IdAdmin set: no issue here (the contract's own message refuses the writes)", () => {
    expect(twoUsers().asAna.adminIdIssue()).toBeNull();
  });
});
