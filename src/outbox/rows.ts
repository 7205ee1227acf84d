/**
 * One Outbox row as read from the sheet, and the write request it asks for. A row names its
 * operation by label (either language); the fields it needs depend on the operation.
 */
import {
  type Cents,
  cellText,
  type DateFormatter,
  isBlank,
  type Read,
  readAmount,
  readDate,
  readDateTime,
  readFlag,
  readId,
  readText,
} from "./cells";
import { type CellValue, OUTBOX_COLUMNS, type OwnedColumn, USER_COLUMNS, type UserColumn } from "./columns";
import {
  type OutboxOperation,
  type OutboxState,
  parseFundStatus,
  parseOperation,
  parseState,
} from "./operations";
import {
  AMOUNT_FIELD,
  type FieldProblem,
  type FundOptions,
  validateRequest,
  type WriteRequest,
} from "./requests";
import { parseSnapshot, type Snapshot } from "./snapshot";

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
  snapshot: Snapshot | null;
  /** No user cell filled: not an operation at all. */
  isEmpty: boolean;
}

export function readOutboxRow(values: readonly CellValue[], rowNumber: number): OutboxRow {
  const at = (index: number): CellValue => values[index] ?? "";
  const cells = {} as Record<UserColumn, CellValue>;
  USER_COLUMNS.forEach((column, index) => {
    cells[column] = at(index);
  });
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
    snapshot: parseSnapshot(cellText(owned("snapshot"))),
    isEmpty: USER_COLUMNS.every((column) => isBlank(cells[column])),
  };
}

/**
 * A short fingerprint of the user's cells, kept with a Refused or Done row so that the next
 * run can tell whether the user edited the row since (FNV-1a over the cells' text).
 */
