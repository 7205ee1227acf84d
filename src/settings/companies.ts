/**
 * The companies of a document: the list every editor shares (document property
 * `settings.companies`), and the rules a change to it must pass. Pure: the stored text, the
 * document's service URL, a key maker and the time are handed in.
 *
 * A company is known by its key, made here on the server and never taken from a client. Its
 * name and URL are what people read and edit; they never choose a token (bindings.ts), and a
 * name never moves from one key to another, so a cell naming a company cannot come to mean
 * another one.
 */

import { ownMember } from "../api/arguments";
import { hostOf } from "../api/urls";
import { type Company, type CompanyKey, FIRST_COMPANY_KEY, liveCompanies } from "../company/model";
import { hasDirectionControl, nameDigest, nameKey } from "../company/names";
import type { StringKey } from "../i18n";
import { type CompanyNamed, companyNamed, type WordValue } from "../i18n/words";
import { checkServiceUrl, type SettingsIssue } from "./model";

// How a message names a company in the user's words: ./words.ts, the settings' one words module.
export { companyLabel } from "./words";

/** Document property holding the list as JSON; absent until someone edits the list. */
export const COMPANIES_KEY = "settings.companies";
/** Most companies listed at once (removed ones aside). */
export const MAX_COMPANIES = 10;
/** Most removed companies kept to be restored; past it the one removed first is forgotten. */
export const MAX_REMOVED_COMPANIES = 20;
export const MAX_COMPANY_NAME = 60;
/** Former names kept per company, the latest last: rows naming them still resolve to it. */
export const MAX_FORMER_NAMES = 5;
/**
 * Names the list remembers having given (each company's, former and removed ones included),
 * so that none is given to another company later; past it no new name can be given.
 */
export const MAX_USED_NAMES = 200;

/** A listed company as the document stores it (src/company/model.ts: what a company is). */
export interface CompanyEntry extends Company {
  /** The service URL, by the rules of the `baseUrl` setting. */
  apiUrl: string;
  /** Its earlier names, the latest last (at most MAX_FORMER_NAMES); never another's name. */
  formerNames: string[];
  /** Set while removed: the same key comes back if restored. */
  removed?: { at: number; rows: "keep" | "remove" };
}

export interface Companies {
  v: 1;
  /** Raised by every saved change: a change made on an older list is refused. */
  rev: number;
  /** True once a second company was added; never reset. */
  several: boolean;
  /** In display order, removed ones included. */
  entries: CompanyEntry[];
  /**
   * Every name each company has had, as `nameDigest`s (8 hex digits each, concatenated) per
   * key: kept after its former names are dropped and after a removed company is forgotten, so
   * that a name, or one that looks like it, is never given to another company.
   */
  used?: Record<CompanyKey, string>;
}

export type CompanyChange =
  | { kind: "add"; rev: number; name: string; apiUrl: string; firstName?: string }
  | { kind: "rename"; rev: number; key: CompanyKey; name: string }
  | { kind: "repoint"; rev: number; key: CompanyKey; apiUrl: string }
  /** `position` counts listed companies from 1. */
  | { kind: "move"; rev: number; key: CompanyKey; position: number }
  | { kind: "remove"; rev: number; key: CompanyKey; rows: "keep" | "remove" }
  | { kind: "restore"; rev: number; key: CompanyKey };

/** What the server hands a change: its key maker (never the client's) and the time. */
export interface CompanyChangeContext {
  newKey(): CompanyKey;
  now: number;
}

export type CompanyChangeResult =
  | { ok: true; companies: Companies; key: CompanyKey }
  | { ok: false; issues: SettingsIssue[] };

const STORED_KEY = /^c[0-9a-z]{1,16}$/;
const MADE_KEY = /^c[0-9a-z]{8}$/;

/** Whether `value` has the shape of a company key (anything a client sends is checked). */
export function isCompanyKey(value: unknown): value is CompanyKey {
  return typeof value === "string" && STORED_KEY.test(value);
}

