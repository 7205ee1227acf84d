/**
 * The entry points Google calls, and the one list of them: each area's functions live in
 * src/app/<area>.ts and are re-exported here. The build emits a top-level stub for every export
 * of this file (scripts/build.ts: ENTRY_POINTS); a test checks the built bundle for each.
 */

export {
  closeApproveJournal,
  closeBuildJournal,
  closeCheckMarking,
  closeExportCsv,
  closeShowRecord,
  getCloseView,
  showCloseSidebar,
} from "./app/close";
export { closeSetFourEyes } from "./app/close-four-eyes";
export {
  closeContinueMarking,
  closeMarkVouchers,
  closeStopMarking,
  continueCloseMarking,
  getCloseMarkingStatus,
} from "./app/close-marking";
export { closeFindVoucher, closeUndoVoucher } from "./app/close-undo";
export { showConnectionSidebar } from "./app/connection-section";
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
export { refreshAll, refreshFunds, refreshReports, refreshTransactions } from "./app/refresh";
export { refreshSelectedRows } from "./app/refresh-selected";
export { getRefreshSidebarView, refreshFromSidebar, showRefreshSidebar } from "./app/refresh-sidebar";
export {
  getReportSidebarView,
  markReportsIntegrated,
  markReportsNotIntegrated,
  setReportsCustomStatus,
  showReportSidebar,
} from "./app/report-sidebar";
export { continueRefresh, runScheduledRefresh } from "./app/schedule";
export { runRefreshFromSettings } from "./app/schedule-refresh-now";
export { dismissScheduleNotice, saveSchedule, saveSchedulePreferences } from "./app/schedule-save";
export { getScheduleView } from "./app/schedule-view";
export {
  confirmMyCompanyToken,
  confirmMyTokenUrl,
  getSettingsView,
  removeMyCompanyToken,
  removeMyToken,
  retakeCompanyAccountMark,
  saveCompanies,
  saveMyCompanyToken,
  saveSettings,
  showSettingsSidebar,
  testSettingsConnection,
} from "./app/settings";
