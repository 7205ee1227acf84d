/**
 * What a run of the Outbox is given (its ports: the sheet, the records, each company's service
 * and audit) and what it returns (each row's outcome, the counts).
 */

import type { Refusal } from "../../api/plain";
import type { StringKey } from "../../i18n";
import type { WordValue } from "../../i18n/words";
import type { DateFormatter } from "../cells";
import type { CellValue, OwnedCells } from "../columns";
import type { CompanyDirectory } from "../companies";
import type { CompanyRefused } from "../companies/words";
import type { OutboxState } from "../operations";
import type { RecordStore } from "../records";
import type { WriteRequest } from "../requests";
import type { RequestProblem } from "../rows";
import type { AuditPort, ServicePort, WriteContext, WriteResult, WriteWords } from "../write";

/** The Outbox sheet as a run needs it. Row numbers are 1-based; row 1 holds the headers. */
export interface OutboxSheetPort {
  lastRow(): number;
  readRow(rowNumber: number): CellValue[];
  /** Every row from row 2 on (one read). */
  readAll(): CellValue[][];
  /** The operation key of every row from row 2 on, to find a row that moved. */
  readOperationKeys(): string[];
  writeOwned(rowNumber: number, cells: OwnedCells): void;
  /** Makes what was written visible to others before a call is made. */
  flush(): void;
}

/** One company as a run writes to it: its service (this user's token for it), audit and IdAdmin. */
export interface CompanyPort {
  service: ServicePort;
  audit: AuditPort;
  /** The IdAdmin this user's writes to the company carry; null when none is saved. */
  adminId: number | null;
  adminIssue?: string | null;
}

/** A company this user may not write to now (no usable token): why, in their words. */
export interface UnusableCompanyPort {
  unusable: string;
}

/** An amount as the run's words name it: cents, in a currency when it is known. */
export interface Money {
  cents: number;
  currency?: string | null;
}

/** A message of the run as data: its key and values, an amount among them as `Money`. */
export interface RunSaid {
  key: StringKey;
  params?: Record<string, WordValue | Money>;
}

/**
 * How a run says what it writes into the rows (State, Result, Sent) and the audit as it goes,
 * in the document's words (./words.ts, `runWords`, made where the run starts). The run builds
 * the words; the helpers that still say a request, a row's changes, a refusal, a row's
 * problems or its company are reached through here.
 */
export interface RunWords extends WriteWords {
  say(words: RunSaid): string;
  /** A State cell's label. */
  state(shown: OutboxState): string;
  /** A fund's status as a message names it. */
  fundStatus(status: number): string;
  /** A request as the rows show it, its amount in `currency` when known. */
  request(request: WriteRequest, currency?: string): string;
  /** How a row's `columns` changed from `before` to `now`. */
  changes(before: Record<string, string>, now: Record<string, string>, columns: readonly string[]): string;
  /** The service's refusal in plain words (its technical text when it gave no reason). */
  refusal(refusal: Refusal, currency?: string): string;
  /** A service field named by the Outbox's column it is typed into. */
  field(field: string): string;
  /** What keeps a row's request from being made (`requestFromRow`'s problems), as one text. */
  problems(problems: readonly RequestProblem[]): string;
  /** Why a row's Company cell names no company it may go to (`companyOfRow`'s refusal). */
  companyRefused(refused: CompanyRefused): string;
  /** A cell too long for a record: its column and length, as the message names them. */
  tooLong(tooLong: { column: string; length: number }): { column: string; length: string };
}

export interface RunContext extends WriteContext {
  /**
   * The document's companies: each row's Company cell is resolved against them. Absent: the
   * first company alone, unnamed (every row is its).
   */
  directory?: CompanyDirectory;
  /**
   * The port of each company by key, or why this user may not write to it. Absent: `service`,
   * `audit` and `adminId` are the first company's, and no other company is reachable.
   */
  companies?: (key: string) => CompanyPort | UnusableCompanyPort;
  sheet: OutboxSheetPort;
  /** The add-on's own record of each write, outside the sheet. */
  records: RecordStore;
  /** Says what the run writes as it goes. */
  words: RunWords;
  format: DateFormatter;
  newKey: () => string;
  /** The administrator id used for writes (settings); null when none is set. */
  adminId: number | null;
  /** Why `adminId` may not go with this user's writes (CheckOptions.adminIssue). */
  adminIssue?: string | null;
  /** Stop between rows once this many milliseconds have passed since the run started. */
  budgetMs: number;
  /**
   * When the execution started (ms), if before the run itself: the time limit counts the whole
   * execution, including the preview's reads and the confirmation. Defaults to the run's start.
   */
  startedAt?: number;
  /**
   * Brings the Funds or Expense reports sheet in line with a write's response to `company`;
   * answers why not, in the user's words, when the sheet cannot tell that company's row (a
   * Company key column lost, a row whose Company and Company key disagree).
   */
  applyResult?: (result: WriteResult, company: string) => string | null | undefined;
  /**
   * The rows the user confirmed (the preview's `confirmed`): a row is sent only if its request
   * cells are among them, each once. A row added or edited while the question was open (by
   * anyone) is left Pending for the next preview. Absent: no confirmation to hold to.
   */
  confirmed?: readonly string[];
  /**
   * The currency the confirmation named for each deposit or withdrawal (the preview's
   * `currencies`): a fund read just before sending in another currency sends nothing.
   */
  currencies?: Readonly<Record<string, string>>;
  /**
   * The fund status the confirmation knew for each deposit or withdrawal (the preview's
   * `statuses`): a fund read just before sending closed or blocked when it did not show so
   * sends nothing.
   */
  statuses?: Readonly<Record<string, number>>;
}

export interface RowOutcome {
  rowNumber: number;
  state: OutboxState;
  message: string;
}

export interface RunSummary {
  done: number;
  refused: number;
  unknown: number;
  /** Rows left for a later run (waiting on another row, or not reached before the time limit). */
  skipped: number;
  stoppedForTime: boolean;
  /**
   * Done writes whose Funds or Expense reports row could not be updated from the answer (a
   * protected range, say): the write and its row stand; the next refresh updates the sheet.
   */
  sheetsNotUpdated: number;
  /** Of those, the ones refused because the sheet cannot tell the company's row: why, each. */
  sheetsRefused?: string[];
  rows: RowOutcome[];
}

/**
 * Milliseconds a run may use before it stops between rows, out of an execution limit of
 * `limitMs` (Google's 6 minutes, or less when the document asks for less): two thirds, so that
 * one more row (a snapshot read and a write, each up to a minute when the service is slow) and
 * the closing writes still fit. 6 minutes give 4.
 */
export function outboxBudgetMs(limitMs: number): number {
  return Math.floor((limitMs * 2) / 3);
}