/** A key made from a uuid (Utilities.getUuid()): "c" and 8 base-36 characters. */
export function companyKeyFromUuid(uuid: string): CompanyKey {
  const hex = uuid
    .replace(/[^0-9a-f]/gi, "")
    .slice(0, 12)
    .padEnd(12, "0");
  const n = Number.parseInt(hex, 16) % 36 ** 8;
  return `c${n.toString(36).padStart(8, "0")}`;
}

/** Companies not removed, in display order. */
export function listedCompanies(companies: Companies): CompanyEntry[] {
  return liveCompanies(companies.entries);
}

export function companyByKey(companies: Companies, key: CompanyKey): CompanyEntry | undefined {
  return companies.entries.find((e) => e.key === key);
}

/** How a message names a company, as data: its name, or its host while it has none. */
function named(entry: Pick<CompanyEntry, "name" | "apiUrl">): CompanyNamed {
  return companyNamed(entry.name, hostOf(entry.apiUrl));
}

/** The list of a document that has never saved one: its first company, at its service URL. */
export function legacyCompanies(baseUrl: string): Companies {
  return {
    v: 1,
    rev: 0,
    several: false,
    entries: [{ key: FIRST_COMPANY_KEY, name: "", apiUrl: baseUrl, formerNames: [] }],
  };
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function entryFrom(value: unknown): CompanyEntry | null {
  const key = text(ownMember(value, "key"));
  const name = text(ownMember(value, "name"));
  const apiUrl = text(ownMember(value, "apiUrl"));
  if (!isCompanyKey(key) || name === null || apiUrl === null) return null;
  const former = ownMember(value, "formerNames");
  const formerNames = Array.isArray(former)
    ? former.filter((n): n is string => typeof n === "string" && n.trim() !== "").map((n) => n.trim())
    : [];
  const entry: CompanyEntry = { key, name: name.trim(), apiUrl: apiUrl.trim(), formerNames };
  const removed = ownMember(value, "removed");
  if (removed !== undefined && removed !== null) {
    const at = ownMember(removed, "at");
    const rows = ownMember(removed, "rows");
    entry.removed = {
      at: typeof at === "number" && Number.isFinite(at) ? at : 0,
      rows: rows === "remove" ? "remove" : "keep",
    };
  }
  return entry;
}

/**
 * The document's companies from the stored JSON. Absent (or not readable as a list): the one
 * company a spreadsheet has always had, key "c0", unnamed, at `baseUrl`. Nothing is written:
 * a one-company spreadsheet keeps working unchanged until someone edits the list.
 */
export function companiesFrom(stored: string | null, baseUrl: string): Companies {
  if (!stored) return legacyCompanies(baseUrl);
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch (_err) {
    return legacyCompanies(baseUrl);
  }
  const list = ownMember(parsed, "entries");
  if (ownMember(parsed, "v") !== 1 || !Array.isArray(list)) return legacyCompanies(baseUrl);
  const entries: CompanyEntry[] = [];
  for (const item of list) {
    const entry = entryFrom(item);
    // A key twice (written by hand): the first one holds it.
    if (entry && !entries.some((e) => e.key === entry.key)) entries.push(entry);
  }
  if (entries.length === 0) return legacyCompanies(baseUrl);
  const rev = ownMember(parsed, "rev");
  const used = usedFrom(ownMember(parsed, "used"));
  return {
    v: 1,
    rev: typeof rev === "number" && Number.isSafeInteger(rev) && rev >= 0 ? rev : 0,
    several: ownMember(parsed, "several") === true || entries.filter((e) => !e.removed).length > 1,
    entries,
    ...(used ? { used } : {}),
  };
}

function usedFrom(value: unknown): Record<CompanyKey, string> | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const used: Record<CompanyKey, string> = {};
  for (const key of Object.keys(value)) {
    const digests = ownMember(value, key);
    if (isCompanyKey(key) && typeof digests === "string" && /^(?:[0-9a-f]{8})+$/.test(digests))
      used[key] = digests;
  }
  return used;
}

