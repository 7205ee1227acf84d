/**
 * The labels of ../operations.ts said in the user's language: an operation's, a state's, a fund
 * status's (a cell's, a dropdown's, a message's), each from its data (`operationKey`,
 * `stateKey`, `fundStatusWords`).
 */
import type { Said } from "../../i18n/words";
import {
  fundStatusWords,
  type OutboxOperation,
  type OutboxState,
  operationKey,
  stateKey,
} from "../operations";
import { saidIn, sayLabel } from "../words";

export const operationLabel = saidIn(
  (operation: OutboxOperation): Said => ({ say: operationKey(operation) }),
  sayLabel,
);
export const stateLabel = saidIn((state: OutboxState): Said => ({ say: stateKey(state) }), sayLabel);
/** A status the contract does not list is named by its number. */
export const fundStatusLabel = saidIn(fundStatusWords, sayLabel);
