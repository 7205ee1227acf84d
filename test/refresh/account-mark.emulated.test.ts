/**
 * A refresh checked against each company's account mark, through the BUILT add-on against the
 * two-company sandbox (both companies' funds start at 5001, told apart by the token; each account's oldest fund is not the same), two
 * editors: Ana, who saved both companies' own tokens and whose connection tests marked both
 * accounts, and Ben, a co-editor who saved Alpha's token under Beta before the check existed
 * (written to his user properties directly, as the add-on saved tokens then). Ben's refresh
 * writes nothing of Beta's rows and says why, naming Beta and what to do, in the summary (of
 * Refresh all and of Refresh selected rows), the schedule's history and the notice; Alpha's
 * rows are refreshed as usual.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../dev/emulator/index";
import type { RunningCompany, RunningSandbox } from "../../dev/sandbox/index";
import { readHistory } from "../../src/schedule/history";
import type { ScheduleSidebarView } from "../../src/schedule/view";
import { ACCOUNT_MARKS_KEY, accountMarksFrom } from "../../src/settings/account-mark";
import type { ConnectionCheck } from "../../src/settings/view";
import { settingsIssueText } from "../../src/settings/words";
import { closeAll, emulatorOf } from "../support/emulation";
import { startAlphaAndBeta, storeAlphaAndBeta, userStore } from "../support/two-companies";
import { sheetOf } from "./emulation";

const ANA = "ana@example.com";
const BEN = "ben@example.com";
const HOUR = 3_600_000;
const FORM = { windowMode: "range", windowFrom: "2024-01-01", windowTo: "2024-06-30" };
/** What Ben is told of Beta, after "Beta was not refreshed; its rows were left as they were: ". */
const OTHER_ACCOUNT =
  /Beta was not refreshed; its rows were left as they were: The token saved for Beta opens another account than Beta's: Beta's oldest fund \d+ \(.*, IdCreator \d+\) is not in it as marked, so nothing of Beta was written\. Save Beta's own token in Settings → Connection; if Beta's account really was reset, take its account mark again there/;

let sandbox: RunningSandbox;
let alpha: RunningCompany;
let beta: RunningCompany;
let em: Emulator;
let dist: string;
let betaKey = "";

beforeAll(async () => {
  ({ dist, sandbox, alpha, beta } = await startAlphaAndBeta());
  em = emulatorOf(dist, [ANA, BEN], { triggerSeesSpreadsheet: true, serviceUrl: sandbox.url });
}, 120_000);

afterAll(() => closeAll(em, sandbox));

const storeOf = (user: string) => userStore(em, user);

function saveToken(user: string, key: string, company: RunningCompany, name: string): void {
  const saved = storeOf(user).saveCompanyToken(key, company.token, company.adminId, {
    name,
    apiUrl: sandbox.url,
  });
  if (!saved.ok) throw new Error(saved.issues.map((i) => settingsIssueText(i, "en")).join("; "));
}

/** Alpha (c0) and Beta on the sandbox, Ana's own token for each. */
function twoCompanies(): void {
  betaKey = storeAlphaAndBeta(em, sandbox, ANA, FORM);
}

function run<T>(name: string, args: unknown[] = [], user = ANA): T {
  const out = em.tryRun(name, args, { as: "script.run", user });
  if (!out.ok) throw new Error(`${name} as ${user} failed: ${out.error}`);
  return out.result as T;
}

const refreshAll = (user: string) =>
  run<{ ok: boolean; finished: boolean; message: string }>("refreshFromSidebar", ["all"], user);

const history = () => readHistory(Object.fromEntries(em.documentPropertiesData.values)).runs;

const SHEETS = ["Funds", "Fund transactions", "Expense reports", "Expense reports (files)"];

/** Every row of the data sheets of company `key`, each sheet's rows by their cells. */
function rowsOfCompany(key: string): Record<string, unknown[][]> {
  const out: Record<string, unknown[][]> = {};
  for (const name of SHEETS) {
    const sheet = sheetOf(em, name);
    if (!sheet) continue;
    const at = sheet.header.indexOf("Company key");
    out[name] = sheet.values.slice(1).filter((row) => row[at] === key);
  }
  return out;
}

function balanceOf5001(key: string): unknown {
  const sheet = sheetOf(em, "Funds");
  const header = sheet?.header ?? [];
  const row = sheet?.values.find(
    (r) => r[header.indexOf("Id")] === 5001 && r[header.indexOf("Company key")] === key,
  );
  return row?.[header.indexOf("Balance")];
}

