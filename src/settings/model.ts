/**
 * The add-on's settings: what each one is, its default, and its rules. Stored as the text the
 * settings form edits (one record of named text fields, "" meaning "not set, use the default"),
 * read as typed values. Pure: no Apps Script globals.
 *
 * To add a setting: add its field to SETTING_FIELDS with a default and a check, then read it in
 * `settingsFromForm`.
 */

import { ownMember } from "../api/arguments";
import { ENDPOINTS } from "../api/endpoints";
import { checkField, type FieldSpec } from "../api/fields";
import { type IssueParams, type Rule, ruleWords } from "../api/messages";
import { hostOf } from "../api/urls";
import { DEFAULT_BASE_URL } from "../api/wire";
import { LANGUAGES, type Language, languageForLocale, type StringKey, translate } from "../i18n";
import type { Words, WordValue } from "../i18n/words";
import { auditArchiveName, SHEET_DEFAULTS, type SheetNames } from "./sheet-names";

export { DEFAULT_BASE_URL };
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_WINDOW_DAYS = 30;
/**
 * Report dates apply to the send date unless chosen otherwise: "last 30 days" then means every
 * report sent in those days, open or closed. The service's own default (close date) would hide
 * every open report, since an open report has no close date.
 */
export const DEFAULT_REPORT_DATE_FILTER = 2;
/** Longer windows are fetched one year at a time; ten years is plenty. */
export const MAX_WINDOW_DAYS = 3660;
export const MAX_SHEET_NAME = 100;
/**
 * Longest service URL: the base URL, an endpoint name and a query string must fit in UrlFetch's
 * 2 KB, and the real one is 30 characters.
 */
export const MAX_BASE_URL = 500;
/** Longest text of a number, a date, a code or a choice (ids, page size, filters, language). */
export const MAX_SHORT_SETTING = 30;
/** Longest access token accepted. */
export const MAX_TOKEN_LENGTH = 2048;

/**
 * One problem with one setting; `field` is the form field's name. What it says is data (`words`:
 * a message's key and values), said in the user's language by ./words.ts.
 */
export interface SettingsIssue {
  field: string;
  rule: string;
  words: Words;
  /** The values the rule names (a bound, the value got), when the issue is one of the rules'. */
  params?: Record<string, WordValue>;
}

type Check = { ok: true; value: unknown } | { ok: false; rule: string; params: IssueParams };

interface SettingField {
  /** Text stored when the user never set it; "" means "use the computed default". */
  defaultText: string;
  /**
   * The longest text accepted, in characters, checked before the field's rule. Every setting
   * has one: together they keep the stored settings well inside one document property (9 KB).
   */
  maxLength: number;
  check(text: string): Check;
}

const reportsFields = ENDPOINTS.getExpenseReports.fields as Record<string, FieldSpec>;
const fundsFields = ENDPOINTS.getFunds.fields as Record<string, FieldSpec>;

/** A filter checked by the contract's own rules for that request parameter. */
function apiField(spec: FieldSpec | undefined): SettingField {
  return {
    defaultText: "",
    maxLength: spec?.kind === "text" ? spec.maxLength : MAX_SHORT_SETTING,
    check: (text): Check => {
      if (!spec) return { ok: false, rule: "unknownField", params: { endpoint: "settings" } };
      const r = checkField(spec, text);
      return r.ok ? r : { ok: false, rule: r.rule, params: r.params };
    },
  };
}

function integerField(min: number, max: number, defaultText = ""): SettingField {
  return {
    defaultText,
    maxLength: MAX_SHORT_SETTING,
    check: (text): Check => {
      if (!/^-?\d{1,15}$/.test(text)) return { ok: false, rule: "integer", params: { got: text } };
      const n = Number(text);
      if (n < min) return { ok: false, rule: "min", params: { min, got: n } };
      if (n > max) return { ok: false, rule: "max", params: { max, got: n } };
      return { ok: true, value: n };
    },
  };
}

function choiceField(values: readonly string[], defaultText = ""): SettingField {
  return {
    defaultText,
    maxLength: MAX_SHORT_SETTING,
    check: (text): Check =>
      values.includes(text)
        ? { ok: true, value: text }
        : { ok: false, rule: "oneOf", params: { values: values.join(", "), got: text } },
  };
}

const sheetNameField: SettingField = {
  defaultText: "",
  maxLength: MAX_SHEET_NAME,
  check: (text) => {
    const length = Array.from(text).length;
    if (length > MAX_SHEET_NAME)
      return { ok: false, rule: "maxLength", params: { max: MAX_SHEET_NAME, length } };
    return { ok: true, value: text };
  },
};

