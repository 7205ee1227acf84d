/**
 * What the add-on records with a row before it sends a write that is not idempotent, and how
 * it decides afterwards whether that write was applied. The service has no idempotency key,
 * so the only safe way to settle an interrupted deposit, withdrawal or fund creation is to
 * read the fund(s) again and compare with what was there before sending.
 */
import type { Fund } from "../api";
import type { Cents } from "./cells";
import type { WriteRequest } from "./requests";

export interface FundTransaction {
  /** 1 deposit, 2 withdrawal; another type matches no request. */
  type: number;
  amount: Cents;
  date: string;
}

/** A fund as read fresh from the service (getFund or a write response), amounts in cents. */
export interface FundState {
  id: number;
  title: string;
  code: string;
  currency: string;
  employeeId: number;
  /** 1 open; another number (closed, blocked, or one the contract does not list) is not open. */
  status: number;
  flexible: boolean;
  deposits: Cents;
  charges: Cents;
  balance: Cents;
  createdAt: string;
  /** IdCreator: who created the fund (absent where the read did not say). */
  creatorId?: number;
  transactions: FundTransaction[];
  /** Set when the answer carried no Transactions member at all (then `transactions` is empty). */
  withoutTransactions?: boolean;
  /** The contract's record it was read from, for updating the Funds sheet (absent in tests). */
  record?: Fund;
  /**
   * Set when the fund's totals are beyond what the add-on can read exactly (the totals above are
   * then 0): its transactions still count for settling a write, but no money moves on it.
   */
  unreadableTotals?: string;
}

/** A report as read fresh (getExpenseReport) or answered by a mark. */
export interface ReportState {
  integrated: boolean;
  code: string;
  customStatus: string;
  /**
   * What identifies the report beyond its Id, as read (absent where the read did not say): its
   * number, employee and currency, which no mark or custom status changes.
   */
  id?: number;
  reportNumber?: string;
  employeeId?: number;
  currency?: string;
}

/** A fund as listed by getFunds: enough to find one created by an interrupted request. */
export interface FundListItem {
  id: number;
  title: string;
  code: string;
  employeeId: number;
  createdAt: string;
}

export interface FundMark {
  id: number;
  transactions: number;
  /** Transactions of the request's type and amount before sending. */
  matching: number;
  deposits: Cents;
  charges: Cents;
  /** The fund's currency when read (absent in records from before it was kept). */
  currency?: string;
  /** The fund's status when read, 1 open (absent in records from before it was kept). */
  status?: number;
  /**
   * What identifies the fund the write was sent to, beyond its Id (equal Ids of two accounts
   * are two funds): its CreatedAt, IdCreator and IdAssignTo when read. A later read settles the
   * write only if it shows the same (absent in records from before they were kept).
   */
  createdAt?: string;
  creatorId?: number;
  assignedTo?: number;
}

/** What identifies a fund beyond its Id: what a fund update or status change does not change. */
export type FundIdentity = Pick<FundMark, "id" | "currency" | "createdAt" | "creatorId" | "assignedTo">;

/** What identifies a report beyond its Id: what a mark or custom status does not change. */
export interface ReportIdentity {
  id: number;
  reportNumber?: string;
  employeeId?: number;
  currency?: string;
}

/**
 * The fund or report a status change, update or report mark was sent to, as read just before
 * (equal Ids of two accounts are two records): a later read settles the write only if it shows
 * the same.
 */
export type TargetIdentity = { fund: FundIdentity } | { report: ReportIdentity };

export function fundIdentity(fund: FundState): FundIdentity {
  return {
    id: fund.id,
    currency: fund.currency,
    createdAt: fund.createdAt,
    ...(fund.creatorId !== undefined ? { creatorId: fund.creatorId } : {}),
    assignedTo: fund.employeeId,
  };
}

export function reportIdentity(id: number, report: ReportState): ReportIdentity {
  const identity: ReportIdentity = { id: report.id ?? id };
  if (report.reportNumber !== undefined) identity.reportNumber = report.reportNumber;
  if (report.employeeId !== undefined) identity.employeeId = report.employeeId;
  if (report.currency !== undefined) identity.currency = report.currency;
  return identity;
}

