/**
 * Connection sidebar: service URL, the user's own access token (write-only), IdAdmin, and a
 * connection test. Thin: the work is in src/settings/connection.ts. Every function here can be
 * called by anyone who can open the sidebar, with any arguments: the core checks them.
 */

import { ownData } from "../api/arguments";
import { createClient } from "../api/client";
import { documentSettingsStore } from "../gas/properties";
import { runtime } from "../gas/runtime";
import { appsScriptClock, urlFetchTransport } from "../gas/transport";
import { type Language, translate } from "../i18n";
import {
  type ConnectionTestResult,
  type ConnectionView,
  connectionView,
  languageFor,
  testConnection as runConnectionTest,
  type SaveConnectionResult,
  saveConnection,
} from "../settings";
import { countUrlFetchCalls } from "./quota";

function userLocale(): string {
  try {
    return runtime().userLocale();
  } catch (_err) {
    return "en";
  }
}

function currentLanguage(): Language {
  try {
    return languageFor(documentSettingsStore().load().settings, userLocale());
  } catch (_err) {
    return languageFor({ language: null }, userLocale());
  }
}

/** Opens the connection sidebar. */
export function showConnectionSidebar(): void {
  runtime().showSidebar("connection", translate(currentLanguage(), "connection.title"));
}

/** What the sidebar shows: the URL and IdAdmin of the document, whether this user has a token. */
export function getConnectionSettings(): ConnectionView {
  return connectionView(documentSettingsStore(), currentLanguage());
}

/** Saves what the sidebar sent, or nothing when a field breaks a rule (the problems come back). */
export function saveConnectionSettings(input: unknown): SaveConnectionResult {
  return saveConnection(documentSettingsStore(), ownData(input), currentLanguage());
}

/**
 * One small call with the saved settings, or with the URL and token being typed when the
 * sidebar sends them, and a plain explanation of the outcome.
 */
export function testConnection(input?: unknown): ConnectionTestResult {
  let calls = 0;
  try {
    return runConnectionTest(
      {
        store: documentSettingsStore(),
        createClient: (baseUrl, token) =>
          createClient({
            transport: urlFetchTransport(),
            clock: appsScriptClock(),
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
