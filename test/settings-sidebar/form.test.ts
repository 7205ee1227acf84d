import { describe, expect, it } from "vitest";
import {
  checkSettingsForm,
  checkToken,
  defaultSettingsForm,
  storedSettingsForm,
} from "../../src/ui/sidebars/settings/form";

function problems(patch: Record<string, unknown>, language: "en" | "es" = "en") {
  const result = checkSettingsForm({ ...defaultSettingsForm(language), ...patch }, language);
  return result.ok ? [] : result.problems;
}

describe("settings form", () => {
  it("accepts the defaults in both languages, with sheet names in that language", () => {
    expect(checkSettingsForm(defaultSettingsForm("en"), "en").ok).toBe(true);
    expect(checkSettingsForm(defaultSettingsForm("es"), "es").ok).toBe(true);
    expect(defaultSettingsForm("es").sheetFunds).toBe("Fondos");
    expect(defaultSettingsForm("en").baseUrl).toBe("https://api.rindegastos.com/v1");
  });

  it("cleans what it accepts: trimmed, currency upper-cased, no trailing slash", () => {
    const result = checkSettingsForm(
      {
        ...defaultSettingsForm("en"),
        baseUrl: " https://x.example/v1/ ",
        reportCurrency: "clp",
        adminId: " 42 ",
      },
      "en",
    );
    expect(result.ok && result.form).toMatchObject({
      baseUrl: "https://x.example/v1",
      reportCurrency: "CLP",
      adminId: "42",
    });
  });

  it("names the field and the rule for each broken rule", () => {
    expect(problems({ baseUrl: "api.rindegastos.com" })).toEqual([
      {
        field: "baseUrl",
        message: "Service URL: must be a web address such as https://api.rindegastos.com/v1",
      },
    ]);
    expect(problems({ baseUrl: "http://evil.example/v1" })[0]?.message).toBe(
      "Service URL: must start with https:// (http:// only for localhost)",
    );
    expect(problems({ baseUrl: "http://127.0.0.1:4010/v1" })).toEqual([]);
    expect(problems({ pageSize: "0" })[0]?.message).toBe(
      "Results per page: must be a whole number from 1 to 1000",
    );
    expect(problems({ pageSize: "1001" })).toHaveLength(1);
    expect(problems({ pageSize: "1000" })).toEqual([]);
    expect(problems({ adminId: "-3" })[0]?.field).toBe("adminId");
    expect(problems({ windowDays: "12.5" })[0]?.field).toBe("windowDays");
    expect(problems({ windowMode: "range", windowFrom: "2026-02-30", windowTo: "2026-03-01" })).toEqual([
      { field: "windowFrom", message: "From: must be a date written YYYY-MM-DD" },
    ]);
    expect(
      problems({ windowMode: "range", windowFrom: "2026-03-02", windowTo: "2026-03-01" })[0]?.message,
    ).toBe("To: must not be before From");
    expect(problems({ reportCurrency: "PESOS" })[0]?.message).toBe(
      "Currency: must be a 3-letter currency code such as CLP",
    );
    expect(problems({ reportStatus: "2" })[0]?.message).toBe("Report status: must be one of 0, 1");
    expect(problems({ reportIntegrationCode: "x".repeat(256) })[0]?.message).toBe(
      "Integration code: must be at most 255 characters",
    );
    expect(problems({ fundOrder: "UP" })[0]?.field).toBe("fundOrder");
    expect(problems({ sheetAudit: "funds" })[0]?.message).toBe("Audit sheet: must differ from Funds sheet");
    expect(problems({ sheetOutbox: "  " })[0]?.message).toBe("Outbox sheet: must not be empty");
    expect(problems({ language: "fr" })[0]?.field).toBe("language");
    expect(problems({ pageSize: 50 })[0]?.message).toBe("Results per page: must be text");
  });

  it("speaks Spanish to a Spanish document", () => {
    expect(problems({ pageSize: "x" }, "es")[0]?.message).toBe(
      "Resultados por página: debe ser un número entero entre 1 y 1000",
    );
  });

  it("refuses anything that is not a form", () => {
    expect(checkSettingsForm(null, "en")).toEqual({
      ok: false,
      problems: [{ field: "form", message: "form: must be an object of text fields" }],
    });
  });

  it("reads a stored form over the defaults, ignoring unknown keys and non-text values", () => {
    const form = storedSettingsForm({ pageSize: "250", token: "must-not-be-read", adminId: 7 }, "en");
    expect(form.pageSize).toBe("250");
    expect(form.adminId).toBe("");
    expect("token" in form).toBe(false);
  });

  it("checks a typed token", () => {
    expect(checkToken("  abcdefgh1234  ", "en")).toEqual({ ok: true, token: "abcdefgh1234" });
    expect(checkToken("short", "en")).toEqual({
      ok: false,
      problem: { field: "token", message: "Access token: must be 8 or more characters without spaces" },
    });
    expect(checkToken("has a space inside", "en").ok).toBe(false);
  });
});
