/**
 * Each user's token and IdAdmin per company, kept in that user's own properties, and whether a
 * token may be used for a company now. Pure: the user's property store is handed in.
 *
 * A token is bound to a company's key, and to the name and origin its owner saw when saving or
 * confirming it. The key decides where a token may go; a name or URL, which any editor can
 * change, only decides when the owner must look again: a token is usable for a company only
 * while it is listed and its name and origin are the ones bound.
 *
 * Layout (the first company keeps the keys a one-company spreadsheet always had):
 *
 * | company | token                    | binding                                                              |
 * | ------- | ------------------------ | -------------------------------------------------------------------- |
 * | c0      | `settings.token`         | `settings.tokenOrigin`, `settings.adminIdConfirmed`, `settings.company.c0` (name, time) |
 * | other K | `settings.token.<K>`     | `settings.company.<K>` (name, origin, IdAdmin, time)                 |
 */

import { hostOf, originOf } from "../api/urls";
import { type CompanyKey, FIRST_COMPANY_KEY } from "../company/model";
import { companyNamed, type Words } from "../i18n/words";
import type { CompanyEntry } from "./companies";

/** User property holding the current user's access token (the first company's). */
export const TOKEN_KEY = "settings.token";
/**
 * User property: the origin ("https://api.rindegastos.com") the first company's token was saved
 * or confirmed for. A token without it (saved by an earlier version) is bound to nothing.
 */
export const TOKEN_ORIGIN_KEY = "settings.tokenOrigin";
/**
 * User property: the administrator id (IdAdmin) this user last saved for the first company, in
 * a settings form or with their token. Their writes carry only an IdAdmin they saved: the
 * document's is a setting any editor can change, and must not decide what another user's
 * writes send.
 */
export const ADMIN_ID_KEY = "settings.adminIdConfirmed";
/** Prefix of the user properties holding a company's binding (`settings.company.<key>`). */
export const BINDING_KEY_PREFIX = "settings.company.";

/** The part of PropertiesService's Properties used here. */
export interface UserProperties {
  getProperty(key: string): string | null;
  setProperty(key: string, value: string): unknown;
  deleteProperty(key: string): unknown;
}

/** What a user's token for a company is bound to: as its owner saw the company. */
export interface CompanyBinding {
  /** The company's name when saved or confirmed ("" for a first company never named). */
  name: string;
  /** Origin of the company's service URL then: scheme, host, port. */
  origin: string;
  /** The IdAdmin this user's writes to the company carry; null when none was saved. */
  adminId: number | null;
  /** When it was saved or confirmed (ms); 0 when not known (saved by an earlier version). */
  at: number;
}

/**
 * Whether a user's token may be used for a company now: `ready`, or why not. A token another
 * editor's change made unusable stays saved; its owner confirms it in Settings.
 */
export type CompanyUsability = "ready" | "noToken" | "unbound" | "renamed" | "repointed" | "removed";
/** For writes, a usable token also needs an IdAdmin saved with it. */
export type CompanyWriteUsability = CompanyUsability | "noAdminId";

/** User property of a company's token. */
export function tokenKeyOf(key: CompanyKey): string {
  return key === FIRST_COMPANY_KEY ? TOKEN_KEY : `${TOKEN_KEY}.${key}`;
}

/** User property of a company's binding (for the first company, its name only). */
export function bindingKeyOf(key: CompanyKey): string {
  return `${BINDING_KEY_PREFIX}${key}`;
}

function parseRecord(json: string | null): Record<string, unknown> {
  if (!json) return {};
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch (_err) {
    return {};
  }
}

function adminIdFrom(value: unknown): number | null {
  const n = typeof value === "string" && /^\d{1,16}$/.test(value.trim()) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 1 ? n : null;
}

/** The user's saved token for a company, "" when none. For requests only: never shown. */
export function readToken(user: UserProperties, key: CompanyKey): string {
  return (user.getProperty(tokenKeyOf(key)) ?? "").trim();
}

/** What the user's token for a company is bound to; null when bound to nothing. */
export function readBinding(user: UserProperties, key: CompanyKey): CompanyBinding | null {
  const stored = parseRecord(user.getProperty(bindingKeyOf(key)));
  const at = typeof stored.at === "number" && Number.isFinite(stored.at) ? stored.at : 0;
  const name = typeof stored.name === "string" ? stored.name : "";
  if (key === FIRST_COMPANY_KEY) {
    const origin = (user.getProperty(TOKEN_ORIGIN_KEY) ?? "").trim();
    if (origin === "") return null;
    return { name, origin, adminId: adminIdFrom(user.getProperty(ADMIN_ID_KEY)), at };
  }
  const origin = typeof stored.origin === "string" ? stored.origin.trim() : "";
  if (origin === "") return null;
  return { name, origin, adminId: adminIdFrom(stored.adminId), at };
}

