/**
 * The Outbox sheet's columns, declared once. Users own the columns that describe the operation;
 * the add-on owns State and Result (the first two columns, read first) and its record at the
 * right (time, operation key, snapshot: hidden), and writes nothing else, so edits made to a row
 * during a run are never overwritten.
 */
import type { StringKey } from "../i18n";

export const USER_COLUMNS = [
  /** The company the row's operation goes to (its name); may stay empty with one company. */
  "company",
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
/** The add-on's columns shown first: what happened to each row. */
export const LEADING_COLUMNS = ["state", "result"] as const;
/** The add-on's record of each row, at the right and hidden. */
export const HIDDEN_COLUMNS = ["time", "operationKey", "snapshot"] as const;
export const OWNED_COLUMNS = [...LEADING_COLUMNS, ...HIDDEN_COLUMNS] as const;

export type UserColumn = (typeof USER_COLUMNS)[number];
export type OwnedColumn = (typeof OWNED_COLUMNS)[number];
export type OutboxColumn = UserColumn | OwnedColumn;

export const OUTBOX_COLUMNS: readonly OutboxColumn[] = [
  ...LEADING_COLUMNS,
  ...USER_COLUMNS,
  ...HIDDEN_COLUMNS,
];

/** The user's columns before the Company column came first among them. */
const USER_COLUMNS_BEFORE_COMPANY = USER_COLUMNS.filter((c) => c !== "company");

/**
 * The layout before the Company column: State, Result, then the user's columns from Operation.
 * Such a sheet gets the Company column inserted after Result, every row and cell kept.
 */
export const PREVIOUS_OUTBOX_COLUMNS: readonly OutboxColumn[] = [
  ...LEADING_COLUMNS,
  ...USER_COLUMNS_BEFORE_COMPANY,
  ...HIDDEN_COLUMNS,
];

/**
 * The layout of Outbox sheets made before State and Result came first: the user's columns, then
 * the add-on's five. Such a sheet is recognised by exactly this header and moved once (then
 * gets the Company column as the previous layout does).
 */
export const OLD_OUTBOX_COLUMNS: readonly OutboxColumn[] = [...USER_COLUMNS_BEFORE_COMPANY, ...OWNED_COLUMNS];

/** 1-based column number of each column in the Outbox sheet. */
export function columnNumber(column: OutboxColumn): number {
  return OUTBOX_COLUMNS.indexOf(column) + 1;
}

/**
 * The add-on's cells of a row as ranges of adjacent columns: the first column and its values.
 * The record (with the operation key) first: an execution killed between the two writes leaves
 * the new key beside the old State, which the next run settles by its record, never a State
 * such as Sending beside no key, which it could only refuse as unrecorded.
 */
export function ownedBlocks(
  cells: OwnedCells,
): { column: number; columns: OwnedColumn[]; values: CellValue[] }[] {
  return [HIDDEN_COLUMNS, LEADING_COLUMNS].map((block) => ({
    column: columnNumber(block[0]),
    columns: [...block],
    values: block.map((c) => cells[c]),
  }));
}

export function headerKey(column: OutboxColumn): StringKey {
  return `outbox.col.${column}` as StringKey;
}

/** Columns whose cells must stay text as typed (codes like "00123" or "2024-01"). */
export const TEXT_COLUMNS: readonly OutboxColumn[] = [
  "company",
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
