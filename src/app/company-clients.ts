/**
 * The one path from a company to a client. A request's token is chosen here only, from a
 * company's key (docs/design/several-companies.md §4): every refresh, Outbox preview and run,
 * fund and report form gets its client from `companyConnections`. A name or URL never chooses
 * a token; it can only make one unusable (src/settings/bindings.ts). The connection test's
 * client is built here too (`connectionTestClient`), for the URL tested and the token typed or
 * the saved one read here (`savedTestToken`), for a company's key or, with one company, the URL.
 *
 * The first company keeps the rules and messages of a one-company spreadsheet: its token is
 * read through the store's first-company shim (`token`: bound to the origin of the service URL,
 * "" when none is saved, the notice of a URL another editor changed), and its writes carry the
 * document's IdAdmin when this user saved the same one (`adminIdIssue`). Once a second company
 * is added (Settings, Companies), every company, the first too, is read through `companyToken`.
 */

import {
  type CallEvent,
  type Client,
  type ClientOptions,
  createClient,
  type RetryPolicy,
} from "../api/client";
import { type CompanyKey, FIRST_COMPANY_KEY } from "../company/model";
import { runtime } from "../gas/runtime";
import type { Language } from "../i18n";
import { type CompanyEntry, companyLabel, listedCompanies } from "../settings/companies";
import { type SettingsStore, TokenNotBoundError, type TokenNotBoundReason } from "../settings/store";
import { settingsWords } from "../settings/words";
import { settingsStore } from "./entry";

/** What a connection is for: writes also need the IdAdmin this user saved. */
export type ConnectionPurpose = "read" | "write";

/** What sees each call of a connection's client (the audit of its execution). */
export interface CallObserver {
  onCall(event: CallEvent): void;
}

/** A company this user may send requests to now, with the client that carries their token. */
export interface CompanyConnection<A extends CallObserver = CallObserver> {
  company: CompanyEntry;
  client: Client;
  /**
   * The IdAdmin this user's writes carry; null when none (writes are then refused with
   * IdAdmin's message). The first company's is the document's setting, as it has always been.
   */
  adminId: number | null;
  /** Why `adminId` may not go with this user's writes (another editor changed it); null when it may. */
  adminIssue: string | null;
  /** What saw this client's calls. */
  audit: A;
}

/** A listed company whose requests this user may not send now, and why (their own words). */
export interface UnusableCompany {
  key: CompanyKey;
  name: string;
  /** "otherAccount": the token opens another account than the company's mark (app/outbox.ts). */
  reason: TokenNotBoundReason | "noToken" | "otherAccount";
  message: string;
  /**
   * The store's refusal, thrown as it is by paths that stop on it (a token bound to another
   * URL); null when no token is saved, which each path words in its own message.
   */
  error: TokenNotBoundError | null;
}

export interface CompanyConnections<A extends CallObserver = CallObserver> {
  /** The usable companies, in the list's order. */
  ready: Map<CompanyKey, CompanyConnection<A>>;
  unusable: UnusableCompany[];
}

/** What the clients are built over: the settings, the transport and the clock. */
export interface ConnectionServices {
  store: SettingsStore;
  transport: ClientOptions["transport"];
  clock: ClientOptions["clock"];
}

export interface ConnectionOptions<A extends CallObserver> {
  purpose: ConnectionPurpose;
  language: Language;
  /** The audit of a company's calls, asked for once a company is found usable. */
  audit: (company: CompanyEntry) => A;
  retry?: Partial<RetryPolicy>;
}

/** This execution's services: the document's settings, UrlFetchApp and Utilities.sleep. */
export function appsScriptServices(): ConnectionServices {
  return { store: settingsStore(), transport: runtime().transport(), clock: runtime().clock() };
}

/**
 * Every listed company of the document, each either ready (its client holding this user's
 * token for that company's URL) or unusable with the reason. The token of each client is read
 * here, from the company's key; nothing else reads one.
 */
export function companyConnections<A extends CallObserver>(
  options: ConnectionOptions<A>,
  services: ConnectionServices = appsScriptServices(),
): CompanyConnections<A> {
  const { store, transport, clock } = services;
  const companies = store.companies();
  const ready = new Map<CompanyKey, CompanyConnection<A>>();
  const unusable: UnusableCompany[] = [];
  for (const company of listedCompanies(companies)) {
    const found =
      company.key === FIRST_COMPANY_KEY
        ? firstCompanyToken(store, company, companies.several, options)
        : companyToken(store, company, options);
    if ("reason" in found) {
      unusable.push(found);
      continue;
    }
    const audit = options.audit(company);
    const client = createClient({
      transport,
      clock,
      baseUrl: company.apiUrl,
      token: found.token,
      ...(options.retry ? { retry: options.retry } : {}),
      onCall: (event) => audit.onCall(event),
    });
    ready.set(company.key, { company, client, adminId: found.adminId, adminIssue: found.adminIssue, audit });
  }
  return { ready, unusable };
}

