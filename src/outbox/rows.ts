/**
 * One Outbox row as read from the sheet, and the write request it asks for. A row names its
 * operation by label (either language); the fields it needs depend on the operation.
 */
import { cellText, type DateFormatter, isBlank, readFlag } from "./cells";
import { type CellValue, OUTBOX_COLUMNS, type OwnedColumn, USER_COLUMNS, type UserColumn } from "./columns";
import {
  type OutboxOperation,
  type OutboxState,
  parseFundStatus,
  parseOperation,
  parseState,
} from "./operations";
import { cellsText } from "./records";
import { checkWrite, type ServiceInput, type WriteProblem, type WriteRequest } from "./requests";

export interface OutboxRow {
  /** 1-based row number in the sheet. */
  rowNumber: number;
  cells: Record<UserColumn, CellValue>;
  operation: OutboxOperation | null;
  /** null when the state cell holds something the add-on did not write. */
  state: OutboxState | null;
  stateText: string;
  result: string;
  operationKey: string;
  /** No user cell filled but Company: not an operation at all. */
  isEmpty: boolean;
}

export function readOutboxRow(values: readonly CellValue[], rowNumber: number): OutboxRow {
  const at = (index: number): CellValue => values[index] ?? "";
  const cells = {} as Record<UserColumn, CellValue>;
  for (const column of USER_COLUMNS) cells[column] = at(OUTBOX_COLUMNS.indexOf(column));
  const owned = (column: OwnedColumn): CellValue => at(OUTBOX_COLUMNS.indexOf(column));
  const stateText = cellText(owned("state"));
  return {
    rowNumber,
    cells,
    operation: parseOperation(cellText(cells.operation)),
    state: parseState(stateText),
    stateText,
    result: cellText(owned("result")),
    operationKey: cellText(owned("operationKey")),
    // A Company picked ahead on an otherwise blank line asks for nothing.
    isEmpty: USER_COLUMNS.every((column) => column === "company" || isBlank(cells[column])),
  };
}

/** The user columns each operation reads; edits elsewhere on the row do not change the request. */
export const REQUEST_COLUMNS: Record<OutboxOperation, readonly UserColumn[]> = {
  createFund: [
    "employeeId",
    "fundName",
    "currency",
    "amount",
    "fundCode",
    "fundComment",
    "flexible",
    "autoDeposit",
    "autoBlock",
    "expirationDate",
  ],
  updateFund: [
    "targetId",
    "fundName",
    "fundCode",
    "fundComment",
    "flexible",
    "autoDeposit",
    "autoBlock",
    "expirationDate",
  ],
  deposit: ["targetId", "amount"],
  withdraw: ["targetId", "amount"],
  setFundStatus: ["targetId", "fundStatus"],
  markIntegrated: ["targetId", "integrationCode", "integrationDate"],
  markNotIntegrated: ["targetId", "integrationCode"],
  setCustomStatus: ["targetId", "customStatus", "customMessage"],
};

/**
 * The row's cells that make its request, as text: the operation by name (so a label in the
 * other language is the same operation) and the columns that operation reads. What a record
 * keeps, to tell later whether the row still shows what was sent.
 */
export function requestCells(row: Pick<OutboxRow, "cells" | "operation">): Record<string, string> {
  if (row.operation === null) return { operation: cellText(row.cells.operation) };
  return { operation: row.operation, ...cellsText(row.cells, REQUEST_COLUMNS[row.operation]) };
}

/**
 * What keeps a row's request from being made, as data: the contract's checks of its cells
 * (`WriteProblem`), or its Operation cell naming no operation (`operation`: what it holds, ""
 * when blank). ./rows/words.ts says them, each field named by its column.
 */
export type RequestProblem = WriteProblem | { field: "operation"; operation: string };

export type RowRequest = { ok: true; request: WriteRequest } | { ok: false; problems: RequestProblem[] };

export interface RowContext {
  /** Formats a date cell in the spreadsheet's time zone. */
  format: DateFormatter;
  /** Now, for an integration date left blank. */
  now: Date;
  adminId: number | null;
  /** Why `adminId` may not go with this user's writes (CheckOptions.adminIssue). */
  adminIssue?: string | null;
}

/** A cell as the contract reads it: dates already in the spreadsheet's zone, labels as values. */
function dateCell(
  value: CellValue,
  pattern: "yyyy-MM-dd" | "yyyy-MM-dd HH:mm:ss",
  format: DateFormatter,
): CellValue {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? format(value, pattern) : value;
}

