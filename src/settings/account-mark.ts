/**
 * The account mark of a company: which account of the service a company's tokens reach. The
 * service has no "who am I" call, so the mark is made of records only that account holds and
 * that never change: its oldest funds (getFunds ordered by creation date, ascending), each by
 * Id, CreatedAt and IdCreator. No token and no amount is in it. It is kept in the document
 * (document property ACCOUNT_MARKS_KEY, one mark per company key), taken when a company's
 * first token is saved or tested, and every token saved later for that company is checked
 * against it before it is saved. Pure: the funds read and the stored text are handed in.
 *
 * `checkAccount` is what a reader calls with funds it read with a company's token (the refresh
 * can check its reads against the mark the same way): "same" when every marked fund is among
 * them as marked, "other" when not, "unmarked" when the company has no mark yet.
 */

import { ownMember } from "../api/arguments";
import type { Fund } from "../api/types";
import type { CompanyKey } from "../company/model";

/** Document property: `{ [companyKey]: AccountMark }` as JSON. */
export const ACCOUNT_MARKS_KEY = "settings.accountMarks";
/** How many of the oldest funds make a mark. */
export const MARK_FUNDS = 3;
/** The getFunds query whose answer a mark is taken from and checked against: the oldest funds. */
export const MARK_QUERY = { OrderBy: 1, Order: "ASC", ResultsPerPage: MARK_FUNDS } as const;

export interface MarkedFund {
  id: number;
  /** CreatedAt as the service gave it, "YYYY-MM-DD HH:MM:SS". */
  createdAt: string;
  /** IdCreator: the administrator the fund was created under. */
  creator: number;
}

export interface AccountMark {
  /** The account's oldest funds, oldest first (1 to MARK_FUNDS). */
  funds: MarkedFund[];
  /** When it was taken (ms since the epoch). */
  at: number;
}

export type AccountMarks = Record<CompanyKey, AccountMark>;

/** What funds read with a token say of the company's mark. */
export type AccountCheck =
  /** No mark yet: nothing to compare with. */
  | { kind: "unmarked" }
  /** Every marked fund is among the funds read, as marked. */
  | { kind: "same" }
  /** The funds read are another account's: the first marked fund missing or different. */
  | { kind: "other"; missing: MarkedFund };

/** The fields of a fund a mark keeps. */
export type MarkSource = Pick<Fund, "id" | "createdAt" | "idCreator">;

/** A mark of the account whose oldest funds are `funds` (as MARK_QUERY answers); null when none. */
export function markOf(funds: readonly MarkSource[], at: number): AccountMark | null {
  const marked = funds
    .filter((f) => Number.isSafeInteger(f.id) && typeof f.createdAt === "string" && f.createdAt !== "")
    .slice(0, MARK_FUNDS)
    .map((f) => ({ id: f.id, createdAt: f.createdAt as string, creator: f.idCreator }));
  return marked.length === 0 ? null : { funds: marked, at };
}

/**
 * Whether `funds`, read with a token of the company (any read that holds the marked funds: the
 * answer to MARK_QUERY, or every fund of the account), are of the account `mark` was taken of.
 */
export function checkAccount(
  mark: AccountMark | null | undefined,
  funds: readonly MarkSource[],
): AccountCheck {
  if (!mark || mark.funds.length === 0) return { kind: "unmarked" };
  for (const marked of mark.funds) {
    const found = funds.find((f) => f.id === marked.id);
    if (!found || found.createdAt !== marked.createdAt || found.idCreator !== marked.creator)
      return { kind: "other", missing: marked };
  }
  return { kind: "same" };
}

function markFrom(value: unknown): AccountMark | null {
  const list = ownMember(value, "funds");
  const at = ownMember(value, "at");
  if (!Array.isArray(list)) return null;
  const funds: MarkedFund[] = [];
  for (const item of list.slice(0, MARK_FUNDS)) {
    const id = ownMember(item, "id");
    const createdAt = ownMember(item, "createdAt");
    const creator = ownMember(item, "creator");
    if (!Number.isSafeInteger(id) || typeof createdAt !== "string" || !Number.isSafeInteger(creator))
      return null;
    funds.push({ id: id as number, createdAt, creator: creator as number });
  }
  if (funds.length === 0) return null;
  return { funds, at: typeof at === "number" && Number.isFinite(at) ? at : 0 };
}

/** The marks as stored in ACCOUNT_MARKS_KEY; what cannot be read is left out (the company unmarked). */
export function accountMarksFrom(stored: string | null): AccountMarks {
  if (!stored) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch (_err) {
    return {};
  }
  const marks: AccountMarks = {};
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return marks;
  for (const key of Object.keys(parsed)) {
    const mark = markFrom(ownMember(parsed, key));
    if (mark && /^c[0-9a-z]{1,16}$/.test(key)) marks[key] = mark;
  }
  return marks;
}

/** The marks as stored. */
export function accountMarksText(marks: AccountMarks): string {
  return JSON.stringify(marks);
}

/** A marked fund as a message names it: "fund 5001 (created 2023-01-05 10:00:00, IdCreator 1001)". */
export function markedFundText(fund: MarkedFund): string {
  return `${fund.id} (${fund.createdAt}, IdCreator ${fund.creator})`;
}
