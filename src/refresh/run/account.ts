/**
 * The account check of a refresh: before anything of a company is written, the account its
 * token opens is compared with the company's account mark (../../settings/account-mark.ts).
 * One small read (getFunds, MARK_QUERY: the account's oldest funds) in each execution, the
 * continuations' included. Where the reader sends reads of several kinds together (the API
 * client), it rides in the execution's first batch, beside the refresh's first reads, taking one
 * of the batch's places, and its answer is checked before any result of that batch is used
 * (./send.ts): since every stage reads before it writes, nothing is written before the check
 * has passed. Otherwise it is a batch of its own before the first stage. A refresh of selected
 * rows carries it the same way, first in its first batch (`readsAfterCheck`). Answers of another
 * account (a token saved before the check existed, another service put under the URL) stop the
 * company's refresh there, its rows left as they were. A company without a mark is not checked.
 */
import type { Fund } from "../../api/types";
import { say, type Words } from "../../i18n/words";
import { checkAccount, MARK_QUERY, type MarkedFund, markedFundText } from "../../settings/account-mark";
import { type RefreshRun, stepped } from "./state";
import {
  type AccountToCheck,
  type EngineDeps,
  isFailure,
  type ListPage,
  type Read,
  type ReadFailure,
  type ReadResult,
  type RefreshReader,
  type Steps,
} from "./types";

/**
 * A refresh whose reads are another account's than the company's mark: nothing of it is written.
 * It carries its `words`; its message is the English text unless the surface gives it the user's
 * (../words.ts, `otherAccountInWords`).
 */
export class OtherAccount extends Error {
  readonly words: Words;
  constructor(
    readonly company: string,
    readonly fund: MarkedFund,
    message?: string,
  ) {
    const words: Words = { key: "refresh.account.other", params: { company, fund: markedFundText(fund) } };
    super(message ?? say("en", words));
    this.words = words;
    this.name = "OtherAccount";
  }
}

/** The check's read: the first page of the account's oldest funds. */
export const checkRead = (): Read => ({ kind: "fundPage", query: { ...MARK_QUERY, Page: 1 } });

/**
 * The check at the start of an execution: left to ride in its first batch when the reader sends
 * reads of several kinds together (`run.accountPending`), else read in a batch of its own now.
 * Nothing when the company has no mark.
 */
export function* startAccountCheck(run: RefreshRun): Steps<void> {
  if (!run.deps.account) return;
  if (run.deps.reader.batch) run.accountPending = true;
  else yield* checkMarkedAccount(run);
}

/**
 * Reads the account's oldest funds in a batch of their own and compares them with the mark;
 * throws OtherAccount when they are another account's. Nothing when the company has no mark.
 */
export function* checkMarkedAccount(run: RefreshRun): Steps<void> {
  if (!run.deps.account) return;
  const [answer] = yield { reads: [checkRead()] };
  if (isFailure(answer)) throw answer.failed;
  stepped(run, run.cursor.stages[0] ?? "funds", 1);
  passCheck(run, answer);
}

/**
 * The check's answer compared with the mark: OtherAccount (or the read's failure) thrown when
 * it does not pass. No longer pending only once it passed: a batch asked again after a failure
 * (the page-size probe asks again when its first pages are refused) carries the check again.
 */
export function passCheck(run: RefreshRun, answer: ReadResult | ReadFailure | undefined): void {
  const account = run.deps.account;
  if (!account) {
    run.accountPending = false;
    return;
  }
  if (isFailure(answer)) throw answer.failed;
  run.checks += 1;
  run.minimum += 1;
  passMark(account, answer);
  run.accountPending = false;
}

/** The check's answer compared with the mark: its failure, or OtherAccount, thrown if it does not pass. */
function passMark(account: AccountToCheck, answer: ReadResult | ReadFailure | undefined): void {
  if (isFailure(answer)) throw answer.failed;
  const check = checkAccount(account.mark, (answer as ListPage<Fund>).items);
  if (check.kind === "other") throw new OtherAccount(account.company, check.missing);
}

/**
 * Requests a batch of the refresh's own reads may hold: the batch size, less the place of the
 * check while it is still to ride in one (at least one).
 */
export function batchRoom(run: RefreshRun): number {
  return Math.max(1, run.deps.options.batchSize - (run.accountPending ? 1 : 0));
}

/**
 * A refresh of selected rows' first reads (of one kind) sent after the check's read in one
 * `batch` (the reader's, which sends reads of several kinds together): the check's answer is
 * looked at first (OtherAccount, or the read's failure, thrown), then the first of `reads` that
 * failed is thrown. Their results.
 */
export function readsAfterCheck(
  account: AccountToCheck,
  batch: NonNullable<RefreshReader["batch"]>,
  reads: readonly Read[],
): ReadResult[] {
  const [answer, ...results] = batch([checkRead(), ...reads]);
  passMark(account, answer);
  const failure = results.find(isFailure);
  if (failure) throw failure.failed;
  return results as ReadResult[];
}

/**
 * The same check in a read of its own (a refresh of selected rows whose reader sends one kind
 * a batch): one read through `deps.reader`;
 * the contradiction found, or null (the answers are the marked account's, or there is no mark).
 */
export function otherAccountOf(deps: EngineDeps): OtherAccount | null {
  const account = deps.account;
  if (!account) return null;
  const [page] = deps.reader.fundPages([{ ...MARK_QUERY, Page: 1 }]);
  const check = checkAccount(account.mark, page?.items ?? []);
  return check.kind === "other" ? new OtherAccount(account.company, check.missing) : null;
}
