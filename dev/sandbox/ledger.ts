/**
 * The sandbox's ledger and its state rules (spec part 3). Inputs arrive already validated for
 * shape (see requests.ts); the ledger decides what depends on state: permissions (403, checked
 * first so that a user without them learns nothing of which ids exist), existence (404) and
 * moves the current state does not allow (409). Amounts are integer cents.
 */
import { dayOf, timestampOf } from "./dates";
import { conflict, forbidden, invalid, notFound } from "./errors";
import {
  type ExpensePolicy,
  type ExtraField,
  FUND_BLOCKED,
  FUND_OPEN,
  type Fund,
  type FundStatus,
  type Report,
  type Role,
  type SandboxData,
  type User,
} from "./model";

export interface NewFund {
  idEmployee: number;
  idAdmin: number;
  name: string;
  currency: string;
  code: string;
  amountCents: number;
  comment: string;
  flexible: boolean;
  autoDeposit: boolean;
  autoBlock: boolean;
  expires: boolean;
  expirationDate: string;
}

/** Absent optional fields keep the fund's current value. */
export interface FundChanges {
  id: number;
  idAdmin: number;
  name: string;
  code?: string;
  comment?: string;
  flexible?: boolean;
  autoDeposit?: boolean;
  autoBlock?: boolean;
  expires?: boolean;
  expirationDate?: string;
}

export interface MoneyMovement {
  id: number;
  idAdmin: number;
  amountCents: number;
}

export interface IntegrationMark {
  id: number;
  integrated: boolean;
  code: string;
  /** `YYYY-MM-DD HH:MM:SS`; empty means "now" when integrating. */
  date: string;
}

export interface CustomStatusChange {
  id: number;
  idAdmin: number;
  customStatus: string;
  customMessage: string;
}

export interface NewDraftReport {
  employeeId: number;
  fundId: number;
  totalCents: number;
  title: string;
  /** None when absent. */
  extraFields?: ExtraField[];
}

export type ReportOrder = "id" | "sendDate" | "closeDate";
export type FundOrder = "createdAt" | "title";

export class Ledger {
  readonly users = new Map<number, User>();
  readonly policies = new Map<number, ExpensePolicy>();
  readonly funds = new Map<number, Fund>();
  readonly reports = new Map<number, Report>();
  private nextFundId: number;
  private nextReportId: number;
  private nextReportNumber: number;
  private reportOrders = new Map<ReportOrder, Report[]>();
  private fundOrders = new Map<FundOrder, Fund[]>();
  /**
   * Counts the writes: every method that changes a record (or what an answer shows of another
   * one, such as a fund's title in its reports) moves it first, so that text kept for an answer
   * is good for as long as the revision it was made at.
   */
  revision = 0;

  constructor(
    data: SandboxData,
    private readonly now: () => Date,
    /** Whose wall clock the service's dates and times are written in (they carry no offset). */
    private readonly timeZone = "UTC",
  ) {
    for (const u of data.users) this.users.set(u.id, u);
    for (const p of data.policies) this.policies.set(p.id, p);
    for (const f of data.funds) this.funds.set(f.id, f);
    for (const r of data.reports) this.reports.set(r.id, r);
    this.nextFundId = Math.max(5000, ...data.funds.map((f) => f.id)) + 1;
    this.nextReportId = data.reports.reduce((max, r) => Math.max(max, r.id), 100_000) + 1;
    this.nextReportNumber =
      data.reports.reduce((max, r) => Math.max(max, Number(r.reportNumber) || 0), 999) + 1;
  }

  today(): string {
    return dayOf(this.now(), this.timeZone);
  }

  /**
   * A copy that shares no record with this ledger, with the same next ids and revision
   * (POST /_sandbox/snapshot keeps one, /restore puts a copy of it back).
   */
  copy(): Ledger {
    const data: SandboxData = structuredClone({
      users: [...this.users.values()],
      policies: [...this.policies.values()],
      funds: [...this.funds.values()],
      reports: [...this.reports.values()],
    });
    const out = new Ledger(data, this.now, this.timeZone);
    out.nextFundId = this.nextFundId;
    out.nextReportId = this.nextReportId;
    out.nextReportNumber = this.nextReportNumber;
    out.revision = this.revision;
    return out;
  }

