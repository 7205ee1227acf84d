/**
 * The account check of a refresh: before anything of a company is written, the account its
 * token opens is compared with the company's account mark (../../settings/account-mark.ts).
 * One small read (getFunds, MARK_QUERY: the account's oldest funds) in each execution, the
 * continuations' included, before the first stage goes on; answers of another account (a token
 * saved before the check existed, another service put under the URL) stop the company's
 * refresh there, its rows left as they were. A company without a mark is not checked.
 */
import type { Fund } from "../../api/types";
import { type Language, translate } from "../../i18n";
import { checkAccount, MARK_QUERY, type MarkedFund, markedFundText } from "../../settings/account-mark";
import { type RefreshRun, stepped } from "./state";
import { type EngineDeps, isFailure, type ListPage, type Steps } from "./types";

/** A refresh whose reads are another account's than the company's mark: nothing of it is written. */
export class OtherAccount extends Error {
  constructor(
    readonly company: string,
    readonly fund: MarkedFund,
    language: Language,
  ) {
    super(translate(language, "refresh.account.other", { company, fund: markedFundText(fund) }));
    this.name = "OtherAccount";
  }
}

/**
 * Reads the account's oldest funds and compares them with the mark; throws OtherAccount when
 * they are another account's. Nothing when the company has no mark.
 */
export function* checkMarkedAccount(run: RefreshRun): Steps<void> {
  const account = run.deps.account;
  if (!account) return;
  const [answer] = yield { reads: [{ kind: "fundPage", query: { ...MARK_QUERY, Page: 1 } }] };
  if (isFailure(answer)) throw answer.failed;
  stepped(run, run.cursor.stages[0] ?? "funds", 1);
  run.checks += 1;
  run.minimum += 1;
  const check = checkAccount(account.mark, (answer as ListPage<Fund>).items);
  if (check.kind === "other")
    throw new OtherAccount(account.company, check.missing, run.deps.options.language);
}

/**
 * The same check outside the steps (a refresh of selected rows): one read through `deps.reader`;
 * the contradiction found, or null (the answers are the marked account's, or there is no mark).
 */
export function otherAccountOf(deps: EngineDeps): OtherAccount | null {
  const account = deps.account;
  if (!account) return null;
  const [page] = deps.reader.fundPages([{ ...MARK_QUERY, Page: 1 }]);
  const check = checkAccount(account.mark, page?.items ?? []);
  return check.kind === "other"
    ? new OtherAccount(account.company, check.missing, deps.options.language)
    : null;
}
