/**
 * Voucher codes from the controller's pattern. The default, `{yyyy}{mm}{nnn}`, makes codes of
 * digits only: the service's spec takes IntegrationCode as text of up to 255 characters, one of
 * its SDKs documents it as an integer, and digits satisfy both. Any text up to 255 stays allowed.
 */

export const DEFAULT_VOUCHER_PATTERN = "{yyyy}{mm}{nnn}";
export const MAX_CODE_LENGTH = 255;

/** The pattern's placeholders. */
export const VOUCHER_TOKENS = ["company", "yyyy", "mm", "currency", "nnn"] as const;
export type VoucherToken = (typeof VOUCHER_TOKENS)[number];

/** What one voucher's code is made of. */
export interface VoucherParts {
  /** The company's name as listed (several companies), "" with one. */
  company: string;
  month: string;
  currency: string;
  /** The voucher's number in its company's month, from 1. */
  sequence: number;
}

export type PatternProblem =
  | { code: "empty" }
  | { code: "unknownToken"; token: string }
  | { code: "tooLong"; length: number }
  | { code: "notUnique" };

/** The problems of a pattern by itself: none, or the first. */
export function patternProblem(pattern: string): PatternProblem | null {
  if (pattern.trim() === "") return { code: "empty" };
  for (const match of pattern.match(/\{[^}]*\}/g) ?? []) {
    const token = match.slice(1, -1);
    if (!(VOUCHER_TOKENS as readonly string[]).includes(token)) return { code: "unknownToken", token };
  }
  return null;
}

/** The code of a voucher: `pattern` with its placeholders filled. */
export function voucherCode(pattern: string, parts: VoucherParts): string {
  const [yyyy, mm] = parts.month.split("-") as [string, string];
  const values: Record<VoucherToken, string> = {
    company: parts.company,
    yyyy,
    mm,
    currency: parts.currency,
    nnn: String(parts.sequence).padStart(3, "0"),
  };
  return pattern.replace(/\{([^}]*)\}/g, (all, token: string) =>
    token in values ? values[token as VoucherToken] : all,
  );
}

/**
 * Codes for a company's vouchers of one month, in order: the sequence goes on past the codes
 * `used` already (a voucher of an earlier close of the month keeps its code). A code over 255
 * characters, or one two vouchers would share, is a problem of the pattern.
 */
export function voucherCodes(
  pattern: string,
  company: string,
  month: string,
  currencies: readonly string[],
  used: ReadonlySet<string>,
): { ok: true; codes: string[] } | { ok: false; problem: PatternProblem } {
  const problem = patternProblem(pattern);
  if (problem) return { ok: false, problem };
  const codes: string[] = [];
  let sequence = 0;
  for (const currency of currencies) {
    let code: string;
    let tries = 0;
    do {
      sequence++;
      code = voucherCode(pattern, { company, month, currency, sequence });
      tries++;
      // A pattern without {nnn} gives the same code whatever the sequence: stop at once.
    } while ((used.has(code) || codes.includes(code)) && pattern.includes("{nnn}") && tries < 10_000);
    if (code.length > MAX_CODE_LENGTH)
      return { ok: false, problem: { code: "tooLong", length: code.length } };
    if (code.trim() === "") return { ok: false, problem: { code: "empty" } };
    if (used.has(code) || codes.includes(code)) return { ok: false, problem: { code: "notUnique" } };
    codes.push(code);
  }
  return { ok: true, codes };
}
