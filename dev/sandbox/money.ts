/**
 * Money at the sandbox's edge: two-decimal numbers outside, integer cents inside. Parsing goes
 * through the decimal text so that 0.1 + 0.2 style float errors never reach the ledger.
 */

/** Cents of an amount given as a JSON number or numeric string, or null if it has more than two decimals. */
export function toCents(amount: number | string): number | null {
  const text = typeof amount === "number" ? numberText(amount) : amount.trim();
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ""] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) return null;
  return sign === "-" ? -cents : cents;
}

/** The two-decimal number the service shows for an amount in cents. */
export function fromCents(cents: number): number {
  return cents / 100;
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) return "NaN";
  // Shortest round-trip text: 12.3 → "12.3", 1e21 → "1e+21" (then refused by the pattern).
  return String(value);
}
