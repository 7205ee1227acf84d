/**
 * The add-on menu. Items are listed once here; each names an entry point (an export of src/main.ts).
 * onOpen may run in AuthMode.NONE before the add-on is used in a document: it may build the
 * menu and nothing else (no properties, no service calls), so labels are in the document's
 * language (its settings, else the user's locale) only when that is allowed, else English.
 */
import { type Language, type StringKey, translate } from "../i18n";

export interface MenuItem {
  /** Key of the label in the strings catalogue, or "-" for a separator. */
  label: StringKey | "-";
  /** Entry point the item calls. */
  functionName: string;
}

export const MENU_ITEMS: readonly MenuItem[] = [
  { label: "menu.refreshFunds", functionName: "refreshFunds" },
  { label: "menu.refreshTransactions", functionName: "refreshTransactions" },
  { label: "menu.refreshReports", functionName: "refreshReports" },
  { label: "menu.refreshAll", functionName: "refreshAll" },
  { label: "menu.refreshSelected", functionName: "refreshSelectedRows" },
  { label: "menu.refreshSidebar", functionName: "showRefreshSidebar" },
  { label: "-", functionName: "" },
  { label: "menu.connection", functionName: "showConnectionSidebar" },
  { label: "menu.settings", functionName: "showSettingsSidebar" },
  { label: "menu.fund", functionName: "showFundSidebar" },
  { label: "menu.report", functionName: "showReportSidebar" },
  { label: "menu.outbox.create", functionName: "createOutboxSheet" },
  { label: "menu.outbox.preview", functionName: "previewOutbox" },
  { label: "menu.outbox.run", functionName: "runOutbox" },
  { label: "menu.close", functionName: "showCloseSidebar" },
];

/** Shown last, only where the document turns the self-check on (src/app/diagnostics.ts). */
export const DIAGNOSTICS_MENU_ITEM: MenuItem = { label: "menu.diagnostics", functionName: "runDiagnostics" };

/**
 * Builds the add-on menu into `ui`. `notices` (e.g. "⚠ Last scheduled refresh failed") come
 * first, so that they are seen; `extras` (Diagnostics…) come last, after a separator. Both are
 * computed by the caller only when properties may be read.
 */
export function buildMenu(
  ui: GoogleAppsScript.Base.Ui,
  language: Language,
  notices: readonly MenuItem[] = [],
  extras: readonly MenuItem[] = [],
): void {
  const menu = ui.createAddonMenu();
  const separator: MenuItem[] = extras.length > 0 ? [{ label: "-", functionName: "" }] : [];
  for (const item of [...notices, ...MENU_ITEMS, ...separator, ...extras]) {
    if (item.label === "-") menu.addSeparator();
    else menu.addItem(translate(language, item.label), item.functionName);
  }
  menu.addToUi();
}
