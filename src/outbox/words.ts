/**
 * The Outbox's words: what a request does, a row's changed cells and the sidebar forms' outcomes
 * come from the core as data (`OutboxWords`: a catalogue key and its values, amounts as cents and
 * their currency), and this module says them in the user's language. The forms put their words
 * into records and audit notes as they go, through the port `formWords` makes here from the
 * user's language; the Fund sidebar's view of a fund is said here too.
 */

import type { Issue } from "../api/issues";
import { type FundTotals, formatCents, type Movement, moneyText } from "../api/money";
import { plainRefusal, plainText, type Refusal } from "../api/plain";
import { issueText, totalsAfterText } from "../api/words";
import { formatCount, LANGUAGES, type Language, type StringKey, translate } from "../i18n";
import { sayValue, type WordValue } from "../i18n/words";

/** An amount in a message: cents, and the currency's code when known (then written first). */
export interface Amount {
  cents: number;
  currency?: string | null;
}

/** A whole number written with the language's thousands separator ("10,000", "10.000"). */
export interface Count {
  count: number;
}

export type OutboxValue = WordValue | Amount | Count | OutboxWords;

/** A message as data: its key and values, which may be amounts, counts or words of their own. */
export interface OutboxWords {
  key: StringKey;
  params?: Record<string, OutboxValue>;
}

/** One field a request sends, as a confirmation lists it: its column's label and its value. */
export type RequestDetail = { label: StringKey; text: string } | { label: StringKey; flag: boolean };

function sayOne(language: Language, value: OutboxValue): string | number {
  if (typeof value !== "object") return value;
  if ("key" in value) return sayOutbox(language, value);
  if ("cents" in value) return moneyText(value.cents, value.currency, language);
  if ("count" in value) return formatCount(value.count, language);
  return sayValue(language, value);
}

/** The values of `params`, each said in `language`. */
export function sayParams(
  language: Language,
  params: Record<string, OutboxValue> = {},
): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) out[name] = sayOne(language, value);
  return out;
}

/** `words` in `language`. */
export function sayOutbox(language: Language, words: OutboxWords): string {
  return translate(language, words.key, sayParams(language, words.params));
}

/** A label (an operation's, a state's, a status's) in `language`. */
export function sayLabel(language: Language, label: OutboxValue): string {
  return String(sayOne(language, label));
}

/** A label in every language the add-on speaks: what a cell written in any of them may hold. */
export function inEveryLanguage(label: OutboxValue): string[] {
  return LANGUAGES.map((language) => sayLabel(language, label));
}

/** Several words in `language`, joined by `separator`. */
export function sayAll(language: Language, words: readonly OutboxWords[], separator: string): string {
  return words.map((w) => sayOutbox(language, w)).join(separator);
}

/** Changed cells' clauses in `language`, joined ("Amount was changed …; Fund Id was changed …"). */
export function sayChanges(language: Language, changes: readonly OutboxWords[]): string {
  return sayAll(language, changes, "; ");
}

/** A too long cell's column and length in `language`, as a row's message fills them in. */
export function sayTooLong(
  language: Language,
  values: { column: OutboxValue; length: OutboxValue },
): { column: string; length: string } {
  const said = sayParams(language, values);
  return { column: String(said.column), length: String(said.length) };
}

/** A request's fields in `language` ("Fund code “V-1”, Flexible Yes"). */
export function sayDetails(language: Language, details: readonly RequestDetail[]): string {
  return details
    .map((d) =>
      "text" in d
        ? `${translate(language, d.label)} “${d.text}”`
        : `${translate(language, d.label)} ${translate(language, d.flag ? "outbox.yes" : "outbox.no")}`,
    )
    .join(", ");
}

/** What a request does and every field it sends ("…: Fund code “V-1”"), for the confirmation's list. */
export function sayInFull(
  language: Language,
  full: { words: OutboxWords; details: readonly RequestDetail[] },
): string {
  const details = sayDetails(language, full.details);
  const does = sayOutbox(language, full.words);
  return details === "" ? does : `${does}: ${details}`;
}

