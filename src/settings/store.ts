/**
 * Where settings live. The access token goes to the USER store only (readable by that user
 * alone); every other setting goes to the DOCUMENT store, shared by everyone who uses the
 * spreadsheet. The stores are handed in (PropertiesService's stores in Apps Script, maps in
 * tests), so this runs anywhere.
 *
 * A token is bound to the origin (scheme, host, port) of the service URL it was saved for, and
 * `token(baseUrl)` gives it only for that origin: the service URL is a document setting any
 * editor can change, and must not decide where another user's token goes (README.md here).
 */

import { ownMember } from "../api/arguments";
import { ruleWords } from "../api/messages";
import { hostOf, originOf } from "../api/urls";
import { type CompanyKey, FIRST_COMPANY_KEY } from "../company/model";
import type { StringKey } from "../i18n";
import { companyNamed, say, type Words } from "../i18n/words";
import {
  ADMIN_ID_KEY,
  type CompanyBinding,
  type CompanyUsability,
  type CompanyWriteUsability,
  deleteToken,
  readAdminId,
  readBinding,
  readToken,
  TOKEN_KEY,
  TOKEN_ORIGIN_KEY,
  tokenKeyOf,
  usability,
  usabilityWords,
  writeBinding,
  writeToken,
  writeUsability,
} from "./bindings";
import {
  applyCompanyChange,
  COMPANIES_KEY,
  type Companies,
  type CompanyChangeContext,
  type CompanyChangeResult,
  type CompanyEntry,
  companiesFrom,
  companiesText,
  companyByKey,
  isCompanyKey,
} from "./companies";
import {
  defaultSettingsText,
  MAX_TOKEN_LENGTH,
  SETTING_FIELDS,
  SETTING_LABELS,
  type Settings,
  type SettingsCheck,
  type SettingsIssue,
  type SettingsMessageOptions,
  type SettingsText,
  settingsFromText,
  settingsTextFrom,
  tokenWords,
} from "./model";

/** The part of a property store used here; PropertiesService's Properties fits. */
export interface PropertyStore {
  getProperty(key: string): string | null;
  setProperty(key: string, value: string): unknown;
  deleteProperty(key: string): unknown;
  /** Every key of the store (PropertiesService has it): finds tokens the list no longer names. */
  getKeys?(): string[];
}

/**
 * Document property holding the settings' text as one JSON object (the same key the refresh
 * and the settings sidebar use).
 */
export const SETTINGS_KEY = "settings.form";
// The user properties of the first company's token, where they have always been (bindings.ts).
export { ADMIN_ID_KEY, MAX_TOKEN_LENGTH, TOKEN_KEY, TOKEN_ORIGIN_KEY };
/**
 * User property: "1" when this user wants an e-mail when a scheduled refresh fails (the same
 * key the schedule reads). Per user: the e-mail goes to them.
 */
export const FAILURE_EMAIL_KEY = "schedule.mailOnFailure";

export interface TokenStatus {
  /** True when the current user has a token saved. */
  saved: boolean;
  /** Last four characters, to tell tokens apart; "" when none. Never more of it. */
  last4: string;
  /** Host (and port) the token is sent to; "" when none is saved or it is bound to none. */
  host: string;
  /**
   * The document's service URL when a token is saved but not bound to its origin (another
   * editor changed the URL, or the token was saved before tokens were bound): what its owner
   * may confirm in Settings. "" when the token can be used with the document's URL.
   */
  confirmUrl: string;
}

/**
 * Why the current user's token is not given. For the first company's shims (`token`): bound to
 * another origin ("changed": the document's URL changed; "elsewhere": a URL other than the
 * document's was asked for) or to none ("unbound"). For `companyToken`: the company's
 * usability (bindings.ts), "elsewhere" (a URL off the company's origin), or "unknown" (no such
 * company). `words` is the notice the user reads, as data (./words.ts says it in their
 * language; the message is its English text); it never holds the token.
 */
