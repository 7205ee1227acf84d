/**
 * A failed call in the user's plain words, where its callers have long imported it from: the
 * classification as data (./failure.ts: which kind of failure, what was kept, the service's
 * reason) and its saying (./words.ts, the API surface's words module).
 */
export {
  DETAILS_SEPARATOR,
  type Failure,
  failureOf,
  type Kept,
  type PlainKind,
  plainKind,
  type Refusal,
  serviceReasonIn,
} from "./failure";
export {
  type PlainError,
  plainError,
  plainRefusal,
  plainText,
  plainWriteRefusal,
  refusalReason,
  sayFailure,
} from "./words";
