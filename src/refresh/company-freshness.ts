/**
 * What the Refresh sidebar shows of each company of a document that lists several: how fresh
 * its sheets are (its own stamps) and whether this user can refresh it (a usable token, none,
 * or one to confirm after another editor renamed or re-pointed the company). Pure: the stamps,
 * statuses and sheet names are handed in.
 */

import { type Language, translate } from "../i18n";
import type { CompanyUsability } from "../settings/bindings";
import { whoText } from "../sheets/headers";
import type { SheetNames } from "./options";

export type CompanyRefreshStatus = "ready" | "noToken" | "confirm" | "unusable";

export interface CompanyFreshness {
  key: string;
  name: string;
  status: CompanyRefreshStatus;
  /** The status in words. */
  statusText: string;
  /** "Funds: refreshed … by …", one line per sheet this company has refreshed; else "Not refreshed yet." */
  fresh: string[];
}

const STAGES = ["funds", "transactions", "reports"] as const;

/** The status a company's read usability gives this user on the sidebar. */
export function refreshStatusOf(usability: CompanyUsability): CompanyRefreshStatus {
  if (usability === "ready" || usability === "noToken") return usability;
  if (usability === "renamed" || usability === "repointed") return "confirm";
  return "unusable";
}

/** Each listed company (removed ones left out), in the list's order. */
export function companyFreshness(
  companies: readonly { key: string; name: string; status: CompanyUsability; removed: boolean }[],
  stamps: Readonly<Record<string, Partial<Record<(typeof STAGES)[number], { when: string; who: string }>>>>,
  names: Pick<SheetNames, (typeof STAGES)[number]>,
  language: Language,
): CompanyFreshness[] {
  return companies
    .filter((company) => !company.removed)
    .map((company) => {
      const status = refreshStatusOf(company.status);
      const own = stamps[company.key] ?? {};
      const fresh = STAGES.flatMap((stage) => {
        const stamp = own[stage];
        return stamp
          ? [
              translate(language, "refresh.sidebar.fresh", {
                sheet: names[stage],
                when: stamp.when,
                who: whoText(stamp.who, language),
              }),
            ]
          : [];
      });
      return {
        key: company.key,
        name: company.name || company.key,
        status,
        statusText: translate(language, `refresh.company.${status}`),
        fresh: fresh.length > 0 ? fresh : [translate(language, "refresh.company.never")],
      };
    });
}
