/**
 * The operations an Outbox row (or a sidebar form) can ask for, the states a row goes through,
 * and the labels users pick them by, in English and Spanish (./operations/words.ts says them).
 */
import type { StringKey } from "../i18n";
import type { Said } from "../i18n/words";
import { inEveryLanguage, type OutboxValue } from "./words";

export const OUTBOX_OPERATIONS = [
  "createFund",
  "updateFund",
  "deposit",
  "withdraw",
  "setFundStatus",
  "markIntegrated",
  "markNotIntegrated",
  "setCustomStatus",
] as const;
export type OutboxOperation = (typeof OUTBOX_OPERATIONS)[number];

/** Operations whose effect does not add up when sent twice: re-sending them is harmless. */
export const IDEMPOTENT_OPERATIONS: ReadonlySet<OutboxOperation> = new Set<OutboxOperation>([
  "updateFund",
  "setFundStatus",
  "markIntegrated",
  "markNotIntegrated",
  "setCustomStatus",
]);

/** Operations that move money: never sent twice, reconciled against a snapshot of the fund. */
export const MONEY_OPERATIONS: ReadonlySet<OutboxOperation> = new Set<OutboxOperation>([
  "deposit",
  "withdraw",
]);

export type TargetKind = "fund" | "report" | "employee";

export function targetKindOf(operation: OutboxOperation): TargetKind {
  switch (operation) {
    case "createFund":
      return "employee";
    case "markIntegrated":
    case "markNotIntegrated":
    case "setCustomStatus":
      return "report";
    default:
      return "fund";
  }
}

export const OUTBOX_STATES = ["Pending", "Sending", "Done", "Refused", "Unknown"] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

export type FundStatus = 1 | 2 | 3;
export const FUND_STATUSES: readonly FundStatus[] = [1, 2, 3];

/** The catalogue key of an operation's label (a cell's, a message's). */
export function operationKey(operation: OutboxOperation): StringKey {
  return `outbox.op.${operation}` as StringKey;
}

/** The catalogue key of a state's label. */
export function stateKey(state: OutboxState): StringKey {
  return `outbox.state.${state}` as StringKey;
}

/** A fund status in words: its label's key, or its number when the contract does not list it. */
export function fundStatusWords(status: number): Said | string {
  return FUND_STATUSES.includes(status as FundStatus)
    ? { say: `outbox.fundStatus.${status}` as StringKey }
    : String(status);
}

function normalise(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\s+/g, " ");
}

/** A reader of labels in every language, its table built on first use (not on every load). */
function lookup<T>(values: readonly T[], labelsOf: (value: T) => OutboxValue[]) {
  let table: Map<string, T> | null = null;
  return (text: string): T | null => {
    if (!table) {
      table = new Map<string, T>();
      for (const value of values) {
        for (const label of labelsOf(value))
          for (const said of inEveryLanguage(label)) table.set(normalise(said), value);
      }
    }
    return table.get(normalise(text)) ?? null;
  };
}

/**
 * The operation named by a cell: its label in either language, the verb earlier versions
 * offered for it (cells and dropdowns of existing sheets hold those), or its own name.
 */
export const parseOperation = lookup(OUTBOX_OPERATIONS, (op) => [
  { say: operationKey(op) },
  { say: `outbox.formerOp.${op}` as StringKey },
  op,
]);

/** The state written in a cell, in either language; an empty cell is Pending. */
const stateByLabel = lookup(OUTBOX_STATES, (state) => [{ say: stateKey(state) }, state]);
export function parseState(text: string): OutboxState | null {
  if (text.trim() === "") return "Pending";
  return stateByLabel(text);
}

/** A fund status from a label in either language or its number (1 open, 2 closed, 3 blocked). */
export const parseFundStatus = lookup(FUND_STATUSES, (status) => [fundStatusWords(status), String(status)]);
