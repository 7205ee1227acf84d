import type { CompanyKey } from "../settings/companies";
/** One report of an approved voucher, to be marked integrated with the voucher's code. */
export interface CloseMark {
  company: CompanyKey;
  reportId: number;
  /** The report's number as the service shows it, for messages. */
  reportNumber: string;
  voucher: string;
  /** ReportTotalApproved in integer cents, and its currency, for the confirmation's totals. */
  cents: number;
  currency: string;
  /** "YYYY-MM-DD HH:MM:SS" in the spreadsheet's time zone. */
  integrationDate: string;
}
/** What the approval kept: a digest of the journal's lines, who approved and when. */
export interface JournalApproval {
  digest: string;
  approvedBy: string;
  approvedAt: string;
}
export type MarkOutcome =
  | { kind: "done"; reportId: number; voucher: string }
  | { kind: "otherCode"; reportId: number; voucher: string; code: string } // integrated meanwhile under another code: named, not overwritten
  | { kind: "unknown"; reportId: number; voucher: string; reason: string } // call interrupted and not yet settled
  | { kind: "refused"; reportId: number; voucher: string; reason: string }; // the service refused (its reason)
