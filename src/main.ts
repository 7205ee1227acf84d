/**
 * Entry points Google calls. Thin wrappers only: each area's functions live in src/app/<area>.ts
 * and are re-exported here. The list of names is src/entrypoints.ts; a test checks that every
 * name is exported here and is a top-level function of the built bundle.
 */
import { diagnosticsMenuItems } from "./app/diagnostics";
import { buildMenu } from "./app/menu";
import { scheduleNoticeMenuItems } from "./app/schedule";
import { languageForLocale } from "./i18n";

/** Builds the add-on menu. Runs in AuthMode.NONE before first use: menu only, no services. */
export function onOpen(e?: GoogleAppsScript.Events.SheetsOnOpen): void {
  const authMode = e?.authMode;
  // In AuthMode.NONE, Session may not be read; English until the add-on is used here.
  const locale = authMode === ScriptApp.AuthMode.NONE ? "en" : safeLocale();
  // Outside AuthMode.NONE the document's properties may be read: show a failed schedule.
  const notices = authMode === ScriptApp.AuthMode.NONE ? [] : scheduleNoticeMenuItems();
  const extras =
    authMode === ScriptApp.AuthMode.NONE ? [] : diagnosticsMenuItems(authMode ? String(authMode) : "");
  buildMenu(SpreadsheetApp.getUi(), languageForLocale(locale), notices, extras);
}

/** Called once when the add-on is installed; the menu is all that is needed. */
export function onInstall(e?: GoogleAppsScript.Events.AddonOnInstall): void {
  onOpen(e as unknown as GoogleAppsScript.Events.SheetsOnOpen);
}

function safeLocale(): string {
  try {
    return Session.getActiveUserLocale();
  } catch (_err) {
    return "en";
  }
}

export {
  getConnectionSettings,
  saveConnectionSettings,
  showConnectionSidebar,
  testConnection,
} from "./app/connection";
export { runDiagnostics, runDiagnosticsTrigger } from "./app/diagnostics";
export {
  changeFundStatus,
  createFundForEmployee,
  depositToFund,
  getFundSidebarView,
  showFundSidebar,
  updateFundDetails,
  withdrawFromFund,
} from "./app/fund-sidebar";
export { createOutboxSheet, previewOutbox, runOutbox } from "./app/outbox";
export {
  getRefreshSidebarView,
  refreshAll,
  refreshFromSidebar,
  refreshFunds,
  refreshReports,
  refreshSelectedRows,
  refreshTransactions,
  showRefreshSidebar,
} from "./app/refresh";
export {
  getReportSidebarView,
  markReportsIntegrated,
  markReportsNotIntegrated,
  setReportsCustomStatus,
  showReportSidebar,
} from "./app/report-sidebar";
export {
  continueRefresh,
  dismissScheduleNotice,
  getScheduleView,
  runRefreshFromSettings,
  runScheduledRefresh,
  saveSchedule,
  saveSchedulePreferences,
} from "./app/schedule";
export {
  confirmMyTokenUrl,
  getSettingsView,
  removeMyToken,
  saveSettings,
  showSettingsSidebar,
  testSettingsConnection,
} from "./app/settings";
