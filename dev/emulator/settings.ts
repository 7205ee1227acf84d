/**
 * Pre-stores the connection in a user's settings, as if they had filled in the settings
 * sidebar: base URL and administrator id in the document's settings, the access token in that
 * user's own properties. Uses the add-on's own settings store (src/settings), so the keys and
 * rules are the add-on's.
 */

import { originOf } from "../../src/api/urls";
import { FIRST_COMPANY_KEY } from "../../src/company/model";
import { companyKeyFromUuid } from "../../src/settings/companies";
import type { SettingsIssue } from "../../src/settings/model";
import {
  ADMIN_ID_KEY,
  createSettingsStore,
  type SettingsStore,
  TOKEN_KEY,
  TOKEN_ORIGIN_KEY,
} from "../../src/settings/store";
import { settingsIssueText } from "../../src/settings/words";
import type { Emulator } from "./index";
import { FakeProperties } from "./properties";

export interface Connection {
  apiUrl: string;
  token: string;
  adminId: number | string;
}

/**
 * The allowlist prefix that lets a local run reach the service at `apiUrl`: its origin and "/"
 * ("http://127.0.0.1:4123/"), as the shipped manifest lists "https://api.rindegastos.com/".
 * Pass it as `urlFetchAllowlist`, standing for the manifest of a test deployment; the shipped
 * manifest (dist/appsscript.json) stays as it is.
 */
export function servicePrefix(apiUrl: string): string {
  return `${originOf(apiUrl)}/`;
}

/** One company of a document, as `storeCompanies` lists it. */
export interface CompanyConnection extends Connection {
  /** Its name in the spreadsheet (1 to 60 characters; "" only for a one-company document). */
  name: string;
}

/** The add-on's settings store of `user`, as the add-on builds it (for tests that write past its checks). */
export function storeOf(em: Emulator, user: string): SettingsStore {
  return createSettingsStore({
    document: new FakeProperties(em.documentPropertiesData),
    user: new FakeProperties(em.userPropertiesOf(user)),
    // Bindings are stamped on the spreadsheet's clock, as the add-on's own saves are.
    now: () => em.now().getTime(),
  });
}

/** Stores the connection for `user` (default: the first user); throws naming the rule that failed. */
export function storeConnection(em: Emulator, connection: Connection, user: string = em.defaultUser): void {
  const store = storeOf(em, user);
  const saved = store.save({ baseUrl: connection.apiUrl, adminId: String(connection.adminId) });
  if (!saved.ok) {
    throw new Error(
      `Could not store the connection: ${saved.issues.map((i) => `${i.field}: ${settingsIssueText(i, "en")}`).join("; ")}`,
    );
  }
  const token = store.saveToken(connection.token);
  if (!token.ok)
    throw new Error(
      `Could not store the token: ${token.issues.map((i) => settingsIssueText(i, "en")).join("; ")}`,
    );
}

/**
 * Pre-stores `token` in `user`'s own properties, bound to the origin of `apiUrl`, as saving it
 * in the settings sidebar while the service URL is `apiUrl` does; with `adminId`, as saving it
 * while IdAdmin is `adminId` (the IdAdmin that user's writes may carry).
 */
export function storeToken(
  em: Emulator,
  user: string,
  token: string,
  apiUrl: string,
  adminId?: number | string,
): void {
  const values = em.userPropertiesOf(user).values;
  values.set(TOKEN_KEY, token);
  values.set(TOKEN_ORIGIN_KEY, originOf(apiUrl));
  if (adminId !== undefined) values.set(ADMIN_ID_KEY, String(adminId));
}

/**
 * The key of the `i`-th company added after the first: the same on every run (the add-on's own
 * keys come from a uuid), so that a playground's audit and cells read alike from run to run.
 */
export function storedCompanyKey(i: number): string {
  return companyKeyFromUuid(
    `${(0xc0_0000_0000 + i).toString(16).padStart(12, "0")}-0000-4000-8000-000000000000`,
  );
}

/**
 * Pre-stores a document of several companies for `user`, as that user would set it up in
 * Settings: the first company's connection (`storeConnection`), each further company added to
 * the document's list (the first named in the same change), then the user's token and IdAdmin
 * saved for each company, all through the add-on's settings store. One company is
 * `storeConnection` alone: the registry stays unwritten, as a one-company spreadsheet's is.
 * Answers the companies' keys in order; throws naming the rule that failed.
 */
export function storeCompanies(
  em: Emulator,
  companies: readonly CompanyConnection[],
  user: string = em.defaultUser,
): string[] {
  const [first, ...others] = companies;
  if (!first) throw new Error("storeCompanies: give at least one company");
  storeConnection(em, first, user);
  if (others.length === 0) return [FIRST_COMPANY_KEY];
  const store = storeOf(em, user);
  const problems = (issues: ReadonlyArray<SettingsIssue>) =>
    issues.map((i) => `${i.field}: ${settingsIssueText(i, "en")}`).join("; ");
  const keys = [FIRST_COMPANY_KEY];
  others.forEach((company, i) => {
    const added = store.changeCompanies(
      {
        kind: "add",
        rev: store.companies().rev,
        name: company.name,
        apiUrl: company.apiUrl,
        ...(i === 0 ? { firstName: first.name } : {}),
      },
      { newKey: () => storedCompanyKey(i + 1), now: em.now().getTime() },
    );
    if (!added.ok) throw new Error(`Could not add the company ${company.name}: ${problems(added.issues)}`);
    keys.push(added.key);
  });
  companies.forEach((company, i) => {
    const key = keys[i] as string;
    const saved = store.saveCompanyToken(key, company.token, company.adminId, {
      name: company.name,
      apiUrl: company.apiUrl,
    });
    if (!saved.ok) throw new Error(`Could not store the token of ${company.name}: ${problems(saved.issues)}`);
  });
  return keys;
}

/**
 * Saves `user`'s own token and IdAdmin for each company of a document `storeCompanies` set up
 * (`keys`: its answer), as that user would in Settings: another user of the same document, with
 * tokens of their own (each user's tokens live in their own properties). One company: its
 * connection saved by that user (`storeConnection`).
 */
export function storeUserTokens(
  em: Emulator,
  companies: readonly CompanyConnection[],
  keys: readonly string[],
  user: string,
): void {
  const [first] = companies;
  if (!first) throw new Error("storeUserTokens: give at least one company");
  if (companies.length === 1) {
    storeConnection(em, first, user);
    return;
  }
  const store = storeOf(em, user);
  companies.forEach((company, i) => {
    const saved = store.saveCompanyToken(keys[i] as string, company.token, company.adminId, {
      name: company.name,
      apiUrl: company.apiUrl,
    });
    if (!saved.ok)
      throw new Error(
        `Could not store ${user}'s token of ${company.name}: ${saved.issues.map((x) => settingsIssueText(x, "en")).join("; ")}`,
      );
  });
}
