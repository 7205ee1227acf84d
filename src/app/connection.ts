/**
 * Connection sidebar: service URL, the user's own access token (write-only), IdAdmin, and a
 * connection test. Thin: the work is in src/settings/connection.ts. Every function here can be
 * called by anyone who can open the sidebar, with any arguments: the core checks them.
 */

import { ownData } from "../api/arguments";
import { runtime } from "../gas/runtime";
import { translate } from "../i18n";
import {
  type ConnectionTestResult,
  type ConnectionView,
  connectionView,
  testConnection as runConnectionTest,
  type SaveConnectionResult,
  saveConnection,
} from "../settings";
import { currentLanguage, entry, serviceClient, settingsStore } from "./entry";
import { countUrlFetchCalls } from "./quota";

/** Opens the connection sidebar. */
export function showConnectionSidebar(): void {
  entry("menu", () => runtime().showSidebar("connection", translate(currentLanguage(), "connection.title")));
}

/** What the sidebar shows: the URL and IdAdmin of the document, whether this user has a token. */
export function getConnectionSettings(): ConnectionView {
  return entry("sidebar", () => connectionView(settingsStore(), currentLanguage()));
}

/** Saves what the sidebar sent, or nothing when a field breaks a rule (the problems come back). */
export function saveConnectionSettings(input: unknown): SaveConnectionResult {
  return entry("sidebar", () => saveConnection(settingsStore(), ownData(input), currentLanguage()));
}

/**
 * One small call with the saved settings, or with the URL and token being typed when the
 * sidebar sends them, and a plain explanation of the outcome.
 */
export function testConnection(input?: unknown): ConnectionTestResult {
  return entry("sidebar", () => connectionTest(input));
}

/** The connection test, for this sidebar and the settings sidebar's. */
export function connectionTest(input?: unknown): ConnectionTestResult {
  let calls = 0;
  try {
    return runConnectionTest(
      {
        store: settingsStore(),
        createClient: (baseUrl, token) =>
          serviceClient({
            baseUrl,
            token,
            // A test answers quickly; retrying would only hide the problem for longer.
            retry: { maxAttempts: 1 },
            onCall: (event) => {
              if (event.phase === "after") calls++;
            },
          }),
      },
      ownData(input),
      currentLanguage(),
    );
  } finally {
    countUrlFetchCalls(calls);
  }
}