  createFund(input: NewFund): Fund {
    this.revision++;
    this.requireRole(input.idAdmin, "fundAdministrator", "administer funds");
    const owner = this.users.get(input.idEmployee);
    if (!owner) throw invalid("IdEmployee", `no user with Id ${input.idEmployee}`);
    // Spec 4.3: "Employee to whom the fund is assigned".
    if (!owner.roles.includes("employee"))
      throw invalid(
        "IdEmployee",
        `user ${owner.id} (${owner.name}) is not an employee; funds are assigned to employees`,
      );
    const today = this.today();
    const fund: Fund = {
      id: this.nextFundId++,
      title: input.name,
      code: input.code,
      currency: input.currency,
      assignedTo: input.idEmployee,
      creatorId: input.idAdmin,
      status: FUND_OPEN,
      createdAt: timestampOf(this.now(), this.timeZone),
      expires: input.expires,
      expirationDate: input.expires ? input.expirationDate : "",
      flexible: input.flexible,
      autoDeposit: input.autoDeposit,
      autoBlock: input.autoBlock,
      comment: input.comment,
      depositsCents: input.amountCents,
      chargesCents: 0,
      transactions: [{ type: 1, amountCents: input.amountCents, date: today }],
    };
    this.funds.set(fund.id, fund);
    this.fundOrders.clear();
    return fund;
  }

  updateFund(changes: FundChanges): Fund {
    this.revision++;
    this.requireRole(changes.idAdmin, "fundAdministrator", "administer funds");
    const fund = this.fund(changes.id);
    const expires = changes.expires ?? fund.expires;
    const expirationDate = changes.expirationDate ?? fund.expirationDate;
    if (expires && !expirationDate) {
      throw invalid("FundExpirationDate", "required when FundExpiration is true");
    }
    if (changes.name !== fund.title) this.fundOrders.delete("title");
    fund.title = changes.name;
    if (changes.code !== undefined) fund.code = changes.code;
    if (changes.comment !== undefined) fund.comment = changes.comment;
    if (changes.flexible !== undefined) fund.flexible = changes.flexible;
    if (changes.autoDeposit !== undefined) fund.autoDeposit = changes.autoDeposit;
    if (changes.autoBlock !== undefined) fund.autoBlock = changes.autoBlock;
    fund.expires = expires;
    fund.expirationDate = expires ? expirationDate : "";
    return fund;
  }

  /**
   * Appends a deposit; moves Deposits and Balance, never Status. Spec 3.1 states this for every
   * fund, whatever its status, so a closed or blocked fund takes it too.
   */
  depositToFund(movement: MoneyMovement): Fund {
    this.revision++;
    this.requireRole(movement.idAdmin, "fundAdministrator", "administer funds");
    const fund = this.fund(movement.id);
    fund.transactions.push({ type: 1, amountCents: movement.amountCents, date: this.today() });
    fund.depositsCents += movement.amountCents;
    return fund;
  }

  /** Appends a withdrawal; moves Charges and Balance, never Status, in any status (as deposits). */
  withdrawFromFund(movement: MoneyMovement): Fund {
    this.revision++;
    this.requireRole(movement.idAdmin, "fundAdministrator", "administer funds");
    const fund = this.fund(movement.id);
    const balance = fund.depositsCents - fund.chargesCents;
    // A flexible fund may be spent beyond its balance (spec 2.1, FlexibleFund); others may not.
    if (movement.amountCents > balance && !fund.flexible) {
      throw conflict(
        "WithdrawAmount",
        `${(movement.amountCents / 100).toFixed(2)} is more than the fund's balance ${(balance / 100).toFixed(2)}`,
      );
    }
    fund.transactions.push({ type: 2, amountCents: movement.amountCents, date: this.today() });
    fund.chargesCents += movement.amountCents;
    return fund;
  }

  /** Any status to any status (spec 3.1 lists "any" as the origin). */
  setFundStatus(id: number, idAdmin: number, status: FundStatus): Fund {
    this.revision++;
    this.requireRole(idAdmin, "fundAdministrator", "administer funds");
    const fund = this.fund(id);
    fund.status = status;
    return fund;
  }

