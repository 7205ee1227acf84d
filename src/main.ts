/**
 * Entry points Google calls. Each is a thin wrapper: it gathers the Apps Script services the
 * core needs (through src/gas/) and hands them in. The list of names lives in
 * src/entrypoints.ts; the `satisfies` below makes a missing export a compile error.
 */
import type { EntryPoint } from "./entrypoints";

/** Builds the add-on menu. Runs in AuthMode.NONE before first use: menu only, no services. */
export function onOpen(_e?: GoogleAppsScript.Events.SheetsOnOpen): void {
  SpreadsheetApp.getUi().createAddonMenu().addItem("Connection…", "showConnectionSidebar").addToUi();
}

/** Called once when the add-on is installed; the menu is all that is needed. */
export function onInstall(e?: GoogleAppsScript.Events.AddonOnInstall): void {
  onOpen(e as unknown as GoogleAppsScript.Events.SheetsOnOpen);
}

export function showConnectionSidebar(): void {
  SpreadsheetApp.getUi().showSidebar(
    HtmlService.createHtmlOutputFromFile("connection").setTitle("Connection"),
  );
}

export function getConnectionSettings(): unknown {
  throw new Error("getConnectionSettings: not built yet");
}

export function saveConnectionSettings(_input: unknown): unknown {
  throw new Error("saveConnectionSettings: not built yet");
}

export function testConnection(): unknown {
  throw new Error("testConnection: not built yet");
}

const exported = {
  onOpen,
  onInstall,
  showConnectionSidebar,
  getConnectionSettings,
  saveConnectionSettings,
  testConnection,
} satisfies Record<EntryPoint, (...args: never[]) => unknown>;
void exported;
