/**
 * Pre-stores the connection in a user's settings, as if they had filled in the settings
 * sidebar: base URL and administrator id in the document's settings, the access token in that
 * user's own properties. Uses the add-on's own settings store (src/settings), so the keys and
 * rules are the add-on's.
 */
import { originOf } from "../../src/api/urls";
import { ADMIN_ID_KEY, createSettingsStore, TOKEN_KEY, TOKEN_ORIGIN_KEY } from "../../src/settings/store";
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

/** Stores the connection for `user` (default: the first user); throws naming the rule that failed. */
export function storeConnection(em: Emulator, connection: Connection, user: string = em.defaultUser): void {
  const store = createSettingsStore({
    document: new FakeProperties(em.documentPropertiesData),
    user: new FakeProperties(em.userPropertiesOf(user)),
  });
  const saved = store.save({ baseUrl: connection.apiUrl, adminId: String(connection.adminId) });
  if (!saved.ok) {
    throw new Error(
      `Could not store the connection: ${saved.issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`,
    );
  }
  const token = store.saveToken(connection.token);
  if (!token.ok)
    throw new Error(`Could not store the token: ${token.issues.map((i) => i.message).join("; ")}`);
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