  setReportIntegration(mark: IntegrationMark): Report {
    this.revision++;
    const report = this.report(mark.id);
    report.integrationCalls = (report.integrationCalls ?? 0) + 1;
    if (mark.integrated) {
      report.integrated = true;
      report.integrationExternalCode = mark.code;
      report.integrationDate = mark.date || timestampOf(this.now(), this.timeZone);
      report.integrationInternalCode = `INT-${report.id}`;
    } else {
      report.integrated = false;
      report.integrationExternalCode = mark.code;
      // Spec 2.2: empty when not integrated.
      report.integrationDate = "";
      report.integrationInternalCode = "";
    }
    return report;
  }

  /**
   * Sets the report's custom status. Spec 4.11: the call assigns an existing status, which must
   * be defined in the report's policy beforehand; a text the policy does not define is refused
   * (the spec does not show the refusal; the sandbox takes the stricter reading) and the policy's
   * list is never changed.
   */
  setReportCustomStatus(change: CustomStatusChange): Report {
    this.revision++;
    this.requireRole(change.idAdmin, "manager", "manage expense reports");
    const report = this.report(change.id);
    const policy = this.policies.get(report.policyId);
    const defined = policy?.customStatuses ?? [];
    if (!defined.includes(change.customStatus)) {
      const where = policy
        ? `policy ${policy.id} "${policy.name}"`
        : `the report's policy ${report.policyId}`;
      const known = defined.length > 0 ? `its statuses are ${defined.join(", ")}` : "it defines none";
      throw invalid("CustomStatus", `"${change.customStatus}" is not a custom status of ${where}; ${known}`);
    }
    report.customStatus = change.customStatus;
    const message = change.customMessage ? `: ${change.customMessage}` : "";
    const text = `Estado cambiado a "${change.customStatus}"${message}`;
    report.timeline.push({ at: timestampOf(this.now(), this.timeZone), byUserId: change.idAdmin, text });
    return report;
  }

  /** Defines a custom status in a policy, as an administrator does in the service's own settings. */
  definePolicyStatus(policyId: number, status: string): ExpensePolicy {
    this.revision++;
    const policy = this.policies.get(policyId);
    if (!policy) throw notFound("id", `no expense policy with Id ${policyId}`);
    if (!policy.customStatuses.includes(status)) policy.customStatuses.push(status);
    return policy;
  }

  /** A new report the employee has not sent yet, for the simulation routes. */
  createDraftReport(input: NewDraftReport): Report {
    this.revision++;
    const employee = this.users.get(input.employeeId);
    if (!employee) throw invalid("EmployeeId", `no user with Id ${input.employeeId}`);
    const fund = input.fundId ? this.funds.get(input.fundId) : undefined;
    if (input.fundId && !fund) throw notFound("FundId", `no fund with Id ${input.fundId}`);
    if (fund && fund.assignedTo !== employee.id) {
      throw invalid("FundId", `fund ${fund.id} is assigned to user ${fund.assignedTo}, not ${employee.id}`);
    }
    const currency = fund?.currency ?? "CLP";
    const policy =
      [...this.policies.values()].find((p) => p.currency === currency) ?? [...this.policies.values()][0];
    const report: Report = {
      id: this.nextReportId++,
      title: input.title,
      reportNumber: String(this.nextReportNumber++),
      sendDate: "",
      closeDate: "",
      employeeId: employee.id,
      approverId: [...this.users.values()].find((u) => u.roles.includes("manager"))?.id ?? 0,
      policyId: policy?.id ?? 0,
      status: 0,
      customStatus: "",
      fundId: fund?.id ?? 0,
      totalCents: input.totalCents,
      approvedCents: 0,
      currency,
      note: "",
      integrated: false,
      integrationDate: "",
      integrationExternalCode: "",
      integrationInternalCode: "",
      nbrExpenses: 1,
      nbrApprovedExpenses: 0,
      nbrRejectedExpenses: 0,
      extraFields: input.extraFields ?? [],
      files: [],
      timeline: [],
    };
    this.reports.set(report.id, report);
    this.reportOrders.clear();
    return report;
  }

