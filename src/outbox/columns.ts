/**
 * The Outbox sheet's columns, declared once. Users own the columns that describe the operation;
 * the add-on owns the block at the right (state, result, time, operation key, snapshot) and
 * writes nothing else, so edits made to a row during a run are never overwritten.
 */
import type { StringKey } from "../i18n";

export const USER_COLUMNS = [
  "operation",
  "targetId",
  "amount",
  "currency",
  "fundStatus",
  "integrationCode",
  "integrationDate",
  "customStatus",
  "customMessage",
  "employeeId",
  "fundName",
  "fundCode",
  "fundComment",
  "flexible",
  "autoDeposit",
  "autoBlock",
  "expirationDate",
] as const;
export const OWNED_COLUMNS = ["state", "result", "time", "operationKey", "snapshot"] as const;

export type UserColumn = (typeof USER_COLUMNS)[number];
export type OwnedColumn = (typeof OWNED_COLUMNS)[number];
export type OutboxColumn = UserColumn | OwnedColumn;

export const OUTBOX_COLUMNS: readonly OutboxColumn[] = [...USER_COLUMNS, ...OWNED_COLUMNS];

/** 1-based column number of each column in the Outbox sheet. */
export function columnNumber(column: OutboxColumn): number {
  return OUTBOX_COLUMNS.indexOf(column) + 1;
}

/** First column of the add-on's block. */
export const FIRST_OWNED_COLUMN = USER_COLUMNS.length + 1;

export function headerKey(column: OutboxColumn): StringKey {
  return `outbox.col.${column}` as StringKey;
}

/** Columns whose cells must stay text as typed (codes like "00123" or "2024-01"). */
export const TEXT_COLUMNS: readonly OutboxColumn[] = [
  "currency",
  "integrationCode",
  "customStatus",
  "customMessage",
  "fundName",
  "fundCode",
  "fundComment",
  "result",
  "operationKey",
  "snapshot",
];

/** A value as getValues returns it. */
export type CellValue = string | number | boolean | Date;

/** The add-on's cells of one row, in OWNED_COLUMNS order. */
export interface OwnedCells {
  state: string;
  result: string;
  time: Date | "";
  operationKey: string;
  snapshot: string;
}

export function ownedCellsToRow(cells: OwnedCells): CellValue[] {
  return [cells.state, cells.result, cells.time, cells.operationKey, cells.snapshot];
}