function digestsOf(used: Record<CompanyKey, string> | undefined, key: CompanyKey): string[] {
  return used?.[key]?.match(/[0-9a-f]{8}/g) ?? [];
}

/**
 * The names the list has given, as digests per key: those it remembered, and every name and
 * former name of `entries`. Null when there are more than MAX_USED_NAMES.
 */
function usedNames(
  remembered: Record<CompanyKey, string> | undefined,
  entries: readonly CompanyEntry[],
): Record<CompanyKey, string> | null {
  const sets = new Map<CompanyKey, Set<string>>();
  const add = (key: CompanyKey, digest: string) => {
    const set = sets.get(key) ?? new Set<string>();
    set.add(digest);
    sets.set(key, set);
  };
  for (const key of Object.keys(remembered ?? {})) for (const d of digestsOf(remembered, key)) add(key, d);
  for (const entry of entries)
    for (const name of [entry.name, ...entry.formerNames]) if (name !== "") add(entry.key, nameDigest(name));
  let count = 0;
  const used: Record<CompanyKey, string> = {};
  for (const [key, set] of sets) {
    count += set.size;
    used[key] = Array.from(set).join("");
  }
  return count > MAX_USED_NAMES ? null : used;
}

/** The list as stored in COMPANIES_KEY. */
export function companiesText(companies: Companies): string {
  return JSON.stringify(companies);
}

// ---- Changes ----

type Problem = { field: string; rule: string; key: StringKey; params?: Record<string, WordValue> };

const LABELS: Record<string, StringKey> = {
  change: "company.field.change",
  name: "company.field.name",
  firstName: "company.field.firstName",
  apiUrl: "settings.baseUrl",
  position: "company.field.position",
  rows: "company.field.rows",
};

function issueOf(problem: Problem): SettingsIssue {
  const labelKey = LABELS[problem.field];
  const field = labelKey ? { say: labelKey } : problem.field;
  return {
    field: problem.field,
    rule: problem.rule,
    words: { key: problem.key, params: { ...problem.params, field } },
  };
}

/** Names are compared by their key: names that look alike are one name (names.ts). */
function fold(name: string): string {
  return nameKey(name);
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return true;
  }
  return false;
}

/**
 * Why `raw` cannot be the name of `self` (null for a new company), or the trimmed name. Unique,
 * case-insensitively, against every other company's name and former names, removed ones too.
 */
function checkName(
  companies: Pick<Companies, "entries" | "used">,
  raw: unknown,
  self: CompanyKey | null,
  field: "name" | "firstName",
): { ok: true; name: string } | { ok: false; problem: Problem } {
  const fail = (rule: string, key: StringKey, params: Record<string, WordValue> = {}) => ({
    ok: false as const,
    problem: { field, rule, key, params },
  });
  const name = typeof raw === "string" ? raw.trim() : "";
  if (name === "") return fail("required", "company.issue.nameRequired", { max: MAX_COMPANY_NAME });
  const length = Array.from(name).length;
  if (length > MAX_COMPANY_NAME)
    return fail("maxLength", "company.issue.nameLength", { max: MAX_COMPANY_NAME, length });
  const first = name.charAt(0);
  if ("=+-@".includes(first)) return fail("formula", "company.issue.nameLeading", { char: first, got: name });
  if (hasControlCharacter(name)) return fail("control", "company.issue.nameControl");
  if (hasDirectionControl(name)) return fail("direction", "company.issue.nameDirection");
  const wanted = fold(name);
  if (wanted === "") return fail("invisible", "company.issue.nameInvisible");
  const { entries, used } = companies;
  for (const other of entries) {
    if (other.key === self) continue;
    const label = named(other);
    const current = other.name !== "" && fold(other.name) === wanted;
    const former = other.formerNames.some((n) => fold(n) === wanted);
    if (!current && !former) continue;
    if (other.removed) return fail("removedName", "company.issue.nameRemoved", { got: name, other: label });
    if (current) return fail("unique", "company.issue.nameTaken", { got: name, other: label });
    return fail("formerName", "company.issue.nameFormer", { got: name, other: label });
  }
  // A name the list gave to another company once, however long ago (its former names dropped,
  // the company removed and forgotten since).
  const digest = nameDigest(name);
  for (const key of Object.keys(used ?? {})) {
    if (key === self || !digestsOf(used, key).includes(digest)) continue;
    const owner = entries.find((e) => e.key === key);
    const other = owner ? named(owner) : { say: "company.forgotten" as const };
    return fail("usedName", "company.issue.nameUsed", { got: name, other });
  }
  return { ok: true, name };
}

