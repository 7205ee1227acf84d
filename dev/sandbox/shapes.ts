/**
 * Ledger records in the exact shapes of the spec (part 2): two-decimal amounts, FlexibleFund as
 * "1"/"0" on reads and a boolean in write responses, Withdrawals in list items versus Charges
 * and Transactions in single-fund shapes, and the list-only report fields.
 */

import { centsToAmount as fromCents } from "../../src/api/money";
import type { Ledger } from "./ledger";
import type { Fund, Report, Transaction, User } from "./model";
import type { PageOf } from "./queries";

function fundCommon(fund: Fund) {
  return {
    Id: fund.id,
    Title: fund.title,
    Code: fund.code,
    Currency: fund.currency,
    IdAssignTo: fund.assignedTo,
    IdCreator: fund.creatorId,
    Deposits: fromCents(fund.depositsCents),
  };
}

/**
 * The spec shows FlexibleFund as the string "1" in read examples and as a boolean in write
 * examples: reads (getFunds, getFund) answer "1"/"0", writes that return a fund answer a boolean.
 */
export type FundAnswer = "read" | "write";

function fundFlags(fund: Fund, answer: FundAnswer) {
  return {
    Balance: fromCents(fund.depositsCents - fund.chargesCents),
    Status: fund.status,
    CreatedAt: fund.createdAt,
    ExpirationDate: fund.expires ? fund.expirationDate : "",
    FlexibleFund: answer === "read" ? (fund.flexible ? "1" : "0") : fund.flexible,
    // Not shown in the spec; a fund without automatic deposit is topped up by hand.
    ManualDeposit: !fund.autoDeposit,
    AutomaticBlock: fund.autoBlock,
  };
}

/** An item of getFunds: Withdrawals, no Transactions. */
export function fundListItem(fund: Fund) {
  return { ...fundCommon(fund), Withdrawals: fromCents(fund.chargesCents), ...fundFlags(fund, "read") };
}

/** getFund ("read") and every write that returns a fund ("write"): Charges and Transactions. */
export function singleFund(fund: Fund, answer: FundAnswer) {
  return {
    ...fundCommon(fund),
    Charges: fromCents(fund.chargesCents),
    ...fundFlags(fund, answer),
    Transactions: fund.transactions.map(transactionShape),
  };
}

function transactionShape(t: Transaction) {
  return {
    TransactionType: t.type,
    TransactionTypeName: t.type === 1 ? "Deposit" : "Withdrawal",
    TransactionAmount: fromCents(t.amountCents),
    TransactionDate: t.date,
  };
}

export function fundList(page: PageOf<Fund>) {
  return {
    Records: { TotalRecords: page.total, Funds: page.items.length, Page: page.page, Pages: page.pages },
    Funds: page.items.map(fundListItem),
  };
}

/** getExpenseReport: everything but the list-only Integrated and IntegrationInternalCode. */
export function singleReport(report: Report, ledger: Ledger, origin: string) {
  return reportShape(report, ledger, origin, false);
}

/**
 * An item of getExpenseReports: adds Integrated ("1"/"0") and IntegrationInternalCode, the
 * integration's members last.
 */
export function reportListItem(report: Report, ledger: Ledger, origin: string) {
  return reportShape(report, ledger, origin, true);
}

/**
 * A report in either shape, built as one object member by member: a list item made from the
 * single shape by an object rest and a spread cost a page of 1,000 reports several times its
 * serialisation the first time it was asked.
 */
function reportShape(report: Report, ledger: Ledger, origin: string, listed: boolean) {
  const employee = ledger.users.get(report.employeeId);
  const approver = ledger.users.get(report.approverId);
  const out: Record<string, unknown> = {
    Id: report.id,
    Title: report.title,
    ReportNumber: report.reportNumber,
    SendDate: report.sendDate,
    CloseDate: report.closeDate,
    EmployeeId: report.employeeId,
    EmployeeName: employee?.name ?? "",
    EmployeeIdentification: employee?.identification ?? "",
    ApproverId: report.approverId,
    ApproverName: approver?.name ?? "",
    PolicyId: report.policyId,
    PolicyName: ledger.policies.get(report.policyId)?.name ?? "",
    Status: report.status,
    CustomStatus: report.customStatus,
    FundId: report.fundId,
    FundName: report.fundId ? (ledger.funds.get(report.fundId)?.title ?? "") : "",
    ReportTotal: fromCents(report.totalCents),
    ReportTotalApproved: fromCents(report.approvedCents),
    Currency: report.currency,
    Note: report.note,
  };
  if (!listed) {
    out.IntegrationDate = report.integrationDate;
    out.IntegrationExternalCode = report.integrationExternalCode;
  }
  out.NbrExpenses = report.nbrExpenses;
  out.NbrApprovedExpenses = report.nbrApprovedExpenses;
  out.NbrRejectedExpenses = report.nbrRejectedExpenses;
  out.ExtraFields = report.extraFields.map((f) => ({ ...f }));
  out.Files = report.files.map((f) => ({ ...f, Url: origin + f.Url }));
  if (listed) {
    out.Integrated = report.integrated ? "1" : "0";
    out.IntegrationDate = report.integrationDate;
    out.IntegrationExternalCode = report.integrationExternalCode;
    out.IntegrationInternalCode = report.integrationInternalCode;
  }
  return out;
}

export function reportList(page: PageOf<Report>, ledger: Ledger, origin: string) {
  return {
    Records: { TotalRecords: page.total, Reports: page.items.length, Page: page.page, Pages: page.pages },
    ExpenseReports: page.items.map((r) => reportListItem(r, ledger, origin)),
  };
}

/**
 * A report as the /_sandbox/reports routes answer it: the getExpenseReport shape, its timeline,
 * and the linked fund as getFund shows it (null without one), so that the effect of sending or
 * closing (a blocked fund, a deposit back) can be read from the same answer.
 */
export function simulatedReport(report: Report, ledger: Ledger, origin: string) {
  const fund = report.fundId ? ledger.funds.get(report.fundId) : undefined;
  return {
    ...singleReport(report, ledger, origin),
    Timeline: report.timeline.map((e) => ({ At: e.at, ByUserId: e.byUserId, Text: e.text })),
    Fund: fund ? singleFund(fund, "read") : null,
  };
}

export function integrationResult(report: Report) {
  return {
    Id: report.id,
    Title: report.title,
    ReportNumber: report.reportNumber,
    IntegrationStatus: report.integrated ? 1 : 0,
    IntegrationCode: report.integrationExternalCode,
    IntegrationDate: report.integrationDate,
  };
}

export function customStatusResult(report: Report) {
  return {
    Id: report.id,
    Title: report.title,
    ReportNumber: report.reportNumber,
    CustomStatus: report.customStatus,
  };
}

/** A user as the playground lists them (not a shape of the spec). */
export function userShape(user: User) {
  return {
    Id: user.id,
    Name: user.name,
    Identification: user.identification,
    Email: user.email,
    Roles: [...user.roles],
  };
}
