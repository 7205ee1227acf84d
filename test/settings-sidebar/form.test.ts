/**
 * The settings form over the settings model: the same keys, defaults, rules and messages as
 * src/settings/ (which the refresh, the Outbox and the schedule read),
 * with fields named by their labels.
 */
import { describe, expect, it } from "vitest";
import { refreshOptionsFrom } from "../../src/refresh/options";
import { createSettingsStore, SETTING_NAMES } from "../../src/settings";
import {
  checkSettingsForm,
  checkToken,
  defaultSettingsForm,
  storedSettingsForm,
} from "../../src/settings/form";
import { fieldProblems } from "../../src/settings/words";
import { memoryStore } from "../settings/stores";

function problems(patch: Record<string, unknown>, language: "en" | "es" = "en") {
  const result = checkSettingsForm({ ...defaultSettingsForm(language), ...patch });
  return result.ok ? [] : fieldProblems(result.issues, language);
}

describe("settings form", () => {
  it("accepts the defaults in both languages, with sheet names in that language", () => {
    expect(checkSettingsForm(defaultSettingsForm("en")).ok).toBe(true);
    expect(checkSettingsForm(defaultSettingsForm("es")).ok).toBe(true);
    expect(defaultSettingsForm("es").sheetFunds).toBe("Fondos");
    expect(defaultSettingsForm("en").baseUrl).toBe("https://api.rindegastos.com/v1");
    // The form edits exactly the model's settings.
    expect(Object.keys(defaultSettingsForm("en")).sort()).toEqual([...SETTING_NAMES].sort());
  });

  it("the defaults it shows mean what an empty setting means to a refresh", () => {
    const shown = refreshOptionsFrom(defaultSettingsForm("en"), "2024-06-30");
    const empty = refreshOptionsFrom({}, "2024-06-30");
    expect(shown.pageSize).toBe(empty.pageSize);
    expect(shown.reportWindow).toEqual(empty.reportWindow);
    expect(shown.missingRows).toBe(empty.missingRows);
  });

  it("opens whole when only the connection was saved, and saves as it opened", () => {
    const document = memoryStore();
    const store = createSettingsStore({ document: document.store, user: memoryStore().store });
    expect(store.save({ baseUrl: "https://x.example/v1", adminId: "7" }).ok).toBe(true);
    const form = storedSettingsForm(store.text(), "en");
    expect(form).toMatchObject({
      baseUrl: "https://x.example/v1",
      adminId: "7",
      pageSize: "",
      windowDays: "30",
      sheetFunds: "Funds",
      sheetOutbox: "Outbox",
    });
    expect(checkSettingsForm(form)).toMatchObject({ ok: true });
  });

  it("cleans what it accepts: trimmed, currency upper-cased, no trailing slash", () => {
    const result = checkSettingsForm({
      ...defaultSettingsForm("en"),
      baseUrl: " https://x.example/v1/ ",
      reportCurrency: "clp",
      adminId: " 42 ",
    });
    expect(result.ok && result.form).toMatchObject({
      baseUrl: "https://x.example/v1",
      reportCurrency: "CLP",
      adminId: "42",
    });
  });

  it("names the field by its label and the rule, with the contract's rules for request filters", () => {
    expect(problems({ baseUrl: "api.rindegastos.com" })).toEqual([
      {
        field: "baseUrl",
        message:
          'Service URL must be a web address such as https://api.rindegastos.com/v1 (got "api.rindegastos.com").',
      },
    ]);
    expect(problems({ baseUrl: "http://evil.example/v1" })[0]?.message).toMatch(
      /^Service URL must start with https:\/\//,
    );
    expect(problems({ baseUrl: "http://127.0.0.1:4010/v1" })).toEqual([]);
    expect(problems({ pageSize: "0" })[0]?.message).toBe("Results per page must be at least 1 (got 0).");
    expect(problems({ pageSize: "1001" })).toHaveLength(1);
    expect(problems({ pageSize: "1000" })).toEqual([]);
    expect(problems({ adminId: "-3" })[0]?.field).toBe("adminId");
    expect(problems({ windowDays: "12.5" })[0]?.field).toBe("windowDays");
    expect(problems({ windowMode: "range", windowFrom: "2026-02-30", windowTo: "2026-03-01" })).toEqual([
      { field: "windowFrom", message: 'From must be a date in the form YYYY-MM-DD (got "2026-02-30").' },
    ]);
    expect(
      problems({ windowMode: "range", windowFrom: "2026-03-02", windowTo: "2026-03-01" })[0]?.message,
    ).toMatch(/^To must not be before From/);
    expect(problems({ reportCurrency: "PESOS" })[0]?.message).toBe(
      'Currency must be a 3-letter currency code such as CLP or USD (got "PESOS").',
    );
    expect(problems({ reportStatus: "2" })[0]?.message).toBe('Report status must be one of 0, 1 (got "2").');
    expect(problems({ reportIntegrationCode: "x".repeat(256) })[0]?.message).toBe(
      "Integration code must be at most 255 characters long (got 256).",
    );
    expect(problems({ fundOrder: "UP" })[0]?.field).toBe("fundOrder");
    expect(problems({ sheetAudit: "funds" })[0]?.message).toMatch(
      /^Audit sheet: "funds" is already the name of/,
    );
    expect(problems({ language: "fr" })[0]?.field).toBe("language");
    expect(problems({ pageSize: true })[0]?.message).toBe("Results per page must be text (got boolean).");
  });

  it("an emptied sheet name means the default name, as everywhere else", () => {
    const result = checkSettingsForm({ ...defaultSettingsForm("en"), sheetOutbox: "  " });
    expect(result.ok && result.form.sheetOutbox).toBe("");
  });

  it("speaks Spanish to a Spanish document", () => {
    expect(problems({ pageSize: "x" }, "es")[0]?.message).toBe(
      'Resultados por página debe ser un número entero (se recibió "x").',
    );
  });

  it("refuses anything that is not a form", () => {
    expect(checkSettingsForm(null)).toMatchObject({ ok: false, issues: [{ field: "form" }] });
  });

  it("reads a stored form over the defaults, ignoring unknown keys", () => {
    const form = storedSettingsForm({ pageSize: "250", token: "must-not-be-read", adminId: 7 }, "en");
    expect(form.pageSize).toBe("250");
    expect(form.adminId).toBe("7");
    expect("token" in form).toBe(false);
  });

  it("checks a typed token with the store's rule", () => {
    expect(checkToken("  abcdefgh1234  ")).toEqual({ ok: true, token: "abcdefgh1234" });
    const refused = checkToken("has a space inside");
    expect({ ok: refused.ok, problem: !refused.ok && fieldProblems([refused.issue], "en")[0] }).toEqual({
      ok: false,
      problem: {
        field: "token",
        message: "The access token contains spaces or line breaks; paste the token alone.",
      },
    });
    expect(checkToken("").ok).toBe(false);
  });
});
