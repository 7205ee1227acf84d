/** The JSON text of every answer of the sandbox. */
import { randomUUID } from "node:crypto";

/** Members that carry money: written with two decimals, as the spec types them. */
const AMOUNT_MEMBERS = new Set([
  "Deposits",
  "Withdrawals",
  "Charges",
  "Balance",
  "TransactionAmount",
  "ReportTotal",
  "ReportTotalApproved",
]);
/** Marks an amount inside the JSON text; random per process so that no client text can mimic it. */
const AMOUNT_MARK = `amount-${randomUUID()}:`;
const AMOUNT_MARKED = new RegExp(`"${AMOUNT_MARK}(-?\\d+\\.\\d{2})"`, "g");
/**
 * A number member of AMOUNT_MEMBERS in JSON.stringify's text: the key opens an object or follows
 * a comma (inside a JSON string every quote is escaped, so `,"Name":` is always a real key).
 */
const AMOUNT_NUMBER = new RegExp(
  `([{,])"(${[...AMOUNT_MEMBERS].join("|")})":(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`,
  "g",
);
const TWO_DECIMALS = /^-?\d+\.\d{2}$/;

/**
 * JSON text whose amounts read `1234.50` rather than `1234.5`: still JSON numbers, with the two
 * decimals the spec gives them. Amounts are already whole cents, so toFixed(2) only adds zeros.
 *
 * The text is JSON.stringify's, its amounts then written with two decimals: the same text as
 * a replacer marking every amount (`markedText`), which JSON.stringify would call for every
 * member of the answer (a page of 1,000 reports: about 15 ms more the first time it is asked).
 */
export function jsonText(body: unknown): string {
  const text = JSON.stringify(body);
  if (text === undefined) return markedText(body);
  let exact = true;
  const out = text.replace(AMOUNT_NUMBER, (_match, before: string, name: string, number: string) => {
    // The number's text reads back as the very number the replacer would have been given.
    const fixed = Number(number).toFixed(2);
    if (!TWO_DECIMALS.test(fixed)) exact = false;
    return `${before}"${name}":${fixed}`;
  });
  // Beyond 1e21 toFixed writes an exponent, which the marked text keeps as a string.
  return exact ? out : markedText(body);
}

function markedText(body: unknown): string {
  const text = JSON.stringify(body, (key, value) =>
    AMOUNT_MEMBERS.has(key) && typeof value === "number" && Number.isFinite(value)
      ? `${AMOUNT_MARK}${value.toFixed(2)}`
      : value,
  );
  return text.replace(AMOUNT_MARKED, "$1");
}
