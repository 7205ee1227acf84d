/**
 * Records as the add-on works with them, whatever shape the service sent: camelCase names,
 * amounts in integer cents, flags as booleans, dates as "YYYY-MM-DD", times as
 * "YYYY-MM-DD HH:MM:SS" ("Z" or "±HH:MM" after it when the service gave an offset), and null
 * for a date that is empty.
 */

/** 1 = open, 2 = closed, 3 = blocked. */
export type FundStatus = 1 | 2 | 3;

/** 1 = deposit, 2 = withdrawal. */
export type TransactionType = 1 | 2;

/** One movement of a fund. */
export interface Transaction {
  /** A TransactionType, or another number the service gives a movement (shown by its name). */
  type: number;
  typeName: string;
  amountCents: number;
  date: string | null;
}

export interface Fund {
  id: number;
  title: string;
  code: string;
  currency: string;
  idAssignTo: number;
  idCreator: number;
  depositsCents: number;
  /** Total withdrawn: `Withdrawals` in list items, `Charges` in single-fund shapes. */
  withdrawalsCents: number;
  balanceCents: number;
  /** A FundStatus, or another number the service gives (shown as that number, never open). */
  status: number;
  createdAt: string | null;
  expirationDate: string | null;
  flexibleFund: boolean;
  manualDeposit: boolean;
  automaticBlock: boolean;
  /** Present in getFund and write responses; absent from getFunds items. */
  transactions?: Transaction[];
}

export interface ExtraField {
  name: string;
  value: string;
  code: string;
}

/** 0 = open or in process, 1 = closed. */
export type ReportStatus = 0 | 1;

export interface ExpenseReport {
  id: number;
  title: string;
  reportNumber: string;
  sendDate: string | null;
  closeDate: string | null;
  employeeId: number;
  employeeName: string;
  employeeIdentification: string;
  approverId: number;
  approverName: string;
  policyId: number;
  policyName: string;
  /** A ReportStatus, or another number the service gives (shown as that number). */
  status: number;
  customStatus: string;
  /** 0 when no fund is linked. */
  fundId: number;
  fundName: string;
  reportTotalCents: number;
  reportTotalApprovedCents: number;
  currency: string;
  note: string;
  /** Only list items carry it; null when absent or empty. */
  integrated: boolean | null;
  integrationDate: string | null;
  integrationExternalCode: string;
  /** Only list items carry it; "" when absent. */
  integrationInternalCode: string;
  nbrExpenses: number;
  nbrApprovedExpenses: number;
  nbrRejectedExpenses: number;
  extraFields: ExtraField[];
  files: unknown[];
}

/** Paging of a list: `count` is the service's `Funds` / `Reports` member of `Records`. */
export interface Records {
  totalRecords: number;
  count: number;
  page: number;
  pages: number;
}

export interface FundList {
  records: Records;
  funds: Fund[];
}

export interface ExpenseReportList {
  records: Records;
  expenseReports: ExpenseReport[];
}

export interface IntegrationResult {
  id: number;
  title: string;
  reportNumber: string;
  integrationStatus: 0 | 1;
  integrationCode: string;
  integrationDate: string | null;
}

export interface CustomStatusResult {
  id: number;
  title: string;
  reportNumber: string;
  customStatus: string;
}
