/**
 * Write requests as the outbox and the sidebar forms build them: one per operation, amounts in
 * integer cents, checked against the contract's limits with messages that name the service's
 * field and the rule. The same checks run in the sidebar as the user types and on the server.
 */
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

export type RequestOf<O extends OutboxOperation> = Extract<WriteRequest, { operation: O }>;

export interface FieldProblem {
  /** The service's field name (FundName, DepositAmount…). */
  field: string;
  message: string;
}

/** The service's endpoint for each operation. */
export const ENDPOINT_OF: Record<OutboxOperation, string> = {
  createFund: "createFund",
  updateFund: "updateFund",
  deposit: "depositMoneyToFund",
  withdraw: "withdrawMoneyFromFund",
  setFundStatus: "setFundStatus",
  markIntegrated: "setExpenseReportIntegration",
  markNotIntegrated: "setExpenseReportIntegration",
  setCustomStatus: "setExpenseReportCustomStatus",
};

/** The field that carries the amount of each money operation, as the service names it. */
export const AMOUNT_FIELD = {
  createFund: "FundAmount",
  deposit: "DepositAmount",
  withdraw: "WithdrawAmount",
};

const LIMITS: Record<string, number> = {
  FundName: 200,
  FundCode: 50,
  FundComment: 255,
  IntegrationCode: 255,
  CustomStatus: 20,
  CustomMessage: 255,
};

function checkLength(problems: FieldProblem[], field: string, value: string | undefined): void {
  const max = LIMITS[field];
  if (value !== undefined && max !== undefined && value.length > max) {
    problems.push({ field, message: `${field}: at most ${max} characters (has ${value.length})` });
  }
}

function checkRequired(problems: FieldProblem[], field: string, value: string | undefined): void {
  if (value === undefined || value.trim() === "") problems.push({ field, message: `${field}: required` });
}

function checkId(problems: FieldProblem[], field: string, value: number): void {
  if (!Number.isSafeInteger(value) || value <= 0) {
    problems.push({ field, message: `${field}: must be a positive whole number` });
  }
}

function checkAmount(problems: FieldProblem[], field: string, value: Cents): void {
  if (!Number.isSafeInteger(value)) {
    problems.push({ field, message: `${field}: at most two decimals` });
  } else if (value <= 0) {
    problems.push({ field, message: `${field}: must be greater than zero` });
  }
}

function checkDate(problems: FieldProblem[], field: string, value: string | undefined): void {
  if (value === undefined) return;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!m || !d || d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) {
    problems.push({ field, message: `${field}: must be a date YYYY-MM-DD` });
  }
}

function checkDateTime(problems: FieldProblem[], field: string, value: string): void {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
  let valid = false;
  if (m) {
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    valid =
      d.getUTCMonth() === Number(m[2]) - 1 &&
      d.getUTCDate() === Number(m[3]) &&
      Number(m[4]) < 24 &&
      Number(m[5]) < 60 &&
      Number(m[6]) < 60;
  }
  if (!valid) problems.push({ field, message: `${field}: must be a date and time YYYY-MM-DD HH:MM:SS` });
}

function checkFundOptions(problems: FieldProblem[], options: FundOptions): void {
  checkLength(problems, "FundCode", options.code);
  checkLength(problems, "FundComment", options.comment);
  checkDate(problems, "FundExpirationDate", options.expirationDate);
}

/** Every rule of the contract the request breaks; empty when it may be sent. */
export function validateRequest(request: WriteRequest): FieldProblem[] {
  const problems: FieldProblem[] = [];
  switch (request.operation) {
    case "createFund":
      checkId(problems, "IdEmployee", request.employeeId);
      checkRequired(problems, "FundName", request.name);
      checkLength(problems, "FundName", request.name);
      if (!/^[A-Z]{3}$/.test(request.currency)) {
        problems.push({ field: "FundCurrency", message: "FundCurrency: must be a 3-letter ISO 4217 code" });
      }
      checkAmount(problems, "FundAmount", request.amount);
      checkFundOptions(problems, request);
      break;
    case "updateFund":
      checkId(problems, "Id", request.fundId);
      checkRequired(problems, "FundName", request.name);
      checkLength(problems, "FundName", request.name);
      checkFundOptions(problems, request);
      break;
    case "deposit":
    case "withdraw":
      checkId(problems, "Id", request.fundId);
      checkAmount(problems, AMOUNT_FIELD[request.operation], request.amount);
      break;
    case "setFundStatus":
      checkId(problems, "Id", request.fundId);
      if (![1, 2, 3].includes(request.status)) {
        problems.push({
          field: "FundStatus",
          message: "FundStatus: must be 1 (open), 2 (closed) or 3 (blocked)",
        });
      }
      break;
    case "markIntegrated":
      checkId(problems, "Id", request.reportId);
      checkRequired(problems, "IntegrationCode", request.code);
      checkLength(problems, "IntegrationCode", request.code);
      checkDateTime(problems, "IntegrationDate", request.date);
      break;
    case "markNotIntegrated":
      checkId(problems, "Id", request.reportId);
      checkLength(problems, "IntegrationCode", request.code);
      break;
    case "setCustomStatus":
      checkId(problems, "Id", request.reportId);
      checkRequired(problems, "CustomStatus", request.status);
      checkLength(problems, "CustomStatus", request.status);
      checkLength(problems, "CustomMessage", request.message);
      break;
  }
  return problems;
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
