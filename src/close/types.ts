import type { CompanyKey } from "../company/model";
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
/**
 * Why a report was not marked (or not undone), as data: a code and its values, put in the
 * user's words by words.ts (`markReasonText`). `message` is the service's own text, or a
 * refusal already in the user's words (a company that cannot be written to).
 */
export type MarkReason =
  | { code: "service"; message: string } // the service refused: its words
  | { code: "unusable"; message: string } // this user cannot write to the company: why
  | { code: "fourEyes"; who: string } // who approved the journal, and so may not mark it
  | { code: "twoVouchers"; report: string; vouchers: string[] } // a report in more than one voucher
  | { code: "mayStillLand"; sentAt: string; until: string } // a call sent at sentAt may land until `until` (ISO)
  | { code: "sentNotRead"; message: string } // a call was sent and the report could not be read ("" no answer)
  | { code: "notRead"; message: string } // not read, so not sent
  | {
      code: "otherReport";
      reportId: number;
      number: string;
      currency: string;
      expectedNumber: string;
      expectedCurrency: string;
    }
  | { code: "notShownYet" } // the service answered, a read does not show it yet
  | { code: "lost"; message: string } // the call got no usable answer: the service's or transport's words
  | { code: "notReadBack"; first: MarkReason; message: string }; // then the read back failed too
export type MarkOutcome =
  | { kind: "done"; reportId: number; voucher: string }
  | { kind: "otherCode"; reportId: number; voucher: string; code: string } // integrated meanwhile under another code: named, not overwritten
  | { kind: "unknown"; reportId: number; voucher: string; reason: MarkReason } // call interrupted and not yet settled
  | { kind: "refused"; reportId: number; voucher: string; reason: MarkReason }; // refused, and why
