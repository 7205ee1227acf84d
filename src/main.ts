/**
 * Entry points Google calls. Thin wrappers only: each area's functions live in src/app/<area>.ts
 * and are re-exported here. The list of names is src/entrypoints.ts; a test checks that every
 * name is exported here and is a top-level function of the built bundle.
 */

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
export { onInstall, onOpen } from "./app/open";
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
