import { describe, expect, it } from "vitest";
import {
  DEFAULT_BASE_URL,
  defaultSettingsText,
  languageFor,
  reportWindowDates,
  type SettingsText,
  settingsFromText,
  settingsIssueText,
  settingsTextFrom,
  sheetNamesFor,
} from "../../src/settings";
import { appliedFilters } from "../../src/settings/words";

const text = (changes: Partial<SettingsText>) => settingsTextFrom(changes);

function issuesOf(changes: Partial<SettingsText>, language: "en" | "es" = "en") {
  const r = settingsFromText(text(changes));
  if (r.ok) throw new Error(`expected a refusal of ${JSON.stringify(changes)}`);
  return r.issues.map((i) => ({ ...i, message: settingsIssueText(i, language) }));
}

describe("defaults", () => {
  it("a new document: the real service, no IdAdmin, 100 per page, reports sent in the last 30 days, no other filters", () => {
    const r = settingsFromText(defaultSettingsText());
    expect(r.ok && r.settings).toEqual({
      baseUrl: DEFAULT_BASE_URL,
      adminId: null,
      pageSize: 100,
      reportWindow: { kind: "lastDays", days: 30 },
      // Send date: open reports have no close date, so the service's default would hide them all.
      reportFilters: { TypeDateFilter: 2 },
      fundFilters: {},
      sheetNames: { funds: "", transactions: "", reports: "", audit: "", outbox: "" },
      missingRows: "keep",
      auditReads: "summed",
      language: null,
    });
  });

  it("close date stays a choice: reports closed in the window only", () => {
    const r = settingsFromText({ ...defaultSettingsText(), reportTypeDateFilter: "1" });
    expect(r.ok && r.settings.reportFilters).toEqual({ TypeDateFilter: 1 });
  });

  it("language comes from the user's locale unless the document chose one", () => {
    expect(languageFor({ language: null }, "es_CL")).toBe("es");
    expect(languageFor({ language: null }, "en_US")).toBe("en");
    expect(languageFor({ language: "en" }, "es_MX")).toBe("en");
  });

  it("sheet names default to the names of the language", () => {
    const names = sheetNamesFor(
      { sheetNames: { funds: "Mis fondos", transactions: "", reports: "", audit: "", outbox: "" } },
      "es",
    );
    expect(names.funds).toBe("Mis fondos");
    expect(names.reports).toBe("Rendiciones");
    expect(
      sheetNamesFor({ sheetNames: { funds: "", transactions: "", reports: "", audit: "", outbox: "" } }, "en")
        .audit,
    ).toBe("Audit");
  });
});

