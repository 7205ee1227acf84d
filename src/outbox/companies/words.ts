/**
 * The words of a row's company: why an Outbox row's Company cell names no company it may go to,
 * said in the user's language. ../companies.ts returns the refusal as a code and its values.
 */
import { type Language, translate } from "../../i18n";

/** Why a row's Company cell names no company it may go to: a code and its values. */
export interface CompanyRefused {
  /** Empty while the document has had several companies, a removed company's name, or no company's. */
  reason: "empty" | "removed" | "unknown";
  /** The cell ("C5"): the message names the cell, not the row. */
  cell: string;
  /** What the cell holds. */
  value: string;
  /** The live companies' names, "" for one without a name. */
  names: string[];
}

const REFUSED = {
  empty: "outbox.company.empty",
  removed: "outbox.company.removed",
  unknown: "outbox.company.unknown",
} as const;

/** Why the row's Company cell names no company, in `language`. */
export function companyRefusedText(language: Language, refused: CompanyRefused): string {
  return translate(language, REFUSED[refused.reason], {
    cell: refused.cell,
    value: refused.value,
    names: refused.names.map((name) => name || translate(language, "outbox.company.noCompany")).join(", "),
  });
}
