/**
 * The simple triggers: onOpen builds the menu, onInstall does the same. onOpen may run in
 * AuthMode.NONE before the add-on is used in a document: then it reads no properties and no
 * locale, and the menu is in English; otherwise it is in the document's language (settings),
 * else the user's locale.
 */
import { runtime } from "../gas/runtime";
import { toastCloseOutcome } from "./close-continuation";
import { diagnosticsMenuItems } from "./diagnostics";
import { currentLanguage } from "./entry";
import { buildMenu } from "./menu";
import { scheduleNoticeMenuItems, toastScheduleNotice } from "./schedule-notice";

/** Builds the add-on menu. Runs in AuthMode.NONE before first use: menu only, no services. */
export function onOpen(e?: GoogleAppsScript.Events.SheetsOnOpen): void {
  const authMode = e?.authMode;
  const none = runtime().isAuthModeNone(authMode);
  // In AuthMode.NONE, neither Session nor properties may be read: English until first use.
  const language = none ? "en" : currentLanguage();
  // Outside AuthMode.NONE the document's properties may be read: show a failed schedule.
  const notices = none ? [] : scheduleNoticeMenuItems();
  const extras = none ? [] : diagnosticsMenuItems(authMode ? String(authMode) : "");
  buildMenu(runtime().ui(), language, notices, extras);
  if (notices.length > 0) toastScheduleNotice();
  // The month-end close's marking that ended while nobody watched: its outcome, once.
  if (!none) toastCloseOutcome();
}

/** The menu again, in the document's language: Settings changed it from the sidebar. */
export function rebuildMenu(): void {
  buildMenu(runtime().ui(), currentLanguage(), scheduleNoticeMenuItems(), diagnosticsMenuItems("FULL"));
}

/** Called once when the add-on is installed; the menu is all that is needed. */
export function onInstall(e?: GoogleAppsScript.Events.AddonOnInstall): void {
  onOpen(e as unknown as GoogleAppsScript.Events.SheetsOnOpen);
}
