/**
 * The write path's view of the service, over the contract's client: funds read fresh and
 * normalised for snapshots, writes sent once, and the client's typed errors turned into
 * "refused" (surely not applied) or "unknown" (may have been applied).
 */
import {
  type Client,
  type CustomStatusResult,
  type Fund,
  type IntegrationResult,
  isApiError,
  type Transaction,
  UnreadableAmountError,
} from "../api";
import { serviceReasonIn } from "../api/plain";
import { targetOf, toServiceInput, type WriteRequest } from "./requests";
import { type FundListItem, type FundState, shows } from "./snapshot";
import { isWriteFailure, type ServicePort, type WriteFailure } from "./write";

/** A fund of the contract as the write path compares it. */
export function fundStateOf(fund: Fund): FundState {
  return {
    id: fund.id,
    title: fund.title,
    code: fund.code,
    currency: fund.currency,
    employeeId: fund.idAssignTo,
    status: fund.status,
    flexible: fund.flexibleFund,
    deposits: fund.depositsCents,
    charges: fund.withdrawalsCents,
    balance: fund.balanceCents,
    createdAt: fund.createdAt ?? "",
    creatorId: fund.idCreator,
    transactions: movementsOf(fund.transactions),
    ...(fund.transactions === undefined ? { withoutTransactions: true } : {}),
    record: fund,
  };
}

function movementsOf(transactions: Transaction[] = []): FundState["transactions"] {
  return transactions.map((t) => ({ type: t.type, amount: t.amountCents, date: t.date ?? "" }));
}

/** Any failure of a call, as the write path classifies it. */
export function writeFailureOf(error: unknown): WriteFailure {
  if (isWriteFailure(error)) return error;
  if (isApiError(error)) {
    const failure: WriteFailure = { outcome: error.outcome, message: error.message };
    if (error.status) failure.status = error.status;
    const reason = serviceReasonIn(error);
    if (reason) failure.reason = reason;
    return failure;
  }
  // Not one of the client's errors: it happened somewhere we cannot see into.
  return { outcome: "unknown", message: error instanceof Error ? error.message : String(error) };
}

function attempt<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw writeFailureOf(error);
  }
}

/** The write path's service over the contract's client; writes carry `adminId` as IdAdmin. */
export function servicePort(client: Client, adminId: number): ServicePort {
  return {
    getFund(id) {
      try {
        return fundStateOf(client.getFund({ Id: id }));
      } catch (error) {
        // Totals too large to read exactly: the transactions still settle a write by counting.
        if (error instanceof UnreadableAmountError && error.fundTotal && error.transactions) {
          return {
            id,
            title: "",
            code: "",
            currency: "",
            employeeId: 0,
            status: 1,
            flexible: false,
            deposits: 0,
            charges: 0,
            balance: 0,
            createdAt: "",
            transactions: movementsOf(error.transactions),
            unreadableTotals: error.message,
          };
        }
        throw writeFailureOf(error);
      }
    },
    getReport(id) {
      const r = attempt(() => client.getExpenseReport({ Id: id }));
      // A single report says whether it is integrated by its integration date only.
      return {
        integrated: r.integrationDate !== null,
        code: r.integrationExternalCode,
        customStatus: r.customStatus,
        // What identifies it beyond its Id (no mark or custom status changes them).
        id: r.id,
        reportNumber: r.reportNumber,
        employeeId: r.employeeId,
        currency: r.currency,
      };
    },
    listFundsNewestFirst(page) {
      const list = attempt(() =>
        client.getFunds({ OrderBy: 1, Order: "DESC", Page: page, ResultsPerPage: 100 }),
      );
      const funds: FundListItem[] = list.funds.map((f) => ({
        id: f.id,
        title: f.title,
        code: f.code,
        employeeId: f.idAssignTo,
        createdAt: f.createdAt ?? "",
      }));
      // Pages counted by a floor division (150 funds at 100 a page: 1) would end the search for
      // an interrupted creation before the last page: the total's pages are read too (the page
      // numbers the search compares with it are whole, so 1.5 pages is 2).
      const { pages, totalRecords } = list.records;
      return { funds, pages: Math.max(pages, totalRecords / 100) };
    },
    send(request) {
      const { endpoint, input } = toServiceInput(request, adminId);
      const answer = attempt(() => client.call(endpoint, input));
      if ("reportId" in request) {
        const { id, title, reportNumber, customStatus, integrationCode, integrationDate, integrationStatus } =
          answer as IntegrationResult & CustomStatusResult;
        const integrated = integrationStatus === 1;
        checkAnswer(request, id, shows(request, { integrated, code: integrationCode, customStatus }));
        return {
          kind: "report",
          report: {
            id,
            title,
            reportNumber,
            ...(endpoint === "setExpenseReportIntegration"
              ? { integrated, integrationCode, integrationDate: integrationDate ?? "" }
              : { customStatus }),
          },
        };
      }
      const fund = fundStateOf(answer as Fund);
      if (request.operation !== "createFund") checkAnswer(request, fund.id, shows(request, fund));
      return { kind: "fund", fund };
    },
  };
}

/**
 * A write answered with HTTP 200 is done only if the answer shows it. Another record than the
 * one asked for, or the record asked for without the change: the outcome is unknown (the
 * answer alone cannot say it was not applied), settled as any interrupted write.
 */
function checkAnswer(request: WriteRequest, answeredId: number, shown: boolean): void {
  const asked = targetOf(request);
  if (answeredId !== asked || !shown)
    throw {
      outcome: "unknown",
      message:
        answeredId !== asked
          ? `answered for record ${answeredId}, not ${asked}`
          : `the answer for record ${asked} does not show it`,
    } satisfies WriteFailure;
}