/**
 * The form of `build` that takes the language first and says what it builds at once (with
 * `sayIt`): what the core's callers that still pass a language call.
 */
export function saidIn<A extends unknown[], W, R>(
  build: (...args: A) => W,
  sayIt: (language: Language, words: W) => R,
): (language: Language, ...args: A) => R {
  return (language, ...args) => sayIt(language, build(...args));
}

/** A fund as a sidebar shows it: plain data only (google.script.run passes no Date). */
export interface FundView {
  id: number;
  title: string;
  code: string;
  currency: string;
  status: number;
  statusLabel: string;
  balance: string;
  /** The balance in cents, for the form's confirmation (balance after) and warnings. */
  balanceCents: number;
  deposits: string;
  charges: string;
  employeeId: number;
  flexible: boolean;
  autoBlock: boolean;
  expirationDate: string;
  lastMovements: { type: number; amount: string; date: string }[];
}

/** A fund as words: its amounts in cents and its status as words, the rest as it is. */
export interface FundWords
  extends Omit<FundView, "statusLabel" | "balance" | "deposits" | "charges" | "lastMovements"> {
  statusLabel: OutboxValue;
  deposits: number;
  charges: number;
  lastMovements: { type: number; amount: number; date: string }[];
}

/** A fund as the Fund sidebar shows it, its amounts and status in `language`. */
export function sayFund(language: Language, fund: FundWords): FundView {
  const money = (cents: number) => formatCents(cents, { locale: language, currency: fund.currency });
  return {
    ...fund,
    statusLabel: String(sayOne(language, fund.statusLabel)),
    balance: money(fund.balanceCents),
    deposits: money(fund.deposits),
    charges: money(fund.charges),
    lastMovements: fund.lastMovements.map((t) => ({ ...t, amount: money(t.amount) })),
  };
}

/**
 * A write's problem (./requests.ts) in `language`: a broken rule's message, its field named by
 * `name` (as the service names it when absent), or the words it came with.
 */
export function writeProblemText(
  language: Language,
  problem: Issue | { message: string },
  name: (field: string) => string = (field) => field,
): string {
  return "message" in problem
    ? problem.message
    : issueText({ ...problem, name: name(problem.field) }, language);
}

/**
 * How the sidebar forms say what they answer, keep in a write's record and note in the audit:
 * the port the forms' core takes instead of a language, and their write path's (`WriteWords` of
 * ./write.ts: `say` and `totalsAfter`).
 */
export interface FormWords {
  say(words: OutboxWords): string;
  /** Why a fund's totals after a movement could not be read exactly (the contract's check), or null. */
  totalsAfter(field: string, totals: FundTotals, movement: Movement, amountCents: number): string | null;
  /** The plain sentence first, the service's own words after it ("Details: …"). */
  details(words: OutboxWords, detail: string): string;
  /** A refusal of the service in plain words, its amounts in `currency` when known. */
  refusal(failure: Refusal, currency?: string): string;
  /** A fund as the Fund sidebar shows it. */
  fund(fund: FundWords): FundView;
  /** What keeps a form's write from being made (./requests.ts, `WriteProblem`), its field named as the service names it. */
  problem(problem: Issue | { message: string }): string;
}

/** The forms' words in `language`, the user's. */
export function formWords(language: Language): FormWords {
  return {
    say: (words) => sayOutbox(language, words),
    totalsAfter: (field, totals, movement, amountCents) =>
      totalsAfterText(language, field, totals, movement, amountCents),
    details: (words, detail) =>
      plainText({ kind: null, message: sayOutbox(language, words), detail }, language),
    refusal: (failure, currency) => plainText(plainRefusal(failure, language, currency), language),
    fund: (fund) => sayFund(language, fund),
    problem: (problem) => writeProblemText(language, problem),
  };
}
