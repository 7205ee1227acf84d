/**
 * The company a sidebar acts on (pure): the company of the selected row (its Company and
 * Company key cells, checked by companyOfRow), the one picked for an Id typed in, and whether a
 * form's submission may go to the company it names. Ids repeat from one company to another
 * (each company's funds start at 5001), so a fund is always a company's fund: nothing is
 * guessed, and a refusal says why, naming the row and its cells.
 */
import { type Company, type CompanyDirectory, hasHadSeveral, liveCompanies } from "../company/model";
import type { Words } from "../i18n/words";
import type { CellValue } from "./cells";
import { COMPANY_COLUMN, COMPANY_KEY_COLUMN } from "./columns";
import { companyOfRow, companyRefusalWords, type SheetCompany } from "./company";
import { textsOfHeader } from "./headers";

/** A company a sidebar may act on, or why not (words; ./words.ts says them). */
export type SidebarChoice = { ok: true; company: SheetCompany } | { ok: false; words: Words };

/** A company a sidebar may act on, or why not (in the user's words). */
export type SidebarCompany = { ok: true; company: SheetCompany } | { ok: false; message: string };

/**
 * The column keys companyOfRow reads, from a sheet's header row (either language): "company"
 * and "companyKey" where those headers are, "" elsewhere.
 */
export function companyLayoutOfHeader(header: readonly unknown[]): string[] {
  const name = textsOfHeader("col.company");
  const key = textsOfHeader("col.companyKey");
  return header.map((cell) =>
    typeof cell !== "string"
      ? ""
      : key.includes(cell)
        ? COMPANY_KEY_COLUMN
        : name.includes(cell)
          ? COMPANY_COLUMN
          : "",
  );
}

/** "Alpha, Beta": the names a user picks from. */
function names(companies: readonly SheetCompany[]): string {
  return companies.map((c) => c.name || c.key).join(", ");
}

/**
 * The company of an Id asked for without a row (typed in, or on a sheet without company
 * columns): the one `asked` names when it is listed, the only one when there is one, else the
 * user is asked to pick.
 */
export function companyOfTypedId(
  asked: unknown,
  companies: readonly SheetCompany[],
  id: number,
): SidebarChoice {
  const live = liveCompanies(companies);
  if (typeof asked === "string" && asked !== "") {
    const company = live.find((c) => c.key === asked);
    return company
      ? { ok: true, company }
      : { ok: false, words: { key: "company.sidebar.unlisted", params: { key: asked.slice(0, 40) } } };
  }
  if (live.length === 1) return { ok: true, company: live[0] as SheetCompany };
  return { ok: false, words: { key: "company.sidebar.pick", params: { id, names: names(live) } } };
}

/**
 * The company of the selected row `row` (its `cells`, under `header`). A sheet of the add-on's
 * (`dataSheet`, named `sheet`) without a Company key column holds the first company's rows
 * alone while the document has never had several companies; once it has, such a sheet lost
 * the column (its header renamed or deleted) and is refused, naming the sheet and the column.
 * Any other sheet without it says nothing of the company, so with several companies the user
 * picks one.
 */
export function companyOfSelectedRow(
  cells: readonly CellValue[],
  header: readonly unknown[],
  companies: CompanyDirectory | readonly Company[],
  row: number,
  dataSheet: boolean,
  id: number,
  sheet = "",
): SidebarChoice {
  const layout = companyLayoutOfHeader(header);
  const entries = Array.isArray(companies) ? companies : (companies as CompanyDirectory).entries;
  if (!layout.includes(COMPANY_KEY_COLUMN) && !dataSheet) return companyOfTypedId(undefined, entries, id);
  const found = companyOfRow(cells, layout, companies, row, sheet);
  return found.ok ? found : { ok: false, words: companyRefusalWords(found.refusal) };
}

/** What a sidebar showed last, per target ("5001" a fund, "new" a fund to create): the company key. */
export type ShownCompanies = Readonly<Record<string, string>>;

/**
 * The company a form's submission goes to: with one company (in a document that never had
 * several), it; else the company the submission names, which must be listed and the one this user's sidebar showed last for that
 * target, so that a page left open on another company's fund 5001 never sends to this one's.
 */
export function companyOfSubmission(
  asked: unknown,
  companies: CompanyDirectory | readonly Company[],
  shown: ShownCompanies,
  target: string,
): SidebarChoice {
  const directory: CompanyDirectory = Array.isArray(companies)
    ? { entries: companies }
    : (companies as CompanyDirectory);
  const live = liveCompanies(directory.entries);
  // One company in a document that never had several: it. Once it has had several, the one
  // left is sent to only as any company is: named, and the one shown last for that target.
  const one = live.length === 1 && !hasHadSeveral(directory);
  if (one && (asked === undefined || asked === null || asked === live[0]?.key))
    return { ok: true, company: live[0] as SheetCompany };
  const id = target === "new" ? "" : target;
  if (typeof asked !== "string" || asked === "")
    return {
      ok: false,
      words: {
        key: id ? "company.sidebar.pick" : "company.sidebar.pickNew",
        params: { id, names: names(live) },
      },
    };
  const company = live.find((c) => c.key === asked);
  if (!company)
    return {
      ok: false,
      words: { key: "company.sidebar.unlisted", params: { key: asked.slice(0, 40) } },
    };
  if (shown[target] !== company.key)
    return {
      ok: false,
      words: {
        key: id ? "company.sidebar.notShown" : "company.sidebar.notShownNew",
        params: { id, company: company.name || company.key },
      },
    };
  return { ok: true, company };
}