const LOCAL_HOSTS = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

/**
 * The service URL: https (http only for a service on this machine, such as the sandbox), a
 * host, a path that carries the version, no query or fragment. No user info: in
 * "https://api.rindegastos.com@attacker.example/v1" the host is attacker.example.
 */
const baseUrlField: SettingField = {
  defaultText: "",
  maxLength: MAX_BASE_URL,
  check: (text): Check => {
    const m = /^(https?):\/\/([^/?#\s]+)(\/[^?#\s]*)?$/i.exec(text);
    if (!m) return { ok: false, rule: "url", params: { got: text } };
    const scheme = (m[1] ?? "").toLowerCase();
    const host = m[2] ?? "";
    if (host.includes("@")) return { ok: false, rule: "userInfo", params: { got: text, host: hostOf(text) } };
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i.test(host))
      return { ok: false, rule: "url", params: { got: text } };
    if (scheme === "http" && !LOCAL_HOSTS.test(host))
      return { ok: false, rule: "https", params: { got: text } };
    return { ok: true, value: `${scheme}://${host}${(m[3] ?? "").replace(/\/+$/, "")}` };
  },
};

/** Every setting the document keeps, by the name of its form field. */
export const SETTING_FIELDS = {
  baseUrl: baseUrlField,
  adminId: integerField(1, Number.MAX_SAFE_INTEGER),
  pageSize: integerField(1, MAX_PAGE_SIZE),
  windowMode: choiceField(["lastDays", "range"]),
  windowDays: integerField(1, MAX_WINDOW_DAYS),
  windowFrom: apiField(reportsFields.Since),
  windowTo: apiField(reportsFields.Until),
  reportTypeDateFilter: apiField(reportsFields.TypeDateFilter),
  reportStatus: apiField(reportsFields.Status),
  reportCurrency: apiField(reportsFields.Currency),
  reportPolicyId: apiField(reportsFields.ExpensePolicyId),
  reportIntegrationStatus: apiField(reportsFields.IntegrationStatus),
  reportIntegrationCode: apiField(reportsFields.IntegrationCode),
  reportIntegrationDate: apiField(reportsFields.IntegrationDate),
  reportUserId: apiField(reportsFields.UserId),
  fundStatus: apiField(fundsFields.Status),
  fundOrderBy: apiField(fundsFields.OrderBy),
  fundOrder: apiField(fundsFields.Order),
  fundFrom: apiField(fundsFields.From),
  fundTo: apiField(fundsFields.To),
  sheetFunds: sheetNameField,
  sheetTransactions: sheetNameField,
  sheetReports: sheetNameField,
  sheetAudit: sheetNameField,
  sheetOutbox: sheetNameField,
  missingRows: choiceField(["keep", "remove"]),
  auditReads: choiceField(["summed", "every"]),
  language: choiceField(["en", "es"]),
} satisfies Record<string, SettingField>;

export type SettingName = keyof typeof SETTING_FIELDS;
export const SETTING_NAMES = Object.keys(SETTING_FIELDS) as SettingName[];

/** The settings as the form edits them: text per field, "" for "use the default". */
export type SettingsText = Record<SettingName, string>;

export type ReportWindow =
  | { kind: "lastDays"; days: number }
  | { kind: "range"; from: string; to: string | null };

/** getExpenseReports filters, as request parameters (Since/Until come from the window). */
export interface ReportFilters {
  TypeDateFilter?: number;
  Currency?: string;
  Status?: number;
  ExpensePolicyId?: number;
  IntegrationStatus?: number;
  IntegrationCode?: string;
  IntegrationDate?: string;
  UserId?: number;
}

/** getFunds filters, as request parameters. */
export interface FundFilters {
  Status?: number;
  OrderBy?: number;
  Order?: string;
  From?: string;
  To?: string;
}

export type { SheetNames };

/** The settings as the add-on uses them; the token is not here (see SettingsStore). */
export interface Settings {
  /** Includes the version: https://api.rindegastos.com/v1 by default. */
  baseUrl: string;
  /** IdAdmin sent with writes; null until set (writes are then refused before sending). */
  adminId: number | null;
  pageSize: number;
  reportWindow: ReportWindow;
  reportFilters: ReportFilters;
  fundFilters: FundFilters;
  /** The names chosen for the sheets; "" where the default name of the language applies. */
  sheetNames: SheetNames;
  /** What a refresh does with rows whose record the service no longer lists. */
  missingRows: "keep" | "remove";
  /** The Audit sheet's reads: one row per run ("summed") or one per call ("every"). */
  auditReads: "summed" | "every";
  /** Chosen for the document; null means each user's own locale. */
  language: Language | null;
}

/** Each setting's label in the settings form (messages for the form name fields by it). */
export const SETTING_LABELS: Record<SettingName, StringKey> = {
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
  auditReads: "settings.auditReads",
  language: "settings.language",
};

/**
 * What an empty setting means, as the form shows it: the value a refresh uses when the
 * setting is "" (TypeDateFilter 2, the send date; for the other filters that mirror a request
 * parameter, the contract's own default: OrderBy 1, Order DESC). Showing one of these and saving
 * it changes nothing. The sheets' names and the language are the document's language's
 * (`shownDefaults` in ./form.ts); here they are left as they are by default.
 */
export function shownDefaultText(): SettingsText {
  const text = defaultSettingsText();
  text.baseUrl = DEFAULT_BASE_URL;
  // Empty: the largest page the service accepts, found once (src/refresh/page-size.ts).
  text.pageSize = "";
  text.windowMode = "lastDays";
  text.windowDays = String(DEFAULT_WINDOW_DAYS);
  text.reportTypeDateFilter = String(DEFAULT_REPORT_DATE_FILTER);
  text.fundOrderBy = "1";
  text.fundOrder = "DESC";
  text.missingRows = "keep";
  text.auditReads = "summed";
  return text;
}

/** What a refused token's issue says: "The access token" and the reason, as data. */
export function tokenWords(reason: string): Words {
  return {
    key: "settings.issue.token",
    params: {
      field: { say: "settings.token.label" },
      reason: { say: `settings.token.${reason}` as StringKey, params: { max: MAX_TOKEN_LENGTH } },
    },
  };
}

/**
 * Problems with the shape of what a form sent (before any rule): not an object, or a known
 * setting that is neither text nor a number. Such values would otherwise be dropped unseen.
 */
export function settingsInputIssues(input: unknown, options: SettingsMessageOptions = {}): SettingsIssue[] {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return [issue("form", "request", { got: Array.isArray(input) ? "a list" : String(input) })];
  }
  const issues: SettingsIssue[] = [];
  for (const name of SETTING_NAMES) {
    const v = ownMember(input, name);
    if (v === undefined || typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) continue;
    issues.push(issue(name, "text", { got: v === null ? "null" : typeof v }, options));
  }
  return issues;
}

