/**
 * The settings form: defaults, and the rules each field must meet, with messages that name the
 * field (by its label) and the rule. Pure: the server checks every save with it (anyone who can
 * open a sidebar can call the save function with anything), and the sidebar can use it too.
 */
import { type Language, type StringKey, translate } from "../../strings";
import { type FieldProblem, SETTINGS_FIELDS, type SettingsField, type SettingsForm } from "./view";

export const DEFAULT_BASE_URL = "https://api.rindegastos.com/v1";
export const MAX_PAGE_SIZE = 1000;
export const MAX_WINDOW_DAYS = 3660;

const LABELS: Record<SettingsField, StringKey> = {
  baseUrl: "settings.baseUrl",
  adminId: "settings.adminId",
  pageSize: "settings.pageSize",
  windowMode: "settings.window.mode",
  windowDays: "settings.window.days",
  windowFrom: "settings.window.from",
  windowTo: "settings.window.to",
  reportTypeDateFilter: "settings.reports.typeDateFilter",
  reportStatus: "settings.reports.status",
  reportCurrency: "settings.reports.currency",
  reportPolicyId: "settings.reports.policyId",
  reportIntegrationStatus: "settings.reports.integrationStatus",
  reportIntegrationCode: "settings.reports.integrationCode",
  reportIntegrationDate: "settings.reports.integrationDate",
  reportUserId: "settings.reports.userId",
  fundStatus: "settings.funds.status",
  fundOrderBy: "settings.funds.orderBy",
  fundOrder: "settings.funds.order",
  fundFrom: "settings.funds.from",
  fundTo: "settings.funds.to",
  sheetFunds: "settings.sheet.funds",
  sheetTransactions: "settings.sheet.transactions",
  sheetReports: "settings.sheet.reports",
  sheetAudit: "settings.sheet.audit",
  sheetOutbox: "settings.sheet.outbox",
  missingRows: "settings.missingRows",
  language: "settings.language",
};

/** The form as a new document has it, in `language`. */
export function defaultSettingsForm(language: Language): SettingsForm {
  return {
    baseUrl: DEFAULT_BASE_URL,
    adminId: "",
    pageSize: "100",
    windowMode: "lastDays",
    windowDays: "30",
    windowFrom: "",
    windowTo: "",
    reportTypeDateFilter: "1",
    reportStatus: "",
    reportCurrency: "",
    reportPolicyId: "",
    reportIntegrationStatus: "",
    reportIntegrationCode: "",
    reportIntegrationDate: "",
    reportUserId: "",
    fundStatus: "",
    fundOrderBy: "1",
    fundOrder: "DESC",
    fundFrom: "",
    fundTo: "",
    sheetFunds: translate(language, "sheet.funds"),
    sheetTransactions: translate(language, "sheet.transactions"),
    sheetReports: translate(language, "sheet.reports"),
    sheetAudit: translate(language, "sheet.audit"),
    sheetOutbox: translate(language, "outbox.sheetName"),
    missingRows: "keep",
    language,
  };
}