/** What the report read now differs in from the one the write was sent to; empty when it is the same report. */
export function otherReportThan(mark: ReportIdentity, id: number, fresh: ReportState): string[] {
  const differs: string[] = [];
  const freshId = fresh.id ?? id;
  if (freshId !== mark.id) differs.push(`Id ${mark.id} → ${freshId}`);
  const pairs: [string, string | number | undefined, string | number | undefined][] = [
    ["ReportNumber", mark.reportNumber, fresh.reportNumber],
    ["EmployeeId", mark.employeeId, fresh.employeeId],
    ["Currency", mark.currency, fresh.currency],
  ];
  // Every report the service gives carries them (the contract and its recorded answers): one
  // read without a field the record has is not shown to be that report, so it disagrees.
  for (const [name, was, now] of pairs)
    if (was !== undefined && was !== "" && now !== was) differs.push(`${name} ${was} → ${now ?? "—"}`);
  return differs;
}

/** What the fund read now differs in from the one the write was sent to; empty when it is the same fund. */
export function otherFundThan(mark: FundIdentity, fresh: FundState): string[] {
  const differs: string[] = [];
  if (fresh.id !== mark.id) differs.push(`Id ${mark.id} → ${fresh.id}`);
  // A fund whose totals cannot be read is known by its Id and movements only (unread: not compared).
  const unread = fresh.unreadableTotals !== undefined;
  // Every fund carries its Currency (a 3-letter code the contract requires at creation, present
  // in every recorded answer): an empty or missing one read is not the fund's, it disagrees.
  if (mark.currency !== undefined && mark.currency !== "" && !unread && fresh.currency !== mark.currency)
    differs.push(`Currency ${mark.currency} → ${fresh.currency || "—"}`);
  if (
    mark.createdAt !== undefined &&
    mark.createdAt !== "" &&
    !(unread && fresh.createdAt === "") &&
    fresh.createdAt !== mark.createdAt
  )
    differs.push(`CreatedAt ${mark.createdAt} → ${fresh.createdAt || "—"}`);
  if (mark.creatorId !== undefined && fresh.creatorId !== undefined && fresh.creatorId !== mark.creatorId)
    differs.push(`IdCreator ${mark.creatorId} → ${fresh.creatorId}`);
  if (mark.assignedTo !== undefined && !unread && fresh.employeeId !== mark.assignedTo)
    differs.push(`IdAssignTo ${mark.assignedTo} → ${fresh.employeeId}`);
  return differs;
}

export interface NewFundMark {
  /** CreatedAt of the newest fund before sending ("" when there was none). */
  newestCreatedAt: string;
  /** Funds that already had that CreatedAt, so none of them is taken for the new one. */
  newestIds: number[];
}

/** What is read just before a write is sent, so that an interrupted one can be settled later. */
export interface Snapshot {
  /** Operation key: ties the write to its record and its audit entries. */
  key: string;
  /** When the snapshot was taken (ISO). */
  at: string;
  /** The request exactly as it was (or was about to be) sent. */
  request?: WriteRequest;
  fund?: FundMark;
  newFund?: NewFundMark;
  /** A fund update or status change, a report mark: whether the fund or report showed it before sending. */
  had?: boolean;
  /** A fund update or status change, a report mark: the fund or report it was sent to. */
  target?: TargetIdentity;
}

/**
 * Whether a fund or report (read fresh, or a write's answer) shows what `request` asks for; true
 * for money movements and creations, which are checked otherwise. Text is compared trimmed, and
 * a custom status case-insensitively too, as the service compares it (it answers the policy's
 * spelling, trimmed). The comment and the auto-deposit flag of an update are in no fund shape.
 */
export function shows(request: WriteRequest, record: FundState | ReportState): boolean {
  const op = request.operation;
  const r = record as FundState & ReportState;
  const q = request as { [field: string]: unknown };
  const pairs =
    op === "setCustomStatus"
      ? [[r.customStatus.toLowerCase(), request.status.toLowerCase()]]
      : op === "updateFund"
        ? [
            [r.title, q.name],
            [r.code, q.code],
            [r.flexible, q.flexible],
            [r.record?.automaticBlock, q.autoBlock],
          ]
        : op === "markIntegrated"
          ? [
              [r.integrated, true],
              [r.code, q.code],
            ]
          : [
              [r.integrated, op === "markNotIntegrated" ? false : undefined],
              [r.status, q.status],
            ];
  return pairs.every(([got, sent]) => sent === undefined || `${got}`.trim() === `${sent}`.trim());
}

function transactionType(request: WriteRequest): 1 | 2 | null {
  if (request.operation === "deposit") return 1;
  if (request.operation === "withdraw") return 2;
  return null;
}