export function fingerprint(row: Pick<OutboxRow, "cells">): string {
  const text = JSON.stringify(USER_COLUMNS.map((column) => cellText(row.cells[column])));
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

export type RowRequest = { ok: true; request: WriteRequest } | { ok: false; problems: FieldProblem[] };

interface Context {
  format: DateFormatter;
  /** Now, for an integration date left blank. */
  now: Date;
}

/** The request a row asks for, or every problem that keeps it from being sent. */
export function requestFromRow(row: OutboxRow, context: Context): RowRequest {
  const problems: FieldProblem[] = [];
  const c = row.cells;
  if (row.operation === null) {
    const text = cellText(c.operation);
    return {
      ok: false,
      problems: [
        {
          field: "Operation",
          message:
            text === "" ? "Operation: required" : `Operation: "${text}" is not an operation of the list`,
        },
      ],
    };
  }
  const take = <T>(field: string, read: Read<T>): T | undefined => {
    if (read.ok) return read.value;
    problems.push({ field, message: read.message });
    return undefined;
  };
  const required = <T>(
    field: string,
    value: CellValue,
    reader: (v: CellValue, f: string) => Read<T>,
  ): T | undefined => {
    if (isBlank(value)) {
      problems.push({ field, message: `${field}: required` });
      return undefined;
    }
    return take(field, reader(value, field));
  };
  const optionalText = (value: CellValue): string | undefined =>
    isBlank(value) ? undefined : readText(value);
  const fundOptions = (): FundOptions => {
    const options: FundOptions = {};
    const code = optionalText(c.fundCode);
    if (code !== undefined) options.code = code;
    const comment = optionalText(c.fundComment);
    if (comment !== undefined) options.comment = comment;
    const flexible = take("FundFlexibility", readFlag(c.flexible, "FundFlexibility"));
    if (flexible !== undefined) options.flexible = flexible;
    const autoDeposit = take("FundAutoDeposit", readFlag(c.autoDeposit, "FundAutoDeposit"));
    if (autoDeposit !== undefined) options.autoDeposit = autoDeposit;
    const autoBlock = take("FundAutoBlock", readFlag(c.autoBlock, "FundAutoBlock"));
    if (autoBlock !== undefined) options.autoBlock = autoBlock;
    if (!isBlank(c.expirationDate)) {
      const date = take(
        "FundExpirationDate",
        readDate(c.expirationDate, "FundExpirationDate", context.format),
      );
      if (date !== undefined) options.expirationDate = date;
    }
    return options;
  };

  let request: WriteRequest | undefined;
  switch (row.operation) {
    case "createFund": {
      const employeeId = required("IdEmployee", c.employeeId, readId);
      const name = required(
        "FundName",
        c.fundName,
        (v) => ({ ok: true, value: readText(v) }) as Read<string>,
      );
      const currency = required(
        "FundCurrency",
        c.currency,
        (v) => ({ ok: true, value: readText(v).toUpperCase() }) as Read<string>,
      );
      const amount = required(AMOUNT_FIELD.createFund, c.amount, readAmount);
      const options = fundOptions();
      if (employeeId !== undefined && name !== undefined && currency !== undefined && amount !== undefined) {
        request = { operation: "createFund", employeeId, name, currency, amount, ...options };
      }
      break;
    }
    case "updateFund": {
      const fundId = required("Id", c.targetId, readId);
      const name = required(
        "FundName",
        c.fundName,
        (v) => ({ ok: true, value: readText(v) }) as Read<string>,
      );
      const options = fundOptions();
      if (fundId !== undefined && name !== undefined)
        request = { operation: "updateFund", fundId, name, ...options };
      break;
    }
    case "deposit":
    case "withdraw": {
      const fundId = required("Id", c.targetId, readId);
      const amount: Cents | undefined = required(AMOUNT_FIELD[row.operation], c.amount, readAmount);
      if (fundId !== undefined && amount !== undefined)
        request = { operation: row.operation, fundId, amount };
      break;
    }
    case "setFundStatus": {
      const fundId = required("Id", c.targetId, readId);
      const status = required("FundStatus", c.fundStatus, (v, f) => {
        const parsed = parseFundStatus(cellText(v));
        return parsed === null
          ? { ok: false, message: `${f}: must be Open, Blocked or Closed (1, 3 or 2)` }
          : { ok: true, value: parsed };
      });
      if (fundId !== undefined && status !== undefined)
        request = { operation: "setFundStatus", fundId, status };
      break;
    }
    case "markIntegrated": {
      const reportId = required("Id", c.targetId, readId);
      const code = required(
        "IntegrationCode",
        c.integrationCode,
        (v) => ({ ok: true, value: readText(v) }) as Read<string>,
      );
      const date = isBlank(c.integrationDate)
        ? context.format(context.now, "yyyy-MM-dd HH:mm:ss")
        : take("IntegrationDate", readDateTime(c.integrationDate, "IntegrationDate", context.format));
      if (reportId !== undefined && code !== undefined && date !== undefined) {
        request = { operation: "markIntegrated", reportId, code, date };
      }
      break;
    }
    case "markNotIntegrated": {
      const reportId = required("Id", c.targetId, readId);
      const code = optionalText(c.integrationCode);
      if (reportId !== undefined) {
        request =
          code === undefined
            ? { operation: "markNotIntegrated", reportId }
            : { operation: "markNotIntegrated", reportId, code };
      }
      break;
    }
    case "setCustomStatus": {
      const reportId = required("Id", c.targetId, readId);
      const status = required(
        "CustomStatus",
        c.customStatus,
        (v) => ({ ok: true, value: readText(v) }) as Read<string>,
      );
      const message = optionalText(c.customMessage);
      if (reportId !== undefined && status !== undefined) {
        request =
          message === undefined
            ? { operation: "setCustomStatus", reportId, status }
            : { operation: "setCustomStatus", reportId, status, message };
      }
      break;
    }
  }
  if (request) problems.push(...validateRequest(request));
  if (problems.length > 0 || !request) return { ok: false, problems };
  return { ok: true, request };
}
