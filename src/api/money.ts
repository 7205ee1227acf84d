/**
 * Money as integer cents. Amounts arrive as numbers (cells, JSON) or text (forms, query
 * strings, CSV); they are parsed digit by digit so that no float arithmetic ever touches a sum,
 * and become two-decimal numbers only at the edge (JSON bodies, cells).
 */

/** Why an amount was refused; each has a message in src/api/messages.ts. */
export type AmountRule =
  | "amountComma"
  | "amountAmbiguous"
  | "amountFormat"
  | "amountDecimals"
  | "amountPositive"
  | "amountTooLarge";

export type CentsResult = { ok: true; cents: number } | { ok: false; rule: AmountRule; got: string };

/** A value in cents, for callers that already hold integer cents. */
export interface Cents {
  cents: number;
}

/**
 * The largest amount, and the largest fund total, the add-on can read back exactly:
 * 9,999,999,999,999.99. The service answers amounts as JSON numbers, and a JSON number becomes
 * an IEEE 754 double. A decimal of at most 15 significant digits always survives text → double
 * → shortest text unchanged (a double carries 15.95 decimal digits; DBL_DIG is 15); one of 16
 * or more may not: 99999999999999.99 comes back as 99999999999999.98. With the two decimals of
 * cents, 15 significant digits leave 13 integer digits, hence 10^15 − 1 cents. Every amount and
 * total within ±MAX_EXACT_CENTS is also a safe integer in cents, and so is the sum of two.
 */
export const MAX_EXACT_CENTS = 999_999_999_999_999;

/** Largest amount accepted in a request: one the service's answers can carry back exactly. */
export const MAX_AMOUNT_CENTS = MAX_EXACT_CENTS;

/** True when `cents` is an amount or total the add-on can read back exactly. */
export function isReadableCents(cents: number): boolean {
  return Number.isSafeInteger(cents) && Math.abs(cents) <= MAX_EXACT_CENTS;
}

/** The totals of a fund, in cents, as the service reports them. */
export interface FundTotals {
  depositsCents: number;
  withdrawalsCents: number;
  balanceCents: number;
}

/** The service's name of each total, as messages show it. */
export type FundTotalName = "Deposits" | "Withdrawals" | "Balance";

export type Movement = "deposit" | "withdrawal";

/** `currentCents + amountCents`, or null when that total could not be read back exactly. */
export function totalAfter(currentCents: number, amountCents: number): number | null {
  const after = currentCents + amountCents;
  return isReadableCents(currentCents) && isReadableCents(amountCents) && isReadableCents(after)
    ? after
    : null;
}

/**
 * A fund's totals after a deposit or a withdrawal of `amountCents`, as the service keeps them
 * (a deposit adds to Deposits and Balance; a withdrawal adds to Withdrawals and takes from
 * Balance), or the first total that would no longer be readable, with the value it would reach.
 */
export function totalsAfter(
  totals: FundTotals,
  movement: Movement,
  amountCents: number,
): { ok: true; totals: FundTotals } | { ok: false; total: FundTotalName; cents: number } {
  const deposit = movement === "deposit";
  const after: FundTotals = {
    depositsCents: totals.depositsCents + (deposit ? amountCents : 0),
    withdrawalsCents: totals.withdrawalsCents + (deposit ? 0 : amountCents),
    balanceCents: totals.balanceCents + (deposit ? amountCents : -amountCents),
  };
  const checks: [FundTotalName, number][] = [
    ["Deposits", after.depositsCents],
    ["Withdrawals", after.withdrawalsCents],
    ["Balance", after.balanceCents],
  ];
  // An amount that cannot be read back makes the total it goes into unreadable too.
  if (!isReadableCents(amountCents)) {
    const [total, cents] = checks[deposit ? 0 : 1] as [FundTotalName, number];
    return { ok: false, total, cents };
  }
  for (const [total, cents] of checks) if (!isReadableCents(cents)) return { ok: false, total, cents };
  return { ok: true, totals: after };
}

