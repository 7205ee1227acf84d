/**
 * What a refresh needs from the settings, read from the settings form's text fields (the names
 * of src/ui/sidebars/settings/view.ts): page size, report window and filters, fund filters,
 * sheet names, language, and what to do with rows whose record is gone. Pure; a field that is
 * set but wrong is an error naming the field and the rule.
 */
import type { MissingRowMode } from "../sheets/merge";
import { type Language, translate } from "../ui/strings";
import type { RefreshOptions } from "./engine";
import { addDays } from "./windows";

export interface SheetNames {
  funds: string;
  transactions: string;
  reports: string;
  audit: string;
  auditArchive: string;
}

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
/** Requests per fetchAll: enough to hide latency, few enough not to overwhelm the service. */
export const DEFAULT_BATCH_SIZE = 25;
export const DEFAULT_WINDOW_DAYS = 30;

export class SettingsError extends Error {
  constructor(
    readonly field: string,
    rule: string,
  ) {
    super(`${field}: ${rule}`);
    this.name = "SettingsError";
  }
}

type Form = Partial<Record<string, string | undefined>>;

function text(form: Form, field: string): string {
  return (form[field] ?? "").trim();
}

function integer(form: Form, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const raw = text(form, field);
  if (raw === "") return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new SettingsError(field, `must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function choice(form: Form, field: string, values: readonly string[]): string | undefined {
  const raw = text(form, field);
  if (raw === "") return undefined;
  if (!values.includes(raw))
    throw new SettingsError(field, `must be one of ${values.join(", ")} (got "${raw}")`);
  return raw;
}

function date(form: Form, field: string): string | undefined {
  const raw = text(form, field);
  if (raw === "") return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw))
    throw new SettingsError(field, `must be a date YYYY-MM-DD (got "${raw}")`);
  return raw;
}

function defined(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

/** The refresh's options from the settings form; `today` is YYYY-MM-DD in the document's zone. */
export function refreshOptionsFrom(form: Form, today: string, language: Language): RefreshOptions {
  const mode = choice(form, "windowMode", ["lastDays", "range"]) ?? "lastDays";
  let since: string;
  let until: string;
  if (mode === "range") {
    since = date(form, "windowFrom") ?? "";
    until = date(form, "windowTo") ?? today;
    if (!since) throw new SettingsError("windowFrom", "is required when the window is a range of dates");
    if (until < since) throw new SettingsError("windowTo", `must not be before windowFrom (${since})`);
  } else {
    const days = integer(form, "windowDays", 1, 3660) ?? DEFAULT_WINDOW_DAYS;
    until = today;
    since = addDays(today, -(days - 1));
  }
  const fundFrom = date(form, "fundFrom");
  const fundTo = date(form, "fundTo");
  if (fundFrom && fundTo && fundTo < fundFrom)
    throw new SettingsError("fundTo", `must not be before fundFrom (${fundFrom})`);
  const currency = text(form, "reportCurrency").toUpperCase();
  if (currency && !/^[A-Z]{3}$/.test(currency)) {
    throw new SettingsError("reportCurrency", `must be a 3-letter currency code (got "${currency}")`);
  }
  const missing = choice(form, "missingRows", ["keep", "remove"]) ?? "keep";
  return {
    pageSize: integer(form, "pageSize", 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE,
    // Not in the sidebar: the benchmark sets 1 to compare with fetching one request at a time.
    batchSize: integer(form, "fetchBatchSize", 1, 100) ?? DEFAULT_BATCH_SIZE,
    fundFilters: defined({
      Status: numberOrUndefined(choice(form, "fundStatus", ["1", "2", "3"])),
      OrderBy: numberOrUndefined(choice(form, "fundOrderBy", ["1", "2"])),
      Order: choice(form, "fundOrder", ["ASC", "DESC"]),
      From: fundFrom,
      To: fundTo,
    }),
    reportWindow: { since, until },
    reportFilters: defined({
      TypeDateFilter: numberOrUndefined(choice(form, "reportTypeDateFilter", ["1", "2"])),
      Currency: currency || undefined,
      Status: numberOrUndefined(choice(form, "reportStatus", ["0", "1"])),
      ExpensePolicyId: integer(form, "reportPolicyId", 1),
      IntegrationStatus: numberOrUndefined(choice(form, "reportIntegrationStatus", ["0", "1"])),
      IntegrationCode: text(form, "reportIntegrationCode") || undefined,
      IntegrationDate: date(form, "reportIntegrationDate"),
      UserId: integer(form, "reportUserId", 1),
    }),
    missingRows: missing as MissingRowMode,
    language,
  };
}

function numberOrUndefined(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/** The sheets' names: the settings' when set, else the defaults in the user's language. */
export function sheetNamesFrom(form: Form, language: Language): SheetNames {
  const pick = (field: string, fallback: string) => text(form, field) || fallback;
  const audit = pick("sheetAudit", translate(language, "sheet.audit"));
  return {
    funds: pick("sheetFunds", translate(language, "sheet.funds")),
    transactions: pick("sheetTransactions", translate(language, "sheet.transactions")),
    reports: pick("sheetReports", translate(language, "sheet.reports")),
    audit,
    auditArchive:
      audit === translate(language, "sheet.audit")
        ? translate(language, "sheet.auditArchive")
        : `${audit} (archive)`,
  };
}

/** A short text that changes whenever a setting that shapes the refresh changes. */
export function optionsFingerprint(options: RefreshOptions, names: SheetNames): string {
  return JSON.stringify([
    options.pageSize,
    options.fundFilters,
    options.reportWindow,
    options.reportFilters,
    options.missingRows,
    names.funds,
    names.transactions,
    names.reports,
  ]);
}