  /**
   * The employee sends (or re-sends) the report. A linked fund must be open (blocked and closed funds take no
   * reports, spec 3.1) and, unless flexible, hold the report's total (spec 2.1); an open fund with
   * AutomaticBlock becomes blocked.
   */
  sendReport(id: number): Report {
    this.revision++;
    const report = this.report(id);
    // A report still open (Status 0) may be sent again, as after the approver returns it;
    // a closed one may not.
    if (report.status === 1) throw conflict("Id", `report ${id} is closed and cannot be sent again`);
    const fund = report.fundId ? this.funds.get(report.fundId) : undefined;
    if (fund && fund.status !== FUND_OPEN) {
      const state = fund.status === FUND_BLOCKED ? "blocked (Status 3)" : "closed (Status 2)";
      throw conflict("FundId", `fund ${fund.id} is ${state}; the employee may not send reports against it`);
    }
    // Spec 2.1: only a flexible fund lets the employee submit beyond its available balance.
    const balance = fund ? fund.depositsCents - fund.chargesCents : 0;
    if (fund && !fund.flexible && report.totalCents > balance) {
      throw conflict(
        "FundId",
        `the report's total ${(report.totalCents / 100).toFixed(2)} is more than the balance ${(balance / 100).toFixed(2)} of fund ${fund.id}, which is not flexible (FlexibleFund false)`,
      );
    }
    report.sendDate = this.today();
    report.timeline.push({
      at: timestampOf(this.now(), this.timeZone),
      byUserId: report.employeeId,
      text: "Informe enviado",
    });
    if (fund?.autoBlock) fund.status = FUND_BLOCKED;
    this.reportOrders.delete("sendDate");
    return report;
  }

  /**
   * The approver closes a sent report. The approved amount is charged to the linked fund, and
   * with FundAutoDeposit deposited back so the balance returns to where it was (spec 3.1).
   */
  closeReport(id: number, approvedCents?: number): Report {
    this.revision++;
    const report = this.report(id);
    if (report.status === 1) throw conflict("Id", `report ${id} is already closed`);
    if (report.sendDate === "") throw conflict("Id", `report ${id} has not been sent yet`);
    const approved = approvedCents ?? report.totalCents;
    if (approved < 0 || approved > report.totalCents) {
      throw invalid(
        "ReportTotalApproved",
        `must be between 0 and the report total ${(report.totalCents / 100).toFixed(2)}`,
      );
    }
    const today = this.today();
    report.status = 1;
    report.closeDate = today;
    report.approvedCents = approved;
    report.nbrApprovedExpenses = report.nbrExpenses - report.nbrRejectedExpenses;
    report.timeline.push({
      at: timestampOf(this.now(), this.timeZone),
      byUserId: report.approverId,
      text: "Informe cerrado",
    });
    const fund = report.fundId ? this.funds.get(report.fundId) : undefined;
    if (fund && approved > 0) {
      fund.transactions.push({ type: 2, amountCents: approved, date: today });
      fund.chargesCents += approved;
      if (fund.autoDeposit) {
        fund.transactions.push({ type: 1, amountCents: approved, date: today });
        fund.depositsCents += approved;
      }
    }
    this.reportOrders.delete("closeDate");
    return report;
  }

  fund(id: number): Fund {
    const fund = this.funds.get(id);
    if (!fund) throw notFound("Id", `no fund with Id ${id}`);
    return fund;
  }

  report(id: number): Report {
    const report = this.reports.get(id);
    if (!report) throw notFound("Id", `no expense report with Id ${id}`);
    return report;
  }

  /** Reports in ascending order of the key (ties by Id), cached until that key changes. */
  reportsOrderedBy(order: ReportOrder): Report[] {
    let list = this.reportOrders.get(order);
    if (!list) {
      list = [...this.reports.values()];
      if (order === "id") list.sort((a, b) => a.id - b.id);
      else list.sort((a, b) => compareText(a[order], b[order]) || a.id - b.id);
      this.reportOrders.set(order, list);
    }
    return list;
  }

  /** Funds in ascending order of the key (ties by Id), cached until that key changes. */
  fundsOrderedBy(order: FundOrder): Fund[] {
    let list = this.fundOrders.get(order);
    if (!list) {
      list = [...this.funds.values()];
      list.sort((a, b) => compareText(a[order], b[order]) || a.id - b.id);
      this.fundOrders.set(order, list);
    }
    return list;
  }

  private requireRole(idAdmin: number, role: Role, what: string): User {
    const user = this.users.get(idAdmin);
    if (!user)
      throw forbidden("IdAdmin", `no user with Id ${idAdmin}; only users allowed to ${what} may do this`);
    if (!user.roles.includes(role)) {
      throw forbidden("IdAdmin", `user ${idAdmin} (${user.name}) is not allowed to ${what}`);
    }
    return user;
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