export type TokenNotBoundReason =
  | "changed"
  | "unbound"
  | "elsewhere"
  | "unknown"
  | Exclude<CompanyWriteUsability, "ready">;

export class TokenNotBoundError extends Error {
  readonly url: string;
  readonly reason: TokenNotBoundReason;
  /** The company asked for; "" from the first company's shims. */
  readonly key: CompanyKey;
  readonly words: Words;

  constructor(
    url: string,
    reason: TokenNotBoundReason,
    words: Words,
    key: CompanyKey = "",
    message = say("en", words),
  ) {
    super(message);
    this.name = "TokenNotBoundError";
    this.url = url;
    this.reason = reason;
    this.key = key;
    this.words = words;
  }
}

/** A company as a form showed it: a save or confirmation is made knowing this, or refused. */
export interface CompanySeen {
  name: string;
  apiUrl: string;
}

/** One company and the current user's token for it, as data. */
export interface CompanyTokenStatus {
  key: CompanyKey;
  name: string;
  apiUrl: string;
  /** Host (and port) of the company's service URL. */
  host: string;
  removed: boolean;
  /** Whether the user's token may be used for reads, or why not. */
  status: CompanyUsability;
  /** The same for writes: also needs an IdAdmin saved with the token. */
  writeStatus: CompanyWriteUsability;
  /** Last four characters of the user's token, "" when none (or too short to show any). */
  last4: string;
  /** Host the token is bound to; "" when bound to none. */
  boundHost: string;
  /** The IdAdmin saved with the token; null when none. */
  adminId: number | null;
  /**
   * What confirming binds the token to (the company as listed now, to send back as `seen`),
   * when a token is saved, the company is listed and the token is not usable for it; else null.
   */
  confirm: CompanySeen | null;
  /** The status as data (./words.ts says it), naming the company and the host. */
  words: Words;
}

/** One company and the current user's token for it, as Settings shows them: its status in words. */
export type CompanyStatus = Omit<CompanyTokenStatus, "words"> & {
  /** The status in the user's words, naming the company and the host. */
  message: string;
};

/** What a store needs besides its property stores. */
export interface SettingsStoreSources {
  document: PropertyStore;
  user: PropertyStore;
  /** The time bindings and removals are stamped with (Date.now by default). */
  now?: () => number;
}

export interface LoadedSettings {
  settings: Settings;
  text: SettingsText;
  /** Stored values that break a rule (kept as stored; their defaults apply meanwhile). */
  issues: SettingsIssue[];
}

export type TokenCheck = { ok: true } | { ok: false; issues: SettingsIssue[] };

