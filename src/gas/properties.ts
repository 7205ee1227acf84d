/**
 * The settings store over PropertiesService: the token in the current user's own properties,
 * everything else in the document's properties.
 */

import { type RecordStore, textRecordStore } from "../outbox/records";
import { createSettingsStore, type SettingsStore } from "../settings/store";
import { documentProperties } from "./active";

/** The settings of the active document, with the current user's token. */
export function documentSettingsStore(): SettingsStore {
  const document = documentProperties();
  // Outside a document (a standalone run) there is no document store to read or write.
  if (!document) throw new Error("Settings: no document is open, so there are no document settings to use.");
  return createSettingsStore({ document, user: PropertiesService.getUserProperties() });
}

/**
 * The Outbox's and the forms' records of their writes, in the document's properties: shared by
 * every user of the document (each user's run must settle the others' interrupted writes) and
 * written only by the add-on's code, never from a cell.
 */
export function documentWriteRecords(): RecordStore {
  const document = documentProperties();
  if (!document) throw new Error("Outbox: no document is open, so there is nowhere to keep write records.");
  return textRecordStore(document);
}

/** A script property: set by the deployer in the script's Project Settings (null when unset). */
export function scriptProperty(key: string): string | null {
  return PropertiesService.getScriptProperties().getProperty(key);
}
