/**
 * The movements stage: getFund for each fund that is new or whose totals moved (its
 * fingerprint), merged into the Fund transactions sheet. Cut off by the time limit, the
 * movements fetched so far are written (each fund's rows complete, its fingerprint saved) and
 * the cursor keeps the ids still to fetch.
 */
import type { Fund } from "../../api/types";
import { SheetWriteStopped } from "../../sheets/apply";
import {
  type FundMovement,
  fundIdOfMovementKey,
  movementKey,
  movementsOf,
  TRANSACTIONS_TABLE,
} from "../../sheets/columns";
import {
  type Fingerprints,
  fundFingerprint,
  fundsToFetch,
  loadFingerprints,
  saveFingerprints,
  vanishedFunds,
} from "../fingerprints";
import { batchRoom } from "./account";
import { fetchFundList } from "./list-stage";
import { send } from "./send";
import { progressed, type RefreshRun, Stopped } from "./state";
import type { Read, Steps } from "./types";

export function* transactionsStage(run: RefreshRun): Steps<void> {
  const { deps, shouldStop } = run;
  const { sheets } = deps;
  let known: Fingerprints = loadFingerprints(deps.fingerprints);
  // A sheet emptied by hand (or never filled) needs every fund's movements again.
  if (sheets.isEmpty("transactions")) known = new Map();
  let pending = run.cursor.pendingFundIds;
  let gone: number[] = [];
  if (!pending) {
    const list = run.fundList ?? (yield* fetchFundList(run));
    pending = fundsToFetch(list, known);
    // A fund no page returned may still be there when the list fell short of its total.
    gone = run.fundListShort ? [] : vanishedFunds(list, known);
    run.cursor.pendingFundIds = pending;
  }
  const fetched: Fund[] = [];
  const missing: number[] = [...gone];
  let stopped = false;
  while (pending.length > 0) {
    if (shouldStop() && (fetched.length > 0 || missing.length > 0 || progressed(run))) {
      stopped = true;
      break;
    }
    // One place left for the account check while it is to ride in the batch (./account.ts).
    const batch = pending.slice(0, batchRoom(run));
    const funds = (yield* send(
      run,
      "transactions",
      batch.map((id): Read => ({ kind: "fund", id })),
    )) as (Fund | null)[];
    run.minimum += batch.length;
    funds.forEach((f, k) => {
      if (f) fetched.push(f);
      else missing.push(batch[k] as number);
    });
    pending = pending.slice(batch.length);
  }
  // Nothing fetched and nothing gone: the sheet already shows every fund's movements.
  if (fetched.length > 0 || missing.length > 0) {
    const covered = new Set<number>([...fetched.map((f) => f.id), ...missing]);
    const movements: FundMovement[] = fetched.flatMap(movementsOf);
    try {
      run.records += sheets.apply<FundMovement>("transactions", {
        columnsFor: () => TRANSACTIONS_TABLE.columns,
        records: movements,
        keyOf: TRANSACTIONS_TABLE.keyOf,
        anchorOf: previousMovement,
        covers: (key) => {
          const id = fundIdOfMovementKey(key);
          return id !== null && covered.has(id);
        },
        shouldStop,
      });
    } catch (err) {
      if (!(err instanceof SheetWriteStopped)) throw err;
      // Written in part: these funds are fetched and merged again next time (their
      // fingerprints are not saved, so nothing counts as done that is not on the sheet).
      run.cursor.pendingFundIds = [...fetched.map((f) => f.id), ...missing, ...pending];
      throw new Stopped({ endpoint: "getFund", piece: 0, page: 0 });
    }
    for (const f of fetched) known.set(f.id, fundFingerprint(f));
    for (const id of missing) known.delete(id);
    saveFingerprints(deps.fingerprints, known);
  }
  run.cursor.pendingFundIds = pending;
  if (stopped) throw new Stopped({ endpoint: "getFund", piece: 0, page: 0 });
}

/** A new movement belongs right after the fund's previous one. */
export function previousMovement(m: FundMovement): string | null {
  return m.position > 1 ? movementKey(m.fund.id, m.position - 1) : null;
}