function renamed(entry: CompanyEntry, name: string): CompanyEntry {
  if (entry.name === name) return entry;
  const formerNames = entry.formerNames.filter((n) => fold(n) !== fold(name));
  if (entry.name !== "" && fold(entry.name) !== fold(name)) formerNames.push(entry.name);
  return { ...entry, name, formerNames: formerNames.slice(-MAX_FORMER_NAMES) };
}

/** Reads a change sent by a client: only known members, and never a key to create. */
function changeFrom(input: unknown): CompanyChange | null {
  const kind = ownMember(input, "kind");
  const rev = ownMember(input, "rev");
  if (typeof rev !== "number" || !Number.isSafeInteger(rev)) return null;
  const key = text(ownMember(input, "key"));
  switch (kind) {
    case "add": {
      const firstName = ownMember(input, "firstName");
      return {
        kind,
        rev,
        name: text(ownMember(input, "name")) ?? "",
        apiUrl: text(ownMember(input, "apiUrl")) ?? "",
        ...(firstName === undefined ? {} : { firstName: text(firstName) ?? "" }),
      };
    }
    case "rename":
      return key === null ? null : { kind, rev, key, name: text(ownMember(input, "name")) ?? "" };
    case "repoint":
      return key === null ? null : { kind, rev, key, apiUrl: text(ownMember(input, "apiUrl")) ?? "" };
    case "move": {
      const position = ownMember(input, "position");
      return key === null
        ? null
        : { kind, rev, key, position: typeof position === "number" ? position : Number.NaN };
    }
    case "remove": {
      const rows = ownMember(input, "rows");
      return key === null ? null : { kind, rev, key, rows: rows as "keep" | "remove" };
    }
    case "restore":
      return key === null ? null : { kind, rev, key };
    default:
      return null;
  }
}

function describeInput(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "a list";
  if (typeof input === "object")
    return `kind ${JSON.stringify(String(ownMember(input, "kind") ?? "").slice(0, 40))}`;
  return typeof input;
}

function madeKey(entries: readonly CompanyEntry[], context: CompanyChangeContext): CompanyKey {
  for (let attempt = 0; attempt < 5; attempt++) {
    const key = context.newKey();
    if (MADE_KEY.test(key) && !entries.some((e) => e.key === key)) return key;
  }
  throw new Error("Could not make a new company key: the key maker gave taken or malformed keys.");
}

/** Removed companies past the cap are forgotten, the one removed first going first. */
function capRemoved(entries: CompanyEntry[]): CompanyEntry[] {
  const removed = entries.filter((e) => e.removed);
  if (removed.length <= MAX_REMOVED_COMPANIES) return entries;
  const forget = new Set(
    removed
      .map((e, i) => ({ e, i }))
      .sort((a, b) => (a.e.removed?.at ?? 0) - (b.e.removed?.at ?? 0) || a.i - b.i)
      .slice(0, removed.length - MAX_REMOVED_COMPANIES)
      .map(({ e }) => e.key),
  );
  return entries.filter((e) => !forget.has(e.key));
}

/**
 * Applies one editor's change to the list: the new list (rev raised) and the key it concerns
 * (the new one for `add`), or every problem, each naming its field and rule. A change made on
 * a list other than the current one (its `rev`) is refused whole. `change` may be anything a
 * client sent; a key to create is never taken from it.
 */