/** The text of every setting at its default. */
export function defaultSettingsText(): SettingsText {
  const out = {} as SettingsText;
  for (const name of SETTING_NAMES) out[name] = SETTING_FIELDS[name].defaultText;
  return out;
}

/**
 * Text from anywhere (stored JSON, a form sent by google.script.run) as SettingsText: known
 * fields only, strings trimmed, numbers turned into text, everything else dropped.
 */
export function settingsTextFrom(input: unknown, base: SettingsText = defaultSettingsText()): SettingsText {
  const out = { ...base };
  if (typeof input !== "object" || input === null || Array.isArray(input)) return out;
  for (const name of SETTING_NAMES) {
    // Own members only: an inherited one was not sent (a "__proto__" member, say).
    const v = ownMember(input, name);
    if (typeof v === "string") out[name] = v.trim();
    else if (typeof v === "number" && Number.isFinite(v)) out[name] = String(v);
  }
  return out;
}

/** Rules of the settings' own (their texts in src/i18n/rules.ts, "settings.issue.*"). */
const SETTINGS_RULES = new Set([
  "url",
  "https",
  "userInfo",
  "unique",
  "uniqueDefault",
  "requiredWith",
  "token",
]);

/** What an issue of `rule` says of `field`, as data. */
function issueWords(field: WordValue, rule: string, params: IssueParams): Words {
  if (SETTINGS_RULES.has(rule))
    return {
      key: `settings.issue.${rule}` as StringKey,
      params: { ...params, field, example: DEFAULT_BASE_URL },
    };
  return ruleWords(rule as Rule, field, params);
}

/** How messages name a field: by its name (API-like callers) or by the form's label. */
export interface SettingsMessageOptions {
  labels?: boolean;
}

function issue(
  field: string,
  rule: string,
  params: Record<string, WordValue>,
  options: SettingsMessageOptions = {},
): SettingsIssue {
  const label = (name: string): WordValue =>
    options.labels && name in SETTING_LABELS ? { say: SETTING_LABELS[name as SettingName] } : name;
  const shown = { ...params };
  if (typeof params.other === "string") shown.other = label(params.other);
  return { field, rule, words: issueWords(label(field), rule, shown as IssueParams), params };
}