/**
 * The IdAdmin the user saved with their token for a company, null when none: kept for the
 * first company even while its token is bound to nothing (it is also the settings form's).
 */
export function readAdminId(user: UserProperties, key: CompanyKey): number | null {
  if (key === FIRST_COMPANY_KEY) return adminIdFrom(user.getProperty(ADMIN_ID_KEY));
  return adminIdFrom(parseRecord(user.getProperty(bindingKeyOf(key))).adminId);
}

/** Unbinds a company's token: the first step of every save, so a save cut short binds nothing. */
export function deleteBinding(user: UserProperties, key: CompanyKey): void {
  if (key === FIRST_COMPANY_KEY) user.deleteProperty(TOKEN_ORIGIN_KEY);
  user.deleteProperty(bindingKeyOf(key));
}

/**
 * Writes a binding, the origin last for the first company (what makes it bound), so that a
 * write cut short leaves the token bound to nothing.
 */
export function writeBinding(user: UserProperties, key: CompanyKey, binding: CompanyBinding): void {
  if (key === FIRST_COMPANY_KEY) {
    user.deleteProperty(TOKEN_ORIGIN_KEY);
    user.setProperty(bindingKeyOf(key), JSON.stringify({ name: binding.name, at: binding.at }));
    if (binding.adminId === null) user.deleteProperty(ADMIN_ID_KEY);
    else user.setProperty(ADMIN_ID_KEY, String(binding.adminId));
    user.setProperty(TOKEN_ORIGIN_KEY, binding.origin);
    return;
  }
  user.setProperty(bindingKeyOf(key), JSON.stringify(binding));
}

/**
 * Saves a token for a company: binding deleted, token written, binding written. Cut short
 * anywhere, the token is bound to nothing, never a new token to an old binding.
 */
export function writeToken(
  user: UserProperties,
  key: CompanyKey,
  token: string,
  binding: CompanyBinding,
): void {
  deleteBinding(user, key);
  user.setProperty(tokenKeyOf(key), token);
  writeBinding(user, key, binding);
}

/** Removes a company's token, its binding first. */
export function deleteToken(user: UserProperties, key: CompanyKey): void {
  deleteBinding(user, key);
  user.deleteProperty(tokenKeyOf(key));
}

/**
 * Whether the user's token may be used for `entry` now: listed, a token saved, bound to this
 * company's current origin and name. An origin changed counts before a name changed: it is
 * where the token would go.
 */
export function usability(
  entry: CompanyEntry,
  binding: CompanyBinding | null,
  saved: boolean,
): CompanyUsability {
  if (entry.removed) return "removed";
  if (!saved) return "noToken";
  if (!binding) return "unbound";
  if (binding.origin !== originOf(entry.apiUrl)) return "repointed";
  if (binding.name !== entry.name) return "renamed";
  return "ready";
}

/** usability for writes: a usable token also needs an IdAdmin saved with it. */
export function writeUsability(
  entry: CompanyEntry,
  binding: CompanyBinding | null,
  saved: boolean,
): CompanyWriteUsability {
  const status = usability(entry, binding, saved);
  return status === "ready" && binding?.adminId == null ? "noAdminId" : status;
}

/**
 * What a user reads about their token for `entry`, as data naming the company and the host: why
 * it is not used, or where it goes (./words.ts says it). `elsewhere`: a request for `url`, another
 * origin than the company's.
 */
export function usabilityWords(
  status: CompanyWriteUsability | "elsewhere",
  entry: CompanyEntry,
  binding: CompanyBinding | null,
  url = "",
): Words {
  const host = hostOf(entry.apiUrl);
  const company = companyNamed(entry.name, host);
  const bound = binding ? hostOf(binding.origin) : "";
  switch (status) {
    case "renamed":
      return binding?.name
        ? { key: "company.status.renamed", params: { former: binding.name, company, host } }
        : { key: "company.status.named", params: { company, host } };
    case "elsewhere":
      return { key: "company.status.elsewhere", params: { company, bound: host, host: hostOf(url) } };
    default:
      return { key: `company.status.${status}`, params: { company, host, bound } };
  }
}