async function deposit(company: RunningCompany, amount: number): Promise<number> {
  const response = await fetch(`${sandbox.url}/depositMoneyToFund`, {
    method: "POST",
    headers: { Authorization: `Bearer ${company.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ Id: 5001, IdAdmin: Number(company.adminId), DepositAmount: amount }),
  });
  if (!response.ok) throw new Error(`deposit: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { Balance: number }).Balance;
}

describe("a refresh checked against the account marks", () => {
  it("writes nothing of Beta's rows with Alpha's token saved under Beta, says why, and refreshes Alpha", async () => {
    twoCompanies();
    // Ana's connection tests mark both accounts.
    for (const key of ["c0", betaKey]) {
      const tested = run<ConnectionCheck>("testSettingsConnection", [{ key }], ANA);
      expect(tested.ok, tested.message).toBe(true);
    }
    const marks = accountMarksFrom(em.documentPropertiesData.values.get(ACCOUNT_MARKS_KEY) ?? null);
    expect(Object.keys(marks).sort()).toEqual(["c0", betaKey].sort());
    // Ben's tokens, saved before the check existed: Alpha's own, and Alpha's again under Beta.
    saveToken(BEN, "c0", alpha, "Alpha");
    saveToken(BEN, betaKey, { ...alpha, adminId: beta.adminId }, "Beta");

    expect(refreshAll(ANA)).toMatchObject({ ok: true, finished: true });
    const betaRows = rowsOfCompany(betaKey);
    expect(betaRows.Funds?.length).toBeGreaterThan(0);
    expect(betaRows["Fund transactions"]?.length).toBeGreaterThan(0);
    expect(betaRows["Expense reports"]?.length).toBeGreaterThan(0);

    // Both accounts change; Ben presses Refresh all.
    const alphaBalance = await deposit(alpha, 1234);
    await deposit(beta, 4321);
    const summary = refreshAll(BEN);
    expect(summary).toMatchObject({ ok: false, finished: true });
    expect(summary.message).toMatch(OTHER_ACCOUNT);
    expect(summary.message).not.toMatch(/Alpha was not refreshed/);
    // Beta's rows are as Ana's refresh left them, every sheet; Alpha's show the deposit.
    expect(rowsOfCompany(betaKey)).toEqual(betaRows);
    expect(balanceOf5001("c0")).toBe(alphaBalance);

    // Ben's refresh of selected rows: Alpha's 5001 refreshed, Beta's not, and told why.
    const alphaAgain = await deposit(alpha, 100);
    const funds = sheetOf(em, "Funds");
    const header = funds?.header ?? [];
    const rowOf = (key: string) =>
      (funds?.values.findIndex(
        (r, i) => i > 0 && r[header.indexOf("Id")] === 5001 && r[header.indexOf("Company key")] === key,
      ) ?? 0) + 1;
    em.select("Funds", `A${rowOf("c0")},A${rowOf(betaKey)}`);
    const selected = run<{ ok: boolean; message: string }>("refreshFromSidebar", ["selected"], BEN);
    expect(selected.ok).toBe(false);
    expect(selected.message).toMatch(OTHER_ACCOUNT);
    expect(balanceOf5001("c0")).toBe(alphaAgain);
    expect(rowsOfCompany(betaKey)).toEqual(betaRows);

    // Ben's schedule: the run fails naming Beta and why, in the history and every editor's notice.
    run("saveSchedule", [{ kind: "hours", every: 1 }], BEN);
    em.advanceTime(HOUR + 60_000);
    expect(em.fireTimeTriggers().map((f) => f.ok)).toEqual([true]);
    const [last] = history();
    expect(last).toMatchObject({ source: "schedule", outcome: "failed" });
    expect(last?.message).toMatch(OTHER_ACCOUNT);
    for (const user of [ANA, BEN]) {
      const notice = run<ScheduleSidebarView>("getScheduleView", [], user).notice;
      expect(notice?.kind).toBe("failed");
      expect(notice?.text).toMatch(OTHER_ACCOUNT);
    }
    expect(rowsOfCompany(betaKey)).toEqual(betaRows);

    // Ben saves Beta's own token: his next refresh writes Beta's rows again.
    saveToken(BEN, betaKey, beta, "Beta");
    expect(refreshAll(BEN)).toMatchObject({ ok: true, finished: true });
    expect(rowsOfCompany(betaKey)).not.toEqual(betaRows);
  }, 180_000);
});