/**
 * A service URL checked by the rules of the `baseUrl` setting (length, then scheme, host, no
 * user info), its message naming `label`: the normalised URL (no trailing slash) or the issue,
 * filed under `field`. Companies' URLs (companies.ts) follow the same rules.
 */
export function checkServiceUrl(
  text: string,
  field: string,
  label: WordValue,
): { ok: true; value: string } | { ok: false; issue: SettingsIssue } {
  const fail = (rule: string, params: IssueParams) => ({
    ok: false as const,
    issue: { field, rule, words: issueWords(label, rule, params) },
  });
  const trimmed = text.trim();
  if (trimmed === "") return fail("required", {});
  const length = Array.from(trimmed).length;
  if (length > MAX_BASE_URL) return fail("maxLength", { max: MAX_BASE_URL, length });
  const r = baseUrlField.check(trimmed);
  return r.ok ? { ok: true, value: r.value as string } : fail(r.rule, r.params);
}

export type SettingsCheck =
  | { ok: true; settings: Settings; text: SettingsText }
  | { ok: false; issues: SettingsIssue[] };

/**
 * Checks every setting and the rules between them; returns the typed settings or every
 * problem, each naming its field.
 */
export function settingsFromText(text: SettingsText, options: SettingsMessageOptions = {}): SettingsCheck {
  const issues: SettingsIssue[] = [];
  const values: Partial<Record<SettingName, unknown>> = {};
  for (const name of SETTING_NAMES) {
    const raw = text[name] ?? "";
    if (raw === "") continue;
    // Length first: a rule's message quotes the value, and a huge one must not come back.
    const { maxLength } = SETTING_FIELDS[name];
    const length = Array.from(raw).length;
    if (length > maxLength) {
      issues.push(issue(name, "maxLength", { max: maxLength, length }, options));
      continue;
    }
    const r = SETTING_FIELDS[name].check(raw);
    if (r.ok) values[name] = r.value;
    else issues.push(issue(name, r.rule, r.params, options));
  }

  const mode = (values.windowMode as string | undefined) ?? "lastDays";
  if (mode === "range" && values.windowFrom === undefined && !issues.some((i) => i.field === "windowFrom")) {
    issues.push(issue("windowFrom", "requiredWith", { other: "windowMode", value: "range" }, options));
  }
  const ordered: [SettingName, SettingName][] = [
    ["windowFrom", "windowTo"],
    ["fundFrom", "fundTo"],
  ];
  for (const [from, to] of ordered) {
    const a = values[from];
    const b = values[to];
    if (typeof a === "string" && typeof b === "string" && b < a) {
      issues.push(issue(to, "dateOrder", { got: b, other: from, otherValue: a }, options));
    }
  }
  const flagged = new Set(issues.map((i) => i.field));
  for (const found of sheetNameIssues(text, options)) {
    if (!flagged.has(found.field)) issues.push(found);
  }
  if (issues.length > 0) return { ok: false, issues };

  const pick = <T>(entries: Record<string, unknown>): T => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(entries)) if (v !== undefined) out[k] = v;
    return out as T;
  };
  const settings: Settings = {
    baseUrl: (values.baseUrl as string | undefined) ?? DEFAULT_BASE_URL,
    adminId: (values.adminId as number | undefined) ?? null,
    pageSize: (values.pageSize as number | undefined) ?? DEFAULT_PAGE_SIZE,
    reportWindow:
      mode === "range"
        ? {
            kind: "range",
            from: values.windowFrom as string,
            to: (values.windowTo as string | undefined) ?? null,
          }
        : { kind: "lastDays", days: (values.windowDays as number | undefined) ?? DEFAULT_WINDOW_DAYS },
    reportFilters: pick<ReportFilters>({
      TypeDateFilter: (values.reportTypeDateFilter as number | undefined) ?? DEFAULT_REPORT_DATE_FILTER,
      Currency: values.reportCurrency,
      Status: values.reportStatus,
      ExpensePolicyId: values.reportPolicyId,
      IntegrationStatus: values.reportIntegrationStatus,
      IntegrationCode: values.reportIntegrationCode,
      IntegrationDate: values.reportIntegrationDate,
      UserId: values.reportUserId,
    }),
    fundFilters: pick<FundFilters>({
      Status: values.fundStatus,
      OrderBy: values.fundOrderBy,
      Order: values.fundOrder,
      From: values.fundFrom,
      To: values.fundTo,
    }),
    sheetNames: {
      funds: (values.sheetFunds as string | undefined) ?? "",
      transactions: (values.sheetTransactions as string | undefined) ?? "",
      reports: (values.sheetReports as string | undefined) ?? "",
      audit: (values.sheetAudit as string | undefined) ?? "",
      outbox: (values.sheetOutbox as string | undefined) ?? "",
    },
    missingRows: (values.missingRows as "keep" | "remove" | undefined) ?? "keep",
    auditReads: (values.auditReads as "summed" | "every" | undefined) ?? "summed",
    language: (values.language as Language | undefined) ?? null,
  };
  // Normalised text (upper-case currency, URL without trailing slash…) so what is stored is
  // what is used.
  const normalised = { ...text };
  for (const name of SETTING_NAMES) {
    const v = values[name];
    if (v !== undefined) normalised[name] = String(v);
  }
  return { ok: true, settings, text: normalised };
}

