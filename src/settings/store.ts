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

import type { MessageLanguage } from "../api/messages";
import { hostOf, originOf } from "../api/urls";
import { type StringKey, translate } from "../i18n";
import {
  defaultSettingsText,
  type Settings,
  type SettingsCheck,
  type SettingsIssue,
  type SettingsMessageOptions,
  type SettingsText,
  settingsFromText,
  settingsTextFrom,
} from "./model";

/** The part of a property store used here; PropertiesService's Properties fits. */
export interface PropertyStore {
  getProperty(key: string): string | null;
  setProperty(key: string, value: string): unknown;
  deleteProperty(key: string): unknown;
}

/**
 * Document property holding the settings' text as one JSON object (the same key the refresh
 * and the settings sidebar use).
 */
export const SETTINGS_KEY = "settings.form";
/** User property holding the current user's access token. */
export const TOKEN_KEY = "settings.token";
/**
 * User property: the origin ("https://api.rindegastos.com") the token was saved or confirmed
 * for. A token without it (saved by an earlier version) is bound to nothing.
 */
export const TOKEN_ORIGIN_KEY = "settings.tokenOrigin";
/**
 * User property: the administrator id (IdAdmin) this user last saved in a settings form or
 * with their token. Their writes carry the document's IdAdmin only while it is this one: the
 * IdAdmin is a document setting any editor can change, and must not decide what another
 * user's writes send.
 */
export const ADMIN_ID_KEY = "settings.adminIdConfirmed";
export const MAX_TOKEN_LENGTH = 2048;
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
 * Why the current user's token is not given for a URL: bound to another origin ("changed":
 * the document's URL changed; "elsewhere": a URL other than the document's was asked for) or
 * to none ("unbound"). The message asks for the confirmation in Settings.
 */
export class TokenNotBoundError extends Error {
  readonly url: string;
  readonly reason: "changed" | "unbound" | "elsewhere";

  constructor(url: string, reason: TokenNotBoundError["reason"], message: string) {
    super(message);
    this.name = "TokenNotBoundError";
    this.url = url;
    this.reason = reason;
  }
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
  load(language?: MessageLanguage): LoadedSettings;
  /**
   * Applies `changes` (some fields of SettingsText) over what is stored and saves when every
   * rule passes; saves nothing otherwise.
   */
  save(changes: unknown, language?: MessageLanguage, options?: SettingsMessageOptions): SettingsCheck;
  /**
   * The current user's token for requests to `baseUrl`, "" when none is saved. Throws
   * TokenNotBoundError when the token is bound to another origin or to none: pass the URL the
   * requests will go to. For the client only: never show or log it.
   */
  token(baseUrl: string, language?: MessageLanguage): string;
  tokenStatus(): TokenStatus;
  /** Saves the token, bound to the origin of the document's service URL. */
  saveToken(token: unknown, language?: MessageLanguage): TokenCheck;
  /**
   * Binds the saved token to the origin of `url`, the owner's explicit confirmation. Only
   * when `url` is the document's service URL now (what the owner was shown); false otherwise
   * or when no token is saved.
   */
  confirmTokenUrl(url: unknown): boolean;
  /**
   * Why the document's IdAdmin may not go with this user's writes (another editor changed it
   * since this user saved it, or this user never saved one), as the message they read; null
   * when it may (or when none is set: the contract's own message refuses the writes then).
   */
  adminIdIssue(language?: MessageLanguage): string | null;
  removeToken(): void;
  /** Whether this user asked for an e-mail when a scheduled refresh fails (off by default). */
  failureEmail(): boolean;
  setFailureEmail(on: boolean): void;
}

const ADMIN_NOT_CONFIRMED: Record<MessageLanguage, (id: number, mine: string) => string> = {
  en: (id, mine) =>
    `IdAdmin ${id} is not the one you saved${mine ? ` (${mine})` : ""}: save it in Settings to write as ${id}.`,
  es: (id, mine) =>
    `IdAdmin ${id} no es el que usted guardó${mine ? ` (${mine})` : ""}: guárdelo en Configuración para escribir como ${id}.`,
};