/** Whether every total of a fund stays readable after a deposit or withdrawal of `amountCents`. */
export function staysReadable(totals: FundTotals, movement: Movement, amountCents: number): boolean {
  return totalsAfter(totals, movement, amountCents).ok;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

function describe(input: unknown): string {
  if (typeof input === "string") return input;
  if (typeof input === "number") return String(input);
  if (input === null) return "null";
  return typeof input;
}

/** Decimal text of a finite number, as JavaScript prints it (shortest round-trip form). */
function numberText(n: number): string {
  return String(n);
}

/**
 * Parses an amount to integer cents. Accepts a number (1234.5), text with a dot decimal
 * separator ("1234.5", "1234.50") or `{ cents }`. Refuses commas (decimal or thousands), more
 * than two decimals, and, unless `allowNegative`/`allowZero`, amounts that are not positive.
 */
export function parseAmountToCents(
  input: unknown,
  options: { allowNegative?: boolean; allowZero?: boolean } = {},
): CentsResult {
  let cents: number;
  if (typeof input === "object" && input !== null && "cents" in input) {
    const c = (input as Cents).cents;
    if (typeof c !== "number" || !Number.isSafeInteger(c))
      return { ok: false, rule: "amountFormat", got: describe(c) };
    cents = c;
  } else {
    let text: string;
    if (typeof input === "number") {
      if (!Number.isFinite(input)) return { ok: false, rule: "amountFormat", got: describe(input) };
      text = numberText(input);
      if (/e/i.test(text)) {
        // Exponent forms only appear for tiny (too many decimals) or huge numbers.
        return Math.abs(input) < 1
          ? { ok: false, rule: "amountDecimals", got: text }
          : { ok: false, rule: "amountTooLarge", got: text };
      }
    } else if (typeof input === "string") {
      text = input.trim();
    } else {
      return { ok: false, rule: "amountFormat", got: describe(input) };
    }
    if (text.includes(",")) return { ok: false, rule: "amountComma", got: text };
    const m = DECIMAL.exec(text);
    if (!m || ((m[2] ?? "") === "" && (m[3] ?? "") === ""))
      return { ok: false, rule: "amountFormat", got: text };
    const sign = m[1] === "-" ? -1 : 1;
    const whole = (m[2] ?? "").replace(/^0+(?=\d)/, "");
    const frac = m[3] ?? "";
    if (text.endsWith(".")) return { ok: false, rule: "amountFormat", got: text };
    if (frac.length > 2) return { ok: false, rule: "amountDecimals", got: text };
    if (whole.length > 13) return { ok: false, rule: "amountTooLarge", got: text };
    const wholeCents = whole === "" ? 0 : Number.parseInt(whole, 10) * 100;
    const fracCents = Number.parseInt((frac + "00").slice(0, 2), 10);
    cents = sign * (wholeCents + fracCents);
    if (Object.is(cents, -0)) cents = 0;
  }
  if (Math.abs(cents) > MAX_EXACT_CENTS) return { ok: false, rule: "amountTooLarge", got: describe(input) };
  if (cents < 0 && !options.allowNegative) return { ok: false, rule: "amountPositive", got: describe(input) };
  if (cents === 0 && !options.allowZero) return { ok: false, rule: "amountPositive", got: describe(input) };
  return { ok: true, cents };
}

/**
 * The locale whose way of writing numbers applies, as the user's words pick it: a decimal
 * comma and thousands grouped by dots in Spanish ("1.234,50"), the reverse in English
 * ("1,234.50").
 */
export type NumberLocale = "en" | "es";

/** The separators of a number in `locale`. */
function separators(locale: NumberLocale | undefined): { thousands: string; decimal: string } {
  return locale === "es" ? { thousands: ".", decimal: "," } : { thousands: ",", decimal: "." };
}

/**
 * An amount as typed in a sidebar in `locale`, as the contract reads it: "1234,50" with a
 * decimal comma (Spanish) becomes "1234.50"; anything else passes as it is. Refused where a
 * separator may group thousands: "1.234" in Spanish, "1,234" in English.
 */
export function typedAmount(
  input: unknown,
  locale: NumberLocale,
): { ok: true; value: unknown } | { ok: false; rule: "amountAmbiguous"; got: string } {
  if (typeof input !== "string") return { ok: true, value: input };
  const text = input.trim();
  const { thousands, decimal } = separators(locale);
  if (new RegExp(`^[-+]?\\d{1,3}(\\${thousands}\\d{3})+$`).test(text))
    return { ok: false, rule: "amountAmbiguous", got: text };
  return {
    ok: true,
    value: decimal === "," && /^[-+]?\d*,\d*$/.test(text) ? text.replace(",", ".") : input,
  };
}

/** An amount read from an answer: its cents, or why not (`got` is the value as text). */
export type ResponseAmount =
  | { ok: true; cents: number }
  | { ok: false; reason: "notAmount" | "tooLarge"; got: string };

/**
 * Reads an amount the service sent (number or numeric string, possibly negative, possibly with
 * float noise such as 0.30000000000000004) as cents, rounding half away from zero on the
 * decimal digits. An amount beyond ±MAX_EXACT_CENTS is refused as "tooLarge" whether it came
 * as a number or as text: as a number it may already have lost its last cents, and the same
 * member may come either way.
 */
export function readResponseAmount(input: unknown): ResponseAmount {
  let text: string;
  if (typeof input === "number") {
    if (!Number.isFinite(input)) return { ok: false, reason: "notAmount", got: String(input) };
    if (Math.abs(input) >= 1e13) return { ok: false, reason: "tooLarge", got: String(input) };
    // An amount of at most two decimals (nearly all): the nearest whole cents, divided back,
    // give the very number, whose text reads as those cents.
    const near = Math.round(input * 100);
    if (near / 100 === input) return { ok: true, cents: near === 0 ? 0 : near };
    // toFixed(6) turns exponent forms of tiny numbers into plain decimals.
    text = /e/i.test(String(input)) ? input.toFixed(6) : String(input);
  } else if (typeof input === "string") {
    text = input.trim();
  } else {
    return { ok: false, reason: "notAmount", got: describe(input) };
  }
  const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text) ?? /^([+-]?)()\.(\d+)$/.exec(text);
  if (!m) return { ok: false, reason: "notAmount", got: text };
  const whole = (m[2] ?? "").replace(/^0+(?=\d)/, "");
  if (whole.length > 13) return { ok: false, reason: "tooLarge", got: text };
  const frac = m[3] ?? "";
  let cents =
    (whole === "" ? 0 : Number.parseInt(whole, 10) * 100) + Number.parseInt((frac + "00").slice(0, 2), 10);
  if ((frac[2] ?? "0") >= "5") cents += 1;
  if (cents > MAX_EXACT_CENTS) return { ok: false, reason: "tooLarge", got: text };
  const signed = m[1] === "-" ? -cents : cents;
  return { ok: true, cents: Object.is(signed, -0) ? 0 : signed };
}

