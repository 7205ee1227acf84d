import { describe, expect, it } from "vitest";
import {
  optionsFingerprint,
  refreshOptionsFrom,
  SettingsError,
  sheetNamesFrom,
} from "../../src/refresh/options";

describe("refresh options from the settings form", () => {
  it("uses sensible defaults for an empty form", () => {
    const o = refreshOptionsFrom({}, "2024-06-30");
    expect(o).toMatchObject({
      pageSize: 100,
      batchSize: 25,
      missingRows: "keep",
      fundFilters: {},
      reportFilters: {},
    });
    expect(o.reportWindow).toEqual({ since: "2024-06-01", until: "2024-06-30" });
  });

  it("passes every filter of getFunds and getExpenseReports under the service's names", () => {
    const o = refreshOptionsFrom(
      {
        pageSize: "500",
        windowMode: "range",
        windowFrom: "2021-01-01",
        windowTo: "2024-06-30",
        reportTypeDateFilter: "2",
        reportCurrency: "clp",
        reportStatus: "1",
        reportPolicyId: "7",
        reportIntegrationStatus: "0",
        reportIntegrationCode: "V-1",
        reportIntegrationDate: "2024-05-01",
        reportUserId: "42",
        fundStatus: "3",
        fundOrderBy: "2",
        fundOrder: "ASC",
        fundFrom: "2020-01-01",
        fundTo: "2020-12-31",
        missingRows: "remove",
      },
      "2024-07-01",
    );
    expect(o.pageSize).toBe(500);
    expect(o.reportWindow).toEqual({ since: "2021-01-01", until: "2024-06-30" });
    expect(o.reportFilters).toEqual({
      TypeDateFilter: 2,
      Currency: "CLP",
      Status: 1,
      ExpensePolicyId: 7,
      IntegrationStatus: 0,
      IntegrationCode: "V-1",
      IntegrationDate: "2024-05-01",
      UserId: 42,
    });
    expect(o.fundFilters).toEqual({
      Status: 3,
      OrderBy: 2,
      Order: "ASC",
      From: "2020-01-01",
      To: "2020-12-31",
    });
    expect(o.missingRows).toBe("remove");
  });

  it("refuses wrong settings with the field and the rule", () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ pageSize: "0" }, /^pageSize must be at least 1/],
      [{ pageSize: "2,5" }, /^pageSize /],
      [{ windowMode: "range" }, /^windowFrom is required/],
      [
        { windowMode: "range", windowFrom: "2024-02-01", windowTo: "2024-01-01" },
        /^windowTo must not be before/,
      ],
      [{ reportCurrency: "PESOS" }, /^reportCurrency must be a 3-letter/],
      [{ fundStatus: "9" }, /^fundStatus must be one of 1, 2, 3/],
      [{ fundFrom: "01/01/2024" }, /^fundFrom must be a date in the form YYYY-MM-DD/],
      [{ missingRows: "delete" }, /^missingRows must be one of keep, remove/],
      [{ fetchBatchSize: "500" }, /^fetchBatchSize must be a whole number from 1 to 100/],
      // The contract's own rules for the filters that are request parameters.
      [{ reportIntegrationCode: "x".repeat(256) }, /^reportIntegrationCode must be at most 255 characters/],
      [{ reportIntegrationDate: "2024-02-30" }, /^reportIntegrationDate must be a date/],
    ];
    for (const [form, message] of bad) {
      expect(() => refreshOptionsFrom(form, "2024-06-30")).toThrow(SettingsError);
      expect(() => refreshOptionsFrom(form, "2024-06-30")).toThrow(message);
    }
  });

  it("names the sheets in the user's language unless the settings name them", () => {
    expect(sheetNamesFrom({}, "es")).toEqual({
      funds: "Fondos",
      transactions: "Movimientos de fondos",
      reports: "Rendiciones",
      audit: "Auditoría",
      auditArchive: "Archivo de auditoría",
      outbox: "Bandeja de salida",
      files: "Archivos de rendiciones",
    });
    expect(
      sheetNamesFrom({ sheetFunds: "Caja", sheetAudit: "Log", sheetReports: "Gastos" }, "en"),
    ).toMatchObject({
      funds: "Caja",
      audit: "Log",
      auditArchive: "Log (archive)",
      files: "Gastos (files)",
    });
  });

  it("fingerprints change with the settings that shape a refresh", () => {
    const names = sheetNamesFrom({}, "en");
    const a = optionsFingerprint(refreshOptionsFrom({}, "2024-06-30"), names);
    expect(optionsFingerprint(refreshOptionsFrom({}, "2024-06-30"), names)).toBe(a);
    expect(optionsFingerprint(refreshOptionsFrom({ fundStatus: "1" }, "2024-06-30"), names)).not.toBe(a);
  });
});