export function applyCompanyChange(
  companies: Companies,
  change: unknown,
  context: CompanyChangeContext,
): CompanyChangeResult {
  const parsed = changeFrom(change);
  if (!parsed)
    return refused({
      field: "change",
      rule: "request",
      key: "company.issue.request",
      params: { got: describeInput(change) },
    });
  if (parsed.rev !== companies.rev)
    return refused({ field: "rev", rule: "stale", key: "company.issue.stale" });
  if (parsed.kind === "add") return addCompany(companies, parsed, context);

  const entry = companies.entries.find((e) => e.key === parsed.key);
  if (!entry)
    return refused({
      field: "key",
      rule: "unknown",
      key: "company.issue.unknown",
      params: { key: parsed.key.slice(0, 40) },
    });
  if (parsed.kind === "restore") return restoreCompany(companies, entry);
  if (entry.removed)
    return refused({
      field: "key",
      rule: "removed",
      key: "company.issue.removed",
      params: { company: named(entry) },
    });
  switch (parsed.kind) {
    case "rename":
      return renameCompany(companies, entry, parsed.name);
    case "repoint":
      return repointCompany(companies, entry, parsed.apiUrl);
    case "move":
      return moveCompany(companies, entry, parsed.position);
    case "remove":
      return removeCompany(companies, entry, parsed.rows, context.now);
  }
}

/** A change refused, with every problem found. */
function refused(...problems: Problem[]): CompanyChangeResult {
  return { ok: false, issues: problems.map(issueOf) };
}

const tooMany: Problem = {
  field: "change",
  rule: "max",
  key: "company.issue.tooMany",
  params: { max: MAX_COMPANIES },
};

/**
 * The list after a change: `next` as its entries, its rev raised, `several` set once two are
 * listed; refused when the names it would remember pass MAX_USED_NAMES.
 */
function changed(companies: Companies, next: CompanyEntry[], key: CompanyKey): CompanyChangeResult {
  const live = next.filter((e) => !e.removed);
  // Every name given so far stays remembered, the ones this change drops or forgets too.
  const used = usedNames(companies.used, [...companies.entries, ...next]);
  if (!used)
    return refused({
      field: "change",
      rule: "maxNames",
      key: "company.issue.tooManyNames",
      params: { max: MAX_USED_NAMES },
    });
  return {
    ok: true,
    key,
    companies: {
      v: 1,
      rev: companies.rev + 1,
      several: companies.several || live.length > 1,
      entries: next,
      used,
    },
  };
}

/** The list with `entry` replaced by `next`, in its place. */
function replaced(companies: Companies, entry: CompanyEntry, next: CompanyEntry): CompanyChangeResult {
  return changed(
    companies,
    companies.entries.map((e) => (e.key === entry.key ? next : e)),
    entry.key,
  );
}

/** A new company at the end of the list, under a key made here; naming the first if unnamed. */
function addCompany(
  companies: Companies,
  change: Extract<CompanyChange, { kind: "add" }>,
  context: CompanyChangeContext,
): CompanyChangeResult {
  const entries = companies.entries;
  const listed = entries.filter((e) => !e.removed);
  const problems: Problem[] = [];
  if (listed.length >= MAX_COMPANIES) return refused(tooMany);
  let base = entries;
  // The first company may stay unnamed while alone: adding a second names it, in the same form.
  const unnamed = listed.length === 1 && listed[0]?.name === "" ? listed[0] : undefined;
  if (unnamed) {
    if (!change.firstName?.trim())
      problems.push({
        field: "firstName",
        rule: "required",
        key: "company.issue.firstName",
        params: { host: hostOf(unnamed.apiUrl) },
      });
    else {
      const first = checkName(companies, change.firstName, unnamed.key, "firstName");
      if (first.ok) base = entries.map((e) => (e.key === unnamed.key ? renamed(e, first.name) : e));
      else problems.push(first.problem);
    }
  }
  const name = checkName({ ...companies, entries: base }, change.name, null, "name");
  if (!name.ok) problems.push(name.problem);
  const url = checkServiceUrl(change.apiUrl, "apiUrl", { say: "settings.baseUrl" });
  if (problems.length > 0 || !name.ok || !url.ok)
    return {
      ok: false,
      issues: [...problems.map(issueOf), ...(url.ok ? [] : [url.issue])],
    };
  const key = madeKey(entries, context);
  return changed(companies, [...base, { key, name: name.name, apiUrl: url.value, formerNames: [] }], key);
}