/** A stored form merged over the defaults; unknown keys and non-text values are dropped. */
export function storedSettingsForm(stored: unknown, language: Language): SettingsForm {
  const form = defaultSettingsForm(language);
  if (stored && typeof stored === "object") {
    for (const field of SETTINGS_FIELDS) {
      const value = (stored as Record<string, unknown>)[field];
      if (typeof value === "string") form[field] = value;
    }
  }
  return form;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

function isWhole(text: string, min: number, max: number): boolean {
  return /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max;
}

/**
 * Checks `input` (untrusted) and returns the cleaned form, or the problems found. Text is
 * trimmed; the currency is upper-cased; the base URL loses a trailing slash.
 */
export function checkSettingsForm(
  input: unknown,
  language: Language,
): { ok: true; form: SettingsForm } | { ok: false; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  if (!input || typeof input !== "object") {
    return { ok: false, problems: [{ field: "form", message: "form: must be an object of text fields" }] };
  }
  const raw = input as Record<string, unknown>;
  const form = defaultSettingsForm(language);
  for (const field of SETTINGS_FIELDS) {
    const value = raw[field];
    if (value === undefined) continue;
    if (typeof value !== "string") {
      problems.push({
        field,
        message: `${translate(language, LABELS[field])}: ${translate(language, "settings.rule.text")}`,
      });
      continue;
    }
    form[field] = value.trim();
  }
  const problem = (field: SettingsField, rule: StringKey, params: Record<string, string | number> = {}) =>
    problems.push({
      field,
      message: `${translate(language, LABELS[field])}: ${translate(language, rule, params)}`,
    });
  const oneOf = (field: SettingsField, allowed: readonly string[]) => {
    if (!allowed.includes(form[field]))
      problem(field, "settings.rule.oneOf", { values: allowed.filter(Boolean).join(", ") });
  };
  const optionalWhole = (field: SettingsField, min: number, max: number) => {
    if (form[field] !== "" && !isWhole(form[field], min, max))
      problem(field, "settings.rule.whole", { min, max });
  };
  const optionalDate = (field: SettingsField) => {
    if (form[field] !== "" && !isDate(form[field])) problem(field, "settings.rule.date");
  };

  form.baseUrl = form.baseUrl.replace(/\/+$/, "");
  const url = /^(https?):\/\/([^/?#\s]+)(\/[^?#\s]*)?$/.exec(form.baseUrl);
  const host = url?.[2]?.replace(/:\d+$/, "") ?? "";
  if (!url) problem("baseUrl", "settings.rule.url");
  else if (url[1] === "http" && host !== "localhost" && host !== "127.0.0.1")
    problem("baseUrl", "settings.rule.https");

  optionalWhole("adminId", 1, Number.MAX_SAFE_INTEGER);
  if (!isWhole(form.pageSize, 1, MAX_PAGE_SIZE))
    problem("pageSize", "settings.rule.whole", { min: 1, max: MAX_PAGE_SIZE });
  oneOf("windowMode", ["lastDays", "range"]);
  if (form.windowMode === "range") {
    if (!isDate(form.windowFrom)) problem("windowFrom", "settings.rule.date");
    if (!isDate(form.windowTo)) problem("windowTo", "settings.rule.date");
    if (isDate(form.windowFrom) && isDate(form.windowTo) && form.windowFrom > form.windowTo) {
      problem("windowTo", "settings.rule.after", { other: translate(language, LABELS.windowFrom) });
    }
  } else if (!isWhole(form.windowDays, 1, MAX_WINDOW_DAYS)) {
    problem("windowDays", "settings.rule.whole", { min: 1, max: MAX_WINDOW_DAYS });
  }
  oneOf("reportTypeDateFilter", ["1", "2"]);
  oneOf("reportStatus", ["", "0", "1"]);
  form.reportCurrency = form.reportCurrency.toUpperCase();
  if (form.reportCurrency !== "" && !/^[A-Z]{3}$/.test(form.reportCurrency))
    problem("reportCurrency", "settings.rule.currency");
  optionalWhole("reportPolicyId", 1, Number.MAX_SAFE_INTEGER);
  oneOf("reportIntegrationStatus", ["", "0", "1"]);
  if (form.reportIntegrationCode.length > 255)
    problem("reportIntegrationCode", "settings.rule.maxLength", { max: 255 });
  optionalDate("reportIntegrationDate");
  optionalWhole("reportUserId", 1, Number.MAX_SAFE_INTEGER);
  oneOf("fundStatus", ["", "1", "2", "3"]);
  oneOf("fundOrderBy", ["1", "2"]);
  oneOf("fundOrder", ["ASC", "DESC"]);
  optionalDate("fundFrom");
  optionalDate("fundTo");
  if (isDate(form.fundFrom) && isDate(form.fundTo) && form.fundFrom > form.fundTo) {
    problem("fundTo", "settings.rule.after", { other: translate(language, LABELS.fundFrom) });
  }
  const sheetFields: SettingsField[] = [
    "sheetFunds",
    "sheetTransactions",
    "sheetReports",
    "sheetAudit",
    "sheetOutbox",
  ];
  const seen = new Map<string, SettingsField>();
  for (const field of sheetFields) {
    const name = form[field];
    if (name === "") problem(field, "settings.rule.required");
    else if (name.length > 100) problem(field, "settings.rule.maxLength", { max: 100 });
    else if (seen.has(name.toLowerCase())) {
      problem(field, "settings.rule.sameSheet", {
        other: translate(language, LABELS[seen.get(name.toLowerCase()) as SettingsField]),
      });
    } else seen.set(name.toLowerCase(), field);
  }
  oneOf("missingRows", ["keep", "remove"]);
  oneOf("language", ["en", "es"]);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, form };
}

/** Checks a token typed in the form: no spaces inside, a sensible length. */
export function checkToken(
  token: unknown,
  language: Language,
): { ok: true; token: string } | { ok: false; problem: FieldProblem } {
  const label = translate(language, "settings.token");
  if (typeof token !== "string")
    return {
      ok: false,
      problem: { field: "token", message: `${label}: ${translate(language, "settings.rule.text")}` },
    };
  const trimmed = token.trim();
  if (!/^\S{8,4096}$/.test(trimmed)) {
    return {
      ok: false,
      problem: { field: "token", message: `${label}: ${translate(language, "settings.rule.token")}` },
    };
  }
  return { ok: true, token: trimmed };
}