describe("every setting read and checked", () => {
  it("reads filters with the contract's rules and normalises the stored text", () => {
    const r = settingsFromText(
      text({
        baseUrl: "https://api.example.com/v1/",
        adminId: "7",
        pageSize: "250",
        windowMode: "range",
        windowFrom: "2024-01-01",
        windowTo: "2024-03-31",
        reportTypeDateFilter: "2",
        reportStatus: "1",
        reportCurrency: "clp",
        reportPolicyId: "33",
        reportIntegrationStatus: "0",
        reportIntegrationCode: "V-1",
        reportIntegrationDate: "2024-04-01",
        reportUserId: "5002",
        fundStatus: "3",
        fundOrderBy: "2",
        fundOrder: "asc",
        fundFrom: "2023-01-01",
        fundTo: "2023-12-31",
        sheetFunds: "Fondos 2024",
        missingRows: "remove",
        auditReads: "every",
        language: "es",
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings).toMatchObject({
      baseUrl: "https://api.example.com/v1",
      adminId: 7,
      pageSize: 250,
      reportWindow: { kind: "range", from: "2024-01-01", to: "2024-03-31" },
      reportFilters: {
        TypeDateFilter: 2,
        Status: 1,
        Currency: "CLP",
        ExpensePolicyId: 33,
        IntegrationStatus: 0,
        IntegrationCode: "V-1",
        IntegrationDate: "2024-04-01",
        UserId: 5002,
      },
      fundFilters: { Status: 3, OrderBy: 2, Order: "ASC", From: "2023-01-01", To: "2023-12-31" },
      missingRows: "remove",
      auditReads: "every",
      language: "es",
    });
    expect(r.text.baseUrl).toBe("https://api.example.com/v1");
    expect(r.text.reportCurrency).toBe("CLP");
  });

  it.each([
    [{ baseUrl: "api.example.com/v1" }, "baseUrl", "url"],
    [{ baseUrl: "https://api.example.com/v1?x=1" }, "baseUrl", "url"],
    [{ baseUrl: "http://api.example.com/v1" }, "baseUrl", "https"],
    [{ adminId: "0" }, "adminId", "min"],
    [{ adminId: "7a" }, "adminId", "integer"],
    [{ pageSize: "0" }, "pageSize", "min"],
    [{ pageSize: "1001" }, "pageSize", "max"],
    [{ windowMode: "always" }, "windowMode", "oneOf"],
    [{ windowDays: "0" }, "windowDays", "min"],
    // A negative number is a whole number: what it breaks is the minimum.
    [{ windowDays: "-3" }, "windowDays", "min"],
    [{ pageSize: "-1" }, "pageSize", "min"],
    [{ windowDays: "3661" }, "windowDays", "max"],
    [{ windowMode: "range" }, "windowFrom", "requiredWith"],
    [{ windowFrom: "01/02/2024" }, "windowFrom", "date"],
    [{ windowMode: "range", windowFrom: "2024-02-01", windowTo: "2024-01-01" }, "windowTo", "dateOrder"],
    [{ reportCurrency: "PESO" }, "reportCurrency", "currency"],
    [{ reportStatus: "2" }, "reportStatus", "oneOf"],
    [{ reportIntegrationCode: "x".repeat(256) }, "reportIntegrationCode", "maxLength"],
    [{ fundOrder: "UP" }, "fundOrder", "oneOf"],
    [{ fundFrom: "2024-02-01", fundTo: "2024-01-31" }, "fundTo", "dateOrder"],
    [{ sheetFunds: "x".repeat(101) }, "sheetFunds", "maxLength"],
    [{ sheetFunds: "Datos", sheetReports: "datos" }, "sheetReports", "unique"],
    [{ missingRows: "delete" }, "missingRows", "oneOf"],
    [{ auditReads: "some" }, "auditReads", "oneOf"],
    [{ language: "pt" }, "language", "oneOf"],
  ] as const)("%j → %s breaks %s", (changes, field, rule) => {
    const issues = issuesOf(changes);
    expect(issues.map((i) => [i.field, i.rule])).toEqual([[field, rule]]);
    expect(issues[0]!.message.startsWith(field)).toBe(true);
  });

  it("accepts the bounds themselves", () => {
    for (const changes of [
      { pageSize: "1" },
      { pageSize: "1000" },
      { windowDays: "1" },
      { windowDays: "3660" },
      { sheetFunds: "x".repeat(100) },
      { reportIntegrationCode: "x".repeat(255) },
      { baseUrl: "http://127.0.0.1:8123/v1" },
      { baseUrl: "http://localhost:3000/v1" },
    ]) {
      expect(settingsFromText(text(changes)).ok, JSON.stringify(changes)).toBe(true);
    }
  });

  it.each([
    ["https://api.rindegastos.com@attacker.example/v1", "attacker.example"],
    ["https://user:pw@host.example/", "host.example"],
    ["https://api.rindegastos.com:443@127.0.0.1:9/v1", "127.0.0.1:9"],
  ])("refuses a URL with user info before the host: %s", (baseUrl, host) => {
    const issues = issuesOf({ baseUrl });
    expect(issues.map((i) => [i.field, i.rule])).toEqual([["baseUrl", "userInfo"]]);
    expect(issues[0]!.message).toBe(
      `baseUrl must not hold a user name or password before the host ("name@"): requests would go to host ${host}, whatever comes before "@" (got "${baseUrl}").`,
    );
    expect(issuesOf({ baseUrl }, "es")[0]!.message).toContain(`las solicitudes irían al host ${host}`);
    // The form names the field by its label.
    const labelled = settingsFromText(text({ baseUrl }), { labels: true });
    expect(!labelled.ok && settingsIssueText(labelled.issues[0]!, "en")).toMatch(
      /^Service URL must not hold a user name/,
    );
  });

  it.each([
    "https://api.rindegastos.com\\attacker.example/v1",
    "https://api.rindegastos.com%40attacker.example/v1",
  ])("refuses a host with characters no host has: %s", (baseUrl) => {
    expect(issuesOf({ baseUrl }).map((i) => i.rule)).toEqual(["url"]);
  });

  it("messages are in Spanish when asked", () => {
    expect(issuesOf({ baseUrl: "http://api.example.com/v1" }, "es")[0]!.message).toContain("cifrado");
  });

  it("settingsTextFrom keeps known text fields only", () => {
    const t = settingsTextFrom({
      pageSize: 50,
      baseUrl: "  https://x.test/v1 ",
      evil: "x",
      adminId: { a: 1 },
    });
    expect(t.pageSize).toBe("50");
    expect(t.baseUrl).toBe("https://x.test/v1");
    expect(t.adminId).toBe("");
    expect("evil" in t).toBe(false);
    expect(settingsTextFrom("nope")).toEqual(defaultSettingsText());
  });
});

describe("the report window as dates", () => {
  it("last N days ends today and includes it", () => {
    expect(reportWindowDates({ kind: "lastDays", days: 1 }, "2024-03-01")).toEqual({
      since: "2024-03-01",
      until: "2024-03-01",
    });
    expect(reportWindowDates({ kind: "lastDays", days: 30 }, "2024-03-01")).toEqual({
      since: "2024-02-01",
      until: "2024-03-01",
    });
  });

  it("a range without an end ends today", () => {
    expect(reportWindowDates({ kind: "range", from: "2024-01-01", to: null }, "2024-03-01")).toEqual({
      since: "2024-01-01",
      until: "2024-03-01",
    });
    expect(
      reportWindowDates({ kind: "range", from: "2024-01-01", to: "2024-01-31" }, "2024-03-01").until,
    ).toBe("2024-01-31");
  });
});

describe("the filters a refresh applied, as the Summary says them", () => {
  const applied = (changes: Partial<SettingsText>, language: "en" | "es" = "en") => {
    const r = settingsFromText(text(changes));
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    return appliedFilters(r.settings, language);
  };

  it("names each by its setting's label and leaves out what the defaults mean (send date, order)", () => {
    expect(applied({})).toBe("");
    expect(applied({ reportTypeDateFilter: "2", fundOrderBy: "1", fundOrder: "DESC" })).toBe("");
    expect(applied({ reportCurrency: "clp" })).toBe("Currency = CLP");
    expect(applied({ reportTypeDateFilter: "1", reportCurrency: "CLP" }, "es")).toBe(
      "Las fechas se aplican a = Fecha de cierre, Moneda = CLP",
    );
  });
});