/** A removed company listed again, under its key and name, at its place in the list. */
function restoreCompany(companies: Companies, entry: CompanyEntry): CompanyChangeResult {
  const listed = companies.entries.filter((e) => !e.removed);
  if (!entry.removed)
    return refused({
      field: "key",
      rule: "notRemoved",
      key: "company.issue.notRemoved",
      params: { company: named(entry) },
    });
  if (listed.length >= MAX_COMPANIES) return refused(tooMany);
  // Its name is still its own unless the list was written by hand; checked all the same.
  const problems: Problem[] = [];
  if (entry.name !== "") {
    const name = checkName(companies, entry.name, entry.key, "name");
    if (!name.ok) problems.push(name.problem);
  } else {
    problems.push({
      field: "name",
      rule: "required",
      key: "company.issue.nameRequired",
      params: { max: MAX_COMPANY_NAME },
    });
  }
  const unnamed = listed.find((e) => e.name === "");
  if (unnamed)
    problems.push({
      field: "firstName",
      rule: "required",
      key: "company.issue.firstName",
      params: { host: hostOf(unnamed.apiUrl) },
    });
  if (problems.length > 0) return refused(...problems);
  const { removed: _removed, ...back } = entry;
  return replaced(companies, entry, back);
}

function renameCompany(companies: Companies, entry: CompanyEntry, wanted: string): CompanyChangeResult {
  const name = checkName(companies, wanted, entry.key, "name");
  if (!name.ok) return refused(name.problem);
  return replaced(companies, entry, renamed(entry, name.name));
}

function repointCompany(companies: Companies, entry: CompanyEntry, apiUrl: string): CompanyChangeResult {
  const url = checkServiceUrl(apiUrl, "apiUrl", { say: "settings.baseUrl" });
  if (!url.ok) return { ok: false, issues: [url.issue] };
  return replaced(companies, entry, { ...entry, apiUrl: url.value });
}

/** `entry` at `position` among the listed companies (from 1); the removed ones stay last. */
function moveCompany(companies: Companies, entry: CompanyEntry, position: number): CompanyChangeResult {
  const listed = companies.entries.filter((e) => !e.removed);
  if (!Number.isInteger(position) || position < 1 || position > listed.length)
    return refused({
      field: "position",
      rule: "position",
      key: "company.issue.position",
      params: { max: listed.length, got: Number.isFinite(position) ? position : "nothing" },
    });
  const order = listed.filter((e) => e.key !== entry.key);
  order.splice(position - 1, 0, entry);
  return changed(companies, [...order, ...companies.entries.filter((e) => e.removed)], entry.key);
}

/** `entry` removed (kept to restore, with what becomes of its rows); never the last listed. */
function removeCompany(
  companies: Companies,
  entry: CompanyEntry,
  rows: "keep" | "remove",
  now: number,
): CompanyChangeResult {
  if (rows !== "keep" && rows !== "remove")
    return refused({
      field: "rows",
      rule: "oneOf",
      key: "company.issue.rows",
      params: { got: JSON.stringify(rows ?? null) },
    });
  if (companies.entries.filter((e) => !e.removed).length <= 1)
    return refused({
      field: "key",
      rule: "last",
      key: "company.issue.last",
      params: { company: named(entry) },
    });
  const removed = { ...entry, removed: { at: now, rows } };
  return changed(
    companies,
    capRemoved(companies.entries.map((e) => (e.key === entry.key ? removed : e))),
    entry.key,
  );
}
