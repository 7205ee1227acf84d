/**
 * The services most of src/gas/ asks for, one short call each (asked anew on every call, as
 * SpreadsheetApp and PropertiesService answer them).
 */

/** The spreadsheet the add-on runs in (null in a run that has none). */
export function activeSpreadsheet(): GoogleAppsScript.Spreadsheet.Spreadsheet {
  return SpreadsheetApp.getActiveSpreadsheet();
}

/** The document's properties (null in a run that has none). */
export function documentProperties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getDocumentProperties();
}
