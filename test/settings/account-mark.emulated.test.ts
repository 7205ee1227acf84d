/**
 * The account mark of each company, through the BUILT add-on against a sandbox serving Alpha
 * and Beta on one URL (both companies' funds start at 5001, told apart by the token), two
 * editors: Ana, whose tokens are saved for both, and Luis, who saves his own. The first token
 * tested or saved for a company marks the account it opens (its oldest funds: Id, CreatedAt,
 * IdCreator); a token saved later for that company is checked against the mark, and one that
 * opens another account is refused, nothing saved. An account with no funds is not marked
 * (Settings says the check could not be made) until it has one. The mark is taken again only
 * on a confirmation naming what changes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../../dev/emulator/index";
import { servicePrefix, storeCompanies, storeOf, storeToken } from "../../dev/emulator/settings";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { ACCOUNT_MARKS_KEY, accountMarksFrom } from "../../src/settings/account-mark";
import type {
  CompaniesResult,
  ConnectionCheck,
  SaveSettingsResult,
  SettingsView,
} from "../../src/settings/view";
import { closeAll } from "../support/emulation";
import { companyControl } from "../support/two-companies";
import { buildWriteBack } from "../writeback/harness";

const ANA = "ana@example.com";
const LUIS = "luis@example.com";
const SIZES = { seed: 11, funds: 6, reports: 4 };
let sandbox: RunningSandbox;
let em: Emulator;
let keys: string[];

const sandboxCall = <T = unknown>(path: string, company: "Alpha" | "Beta", body?: unknown) =>
  companyControl<T>(sandbox, path, company, body);

function run<T>(user: string, name: string, ...args: unknown[]): T {
  const out = em.tryRun(name, args, { as: "script.run", user });
  if (!out.ok) throw new Error(`${name} as ${user} failed: ${out.error}`);
  return out.result as T;
}

/** The same sandbox under another origin (localhost for 127.0.0.1): a URL another editor re-points to. */
const otherOrigin = (url: string) => url.replace("//127.0.0.1:", "//localhost:");
const tokenOf = (i: number) => sandbox.companies[i]?.token as string;
const adminOf = (i: number) => String(sandbox.companies[i]?.adminId);
const marks = () => accountMarksFrom(em.documentPropertiesData.values.get(ACCOUNT_MARKS_KEY) ?? null);

function saveToken(user: string, key: string, token: string, adminId: string): CompaniesResult {
  const view = run<SettingsView>(user, "getSettingsView");
  const c = view.companies?.entries.find((e) => e.key === key);
  if (!c) throw new Error(`no company ${key}`);
  return run<CompaniesResult>(user, "saveMyCompanyToken", key, token, adminId, {
    name: c.name,
    apiUrl: c.apiUrl,
  });
}

type Retake = { ok: boolean; ask: boolean; message: string; shown?: { old: string; new: string } };

const statusOf = (user: string, key: string) =>
  run<SettingsView>(user, "getSettingsView").companies?.entries.find((e) => e.key === key)?.status;

beforeAll(async () => {
  const distDir = buildWriteBack();
  sandbox = await startSandboxThread({ ...SIZES, today: "2024-06-30", companies: 2 });
  em = createEmulator({
    distDir,
    timeZone: "America/Santiago",
    // The sandbox reached under a second origin too: a company re-pointed to it.
    urlFetchAllowlist: [servicePrefix(sandbox.url), servicePrefix(otherOrigin(sandbox.url))],
    users: [ANA, LUIS],
  });
}, 240_000);

afterAll(() => closeAll(em, sandbox));

beforeEach(async () => {
  await sandboxCall("reset", "Alpha", SIZES);
  await sandboxCall("reset", "Beta", { ...SIZES, seed: SIZES.seed + 1 });
  em.resetState();
  keys = storeCompanies(
    em,
    [
      { name: "Alpha", apiUrl: sandbox.url, token: tokenOf(0), adminId: adminOf(0) },
      { name: "Beta", apiUrl: sandbox.url, token: tokenOf(1), adminId: adminOf(1) },
    ],
    ANA,
  );
});

