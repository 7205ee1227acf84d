/**
 * What a preview of the Outbox returns: the writes it would send or settle, the rows it would
 * refuse, the totals and warnings, and what the confirmation holds the run to.
 */

import type { Cents } from "../cells";
import type { CompanyRefused } from "../companies/words";
import type { OutboxOperation } from "../operations";
import type { WriteRequest } from "../requests";
import type { RequestProblem } from "../rows";

/** What the preview needs to know about a fund: from the Funds sheet or a fresh read. */
export interface FundFacts {
  currency: string;
  balance: Cents;
  flexible: boolean;
  /** 1 open; any other number is not open. */
  status: number;
}

/**
 * A row's cells changed since its write was recorded: what each changed column (`columns`, the
 * Outbox's column names, "operation" among them) held then and holds now. A company the write
 * went to that has no name shows as "" in `before`.
 */
export interface CellChanges {
  before: Record<string, string>;
  now: Record<string, string>;
  columns: readonly string[];
}

export interface Total {
  /**
   * The company's name, when the document has several (totals are then per company too); "" for
   * a company without a name.
   */
  company?: string;
  operation: OutboxOperation;
  /** null for operations that move no money. */
  currency: string | null;
  amount: Cents;
  count: number;
}

export type Warning =
  | {
      kind: "overBalance";
      rowNumber: number;
      fundId: number;
      amount: Cents;
      balance: Cents;
      currency: string;
    }
  | { kind: "duplicate"; rowNumber: number; otherRow: number }
  | { kind: "closedFund" | "blockedFund" | "notOpenFund"; rowNumber: number; fundId: number; status: number }
  | { kind: "unknownFund"; rowNumber: number; fundId: number }
  /** The same request as a done write (a copy of its row, or typed again), however old: sent only when confirmed as such. */
  | ({ kind: "sameAsDone"; rowNumber: number } & SameAs)
  /** The same request as a write not settled yet: it waits, sending nothing. */
  | { kind: "waitsForSame"; rowNumber: number; otherRow: number | null }
  /** Its key names a done or unsettled write whose cells it does not show (sorted, or copied and edited). */
  | { kind: "sortedOrEdited"; rowNumber: number; sent: WriteRequest | string }
  /** Done typed or pasted on a row the add-on never wrote Done on: marked Refused, not sent. */
  | { kind: "doneNoKey"; rowNumber: number }
  /** Done shown without its key, on a row with that write's cells: its key is put back, nothing sent. */
  | { kind: "keyRestored"; rowNumber: number; doneAt: string }
  /** A done row whose cells were changed afterwards: nothing more is sent for it. */
  | { kind: "editedDone"; rowNumber: number; doneAt: string; changes: CellChanges }
  /** A done row whose State was cleared: restored, not sent. */
  | { kind: "restoreDone"; rowNumber: number; doneAt: string }
  /** Sending or Unknown typed on a row the add-on has no record of: marked Refused, not sent. */
  | { kind: "noRecord"; rowNumber: number }
  /** Its company is one this user may not write to now: left Pending, not sent. */
  | { kind: "companyUnusable"; rowNumber: number; message: string };

/** The earlier write a row's request equals: its row (null when none), when it ended, and how. */
export interface SameAs {
  otherRow: number | null;
  doneAt: string;
  /** Settled by hand as Refused (it may have been applied), not done. */
  byHand?: boolean;
}

/** A write that may move money: a pending row, or an interrupted one that may be sent again. */
export interface MoneyItem {
  /** The company's name, when the document has several ("" for a company without a name). */
  company?: string;
  rowNumber: number;
  request: WriteRequest;
  currency: string | null;
  /** Absent for a pending row; how an interrupted one is taken otherwise. */
  interrupted?: ToSettle;
  /** For a row with the same request as a done write: which, and when it was done. */
  sameAs?: SameAs;
}

/** A write left unsettled by an earlier run or a form: settled by reading before anything on its fund. */
export interface ToSettle {
  /** The key of the company it went to (absent: the first). */
  company?: string;
  /** Its row; null when the row is gone or the write came from a form. */
  rowNumber: number | null;
  /** What was sent (or was about to be). */
  request: WriteRequest;
  /** Until when it may still land (HH:mm in the spreadsheet's zone), when that is later than now. */
  waitingUntil: string | null;
  /** The row's changes since it was sent (null when none): then nothing new is sent for it in this run. */
  changes: CellChanges | null;
  /**
   * Done or Refused typed in the row's State: it settles the write, nothing sent, if reading the
   * fund cannot tell. Any editor can type it, so the confirmation names it and the run takes it
   * only when confirmed so.
   */
  byHand?: "Done" | "Refused";
}

/**
 * What keeps a row from being sent, as data: the contract's checks of its cells (as
 * `requestFromRow` gives them), or the preview's own findings: its Company cell names no
 * company, its Currency is not its fund's, a cell too long to record.
 */
export type RowProblem =
  | RequestProblem
  | { field: "company"; refused: CompanyRefused }
  | { field: "currency"; typed: string; fundId: number; currency: string }
  /** `field` is the Outbox column; `tooLong` its length. */
  | { field: string; tooLong: number };

export interface OutboxPreview {
  toSend: {
    rowNumber: number;
    request: WriteRequest;
    sameAs?: SameAs;
    /** The key of the row's company (absent: the first). */
    company?: string;
  }[];
  /** Writes left unsettled: checked against the service before anything on their fund is sent. */
  toSettle: ToSettle[];
  invalid: { rowNumber: number; problems: RowProblem[] }[];
  totals: Total[];
  warnings: Warning[];
  /** Every write that may move money, rows in order, for the confirmation to name one by one. */
  money: MoneyItem[];
  /**
   * Every write this run may send (pending rows, and interrupted ones that may be sent again),
   * rows in order: the confirmation names each one, or points to the sheet that lists them all.
   */
  operations: MoneyItem[];
  /**
   * The request cells of every row this preview says may be sent (`confirmationKey`): once the
   * user confirms, a run sends only rows among them (`RunContext.confirmed`).
   */
  confirmed: string[];
  /**
   * The currency the confirmation names for each deposit or withdrawal, by `confirmationKey`:
   * from the Funds sheet when it has the fund (a cell any editor can type), so a run sends the
   * row only if the fund read just before sending has that currency (`RunContext.currencies`).
   */
  currencies: Record<string, string>;
  /** The fund status the confirmation knew for each deposit or withdrawal (`RunContext.statuses`). */
  statuses: Record<string, number>;
}
