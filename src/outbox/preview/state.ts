/**
 * A preview's state, a plain value: what it was given (the rows, the records, the funds' facts,
 * the companies and who may write to them), what it has worked out (which row owns which
 * record, each fund's balance and status as the batch changes them, the targets seen) and the
 * preview being filled. Its phases take it and add to the preview.
 */

import { type CompanyDirectory, FIRST_COMPANY_KEY, listsSeveral } from "../../company/model";
import type { Cents } from "../cells";
import { MONEY_OPERATIONS, type OutboxOperation } from "../operations";
import type { WriteRecord } from "../records";
import type { WriteRequest } from "../requests";
import type { OutboxRow, RowContext } from "../rows";
import { confirmationKey, confirmedAs, FUND_NOT_FOUND, type ShownAs } from "../run/confirmations";
import { type CompanyKeyOf, companyKeys, ownedRecords, ownersOfKeys } from "../run/ownership";
import type { FundFacts, OutboxPreview, Total } from "./types";

/** What a preview is given. */
export interface PreviewInput {
  rows: readonly OutboxRow[];
  fundFacts: (fundId: number, company: string) => FundFacts | null;
  context: RowContext;
  recordList: readonly WriteRecord[];
  directory: CompanyDirectory;
  /** The IdAdmin this user's writes to each company carry, or why they may not write to it now. */
  writerOf?: (company: string) => Pick<RowContext, "adminId" | "adminIssue"> | { unusable: string };
}

export interface PreviewState extends PreviewInput {
  preview: OutboxPreview;
  /** Totals by (company when several,) operation and currency. */
  totals: Map<string, Total>;
  /** Each fund's balance and status as the batch's earlier rows leave them, per company and fund. */
  balances: Map<string, Cents>;
  statuses: Map<string, number>;
  /** The row that first acts on each target (`targetKey`), to warn of the same target twice. */
  seen: Map<string, number>;
  records: Map<string, WriteRecord>;
  /** Which row owns each recorded key, and the record each row owns (as the run decides). */
  owners: Map<string, OutboxRow>;
  ownedBy: Map<OutboxRow, WriteRecord>;
  /** The company a row's Company cell names, as compared with a record's (as the run does). */
  companyKey: CompanyKeyOf;
}

export function startPreview(input: PreviewInput): PreviewState {
  const records = new Map(input.recordList.map((r) => [r.key, r]));
  const companyKey = companyKeys(input.directory);
  const owners = ownersOfKeys(input.rows, records, companyKey);
  return {
    ...input,
    preview: {
      toSend: [],
      toSettle: [],
      invalid: [],
      totals: [],
      warnings: [],
      money: [],
      operations: [],
      confirmed: [],
      currencies: {},
      statuses: {},
    },
    totals: new Map(),
    balances: new Map(),
    statuses: new Map(),
    seen: new Map(),
    records,
    owners,
    ownedBy: ownedRecords(owners, records),
    companyKey,
  };
}

/** Whether totals and items are told apart by company. */
export function several(state: PreviewState): boolean {
  return listsSeveral(state.directory);
}

/** The company's name as the preview shows it ("" for a company without a name). */
export function nameOf(state: PreviewState, company: string): string {
  return state.directory.entries.find((e) => e.key === company)?.name ?? "";
}

/** The row that owns a record's key, or null. */
export function ownerOf(state: PreviewState, key: string): OutboxRow | null {
  return state.owners.get(key) ?? null;
}

/** A date and time in the spreadsheet's zone, "yyyy-MM-dd HH:mm:ss". */
export function stamp(state: PreviewState, ms: number): string {
  return state.context.format(new Date(ms), "yyyy-MM-dd HH:mm:ss");
}

export function addTotal(
  state: PreviewState,
  operation: OutboxOperation,
  currency: string | null,
  amount: Cents,
  company: string = FIRST_COMPANY_KEY,
): void {
  const many = several(state);
  const key = `${many ? company : ""}|${operation}|${currency ?? ""}`;
  const total: Total = state.totals.get(key) ?? {
    ...(many ? { company: nameOf(state, company) } : {}),
    operation,
    currency,
    amount: 0,
    count: 0,
  };
  total.amount += amount;
  total.count += 1;
  state.totals.set(key, total);
}

/** The currency a request moves, as the confirmation names it (FUND_NOT_FOUND: fund unknown). */
export function currencyOf(
  state: Pick<PreviewState, "fundFacts">,
  request: WriteRequest,
  company: string = FIRST_COMPANY_KEY,
): string | null {
  if (request.operation === "createFund") return request.currency;
  if (!MONEY_OPERATIONS.has(request.operation) || !("fundId" in request)) return null;
  return state.fundFacts(request.fundId, company)?.currency ?? FUND_NOT_FOUND;
}

/** A row the confirmation shows as possibly sent, and a movement's currency as it names it. */
export function confirm(
  state: PreviewState,
  row: OutboxRow,
  request: WriteRequest,
  as: ShownAs,
  company: string,
): void {
  const key = confirmationKey(row, company);
  state.preview.confirmed.push(confirmedAs(row, as, company));
  if (MONEY_OPERATIONS.has(request.operation))
    state.preview.currencies[key] = currencyOf(state, request, company) || FUND_NOT_FOUND;
}
