/**
 * Settings sidebar entry points: open it, read what it shows, save what it sends. The token is
 * the current user's own (user properties); everything else belongs to the document.
 */
import { languageForLocale, translate } from "../ui/strings";

function userLanguage() {
  try {
    return languageForLocale(Session.getActiveUserLocale());
  } catch (_err) {
    return "en" as const;
  }
}

/** Opens the settings sidebar (menu item "Settings…", and the schedule's notice item). */
export function showSettingsSidebar(): void {
  SpreadsheetApp.getUi().showSidebar(
    HtmlService.createHtmlOutputFromFile("settings").setTitle(translate(userLanguage(), "settings.title")),
  );
}