export interface SettingsStore {
  /** The stored text of every setting, defaults where never set. */
  text(): SettingsText;
  /**
   * Every stored text field, including keys the form does not edit (knobs such as
   * `fetchBatchSize` or `auditMaxRows` that a benchmark or a test deployment sets).
   */
  fields(): Record<string, string>;
  /** The typed settings; a stored value that no longer passes its rule falls back to its default. */
  load(): LoadedSettings;
  /**
   * Applies `changes` (some fields of SettingsText) over what is stored and saves when every
   * rule passes; saves nothing otherwise.
   */
  save(changes: unknown, options?: SettingsMessageOptions): SettingsCheck;
  /**
   * The current user's token for requests to `baseUrl`, "" when none is saved. Throws
   * TokenNotBoundError when the token is bound to another origin or to none: pass the URL the
   * requests will go to. For the client only: never show or log it.
   */
  token(baseUrl: string): string;
  tokenStatus(): TokenStatus;
  /** Saves the token, bound to the origin of the document's service URL. */
  saveToken(token: unknown): TokenCheck;
  /**
   * Binds the saved token to the origin of `url`, the owner's explicit confirmation. Only
   * when `url` is the document's service URL now (what the owner was shown); false otherwise
   * or when no token is saved.
   */
  confirmTokenUrl(url: unknown): boolean;
  /**
   * Why the document's IdAdmin may not go with this user's writes (another editor changed it
   * since this user saved it, or this user never saved one), as the words they read; null
   * when it may (or when none is set: the contract's own message refuses the writes then).
   */
  adminIdIssue(): Words | null;
  removeToken(): void;
  /**
   * The document's companies: the stored list, or (never edited) the first company at the
   * service URL. Nothing is written.
   */
  companies(): Companies;
  /**
   * Applies one editor's change to the list and saves it (the caller holds the document lock);
   * the first company's URL is copied into the `baseUrl` setting, so an older version still
   * reaches it. A change the current user makes to a company their token is usable for takes
   * the token along (their own act); other users' tokens wait for their owners to confirm.
   */
  changeCompanies(change: unknown, context: CompanyChangeContext): CompanyChangeResult;
  /**
   * The only reader of a token for a company: the current user's token for `key`, for requests
   * to `url`. Throws TokenNotBoundError (with `reason`) unless the company is listed, a token is
   * saved and bound to the company's current name and origin, and `url` is on that origin; for
   * writes, unless an IdAdmin is saved with it too. For the client only: never show or log it.
   */
  companyToken(key: CompanyKey, url: string, purpose?: "read" | "write"): string;
  /**
   * The current user's saved token for `key` ("" when none), bound or not: only for checking the
   * account it opens before a confirmation binds it (companyToken refuses an unbound token).
   * Never show, log or send it anywhere else.
   */
  savedCompanyToken(key: CompanyKey): string;
  /** The IdAdmin the current user saved with their token for `key`; null when none. */
  companyAdminId(key: CompanyKey): number | null;
  /** Every company of the document (removed ones too) and the current user's token for it. */
  companyStatuses(): CompanyTokenStatus[];
  /**
   * Saves the current user's token and IdAdmin for `key`, bound to the company as `seen` (as
   * the form showed it); refused when the company changed since. Written binding deleted,
   * token, binding: a save cut short leaves the token bound to nothing.
   */
  saveCompanyToken(key: CompanyKey, token: unknown, adminId: unknown, seen: unknown): TokenCheck;
  /**
   * The owner's confirmation: binds their saved token for `key` to the company as `seen`, only
   * when that is the company as listed now. The IdAdmin saved with the token is kept.
   */
  confirmCompany(key: CompanyKey, seen: unknown): TokenCheck;
  /** Removes the current user's token for `key`, its binding first (nothing for a malformed key). */
  removeCompanyToken(key: CompanyKey): void;
  /** Every token the current user has saved, for redaction only: never show or log them. */
  allTokens(): string[];
  /** Whether this user asked for an e-mail when a scheduled refresh fails (off by default). */
  failureEmail(): boolean;
  setFailureEmail(on: boolean): void;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Checks a token without ever putting it in a message. */
export function checkToken(token: unknown): TokenCheck {
  const fail = (reason: string): TokenCheck => ({
    ok: false,
    issues: [{ field: "token", rule: "token", words: tokenWords(reason), params: { reason } }],
  });
  if (typeof token !== "string") return fail("text");
  const t = token.trim();
  if (t === "") return fail("empty");
  if (t.length > MAX_TOKEN_LENGTH) return fail("long");
  // Whitespace or control characters inside would break (or inject into) the header.
  if (/\s/.test(t) || hasControlCharacter(t)) return fail("spaces");
  return { ok: true };
}

/** An IdAdmin typed beside a company's token: a whole number from 1, or empty for none. */
function adminIdInput(
  value: unknown,
): { ok: true; value: number | null } | { ok: false; issue: SettingsIssue } {
  if (value === undefined || value === null) return { ok: true, value: null };
  const text = typeof value === "number" || typeof value === "string" ? String(value).trim() : null;
  if (text === "") return { ok: true, value: null };
  const label = { say: "settings.adminId" } as const;
  if (text === null)
    return {
      ok: false,
      issue: {
        field: "adminId",
        rule: "text",
        words: ruleWords("text", label, { got: typeof value }),
      },
    };
  const r = SETTING_FIELDS.adminId.check(text);
  if (r.ok) return { ok: true, value: r.value as number };
  return {
    ok: false,
    issue: {
      field: "adminId",
      rule: r.rule,
      words: ruleWords(r.rule as "integer", label, r.params),
    },
  };
}

function parseStored(json: string | null): Record<string, unknown> {
  if (!json) return {};
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch (_err) {
    return {};
  }
}

export function createSettingsStore(stores: SettingsStoreSources): SettingsStore {
  const { document, user } = stores;
  const form = storedForm(document);
  const mine = userToken(user, form.load);
  const listed = companyTokens(document, user, stores.now ?? (() => Date.now()), form);

  /**
   * Applies `changes` over the stored form and saves it when every rule passes. This user's
   * token follows a URL they change themselves; their IdAdmin is the one they saved.
   */
  function save(changes: unknown, options: SettingsMessageOptions = {}): SettingsCheck {
    const current = form.storedRecord();
    const merged = settingsTextFrom(changes, settingsTextFrom(current));
    const checked = settingsFromText(merged, options);
    if (!checked.ok) return checked;
    const before = form.load().settings.baseUrl;
    // Once the document lists its companies, each has its URL there (changeCompanies), and
    // `baseUrl` only follows the first company's for older versions.
    if (document.getProperty(COMPANIES_KEY) !== null && checked.settings.baseUrl !== before) {
      const field = options.labels ? { say: SETTING_LABELS.baseUrl } : "baseUrl";
      const words: Words = { key: "company.issue.baseUrl", params: { field } };
      return { ok: false, issues: [{ field: "baseUrl", rule: "companies", words }] };
    }
    const followed = mine.rawToken() !== "" && mine.boundOrigin() === originOf(before);
    // Keys this version does not know are kept: a newer version may have written them.
    document.setProperty(SETTINGS_KEY, JSON.stringify({ ...current, ...checked.text }));
    // The token's owner changing the URL themselves takes their usable token along; a token
    // that was not usable here (another editor's change, never bound) stays unconfirmed.
    if (followed && originOf(checked.settings.baseUrl) !== originOf(before))
      mine.bind(checked.settings.baseUrl);
    // The IdAdmin in the form this user saved is the one their writes may carry; once the
    // document has several companies, each user saves theirs with their token per company.
    if (!listed.companies().several) mine.bindAdminId(checked.settings.adminId);
    return checked;
  }

  return {
    text: form.text,
    fields: form.fields,
    load: form.load,
    save,
    token: mine.token,
    tokenStatus: mine.tokenStatus,
    saveToken: mine.saveToken,
    confirmTokenUrl: mine.confirmTokenUrl,
    adminIdIssue: mine.adminIdIssue,
    removeToken: mine.removeToken,
    companies: listed.companies,
    changeCompanies: listed.changeCompanies,
    companyToken: listed.companyToken,
    savedCompanyToken: (key) => (isCompanyKey(key) ? readToken(user, key) : ""),
    companyAdminId: listed.companyAdminId,
    companyStatuses: listed.companyStatuses,
    saveCompanyToken: listed.saveCompanyToken,
    confirmCompany: listed.confirmCompany,
    removeCompanyToken: listed.removeCompanyToken,
    allTokens: listed.allTokens,
    failureEmail() {
      return user.getProperty(FAILURE_EMAIL_KEY) === "1";
    },
    setFailureEmail(on) {
      user.setProperty(FAILURE_EMAIL_KEY, on ? "1" : "0");
    },
  };
}

/** The settings form as the document stores it: its text, its typed settings. */
function storedForm(document: PropertyStore) {
  function storedRecord(): Record<string, unknown> {
    return parseStored(document.getProperty(SETTINGS_KEY));
  }

  function text(): SettingsText {
    return settingsTextFrom(storedRecord(), defaultSettingsText());
  }

  function load(): LoadedSettings {
    const stored = text();
    const checked = settingsFromText(stored);
    if (checked.ok) return { settings: checked.settings, text: checked.text, issues: [] };
    // Fall back field by field so that one bad value does not hide the others.
    const cleaned = { ...stored };
    for (const issue of checked.issues) {
      if (issue.field in cleaned) cleaned[issue.field as keyof SettingsText] = "";
    }
    const retry = settingsFromText(cleaned);
    const settings = retry.ok
      ? retry.settings
      : (settingsFromText(defaultSettingsText()) as { settings: Settings }).settings;
    return { settings, text: stored, issues: checked.issues };
  }

  function fields(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(storedRecord())) {
      if (typeof value === "string") out[key] = value;
      else if (typeof value === "number" && Number.isFinite(value)) out[key] = String(value);
    }
    return out;
  }