function countMatching(fund: FundState, type: 1 | 2, amount: Cents): number {
  return fund.transactions.filter((t) => t.type === type && t.amount === amount).length;
}

/** The mark recorded before a deposit or withdrawal is sent. */
export function markFund(fund: FundState, request: WriteRequest): FundMark {
  const type = transactionType(request);
  const amount = "amount" in request ? request.amount : 0;
  return {
    id: fund.id,
    transactions: fund.transactions.length,
    matching: type === null ? 0 : countMatching(fund, type, amount),
    deposits: fund.deposits,
    charges: fund.charges,
    currency: fund.currency,
    status: fund.status,
    createdAt: fund.createdAt,
    ...(fund.creatorId !== undefined ? { creatorId: fund.creatorId } : {}),
    assignedTo: fund.employeeId,
  };
}

/**
 * How many more transactions of the request's type and amount the fund holds now than before
 * sending: 1 when the interrupted deposit or withdrawal was applied, 0 when it was not. More
 * than 1 (or fewer than 0) cannot be explained by one request: someone else moved the same
 * amount meanwhile, and only a person can tell which movement is ours.
 */
export function matchingGrowth(mark: FundMark, fresh: FundState, request: WriteRequest): number {
  const type = transactionType(request);
  if (type === null || !("amount" in request)) return 0;
  return countMatching(fresh, type, request.amount) - mark.matching;
}

/**
 * Whether a deposit's or withdrawal's answer (the fund it returns) shows exactly the movement
 * sent: the same fund, one more movement of that type and amount than the mark when the answer
 * carries the movements, and the total it goes into grown by the amount. Anything else (another
 * amount, none, two) is not taken as done: the write is settled by reading the fund.
 */
export function answerShowsMovement(mark: FundMark, answer: FundState, request: WriteRequest): boolean {
  if (!("amount" in request) || transactionType(request) === null || answer.id !== mark.id) return false;
  if (!answer.withoutTransactions && matchingGrowth(mark, answer, request) !== 1) return false;
  const grew =
    request.operation === "deposit" ? answer.deposits - mark.deposits : answer.charges - mark.charges;
  return grew === request.amount;
}

/**
 * Whether a fund creation's answer is the new fund sent: a fund none of the newest before
 * sending, no older than them, of the employee, name, code and currency sent, holding the amount.
 */
export function answerShowsNewFund(
  mark: NewFundMark,
  answer: FundState,
  request: Extract<WriteRequest, { operation: "createFund" }>,
): boolean {
  const same = (got: unknown, sent: unknown) => `${got ?? ""}`.trim() === `${sent ?? ""}`.trim();
  return (
    !mark.newestIds.includes(answer.id) &&
    (answer.createdAt === "" || answer.createdAt >= mark.newestCreatedAt) &&
    answer.employeeId === request.employeeId &&
    same(answer.title, request.name) &&
    same(answer.code, request.code) &&
    same(answer.currency, request.currency) &&
    answer.deposits === request.amount &&
    answer.balance === request.amount
  );
}

/** The mark recorded before createFund is sent: from the first page of funds, newest first. */
export function markNewFund(newestFirst: readonly FundListItem[]): NewFundMark {
  let newest = "";
  for (const fund of newestFirst) if (fund.createdAt > newest) newest = fund.createdAt;
  return {
    newestCreatedAt: newest,
    newestIds: newestFirst.filter((f) => f.createdAt === newest && newest !== "").map((f) => f.id),
  };
}

/** Whether a page of funds, newest first, may still hold funds created after the mark. */
export function pageReachesMark(mark: NewFundMark, newestFirst: readonly FundListItem[]): boolean {
  const last = newestFirst[newestFirst.length - 1];
  return last === undefined || last.createdAt >= mark.newestCreatedAt;
}

/** The fund an interrupted createFund created, if any: same employee, name and code, newer than the mark. */
export function findCreatedFund(
  mark: NewFundMark,
  newestFirst: readonly FundListItem[],
  request: Extract<WriteRequest, { operation: "createFund" }>,
): FundListItem | null {
  const known = new Set(mark.newestIds);
  return (
    newestFirst.find(
      (f) =>
        f.createdAt >= mark.newestCreatedAt &&
        !known.has(f.id) &&
        f.employeeId === request.employeeId &&
        f.title === request.name &&
        (f.code ?? "") === (request.code ?? ""),
    ) ?? null
  );
}
