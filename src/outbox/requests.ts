/**
 * Write requests as the outbox and the sidebar forms build them: one per operation, amounts in
 * integer cents. Every check is the contract's own (src/api checkRequest), so a cell, a form
 * field and the service side refuse the same input with the same message. What is refused comes
 * back as data (`WriteProblem`), said by each surface's words module.
 */
// Narrow imports: sidebar clients bundle this file, and need the rules, not the HTTP client.
import type { EndpointName } from "../api/endpoints";
import type { Issue } from "../api/messages";
import { type NumberLocale, typedAmount } from "../api/money";
import { checkRequest } from "../api/validation";
import type { Cents } from "./cells";
import type { FundStatus, OutboxOperation } from "./operations";

export interface FundOptions {
  code?: string;
  comment?: string;
  flexible?: boolean;
  autoDeposit?: boolean;
  autoBlock?: boolean;
  /** YYYY-MM-DD; when given the fund has an accounting deadline. */
  expirationDate?: string;
}

export type WriteRequest =
  | ({
      operation: "createFund";
      employeeId: number;
      name: string;
      currency: string;
      amount: Cents;
    } & FundOptions)
  | ({ operation: "updateFund"; fundId: number; name: string } & FundOptions)
  | { operation: "deposit"; fundId: number; amount: Cents }
  | { operation: "withdraw"; fundId: number; amount: Cents }
  | { operation: "setFundStatus"; fundId: number; status: FundStatus }
  | { operation: "markIntegrated"; reportId: number; code: string; date: string }
  | { operation: "markNotIntegrated"; reportId: number; code?: string }
  | { operation: "setCustomStatus"; reportId: number; status: string; message?: string };

export interface FieldProblem {
  /** The service's field name (FundName, DepositAmount…). */
  field: string;
  message: string;
}

/**
 * What keeps a write from being made, as data: a rule of the contract broken by a field (an
 * `Issue`: its field, rule and values), or the administrator's issue as the caller gave it
 * (already words: a `FieldProblem` on IdAdmin).
 */
export type WriteProblem = Issue | FieldProblem;

/** The service's endpoint for each operation. */
export const ENDPOINT_OF: Record<OutboxOperation, EndpointName> = {
  createFund: "createFund",
  updateFund: "updateFund",
  deposit: "depositMoneyToFund",
  withdraw: "withdrawMoneyFromFund",
  setFundStatus: "setFundStatus",
  markIntegrated: "setExpenseReportIntegration",
  markNotIntegrated: "setExpenseReportIntegration",
  setCustomStatus: "setExpenseReportCustomStatus",
};

/** Operations whose endpoint takes no IdAdmin (the spec lists none for integration marks). */
const WITHOUT_ADMIN: ReadonlySet<OutboxOperation> = new Set<OutboxOperation>([
  "markIntegrated",
  "markNotIntegrated",
]);

/** The field that carries the amount of each money operation, as the service names it. */
export const AMOUNT_FIELD = {
  createFund: "FundAmount",
  deposit: "DepositAmount",
  withdraw: "WithdrawAmount",
};

/** Input of an endpoint in the service's field names: cell values, form text or typed values. */
export type ServiceInput = Record<string, unknown>;

export type Checked = { ok: true; request: WriteRequest } | { ok: false; problems: WriteProblem[] };