const TOKEN_REASONS: Record<MessageLanguage, Record<string, string>> = {
  en: {
    empty: "is empty",
    text: "must be text",
    long: `is longer than ${MAX_TOKEN_LENGTH} characters`,
    spaces: "contains spaces or line breaks; paste the token alone",
  },
  es: {
    empty: "está vacío",
    text: "debe ser texto",
    long: `tiene más de ${MAX_TOKEN_LENGTH} caracteres`,
    spaces: "contiene espacios o saltos de línea; pegue solo el token",
  },
};

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Checks a token without ever putting it in a message. */
export function checkToken(token: unknown, language: MessageLanguage = "en"): TokenCheck {
  const label = language === "es" ? "El token de acceso" : "The access token";
  const fail = (reason: string): TokenCheck => ({
    ok: false,
    issues: [{ field: "token", rule: "token", message: `${label} ${TOKEN_REASONS[language][reason]}.` }],
  });
  if (typeof token !== "string") return fail("text");
  const t = token.trim();
  if (t === "") return fail("empty");
  if (t.length > MAX_TOKEN_LENGTH) return fail("long");
  // Whitespace or control characters inside would break (or inject into) the header.
  if (/\s/.test(t) || hasControlCharacter(t)) return fail("spaces");
  return { ok: true };
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

export function createSettingsStore(stores: { document: PropertyStore; user: PropertyStore }): SettingsStore {
  const { document, user } = stores;

  function storedRecord(): Record<string, unknown> {
    return parseStored(document.getProperty(SETTINGS_KEY));
  }

  function text(): SettingsText {
    return settingsTextFrom(storedRecord(), defaultSettingsText());
  }

  function load(language: MessageLanguage = "en"): LoadedSettings {
    const stored = text();
    const checked = settingsFromText(stored, language);
    if (checked.ok) return { settings: checked.settings, text: checked.text, issues: [] };
    // Fall back field by field so that one bad value does not hide the others.
    const cleaned = { ...stored };
    for (const issue of checked.issues) {
      if (issue.field in cleaned) cleaned[issue.field as keyof SettingsText] = "";
    }
    const retry = settingsFromText(cleaned, language);
    const settings = retry.ok
      ? retry.settings
      : (settingsFromText(defaultSettingsText()) as { settings: Settings }).settings;
    return { settings, text: stored, issues: checked.issues };
  }

  function save(
    changes: unknown,
    language: MessageLanguage = "en",
    options: SettingsMessageOptions = {},
  ): SettingsCheck {
    const current = storedRecord();
    const merged = settingsTextFrom(changes, settingsTextFrom(current));
    const checked = settingsFromText(merged, language, options);
    if (!checked.ok) return checked;
    const before = load().settings.baseUrl;
    const followed = rawToken() !== "" && boundOrigin() === originOf(before);
    // Keys this version does not know are kept: a newer version may have written them.
    document.setProperty(SETTINGS_KEY, JSON.stringify({ ...current, ...checked.text }));
    // The token's owner changing the URL themselves takes their usable token along; a token
    // that was not usable here (another editor's change, never bound) stays unconfirmed.
    if (followed && originOf(checked.settings.baseUrl) !== originOf(before)) bind(checked.settings.baseUrl);
    // The IdAdmin in the form this user saved is the one their writes may carry.
    bindAdminId(checked.settings.adminId);
    return checked;
  }

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

  function token(baseUrl: string, language: MessageLanguage = "en"): string {
    const saved = rawToken();
    if (saved === "") return "";
    const bound = boundOrigin();
    const wanted = originOf(baseUrl);
    if (bound !== "" && wanted !== "" && bound === wanted) return saved;
    const documentUrl = load().settings.baseUrl;
    const reason: TokenNotBoundError["reason"] =
      bound === "" ? "unbound" : originOf(documentUrl) === wanted ? "changed" : "elsewhere";
    throw new TokenNotBoundError(
      baseUrl,
      reason,
      translate(language, `settings.notBound.${reason}` as StringKey, {
        url: baseUrl,
        bound: hostOf(bound),
        host: hostOf(baseUrl),
      }),
    );
  }

  function fields(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(storedRecord())) {
      if (typeof value === "string") out[key] = value;
      else if (typeof value === "number" && Number.isFinite(value)) out[key] = String(value);
    }
    return out;
  }

  return {
    text,
    fields,
    load,
    save,
    token,
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
    saveToken(value, language = "en") {
      const checked = checkToken(value, language);
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
    adminIdIssue(language = "en") {
      const adminId = load().settings.adminId;
      if (adminId === null) return null;
      const mine = String(user.getProperty(ADMIN_ID_KEY) || "").trim();
      if (mine === String(adminId)) return null;
      return ADMIN_NOT_CONFIRMED[language](adminId, mine);
    },
    removeToken() {
      user.deleteProperty(TOKEN_ORIGIN_KEY);
      user.deleteProperty(TOKEN_KEY);
    },
    failureEmail() {
      return user.getProperty(FAILURE_EMAIL_KEY) === "1";
    },
    setFailureEmail(on) {
      user.setProperty(FAILURE_EMAIL_KEY, on ? "1" : "0");
    },
  };
}
