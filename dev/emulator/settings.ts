/**
 * Pre-stores the connection in a user's settings, as if they had filled in the settings
 * sidebar: base URL and administrator id in the document's settings, the access token in that
 * user's own properties. Uses the add-on's own settings store (src/settings), so the keys and
 * rules are the add-on's.
 */
import { createSettingsStore } from "../../src/settings/store";
import type { Emulator } from "./index";
import { FakeProperties } from "./properties";

export interface Connection {
  apiUrl: string;
  token: string;
  adminId: number | string;
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
