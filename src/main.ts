/**
 * The entry points Google calls, and the one list of them: each area's functions live in
 * src/app/<area>.ts and are re-exported here. The build emits a top-level stub for every export
 * of this file (scripts/build.ts: ENTRY_POINTS); a test checks the built bundle for each.
 */

export { showConnectionSidebar } from "./app/connection";
export { runDiagnostics, runDiagnosticsTrigger } from "./app/diagnostics";
export {
  acknowledgeFundCheck,
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