  return { storedRecord, text, load, fields };
}

type StoredForm = ReturnType<typeof storedForm>;

/** The current user's token of the first company, bound to the origin it was saved for. */
function userToken(user: PropertyStore, load: StoredForm["load"]) {
  function rawToken(): string {
    return (user.getProperty(TOKEN_KEY) ?? "").trim();
  }

  function boundOrigin(): string {
    return (user.getProperty(TOKEN_ORIGIN_KEY) ?? "").trim();
  }

  function bind(url: string): void {
    user.setProperty(TOKEN_ORIGIN_KEY, originOf(url));
  }

  function bindAdminId(adminId: number | null): void {
    if (adminId === null) user.deleteProperty(ADMIN_ID_KEY);
    else user.setProperty(ADMIN_ID_KEY, String(adminId));
  }

  function token(baseUrl: string): string {
    const saved = rawToken();
    if (saved === "") return "";
    const bound = boundOrigin();
    const wanted = originOf(baseUrl);
    if (bound !== "" && wanted !== "" && bound === wanted) return saved;
    const documentUrl = load().settings.baseUrl;
    const reason: TokenNotBoundError["reason"] =
      bound === "" ? "unbound" : originOf(documentUrl) === wanted ? "changed" : "elsewhere";
    throw new TokenNotBoundError(baseUrl, reason, {
      key: `settings.notBound.${reason}` as StringKey,
      params: { url: baseUrl, bound: hostOf(bound), host: hostOf(baseUrl) },
    });
  }

  const members: Pick<
    SettingsStore,
    "tokenStatus" | "saveToken" | "confirmTokenUrl" | "adminIdIssue" | "removeToken"
  > = {
    tokenStatus() {
      const t = rawToken();
      const bound = t === "" ? "" : boundOrigin();
      const documentUrl = load().settings.baseUrl;
      return {
        saved: t !== "",
        last4: t.length >= 12 ? t.slice(-4) : "",
        host: bound === "" ? "" : hostOf(bound),
        confirmUrl: t !== "" && bound !== originOf(documentUrl) ? documentUrl : "",
      };
    },
    saveToken(value) {
      const checked = checkToken(value);
      if (checked.ok) {
        // Unbound first: a save cut short leaves a token bound to nothing, never a new token
        // bound to an old origin or an old token to a new one.
        user.deleteProperty(TOKEN_ORIGIN_KEY);
        user.setProperty(TOKEN_KEY, (value as string).trim());
        bind(load().settings.baseUrl);
        bindAdminId(load().settings.adminId);
      }
      return checked;
    },
    confirmTokenUrl(url) {
      if (typeof url !== "string" || rawToken() === "") return false;
      const documentUrl = load().settings.baseUrl;
      if (url.trim() !== documentUrl) return false;
      bind(documentUrl);
      return true;
    },
    adminIdIssue() {
      const adminId = load().settings.adminId;
      if (adminId === null) return null;
      const mine = String(user.getProperty(ADMIN_ID_KEY) || "").trim();
      if (mine === String(adminId)) return null;
      const words: Words = mine
        ? { key: "settings.adminNotConfirmed", params: { id: adminId, mine } }
        : { key: "settings.adminNotSaved", params: { id: adminId } };
      return words;
    },
    removeToken() {
      user.deleteProperty(TOKEN_ORIGIN_KEY);
      user.deleteProperty(TOKEN_KEY);
    },
  };
  return { rawToken, boundOrigin, bind, bindAdminId, token, ...members };
}

