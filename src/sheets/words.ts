/**
 * The sheets' words module: what the sheets core returns as data (a row's company refused, the
 * company a sidebar acts on or why not, a sheet not the add-on's) said in the user's language. The sheets' headers and
 * cells keep the sheets' layout language (./columns.ts, ./headers.ts).
 */
import type { Company, CompanyDirectory } from "../company/model";
import type { Language } from "../i18n";
import { say } from "../i18n/words";
import {
  type ApplyOptions,
  applyToSheet,
  ForeignSheetError,
  type SheetAccess,
  type SheetRefresh,
} from "./apply";
import type { CellValue } from "./cells";
import { type CompanyRefusal, companyRefusalWords } from "./company";
import type { RefreshPlan } from "./merge";
import type { ShownCompanies, SidebarChoice, SidebarCompany } from "./sidebar-company";
import * as core from "./sidebar-company";

/** A refusal in words: the row number and both cells ("Row 7: the Company "Beta" does not match…"). */
export function companyRefusalText(refusal: CompanyRefusal, language: Language): string {
  return say(language, companyRefusalWords(refusal));
}

/** A sidebar's company, or why not said in `language`. */
export function sidebarCompanyIn(choice: SidebarChoice, language: Language): SidebarCompany {
  return choice.ok ? choice : { ok: false, message: say(language, choice.words) };
}

/** The company of an Id asked for without a row (sidebar-company.ts), said in `language`. */
export function companyOfTypedId(
  asked: unknown,
  companies: Parameters<typeof core.companyOfTypedId>[1],
  id: number,
  language: Language,
): SidebarCompany {
  return sidebarCompanyIn(core.companyOfTypedId(asked, companies, id), language);
}

/** The company of the selected row (sidebar-company.ts), said in `language`. */
export function companyOfSelectedRow(
  cells: readonly CellValue[],
  header: readonly unknown[],
  companies: CompanyDirectory | readonly Company[],
  row: number,
  dataSheet: boolean,
  id: number,
  language: Language,
  sheet = "",
): SidebarCompany {
  return sidebarCompanyIn(
    core.companyOfSelectedRow(cells, header, companies, row, dataSheet, id, sheet),
    language,
  );
}

/** The company a form's submission goes to (sidebar-company.ts), said in `language`. */
export function companyOfSubmission(
  asked: unknown,
  companies: CompanyDirectory | readonly Company[],
  shown: ShownCompanies,
  target: string,
  language: Language,
): SidebarCompany {
  return sidebarCompanyIn(core.companyOfSubmission(asked, companies, shown, target), language);
}

/**
 * applyToSheet (./apply.ts), its refusal of a sheet not the add-on's said in the sheets'
 * language (`options.language`).
 */
export function applyToSheetIn<R>(
  access: SheetAccess,
  update: SheetRefresh<R>,
  options: ApplyOptions,
): RefreshPlan {
  try {
    return applyToSheet(access, update, options);
  } catch (err) {
    if (!(err instanceof ForeignSheetError)) throw err;
    throw new ForeignSheetError(err.sheet, say(options.language, err.words));
  }
}
