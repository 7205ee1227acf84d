/**
 * The companies one sandbox serves on one URL, told apart by the token as the real service tells
 * its customers apart. Their ids overlap on purpose (every company's funds start at 5001), so
 * that a request sent with the wrong company's token reaches a record of the same Id elsewhere.
 */
import { ADMIN_ID, DEFAULT_SIZES, type DemoPlace } from "./demo";

/** One company as the `companies` option gives it; what is absent follows its position. */
export interface CompanyOptions {
  name: string;
  token?: string;
  /** Its fund administrator's Id; the company's other users keep their places around it. */
  adminId?: number;
  /** Seed of its demo data. */
  seed?: number;
}

/** A company as the sandbox runs it. */
export interface CompanyPlan {
  name: string;
  token: string;
  seed: number;
  /** The seed a reset without one gives. */
  resetSeed: number;
  place: DemoPlace;
}

/** As many as a spreadsheet may connect to at once. */
export const MAX_COMPANIES = 10;

/** Names given to companies asked for by number, in order. */
export const COMPANY_NAMES = [
  "Alpha",
  "Beta",
  "Gamma",
  "Delta",
  "Epsilon",
  "Zeta",
  "Eta",
  "Theta",
  "Iota",
  "Kappa",
] as const;

/** Moves every user Id of a company after the first, so that one company's IdAdmin is no admin of another. */
export const ADMIN_ID_STEP = 1000;

/**
 * The companies of the start options. Company i (from 0) gets by default the i-th name, seed
 * `seed + i` (42 + i without a seed), admin Id 1001 + 1000·i, and the token `token` (the
 * first) or `<DEFAULT_TOKEN>-<i+1>` (the others). Throws naming the option when it is wrong.
 */
export function companiesFrom(
  companies: number | readonly CompanyOptions[] | undefined,
  defaults: { token: string; seed: number | undefined; demoToken: string },
): CompanyPlan[] {
  const list = listOf(companies);
  const plans = list.map((given, i): CompanyPlan => {
    const field = (name: string) => (Array.isArray(companies) ? `companies[${i}].${name}` : "companies");
    const name = typeof given.name === "string" ? given.name.trim() : "";
    if (name === "" || name.length > 60) throw new Error(`${field("name")}: must be 1 to 60 characters`);
    const token = given.token ?? (i === 0 ? defaults.token : `${defaults.demoToken}-${i + 1}`);
    // A token travels in an HTTP header: printable ASCII without spaces.
    if (!/^[\x21-\x7e]+$/.test(token)) {
      throw new Error(`${field("token")}: must be printable ASCII with no spaces`);
    }
    const adminId = given.adminId ?? ADMIN_ID + ADMIN_ID_STEP * i;
    if (!Number.isSafeInteger(adminId) || adminId < 1 || adminId > 1_000_000_000) {
      throw new Error(`${field("adminId")}: must be a whole number from 1 to 1000000000`);
    }
    const seed = given.seed ?? (defaults.seed ?? DEFAULT_SIZES.seed) + i;
    if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1) {
      throw new Error(`${field("seed")}: must be a whole number from 0 to ${2 ** 32 - 1}`);
    }
    return {
      name,
      token,
      seed,
      resetSeed: DEFAULT_SIZES.seed + i,
      place: {
        userIdOffset: adminId - ADMIN_ID,
        fileQuery: i === 0 ? "" : `?company=${encodeURIComponent(name)}`,
      },
    };
  });
  plans.forEach((plan, i) => {
    const before = plans.slice(0, i);
    if (before.some((p) => p.name.toLowerCase() === plan.name.toLowerCase())) {
      throw new Error(`companies[${i}].name: "${plan.name}" is the name of another company`);
    }
    if (before.some((p) => p.token === plan.token)) {
      throw new Error(`companies[${i}].token: is the token of another company; each has its own`);
    }
  });
  return plans;
}

function listOf(companies: number | readonly CompanyOptions[] | undefined): readonly CompanyOptions[] {
  if (companies === undefined) return [{ name: COMPANY_NAMES[0] }];
  if (typeof companies === "number") {
    if (!Number.isInteger(companies) || companies < 1 || companies > MAX_COMPANIES) {
      throw new Error(`companies: must be a whole number from 1 to ${MAX_COMPANIES} (got ${companies})`);
    }
    return COMPANY_NAMES.slice(0, companies).map((name) => ({ name }));
  }
  if (companies.length < 1 || companies.length > MAX_COMPANIES) {
    throw new Error(`companies: must list 1 to ${MAX_COMPANIES} companies (got ${companies.length})`);
  }
  return companies;
}

/** The company a control route names with `?company=` (case aside); the first when absent. */
export function companyNamed<T extends { name: string }>(
  companies: readonly T[],
  name: string | null,
): T | undefined {
  if (name === null) return companies[0];
  return companies.find((c) => c.name.toLowerCase() === name.trim().toLowerCase());
}
