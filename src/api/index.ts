/** The API contract and client: what other areas import. */
export * from "./client";
export * from "./endpoints";
export * from "./errors";
export type { FieldInputs, FieldKind, FieldOutputs, FieldSpec } from "./fields";
export { dateText, dateTimeText, isBlank } from "./fields";
export * from "./messages";
export * from "./money";
export * from "./rounds";
export * from "./transport";
export type * from "./types";
export * from "./validation";
export * from "./wire";
export { totalsAfterText, type ValidateOptions, validateRequest } from "./words";
