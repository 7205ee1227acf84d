/**
 * The settings store over PropertiesService: the token in the current user's own properties,
 * everything else in the document's properties.
 */
import { createSettingsStore, type SettingsStore } from "../settings/store";

/** The settings of the active document, with the current user's token. */
export function documentSettingsStore(): SettingsStore {
  const document = PropertiesService.getDocumentProperties();
  // Outside a document (a standalone run) there is no document store to read or write.
  if (!document) throw new Error("Settings: no document is open, so there are no document settings to use.");
  return createSettingsStore({ document, user: PropertiesService.getUserProperties() });
}