function companyIssue(field: string, rule: string, words: Words): TokenCheck {
  return { ok: false, issues: [{ field, rule, words }] };
}

/** The listed company `key` as `seen` shows it, or why a save or confirmation is refused. */
function listedAsSeen(
  companies: Companies,
  key: CompanyKey,
  seen: unknown,
): { ok: true; entry: CompanyEntry } | { ok: false; check: TokenCheck } {
  const entry = typeof key === "string" ? companyByKey(companies, key) : undefined;
  if (!entry)
    return {
      ok: false,
      check: companyIssue("key", "unknown", {
        key: "company.issue.unknown",
        params: { key: String(key).slice(0, 40) },
      }),
    };
  const label = companyNamed(entry.name, hostOf(entry.apiUrl));
  if (entry.removed)
    return {
      ok: false,
      check: companyIssue("key", "removed", { key: "company.issue.removed", params: { company: label } }),
    };
  const name = ownMember(seen, "name");
  const apiUrl = ownMember(seen, "apiUrl");
  if (
    typeof name !== "string" ||
    typeof apiUrl !== "string" ||
    name.trim() !== entry.name ||
    apiUrl.trim() !== entry.apiUrl
  ) {
    const shown = typeof name === "string" && name.trim() !== "" ? name.trim() : label;
    return {
      ok: false,
      check: companyIssue("seen", "stale", {
        key: "company.issue.seen",
        params: { company: shown, name: label, host: hostOf(entry.apiUrl) },
      }),
    };
  }
  return { ok: true, entry };
}