/**
 * A client for a company with no token saved: every call is refused by the contract's own
 * check (the access token is required) before anything leaves. A write session without a token
 * has always had one, so its forms say what they said.
 */
export function tokenlessClient(
  company: CompanyEntry,
  observer: CallObserver,
  services: Omit<ConnectionServices, "store"> = appsScriptServices(),
): Client {
  return createClient({
    transport: services.transport,
    clock: services.clock,
    baseUrl: company.apiUrl,
    token: "",
    onCall: (event) => observer.onCall(event),
  });
}

/**
 * The client of a connection test (src/settings/connection-test.ts): for the URL being tested, with
 * the token typed in the sidebar or the one the store gives for that URL's origin (the first
 * company's shim). One call, no retry: retrying would only hide the problem for longer.
 */
export function connectionTestClient(
  baseUrl: string,
  token: string,
  observer: CallObserver,
  services: Omit<ConnectionServices, "store"> = appsScriptServices(),
): Client {
  return createClient({
    transport: services.transport,
    clock: services.clock,
    baseUrl,
    token,
    retry: { maxAttempts: 1 },
    onCall: (event) => observer.onCall(event),
  });
}

/**
 * The saved token a connection test sends (src/settings/connection-test.ts): for a company, this
 * user's token for `key` at `url` (its own rule: bound to its name and origin), for the first
 * company of a one-company spreadsheet, today's rule (bound to the origin of `url`). "" when
 * none is saved; the store's TokenNotBoundError (its notice as data, said by the connection
 * test's words) when one is saved but may not go to `url`.
 */
export function savedTestToken(store: SettingsStore, target: { key?: CompanyKey; url: string }): string {
  try {
    if (target.key === undefined) return store.token(target.url);
    return store.companyToken(target.key, target.url, "read");
  } catch (err) {
    if (err instanceof TokenNotBoundError && err.reason === "noToken") return "";
    throw err;
  }
}

/** The store's refusal (data) with its message in `language`. */
function inWords(err: TokenNotBoundError, language: Language): TokenNotBoundError {
  return new TokenNotBoundError(err.url, err.reason, err.words, err.key, settingsWords(err.words, language));
}

type Found = { token: string; adminId: number | null; adminIssue: string | null } | UnusableCompany;

function refused(company: CompanyEntry, err: unknown, language: Language): UnusableCompany {
  if (!(err instanceof TokenNotBoundError)) throw err;
  const said = inWords(err, language);
  // No token saved is worded by each path (today's messages); the other refusals are thrown as they are.
  const error = err.reason === "noToken" ? null : said;
  return { key: company.key, name: company.name, reason: err.reason, message: said.message, error };
}

/**
 * The first company: today's rules through the store's shims while it is the only one; with
 * several companies listed, the rule of every company (bound to its name and origin).
 */
function firstCompanyToken(
  store: SettingsStore,
  company: CompanyEntry,
  several: boolean,
  options: ConnectionOptions<CallObserver>,
): Found {
  // Once the document lists several companies, the first is one of them: its token bound to
  // its name and origin, its IdAdmin this user's own, saved with the token (Settings, Companies).
  if (several) return companyToken(store, company, options);
  let token: string;
  try {
    token = store.token(company.apiUrl);
  } catch (err) {
    return refused(company, err, options.language);
  }
  if (token === "") return noToken(store, company, options.language);
  const adminId = store.load().settings.adminId;
  const adminIssue = store.adminIdIssue();
  return { token, adminId, adminIssue: adminIssue && settingsWords(adminIssue, options.language) };
}

function companyToken(
  store: SettingsStore,
  company: CompanyEntry,
  options: Pick<ConnectionOptions<CallObserver>, "purpose" | "language">,
): Found {
  try {
    const token = store.companyToken(company.key, company.apiUrl, options.purpose);
    return { token, adminId: store.companyAdminId(company.key), adminIssue: null };
  } catch (err) {
    return refused(company, err, options.language);
  }
}

function noToken(store: SettingsStore, company: CompanyEntry, language: Language): UnusableCompany {
  const status = store.companyStatuses().find((s) => s.key === company.key);
  return {
    key: company.key,
    name: company.name,
    reason: "noToken",
    message: status ? settingsWords(status.words, language) : companyLabel(company, language),
    error: null,
  };
}
