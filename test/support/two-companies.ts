/**
 * What the emulated test files of two companies share: the built add-on in an emulator, against
 * the sandbox serving Alpha and Beta (the same fund ids, other data), and the sandbox's control
 * API for one of them; over a write-back harness (`test/writeback/harness.ts`), Beta added to
 * the document and a user's tokens saved, a fund id open in both, a company's deposits counted.
 */

import { beforeEach } from "vitest";
import { privateBuild } from "../../dev/bench/build";
import type { Emulator } from "../../dev/emulator/index";
import { FakeProperties } from "../../dev/emulator/properties";
import { storeConnection, storeOf } from "../../dev/emulator/settings";
import { type RunningCompany, type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { createSettingsStore, type SettingsStore } from "../../src/settings/store";
import { settingsIssueText } from "../../src/settings/words";
import { buildWriteBack, type SandboxFund, type WriteBack, writeBackPerFile } from "../writeback/harness";
import { emulatorOf, sandboxControl } from "./emulation";

/** The key Beta is added under (the add-on's own keys come from a uuid). */
export const BETA_KEY = "cbeta0001";

/** The sandbox's sizes: its seed, and how many funds and reports each company holds. */
export interface Sizes {
  seed: number;
  funds: number;
  reports: number;
}

/**
 * The sandbox of two companies (`sizes`, today 2024-06-30) and an emulator of the write-back's
 * build used by `users`, whose UrlFetch may reach that sandbox and nothing else.
 */
export async function startTwoCompanies(
  users: string[],
  sizes: Sizes,
): Promise<{ sandbox: RunningSandbox; em: Emulator }> {
  const distDir = buildWriteBack();
  const sandbox = await startSandboxThread({ ...sizes, today: "2024-06-30", companies: 2 });
  return { sandbox, em: emulatorOf(distDir, users, { serviceUrl: sandbox.url }) };
}

/**
 * The add-on built for the file (privateBuild) and the sandbox of Alpha and Beta (seed 7, 4 funds
 * and 6 reports each, today 2024-06-30), for a file that makes its emulators itself.
 */
export async function startAlphaAndBeta(): Promise<{
  dist: string;
  sandbox: RunningSandbox;
  alpha: RunningCompany;
  beta: RunningCompany;
}> {
  const dist = privateBuild();
  const sandbox = await startSandboxThread({
    seed: 7,
    funds: 4,
    reports: 6,
    companies: 2,
    today: "2024-06-30",
  });
  const [alpha, beta] = sandbox.companies as [RunningCompany, RunningCompany];
  return { dist, sandbox, alpha, beta };
}

/** The sandbox's control API for `company` (GET, or POST with `body`): its answer, read as JSON. */
export async function companyControl<T>(
  sandbox: RunningSandbox,
  path: string,
  company: "Alpha" | "Beta",
  body?: unknown,
): Promise<T> {
  return sandboxControl<T>(sandbox, `${path}?company=${company}`, body);
}

/** Faults of Beta's calls only (the sandbox's `?company=`), no latency. */
export async function betaFaults(sandbox: RunningSandbox, rules: Record<string, unknown>[]): Promise<void> {
  await companyControl(sandbox, "faults", "Beta", { latencyMs: 0, rules });
}

/** The sandbox's `i`-th company (0: Alpha, 1: Beta): its token and IdAdmin. */
export function companyOf(wb: WriteBack, i: number): RunningSandbox["companies"][number] {
  const company = wb.sandbox.companies[i];
  if (!company) throw new Error("the sandbox serves one company");
  return company;
}

/** Beta added to the document by `user` (the first company named Alpha); throws its issues. */
export function addBeta(wb: WriteBack, user: string = wb.user): void {
  const store = storeOf(wb.emulator, user);
  const added = store.changeCompanies(
    { kind: "add", rev: store.companies().rev, name: "Beta", apiUrl: wb.sandbox.url, firstName: "Alpha" },
    { newKey: () => BETA_KEY, now: Date.now() },
  );
  if (!added.ok) throw new Error(added.issues.map((i) => settingsIssueText(i, "en")).join(" "));
}

/**
 * `user`'s token and IdAdmin for `key` (`name`): those of the sandbox's `i`-th company, saved
 * through the settings store as Settings does; throws its issues.
 */
export function saveTokenOf(wb: WriteBack, user: string, key: string, name: string, i: number): void {
  const company = companyOf(wb, i);
  const saved = storeOf(wb.emulator, user).saveCompanyToken(key, company.token, String(company.adminId), {
    name,
    apiUrl: wb.sandbox.url,
  });
  if (!saved.ok) throw new Error(saved.issues.map((issue) => settingsIssueText(issue, "en")).join(" "));
}

/** A fund id open in both companies (the same id, two funds). */
export async function sharedOpenFund(wb: WriteBack): Promise<number> {
  const alpha = (await wb.stateOf("Alpha")).funds;
  const beta = (await wb.stateOf("Beta")).funds;
  const open = (funds: SandboxFund[], id: number) => funds.some((f) => f.id === id && f.status === 1);
  const id = alpha.map((f) => f.id).find((id) => open(alpha, id) && open(beta, id));
  if (id === undefined) throw new Error("no fund id open in both companies");
  return id;
}

/** How many deposits of `cents` `company`'s fund `id` holds. */
export async function depositsOf(wb: WriteBack, company: string, id: number, cents: number): Promise<number> {
  return ((await wb.stateOf(company)).funds.find((f) => f.id === id)?.transactions ?? []).filter(
    (t) => t.type === 1 && t.amountCents === cents,
  ).length;
}

/** Both companies' ledgers as JSON text, to compare before and after. */
export async function ledgersOf(wb: WriteBack): Promise<{ alpha: string; beta: string }> {
  return { alpha: JSON.stringify(await wb.stateOf("Alpha")), beta: JSON.stringify(await wb.stateOf("Beta")) };
}

/**
 * The write-back of a test file of two companies, used by `otherUsers` too: reset before each
 * test with Beta's faults cleared; Beta's faults, a company's deposits and a fund id open in
 * both bound to it.
 */
export function twoCompanyWriteBack(otherUsers: string[]): {
  wb: WriteBack;
  betaFaults(rules: Record<string, unknown>[]): Promise<void>;
  deposits(company: string, id: number, cents: number): Promise<number>;
  sharedOpenFund(): Promise<number>;
  /** A fund id open in both companies, and how many deposits of `cents` each company's holds. */
  sharedFundDeposits(cents: number): Promise<{ id: number; before: { alpha: number; beta: number } }>;
} {
  const wb = writeBackPerFile({ companies: 2, otherUsers, reset: true });
  const faults = (rules: Record<string, unknown>[]) => betaFaults(wb.sandbox, rules);
  beforeEach(() => faults([]));
  return {
    wb,
    betaFaults: faults,
    deposits: (company, id, cents) => depositsOf(wb, company, id, cents),
    sharedOpenFund: () => sharedOpenFund(wb),
    sharedFundDeposits: async (cents) => {
      const id = await sharedOpenFund(wb);
      const alpha = await depositsOf(wb, "Alpha", id, cents);
      return { id, before: { alpha, beta: await depositsOf(wb, "Beta", id, cents) } };
    },
  };
}

/** `user`'s settings store in `em`, its bindings stamped on this process's clock. */
export function userStore(em: Emulator, user: string): SettingsStore {
  return createSettingsStore({
    document: new FakeProperties(em.documentPropertiesData),
    user: new FakeProperties(em.userPropertiesOf(user)),
  });
}

/**
 * Alpha (c0) and Beta, both on `sandbox`, stored for `user` in `em`: Alpha's connection with
 * `form` merged into the settings form, Beta added (key "cbeta0001", stamped at 1000) and
 * `user`'s token for Beta saved unless `betaToken` is false. Answers Beta's key.
 */
export function storeAlphaAndBeta(
  em: Emulator,
  sandbox: RunningSandbox,
  user: string,
  form: Record<string, string>,
  betaToken = true,
): string {
  const [alpha, beta] = sandbox.companies;
  if (!alpha || !beta) throw new Error("the sandbox serves one company");
  storeConnection(em, { apiUrl: sandbox.url, token: alpha.token, adminId: alpha.adminId }, user);
  const values = em.documentPropertiesData.values;
  values.set(
    "settings.form",
    JSON.stringify({ ...JSON.parse(values.get("settings.form") ?? "{}"), ...form }),
  );
  const store = userStore(em, user);
  const added = store.changeCompanies(
    { kind: "add", rev: store.companies().rev, name: "Beta", apiUrl: sandbox.url, firstName: "Alpha" },
    { newKey: () => BETA_KEY, now: 1000 },
  );
  if (!added.ok) throw new Error(added.issues.map((i) => settingsIssueText(i, "en")).join("; "));
  const betaKey = added.key as string;
  if (!betaToken) return betaKey;
  const saved = store.saveCompanyToken(betaKey, beta.token, beta.adminId, {
    name: "Beta",
    apiUrl: sandbox.url,
  });
  if (!saved.ok) throw new Error(saved.issues.map((i) => settingsIssueText(i, "en")).join("; "));
  return betaKey;
}