/** The language for this user: the document's choice, else the user's locale. */
export function languageFor(
  settings: Pick<Settings, "language">,
  userLocale: string | null | undefined,
): Language {
  return settings.language ?? languageForLocale(userLocale);
}

/** The setting that names each sheet, in the order conflicts are reported. */
const SHEET_SETTINGS: Record<keyof SheetNames, SettingName> = {
  funds: "sheetFunds",
  transactions: "sheetTransactions",
  reports: "sheetReports",
  audit: "sheetAudit",
  outbox: "sheetOutbox",
};

/** How Sheets tells sheet names apart: ignoring case and the spaces around them. */
function sheetKey(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * Every sheet the add-on writes (funds, transactions, reports, audit, audit archive, Outbox)
 * needs a name of its own: a chosen name may be neither another sheet's chosen name nor
 * another sheet's default name in English or Spanish (what that sheet is called for a user of
 * the other language, and a name the add-on looks for). Sheets compares names trimmed and in
 * any case, and so does this. One issue per setting that breaks the rule; when two chosen
 * names are equal, the later setting is named.
 */
export function sheetNameIssues(
  text: Partial<SettingsText>,
  options: SettingsMessageOptions = {},
): SettingsIssue[] {
  const kinds = Object.keys(SHEET_SETTINGS) as (keyof SheetNames)[];
  const chosen = (kind: keyof SheetNames) => (text[SHEET_SETTINGS[kind]] ?? "").trim();
  const languages = LANGUAGES;
  const archiveLabel = { say: "settings.sheet.auditArchive" } as const;
  const issues: SettingsIssue[] = [];
  kinds.forEach((kind, index) => {
    const name = chosen(kind);
    if (name === "") return;
    const key = sheetKey(name);
    const field = SHEET_SETTINGS[kind];
    for (const [otherIndex, other] of kinds.entries()) {
      if (other === kind) continue;
      if (otherIndex < index && sheetKey(chosen(other)) === key) {
        issues.push(issue(field, "unique", { got: name, other: SHEET_SETTINGS[other] }, options));
        return;
      }
      if (languages.some((l) => sheetKey(translate(l, SHEET_DEFAULTS[other])) === key)) {
        issues.push(issue(field, "uniqueDefault", { got: name, other: SHEET_SETTINGS[other] }, options));
        return;
      }
    }
    // The archive's names: its defaults, and the one it takes after the audit's name.
    const archives = languages.flatMap((l) => [
      translate(l, "sheet.auditArchive"),
      auditArchiveName(chosen("audit") || translate(l, SHEET_DEFAULTS.audit), l),
    ]);
    if (archives.some((n) => sheetKey(n) === key)) {
      issues.push(issue(field, "unique", { got: name, other: archiveLabel }, options));
      return;
    }
    // The report files' names: their defaults, and the one they take after the reports' name
    // (src/refresh/options.ts), so that no refresh writes files into another sheet's rows.
    const reports = chosen("reports");
    const files = languages.map((l) => translate(l, "sheet.files"));
    if (reports) files.push(`${reports} (files)`);
    if (files.some((n) => sheetKey(n) === key)) {
      const other = { say: "settings.sheet.files" } as const;
      issues.push(issue(field, "unique", { got: name, other }, options));
    }
  });
  return issues;
}

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * The report window as dates, both included: "last N days" ends today (YYYY-MM-DD in the
 * document's time zone) and starts N-1 days before; a range without an end ends today.
 */
export function reportWindowDates(window: ReportWindow, today: string): { since: string; until: string } {
  if (window.kind === "range") return { since: window.from, until: window.to ?? today };
  return { since: addDays(today, -(window.days - 1)), until: today };
}
