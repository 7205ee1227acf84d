/**
 * What the Refresh sidebar shows of each company of a document that lists several: how fresh
 * its sheets are (its own stamps) and whether this user can refresh it (a usable token, none,
 * or one to confirm after another editor renamed or re-pointed the company). Pure: the stamps,
 * statuses and sheet names are handed in; ./words.ts says them (`companyFreshness`).
 */

import type { CompanyUsability } from "../settings/bindings";

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

/** The sheets whose freshness a company shows, in order. */
export const STAGES = ["funds", "transactions", "reports"] as const;

/** The status a company's read usability gives this user on the sidebar. */
export function refreshStatusOf(usability: CompanyUsability): CompanyRefreshStatus {
  if (usability === "ready" || usability === "noToken") return usability;
  if (usability === "renamed" || usability === "repointed") return "confirm";
  return "unusable";
}
