/**
 * The add-on's sheets' default names, in the sheets' language: data of the layout, not
 * messages (the language here is the sheets', chosen for the document; ARCHITECTURE.md).
 */
import { type Language, type StringKey, translate } from "../i18n";

export interface SheetNames {
  funds: string;
  transactions: string;
  reports: string;
  audit: string;
  outbox: string;
}

export const SHEET_DEFAULTS: Record<keyof SheetNames, StringKey> = {
  funds: "sheet.funds",
  transactions: "sheet.transactions",
  reports: "sheet.reports",
  audit: "sheet.audit",
  outbox: "outbox.sheetName",
};

/** The sheet names to use: the chosen ones, else the default names in `language`. */
export function sheetNamesFor(settings: { sheetNames: SheetNames }, language: Language): SheetNames {
  const out = {} as SheetNames;
  for (const key of Object.keys(SHEET_DEFAULTS) as (keyof SheetNames)[]) {
    out[key] = settings.sheetNames[key] || translate(language, SHEET_DEFAULTS[key]);
  }
  return out;
}

/**
 * The audit archive's name (it has no setting): the default one beside the default audit name,
 * else the audit's name followed by " (archive)".
 */
export function auditArchiveName(audit: string, language: Language): string {
  return audit === translate(language, "sheet.audit")
    ? translate(language, "sheet.auditArchive")
    : `${audit} (archive)`;
}