export interface CheckOptions {
  /** The administrator id of the settings; null when none is set (refused with IdAdmin's message). */
  adminId: number | null;
  /**
   * Why `adminId` may not go with this user's writes (another editor changed it): every write
   * that carries IdAdmin is refused with it. Absent or null: it may.
   */
  adminIssue?: string | null;
  /**
   * Amounts as a person types them in this number format (a sidebar): "1234,50" with "es".
   * Absent: amounts are read as the contract reads them (an Outbox cell).
   */
  typed?: NumberLocale;
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number => (typeof v === "number" ? v : 0);

function fundOptionsOf(value: Record<string, unknown>): FundOptions {
  const options: FundOptions = {};
  if (typeof value.FundCode === "string") options.code = value.FundCode;
  if (typeof value.FundComment === "string") options.comment = value.FundComment;
  if (typeof value.FundFlexibility === "boolean") options.flexible = value.FundFlexibility;
  if (typeof value.FundAutoDeposit === "boolean") options.autoDeposit = value.FundAutoDeposit;
  if (typeof value.FundAutoBlock === "boolean") options.autoBlock = value.FundAutoBlock;
  if (typeof value.FundExpirationDate === "string" && value.FundExpiration === true) {
    options.expirationDate = value.FundExpirationDate;
  }
  return options;
}

/** The request a checked value of the contract stands for. */
function fromServiceValue(operation: OutboxOperation, value: Record<string, unknown>): WriteRequest {
  switch (operation) {
    case "createFund":
      return {
        operation,
        employeeId: num(value.IdEmployee),
        name: str(value.FundName),
        currency: str(value.FundCurrency),
        amount: num(value.FundAmount),
        ...fundOptionsOf(value),
      };
    case "updateFund":
      return { operation, fundId: num(value.Id), name: str(value.FundName), ...fundOptionsOf(value) };
    case "deposit":
      return { operation, fundId: num(value.Id), amount: num(value.DepositAmount) };
    case "withdraw":
      return { operation, fundId: num(value.Id), amount: num(value.WithdrawAmount) };
    case "setFundStatus":
      return { operation, fundId: num(value.Id), status: num(value.FundStatus) as FundStatus };
    case "markIntegrated":
      return {
        operation,
        reportId: num(value.Id),
        code: str(value.IntegrationCode),
        date: str(value.IntegrationDate),
      };
    case "markNotIntegrated":
      return typeof value.IntegrationCode === "string"
        ? { operation, reportId: num(value.Id), code: value.IntegrationCode }
        : { operation, reportId: num(value.Id) };
    case "setCustomStatus":
      return typeof value.CustomMessage === "string"
        ? {
            operation,
            reportId: num(value.Id),
            status: str(value.CustomStatus),
            message: value.CustomMessage,
          }
        : { operation, reportId: num(value.Id), status: str(value.CustomStatus) };
  }
}

/**
 * Checks the input of an operation (service field names, without IdAdmin) with the contract's
 * rules; what breaks them comes back as data. Marking a report integrated also needs a voucher code: the contract
 * leaves IntegrationCode optional, but a mark without one links nothing to the ERP.
 */
export function checkWrite(operation: OutboxOperation, input: ServiceInput, options: CheckOptions): Checked {
  const full: ServiceInput = { ...input };
  if (!WITHOUT_ADMIN.has(operation)) full.IdAdmin = options.adminId ?? "";
  if (operation === "markIntegrated") full.IntegrationStatus = 1;
  if (operation === "markNotIntegrated") full.IntegrationStatus = 0;
  if ((operation === "createFund" || operation === "updateFund") && full.FundExpirationDate !== undefined) {
    // The form and the sheet have one expiration date; a date given means the fund expires.
    if (full.FundExpirationDate !== "" && full.FundExpiration === undefined) full.FundExpiration = true;
  }
  const typed: WriteProblem[] = [];
  for (const field of options.typed ? ["FundAmount", "DepositAmount", "WithdrawAmount"] : []) {
    // "1.234" in Spanish, "1,234" in English: which was meant is asked, not guessed.
    const amount = field in full && options.typed ? typedAmount(full[field], options.typed) : null;
    if (amount?.ok) full[field] = amount.value;
    else if (amount) typed.push({ field, rule: amount.rule, params: { got: amount.got } });
  }
  if (typed.length > 0) return { ok: false, problems: typed };
  const result = checkRequest(ENDPOINT_OF[operation], full);
  const problems: WriteProblem[] = result.ok ? [] : [...result.issues];
  if (!WITHOUT_ADMIN.has(operation) && options.adminIssue) {
    const others = problems.filter((p) => p.field !== "IdAdmin");
    problems.splice(0, problems.length, { field: "IdAdmin", message: options.adminIssue }, ...others);
  }
  if (
    operation === "markIntegrated" &&
    (typeof full.IntegrationCode !== "string" || full.IntegrationCode.trim() === "") &&
    !problems.some((p) => p.field === "IntegrationCode")
  )
    problems.unshift({ field: "IntegrationCode", rule: "required", params: {} });
  if (!result.ok || problems.length > 0) return { ok: false, problems };
  return { ok: true, request: fromServiceValue(operation, result.value as Record<string, unknown>) };
}

/** The request as the contract's client takes it: service field names, amounts in cents. */
export function toServiceInput(
  request: WriteRequest,
  adminId: number,
): { endpoint: EndpointName; input: ServiceInput } {
  const endpoint = ENDPOINT_OF[request.operation];
  const options = (r: FundOptions): ServiceInput => {
    const out: ServiceInput = {};
    if (r.code !== undefined) out.FundCode = r.code;
    if (r.comment !== undefined) out.FundComment = r.comment;
    if (r.flexible !== undefined) out.FundFlexibility = r.flexible;
    if (r.autoDeposit !== undefined) out.FundAutoDeposit = r.autoDeposit;
    if (r.autoBlock !== undefined) out.FundAutoBlock = r.autoBlock;
    if (r.expirationDate !== undefined) {
      out.FundExpiration = true;
      out.FundExpirationDate = r.expirationDate;
    }
    return out;
  };
  switch (request.operation) {
    case "createFund":
      return {
        endpoint,
        input: {
          IdEmployee: request.employeeId,
          IdAdmin: adminId,
          FundName: request.name,
          FundCurrency: request.currency,
          FundAmount: { cents: request.amount },
          ...options(request),
        },
      };
    case "updateFund":
      return {
        endpoint,
        input: { Id: request.fundId, IdAdmin: adminId, FundName: request.name, ...options(request) },
      };
    case "deposit":
      return {
        endpoint,
        input: { Id: request.fundId, IdAdmin: adminId, DepositAmount: { cents: request.amount } },
      };
    case "withdraw":
      return {
        endpoint,
        input: { Id: request.fundId, IdAdmin: adminId, WithdrawAmount: { cents: request.amount } },
      };
    case "setFundStatus":
      return { endpoint, input: { Id: request.fundId, IdAdmin: adminId, FundStatus: request.status } };
    case "markIntegrated":
      return {
        endpoint,
        input: {
          Id: request.reportId,
          IntegrationStatus: 1,
          IntegrationCode: request.code,
          IntegrationDate: request.date,
        },
      };
    case "markNotIntegrated":
      return {
        endpoint,
        input:
          request.code === undefined
            ? { Id: request.reportId, IntegrationStatus: 0 }
            : { Id: request.reportId, IntegrationStatus: 0, IntegrationCode: request.code },
      };
    case "setCustomStatus":
      return {
        endpoint,
        input:
          request.message === undefined
            ? { Id: request.reportId, IdAdmin: adminId, CustomStatus: request.status }
            : {
                Id: request.reportId,
                IdAdmin: adminId,
                CustomStatus: request.status,
                CustomMessage: request.message,
              },
      };
  }
}

/** The id of the record a request acts on (fund or report); the employee for createFund. */
export function targetOf(request: WriteRequest): number {
  switch (request.operation) {
    case "createFund":
      return request.employeeId;
    case "markIntegrated":
    case "markNotIntegrated":
    case "setCustomStatus":
      return request.reportId;
    default:
      return request.fundId;
  }
}
