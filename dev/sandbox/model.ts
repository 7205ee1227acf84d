/**
 * The sandbox's ledger as plain data. Amounts are integer cents; dates are the wire strings
 * (`YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS`) because the service's filters compare them as such and
 * lexical order equals date order for that format.
 */

export type FundStatus = 1 | 2 | 3;
export const FUND_OPEN: FundStatus = 1;
export const FUND_CLOSED: FundStatus = 2;
export const FUND_BLOCKED: FundStatus = 3;

export type Role = "employee" | "fundAdministrator" | "manager";

export interface User {
  id: number;
  name: string;
  /** National id (RUT, CURP, DNI…); may be empty like in the real service. */
  identification: string;
  email: string;
  roles: Role[];
}

export interface Transaction {
  /** 1 = deposit, 2 = withdrawal. */
  type: 1 | 2;
  amountCents: number;
  date: string;
}

export interface Fund {
  id: number;
  title: string;
  code: string;
  currency: string;
  assignedTo: number;
  creatorId: number;
  status: FundStatus;
  createdAt: string;
  expires: boolean;
  expirationDate: string;
  flexible: boolean;
  autoDeposit: boolean;
  autoBlock: boolean;
  /** Accepted on input, never returned (spec 2.1); kept so /_sandbox/state shows it arrived. */
  comment: string;
  depositsCents: number;
  chargesCents: number;
  transactions: Transaction[];
}

export interface ExpensePolicy {
  id: number;
  name: string;
  currency: string;
  /** Custom statuses defined in this policy; setExpenseReportCustomStatus accepts only these (exact text). */
  customStatuses: string[];
}

export interface ExtraField {
  Name: string;
  Value: string;
  Code: string;
}

export interface ReportFile {
  Name: string;
  Url: string;
  MimeType: string;
}

export interface TimelineEvent {
  at: string;
  byUserId: number;
  text: string;
}

export interface Report {
  id: number;
  title: string;
  reportNumber: string;
  /** "" until the employee sends it. */
  sendDate: string;
  /** "" while open. */
  closeDate: string;
  employeeId: number;
  approverId: number;
  policyId: number;
  /** 0 = open or in process, 1 = closed. */
  status: 0 | 1;
  customStatus: string;
  fundId: number;
  totalCents: number;
  approvedCents: number;
  currency: string;
  note: string;
  integrated: boolean;
  integrationDate: string;
  integrationExternalCode: string;
  integrationInternalCode: string;
  nbrExpenses: number;
  nbrApprovedExpenses: number;
  nbrRejectedExpenses: number;
  extraFields: ExtraField[];
  files: ReportFile[];
  /** The report's timeline of messages and events (spec 6). */
  timeline: TimelineEvent[];
  /**
   * How many setExpenseReportIntegration calls were applied to it (absent before the first):
   * for checks only (`/_sandbox/state`), so that a test can tell a report was never marked twice.
   */
  integrationCalls?: number;
}

export interface SandboxData {
  users: User[];
  policies: ExpensePolicy[];
  funds: Fund[];
  reports: Report[];
}