/** The cents of readResponseAmount, or null when the value is not an amount it can read. */
export function responseAmountToCents(input: unknown): number | null {
  const r = readResponseAmount(input);
  return r.ok ? r.cents : null;
}

function splitCents(cents: number): { sign: string; whole: string; frac: string } {
  const abs = Math.abs(Math.trunc(cents));
  const digits = String(abs).padStart(3, "0");
  return {
    sign: cents < 0 ? "-" : "",
    whole: digits.slice(0, -2),
    frac: digits.slice(-2),
  };
}

/** Cents as the two-decimal number a JSON body carries (123450 → 1234.5, printed "1234.5"). */
export function centsToAmount(cents: number): number {
  const { sign, whole, frac } = splitCents(cents);
  return Number(`${sign}${whole}.${frac}`);
}

/** Cents as plain two-decimal text with a dot: 123450 → "1234.50". */
export function centsToDecimalText(cents: number): string {
  const { sign, whole, frac } = splitCents(cents);
  return `${sign}${whole}.${frac}`;
}

/**
 * Whether `cents` is shown without decimals in `currency`: a currency of no minor unit
 * (ISO 4217: CLP, JPY…) and an amount without cents.
 */
export function wholeUnits(currency: string | null | undefined, cents: number | null | undefined): boolean {
  return (
    /^(BIF|CLP|DJF|GNF|ISK|JPY|KMF|KRW|PYG|RWF|UGX|UYI|VND|VUV|XAF|XOF|XPF)$/i.test(
      (currency ?? "").trim(),
    ) && (cents ?? 0) % 100 === 0
  );
}

/**
 * Cents as display text: "1,234.50" in English, "1.234,50" in Spanish, with the currency code
 * in front when given ("CLP 1.234"); the decimals are the currency's (`currency`, or `decimalsOf`
 * when the code is shown elsewhere): none for CLP unless the amount has cents; `locale` is the
 * number format's (English when absent).
 */
export function formatCents(
  cents: number,
  options: { locale?: NumberLocale; currency?: string; decimalsOf?: string } = {},
): string {
  const { sign, whole, frac } = splitCents(cents);
  const { thousands, decimal } = separators(options.locale);
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  const noDecimals = wholeUnits(options.decimalsOf ?? options.currency, cents);
  const text = `${sign}${grouped}${noDecimals ? "" : decimal + frac}`;
  return options.currency ? `${options.currency} ${text}` : text;
}

/**
 * Money as every message writes it: the currency's code first and its decimals ("PEN 10,522.05",
 * "CLP 500"), as the sidebars do; the amount alone when the currency is not known.
 */
export function moneyText(cents: number, currency: string | null | undefined, locale: NumberLocale): string {
  const code = (currency ?? "").trim();
  return formatCents(cents, { locale, currency: code === "" ? undefined : code });
}