function flagCell(value: CellValue): CellValue {
  const read = readFlag(value, "");
  return read.ok && read.value !== undefined ? read.value : value;
}

/** The service input a row stands for, in the service's field names. */
export function serviceInputOfRow(row: OutboxRow, context: RowContext): ServiceInput {
  const c = row.cells;
  const fundOptions = (): ServiceInput => ({
    FundCode: c.fundCode,
    FundComment: c.fundComment,
    FundFlexibility: flagCell(c.flexible),
    FundAutoDeposit: flagCell(c.autoDeposit),
    FundAutoBlock: flagCell(c.autoBlock),
    FundExpirationDate: dateCell(c.expirationDate, "yyyy-MM-dd", context.format),
  });
  switch (row.operation) {
    case "createFund":
      return {
        IdEmployee: c.employeeId,
        FundName: c.fundName,
        FundCurrency: c.currency,
        FundAmount: c.amount,
        ...fundOptions(),
      };
    case "updateFund":
      return { Id: c.targetId, FundName: c.fundName, ...fundOptions() };
    case "deposit":
      return { Id: c.targetId, DepositAmount: c.amount };
    case "withdraw":
      return { Id: c.targetId, WithdrawAmount: c.amount };
    case "setFundStatus":
      return { Id: c.targetId, FundStatus: parseFundStatus(cellText(c.fundStatus)) ?? c.fundStatus };
    case "markIntegrated":
      return {
        Id: c.targetId,
        IntegrationCode: c.integrationCode,
        IntegrationDate: isBlank(c.integrationDate)
          ? context.format(context.now, "yyyy-MM-dd HH:mm:ss")
          : dateCell(c.integrationDate, "yyyy-MM-dd HH:mm:ss", context.format),
      };
    case "markNotIntegrated":
      return { Id: c.targetId, IntegrationCode: c.integrationCode };
    case "setCustomStatus":
      return { Id: c.targetId, CustomStatus: c.customStatus, CustomMessage: c.customMessage };
    default:
      return {};
  }
}

/**
 * The column each service field is typed into (serviceInputOfRow read backwards): messages
 * about a row's input name the field by its column's header (./rows/words.ts).
 */
const FIELD_COLUMNS: Readonly<Record<string, UserColumn>> = {
  Id: "targetId",
  IdEmployee: "employeeId",
  FundName: "fundName",
  FundCurrency: "currency",
  FundAmount: "amount",
  DepositAmount: "amount",
  WithdrawAmount: "amount",
  FundCode: "fundCode",
  FundComment: "fundComment",
  FundFlexibility: "flexible",
  FundAutoDeposit: "autoDeposit",
  FundAutoBlock: "autoBlock",
  FundExpirationDate: "expirationDate",
  FundStatus: "fundStatus",
  IntegrationCode: "integrationCode",
  IntegrationDate: "integrationDate",
  CustomStatus: "customStatus",
  CustomMessage: "customMessage",
};

/** The Outbox column a service field is typed into; none for IdAdmin (a setting) or a field no column holds. */
export function fieldColumn(field: string): UserColumn | undefined {
  return FIELD_COLUMNS[field];
}

/** A row's problems as one text: each message is a sentence of its own, so they follow one another. */
export const problemsText = (problems: readonly { message: string }[]): string =>
  problems.map((p) => p.message).join(" ");

/** The request a row asks for, or every problem that keeps it from being sent (the contract's rules), as data. */
export function requestFromRow(row: OutboxRow, context: RowContext): RowRequest {
  if (row.operation === null)
    return { ok: false, problems: [{ field: "operation", operation: cellText(row.cells.operation) }] };
  return checkWrite(row.operation, serviceInputOfRow(row, context), {
    adminId: context.adminId,
    adminIssue: context.adminIssue || null,
  });
}

/**
 * The Currency typed on a deposit's or withdrawal's row when it is not `fundCurrency` (the
 * fund's, as read): the writer's own statement of the fund's currency, so a row that says CLP
 * for an MXN fund is refused naming both, never sent in MXN. Null when nothing is typed, the
 * fund's currency is not known, or they agree (case aside).
 */
export function typedCurrencyDiffers(
  row: Pick<OutboxRow, "cells" | "operation">,
  fundCurrency: string | undefined,
): string | null {
  if (row.operation !== "deposit" && row.operation !== "withdraw") return null;
  const typed = cellText(row.cells.currency).trim();
  if (typed === "" || !fundCurrency) return null;
  return typed.toUpperCase() === fundCurrency.trim().toUpperCase() ? null : typed;
}