describe("the account mark", () => {
  it("Ana's test marks Beta; Luis's save of Alpha's token under Beta is refused, nothing saved", () => {
    const beta = keys[1] as string;
    expect(marks()).toEqual({});
    const tested = run<ConnectionCheck>(ANA, "testSettingsConnection", { key: beta });
    expect(tested.ok, tested.message).toBe(true);
    const mark = marks()[beta];
    // Beta's three oldest funds, created under Beta's administrators (Ids from 2001).
    expect(mark?.funds).toHaveLength(3);
    expect(mark?.funds[0]?.id).toBe(5001);
    expect(mark?.funds.every((f) => f.creator > 2000 && f.creator < 3000)).toBe(true);
    // The mark holds no token and no amount.
    const stored = em.documentPropertiesData.values.get(ACCOUNT_MARKS_KEY) ?? "";
    expect(stored).not.toContain(tokenOf(1));
    expect(stored).not.toMatch(/balance|deposit|amount/i);

    const wrong = saveToken(LUIS, beta, tokenOf(0), adminOf(1));
    expect(wrong.ok).toBe(false);
    if (wrong.ok) return;
    expect(wrong.problems.map((p) => p.message).join(" ")).toMatch(
      /^This token opens another account than Beta's: Beta's oldest fund 5001 \(.*, IdCreator 2001\) is not in it as marked\. Nothing was saved\./,
    );
    expect(statusOf(LUIS, beta)).toBe("noToken");
    const right = saveToken(LUIS, beta, tokenOf(1), adminOf(1));
    expect(right.ok, JSON.stringify(right)).toBe(true);
    expect(statusOf(LUIS, beta)).toBe("ready");
    // Settings says what is checked.
    const view = run<SettingsView>(LUIS, "getSettingsView");
    expect(view.companies?.accounts?.[beta]?.marked).toBe(true);
    expect(view.companies?.accounts?.[beta]?.message).toMatch(/^Account checked: every token saved for Beta/);
  });

  it("the first token saved marks the company; a test with another account's token says so", () => {
    const alpha = keys[0] as string;
    expect(saveToken(LUIS, alpha, tokenOf(0), adminOf(0)).ok).toBe(true);
    expect(marks()[alpha]?.funds[0]?.creator).toBe(1001);
    const other = run<ConnectionCheck>(ANA, "testSettingsConnection", { key: alpha, token: tokenOf(1) });
    expect(other.ok).toBe(false);
    expect(other.message).toMatch(/^Connected, but this token opens another account than Alpha's/);
  });

  it("a first token for Beta that opens Alpha's marked account is refused, Beta left unmarked", () => {
    const [alpha, beta] = keys as [string, string];
    expect(run<ConnectionCheck>(ANA, "testSettingsConnection", { key: alpha }).ok).toBe(true);
    const wrong = saveToken(LUIS, beta, tokenOf(0), adminOf(1));
    expect(wrong.ok).toBe(false);
    if (wrong.ok) return;
    expect(wrong.problems.map((p) => p.message)).toEqual([
      "This token opens another account than Beta's: it opens Alpha's. Nothing was saved. Save Beta's own token here.",
    ]);
    expect(marks()[beta]).toBeUndefined();
    expect(statusOf(LUIS, beta)).toBe("noToken");
    const tested = run<ConnectionCheck>(LUIS, "testSettingsConnection", { key: beta, token: tokenOf(0) });
    expect(tested).toEqual({
      ok: false,
      message: "Connected, but this token opens Alpha's account, not Beta's.",
    });
  });

  it("a test of a typed, unsaved token compares only: it never takes the mark; the saved token's test does", () => {
    const beta = keys[1] as string;
    // Alpha's token typed into Beta's card and tested before saving: Beta has no mark, none is taken.
    const typed = run<ConnectionCheck>(LUIS, "testSettingsConnection", { key: beta, token: tokenOf(0) });
    expect(typed.ok, typed.message).toBe(true);
    expect(marks()).toEqual({});
    // Ana's saved token for Beta, tested: it marks Beta's account, and the typed one is now refused.
    expect(run<ConnectionCheck>(ANA, "testSettingsConnection", { key: beta }).ok).toBe(true);
    expect(marks()[beta]?.funds.every((f) => f.creator > 2000 && f.creator < 3000)).toBe(true);
    const again = run<ConnectionCheck>(LUIS, "testSettingsConnection", { key: beta, token: tokenOf(0) });
    expect(again.ok).toBe(false);
    expect(again.message).toMatch(/^Connected, but this token opens another account than Beta's/);
  });

  it("the Audit rows of Test connection name their company", () => {
    const beta = keys[1] as string;
    run<ConnectionCheck>(ANA, "testSettingsConnection", { key: beta });
    const sheet = em.spreadsheet.sheetByName("Audit");
    const header: unknown[] = [];
    for (let c = 1; c <= (sheet?.lastColumn() ?? 0); c++) header.push(sheet?.cell(1, c)?.value);
    const column = header.indexOf("Company") + 1;
    expect(column).toBeGreaterThan(0);
    const last = sheet?.lastRow() ?? 0;
    expect(sheet?.cell(last, column)?.value).toBe(`Beta (${beta})`);
  });

  it("an account with no funds is not marked, Settings says the check could not be made; its first fund marks it", async () => {
    const beta = keys[1] as string;
    await sandboxCall("reset", "Beta", { ...SIZES, funds: 0, seed: SIZES.seed + 1 });
    const saved = saveToken(LUIS, beta, tokenOf(1), adminOf(1));
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    expect(saved.message).toContain("The account check could not be made: Beta's account has no funds yet.");
    expect(marks()[beta]).toBeUndefined();
    expect(run<SettingsView>(LUIS, "getSettingsView").companies?.accounts?.[beta]).toMatchObject({
      marked: false,
      message: expect.stringMatching(/^The account check could not be made yet/),
    });
    await sandboxCall("reset", "Beta", { ...SIZES, seed: SIZES.seed + 1 });
    expect(run<ConnectionCheck>(LUIS, "testSettingsConnection", { key: beta }).ok).toBe(true);
    expect(marks()[beta]?.funds[0]?.id).toBe(5001);
  });

  it("after an account reset the mark is taken again only on a confirmation naming what changes", async () => {
    const beta = keys[1] as string;
    expect(run<ConnectionCheck>(ANA, "testSettingsConnection", { key: beta }).ok).toBe(true);
    const before = marks()[beta];
    await sandboxCall("reset", "Beta", { ...SIZES, seed: SIZES.seed + 40 });
    expect(run<ConnectionCheck>(ANA, "testSettingsConnection", { key: beta }).ok).toBe(false);
    const asked = run<Retake>(ANA, "retakeCompanyAccountMark", beta, false);
    expect(asked.ask).toBe(true);
    expect(asked.message).toMatch(
      /^Take Beta's account mark again\? Now every token saved for Beta must open the account whose oldest funds are 5001 \(/,
    );
    expect(marks()[beta]).toEqual(before);
    const done = run<Retake>(ANA, "retakeCompanyAccountMark", beta, asked.shown);
    expect(done).toMatchObject({ ok: true, ask: false });
    expect(marks()[beta]).not.toEqual(before);
    expect(run<ConnectionCheck>(ANA, "testSettingsConnection", { key: beta }).ok).toBe(true);
  });

  it("a retake confirmed after the account changed again takes nothing and asks again, naming the read made now", async () => {
    const beta = keys[1] as string;
    expect(run<ConnectionCheck>(ANA, "testSettingsConnection", { key: beta }).ok).toBe(true);
    const before = marks()[beta];
    await sandboxCall("reset", "Beta", { ...SIZES, seed: SIZES.seed + 40 });
    const asked = run<Retake>(ANA, "retakeCompanyAccountMark", beta, false);
    expect(asked.ask).toBe(true);
    // A bare yes, without what was shown, is asked again.
    expect(run<Retake>(ANA, "retakeCompanyAccountMark", beta, true)).toMatchObject({ ok: false, ask: true });
    // Between the question and the yes the account is reset once more: the read at the yes is not
    // the one the question named.
    await sandboxCall("reset", "Beta", { ...SIZES, seed: SIZES.seed + 41 });
    const late = run<Retake>(ANA, "retakeCompanyAccountMark", beta, asked.shown);
    expect(late).toMatchObject({ ok: false, ask: true });
    expect(late.message).toMatch(
      /^What your token for Beta opens, or Beta's mark, changed since you were asked: nothing was taken\. Take Beta's account mark again\?/,
    );
    expect(late.shown?.new).not.toBe(asked.shown?.new);
    expect(marks()[beta]).toEqual(before);
    const done = run<Retake>(ANA, "retakeCompanyAccountMark", beta, late.shown);
    expect(done).toMatchObject({ ok: true, ask: false });
    expect(done.message).toContain(late.shown?.new);
    expect(run<ConnectionCheck>(ANA, "testSettingsConnection", { key: beta }).ok).toBe(true);
  });

  it("the mark is not taken again from a token that opens another company's marked account", () => {
    const [alpha, beta] = keys as [string, string];
    // Alpha and Beta marked by Ana's tests; then Beta's slot gets Alpha's token, as a token saved
    // before marks existed may be (written past the add-on's check).
    expect(run<ConnectionCheck>(ANA, "testSettingsConnection", { key: alpha }).ok).toBe(true);
    expect(run<ConnectionCheck>(ANA, "testSettingsConnection", { key: beta }).ok).toBe(true);
    const betaMark = marks()[beta];
    const saved = storeOf(em, ANA).saveCompanyToken(beta, tokenOf(0), adminOf(1), {
      name: "Beta",
      apiUrl: sandbox.url,
    });
    expect(saved.ok).toBe(true);
    const asked = run<Retake>(ANA, "retakeCompanyAccountMark", beta, false);
    expect(asked.ask).toBe(true);
    const done = run<Retake>(ANA, "retakeCompanyAccountMark", beta, asked.shown);
    expect(done).toMatchObject({ ok: false, ask: false });
    expect(done.message).toContain("it opens Alpha's");
    expect(marks()[beta]).toEqual(betaMark);
  });
});

describe("a token bound again after its company's URL changed", () => {
  it("Luis's confirmation of Alpha's token under Beta, at Beta's new URL, is refused as a save is; Ana's is bound", () => {
    const beta = keys[1] as string;
    expect(run<ConnectionCheck>(ANA, "testSettingsConnection", { key: beta }).ok).toBe(true);
    // Luis's Beta slot holds Alpha's token, bound to Beta as it was (written past the check).
    const seen = { name: "Beta", apiUrl: sandbox.url };
    expect(storeOf(em, LUIS).saveCompanyToken(beta, tokenOf(0), adminOf(0), seen).ok).toBe(true);
    const moved = otherOrigin(sandbox.url);
    expect(moved).not.toBe(sandbox.url);
    const ana = storeOf(em, ANA);
    const repointed = ana.changeCompanies(
      { kind: "repoint", rev: ana.companies().rev, key: beta, apiUrl: moved },
      { newKey: () => "cnever001", now: em.now().getTime() },
    );
    expect(repointed.ok).toBe(true);
    expect(statusOf(LUIS, beta)).not.toBe("ready");
    const now = { name: "Beta", apiUrl: moved };
    const luis = run<CompaniesResult>(LUIS, "confirmMyCompanyToken", beta, now);
    expect(luis.ok).toBe(false);
    if (luis.ok) return;
    expect(luis.problems.map((p) => p.message).join(" ")).toMatch(
      /^This token opens another account than Beta's: Beta's oldest fund 5001 \(.*\) is not in it as marked\. Nothing was saved\./,
    );
    expect(statusOf(LUIS, beta)).not.toBe("ready");
    // Ana's own token for Beta opens Beta's account at the new URL: bound.
    expect(run<CompaniesResult>(ANA, "confirmMyCompanyToken", beta, now).ok).toBe(true);
    expect(statusOf(ANA, beta)).toBe("ready");
  });

  it("in a one-company document, Luis's confirmation of another account's token at the new service URL is refused", () => {
    em.resetState();
    storeCompanies(em, [{ name: "Alpha", apiUrl: sandbox.url, token: tokenOf(0), adminId: adminOf(0) }], ANA);
    expect(run<ConnectionCheck>(ANA, "testSettingsConnection", { key: "c0" }).ok).toBe(true);
    expect(marks().c0?.funds[0]?.creator).toBe(1001);
    // Luis's token is Beta's account's, bound to the URL as it was (written past the check).
    storeToken(em, LUIS, tokenOf(1), sandbox.url, adminOf(0));
    const moved = otherOrigin(sandbox.url);
    expect(storeOf(em, ANA).save({ baseUrl: moved }).ok).toBe(true);
    type Confirmed = { ok: boolean; message?: string };
    const luis = run<Confirmed>(LUIS, "confirmMyTokenUrl", moved);
    expect(luis.ok).toBe(false);
    expect(luis.message).toMatch(
      /^This token opens another account than .*: .*oldest fund \d+ \(.*\) is not in it as marked\. Nothing was saved\./,
    );
    expect(storeOf(em, LUIS).tokenStatus().confirmUrl).toBe(moved);
    // Ana's token opens the marked account: bound to the new URL.
    storeToken(em, ANA, tokenOf(0), sandbox.url, adminOf(0));
    expect(run<Confirmed>(ANA, "confirmMyTokenUrl", moved).ok).toBe(true);
    expect(storeOf(em, ANA).tokenStatus().confirmUrl).toBe("");
  });

  it("in a one-company document, Luis's own change of the service URL is checked like a token save: his other account's token does not follow it", () => {
    em.resetState();
    storeCompanies(em, [{ name: "Alpha", apiUrl: sandbox.url, token: tokenOf(0), adminId: adminOf(0) }], ANA);
    expect(run<ConnectionCheck>(ANA, "testSettingsConnection", { key: "c0" }).ok).toBe(true);
    // Luis's token is Beta's account's, bound to the URL as it is (written past the check).
    storeToken(em, LUIS, tokenOf(1), sandbox.url, adminOf(0));
    const moved = otherOrigin(sandbox.url);
    const form = run<SettingsView>(LUIS, "getSettingsView").form;
    const refused = run<SaveSettingsResult>(LUIS, "saveSettings", { ...form, baseUrl: moved });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.problems).toEqual([
      {
        field: "baseUrl",
        message: expect.stringMatching(
          /^The service URL was not changed: .*This token opens another account than .*'s: .* is not in it as marked\. Nothing was saved\..* leave the URL as it was\.$/,
        ),
      },
    ]);
    expect(storeOf(em, ANA).load().settings.baseUrl).toBe(sandbox.url);
    expect(storeOf(em, LUIS).tokenStatus().confirmUrl).toBe("");
    // Ana's own token opens the marked account at the new URL: the URL changes and her token follows.
    const saved = run<SaveSettingsResult>(ANA, "saveSettings", { ...form, baseUrl: moved });
    expect(saved.ok, JSON.stringify(saved)).toBe(true);
    expect(storeOf(em, ANA).load().settings.baseUrl).toBe(moved);
    expect(storeOf(em, ANA).tokenStatus().confirmUrl).toBe("");
  });
});