/** A binding of this user's token to the company as it is now, stamped `now`. */
function boundTo(now: () => number, entry: CompanyEntry, adminId: number | null): CompanyBinding {
  return { name: entry.name, origin: originOf(entry.apiUrl), adminId, at: now() };
}

/** The document's companies, and the current user's token for each of them. */
function companyTokens(document: PropertyStore, user: PropertyStore, now: () => number, form: StoredForm) {
  const { load, storedRecord } = form;
  function companies(): Companies {
    return companiesFrom(document.getProperty(COMPANIES_KEY), load().settings.baseUrl);
  }

  function bindingFor(key: CompanyKey): { token: string; binding: CompanyBinding | null } {
    return { token: readToken(user, key), binding: readBinding(user, key) };
  }

  function changeCompanies(change: unknown, context: CompanyChangeContext): CompanyChangeResult {
    const before = companies();
    const result = applyCompanyChange(before, change, context);
    if (!result.ok) return result;
    document.setProperty(COMPANIES_KEY, companiesText(result.companies));
    const first = companyByKey(result.companies, FIRST_COMPANY_KEY);
    const stored = storedRecord();
    if (first && stored.baseUrl !== first.apiUrl)
      document.setProperty(SETTINGS_KEY, JSON.stringify({ ...stored, baseUrl: first.apiUrl }));
    // This user's own change takes their usable token along (the first company's name given
    // when adding a second, a rename, a new URL); nobody else's.
    for (const was of before.entries) {
      const after = companyByKey(result.companies, was.key);
      if (!after || after.removed) continue;
      if (after.name === was.name && originOf(after.apiUrl) === originOf(was.apiUrl)) continue;
      const { token: saved, binding } = bindingFor(was.key);
      if (binding && usability(was, binding, saved !== "") === "ready")
        writeBinding(user, was.key, boundTo(now, after, binding.adminId));
    }
    return result;
  }

  function companyToken(key: CompanyKey, url: string, purpose: "read" | "write" = "read"): string {
    const entry = companyByKey(companies(), key);
    if (!entry)
      throw new TokenNotBoundError(url, "unknown", { key: "company.status.unknown", params: { key } }, key);
    const { token: saved, binding } = bindingFor(key);
    const status =
      purpose === "write"
        ? writeUsability(entry, binding, saved !== "")
        : usability(entry, binding, saved !== "");
    if (status !== "ready")
      throw new TokenNotBoundError(url, status, usabilityWords(status, entry, binding), key);
    const wanted = originOf(url);
    if (wanted === "" || wanted !== originOf(entry.apiUrl))
      throw new TokenNotBoundError(url, "elsewhere", usabilityWords("elsewhere", entry, binding, url), key);
    return saved;
  }

  function companyStatuses(): CompanyTokenStatus[] {
    return companies().entries.map((entry) => {
      const { token: saved, binding } = bindingFor(entry.key);
      const status = usability(entry, binding, saved !== "");
      const writeStatus = writeUsability(entry, binding, saved !== "");
      const confirmable = saved !== "" && !entry.removed && status !== "ready";
      return {
        key: entry.key,
        name: entry.name,
        apiUrl: entry.apiUrl,
        host: hostOf(entry.apiUrl),
        removed: entry.removed !== undefined,
        status,
        writeStatus,
        last4: saved.length >= 12 ? saved.slice(-4) : "",
        boundHost: binding ? hostOf(binding.origin) : "",
        adminId: readAdminId(user, entry.key),
        confirm: confirmable ? { name: entry.name, apiUrl: entry.apiUrl } : null,
        words: usabilityWords(writeStatus, entry, binding),
      };
    });
  }

  function saveCompanyToken(key: CompanyKey, value: unknown, adminId: unknown, seen: unknown): TokenCheck {
    const listed = listedAsSeen(companies(), key, seen);
    if (!listed.ok) return listed.check;
    const issues: SettingsIssue[] = [];
    const checked = checkToken(value);
    if (!checked.ok) issues.push(...checked.issues);
    const id = adminIdInput(adminId);
    if (!id.ok) issues.push(id.issue);
    if (issues.length > 0 || !id.ok) return { ok: false, issues };
    writeToken(user, key, (value as string).trim(), boundTo(now, listed.entry, id.value));
    return { ok: true };
  }

  function confirmCompany(key: CompanyKey, seen: unknown): TokenCheck {
    const listed = listedAsSeen(companies(), key, seen);
    if (!listed.ok) return listed.check;
    if (readToken(user, key) === "")
      return companyIssue("token", "noToken", usabilityWords("noToken", listed.entry, null));
    writeBinding(user, key, boundTo(now, listed.entry, readAdminId(user, key)));
    return { ok: true };
  }

  function allTokens(): string[] {
    const keys = new Set<CompanyKey>([FIRST_COMPANY_KEY, ...companies().entries.map((e) => e.key)]);
    const names = new Set(Array.from(keys, tokenKeyOf));
    // Tokens of companies the list no longer holds are still the user's: found by name.
    for (const name of user.getKeys?.() ?? [])
      if (name === TOKEN_KEY || name.startsWith(`${TOKEN_KEY}.`)) names.add(name);
    const tokens = new Set<string>();
    for (const name of names) {
      const t = (user.getProperty(name) ?? "").trim();
      if (t !== "") tokens.add(t);
    }
    return Array.from(tokens);
  }

  return {
    companies,
    changeCompanies,
    companyToken,
    companyAdminId: (key: CompanyKey) => readAdminId(user, key),
    companyStatuses,
    saveCompanyToken,
    confirmCompany,
    removeCompanyToken(key: CompanyKey) {
      if (isCompanyKey(key)) deleteToken(user, key);
    },
    allTokens,
  };
}
