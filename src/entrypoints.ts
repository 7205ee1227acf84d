/**
 * The one list of functions Google calls by name: simple triggers, menu items, trigger
 * handlers and everything a sidebar calls through `google.script.run`. The build emits a
 * top-level forwarding stub for each; `src/main.ts` must export a function of each name
 * (checked at compile time there and against the built bundle in a test).
 */
export const ENTRY_POINTS = [
  "onOpen",
  "onInstall",
  "showConnectionSidebar",
  "getConnectionSettings",
  "saveConnectionSettings",
  "testConnection",
  "showSettingsSidebar",
  "runScheduledRefresh",
  "continueRefresh",
  "getScheduleView",
  "saveSchedule",
  "saveSchedulePreferences",
  "dismissScheduleNotice",
  "runRefreshFromSettings",
  "getSettingsView",
  "saveSettings",
  "removeMyToken",
  "confirmMyTokenUrl",
  "testSettingsConnection",
  "refreshFunds",
  "refreshTransactions",
  "refreshReports",
  "refreshAll",
  "refreshSelectedRows",
  "refreshFromSidebar",
  "showRefreshSidebar",
  "getRefreshSidebarView",
  "createOutboxSheet",
  "previewOutbox",
  "runOutbox",
  "showFundSidebar",
  "getFundSidebarView",
  "depositToFund",
  "withdrawFromFund",
  "changeFundStatus",
  "updateFundDetails",
  "createFundForEmployee",
  "showReportSidebar",
  "getReportSidebarView",
  "markReportsIntegrated",
  "markReportsNotIntegrated",
  "setReportsCustomStatus",
  "runDiagnostics",
  "runDiagnosticsTrigger",
] as const;

export type EntryPoint = (typeof ENTRY_POINTS)[number];

/** Global name of the bundle's IIFE; the stubs forward to its members. */
export const BUNDLE_GLOBAL = "AddOn";
