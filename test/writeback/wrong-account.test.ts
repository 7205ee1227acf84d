/**
 * A token of the wrong account in the Outbox, against a sandbox of two companies whose fund ids
 * overlap: Beta is marked (Ana tested its connection), and Luis's token for Beta is Alpha's,
 * saved before tokens were checked against the mark. Luis's run sends nothing with it and
 * settles nothing by reading Alpha's fund of the same Id: Beta's rows wait, saying why, and
 * Ana's run, with Beta's own token, settles and sends them. Neither ledger ever gets the
 * other's deposit.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeProperties } from "../../dev/emulator/properties";
import { storeToken } from "../../dev/emulator/settings";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { ACCOUNT_MARKS_KEY, accountMarksFrom } from "../../src/settings/account-mark";
import { createSettingsStore, type SettingsStore } from "../../src/settings/store";
import { settingsIssueText } from "../../src/settings/words";
import { buildWriteBack, type SandboxFund, startWriteBack, type WriteBack } from "./harness";

const LUIS = "luis@example.com";
const BETA_KEY = "cbeta0001";
let wb: WriteBack;

beforeAll(async () => {
  wb = await startWriteBack(buildWriteBack(), { companies: 2, otherUsers: [LUIS] });
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

beforeEach(async () => {
  await wb.reset();
  await betaFaults([]);
});

const storeOf = (user: string): SettingsStore =>
  createSettingsStore({
    document: new FakeProperties(wb.emulator.documentPropertiesData),
    user: new FakeProperties(wb.emulator.userPropertiesOf(user)),
  });

const companyOf = (i: 0 | 1) => {
  const company = wb.sandbox.companies[i];
  if (!company) throw new Error("the sandbox serves one company");
  return company;
};

/** Faults of Beta's calls only (the sandbox's `?company=`). */
async function betaFaults(rules: Record<string, unknown>[]): Promise<void> {
  const origin = wb.sandbox.url.replace(/\/v1$/, "");
  const response = await fetch(`${origin}/_sandbox/faults?company=Beta`, {
    method: "POST",
    headers: { Authorization: `Bearer ${wb.sandbox.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ latencyMs: 0, rules }),
  });
  if (!response.ok) throw new Error(`faults: ${response.status} ${await response.text()}`);
}

/**
 * Beta added; Ana's tokens right, Beta marked by her connection test; Luis's token for Alpha
 * right and for Beta Alpha's, written past the check (as a token saved before it existed).
 */
function wrongTokenForLuis(): void {
  const ana = storeOf(wb.user);
  const added = ana.changeCompanies(
    { kind: "add", rev: ana.companies().rev, name: "Beta", apiUrl: wb.sandbox.url, firstName: "Alpha" },
    { newKey: () => BETA_KEY, now: Date.now() },
  );
  if (!added.ok) throw new Error(added.issues.map((i) => settingsIssueText(i, "en")).join(" "));
  const beta = { name: "Beta", apiUrl: wb.sandbox.url };
  const adminId = String(companyOf(1).adminId);
  if (!ana.saveCompanyToken(BETA_KEY, companyOf(1).token, adminId, beta).ok) throw new Error("Ana's token");
  const tested = wb.sidebar("testSettingsConnection", { key: BETA_KEY }) as { ok: boolean; message: string };
  expect(tested.ok, tested.message).toBe(true);
  expect(
    accountMarksFrom(wb.emulator.documentPropertiesData.values.get(ACCOUNT_MARKS_KEY) ?? null),
  ).toHaveProperty(BETA_KEY);
  storeToken(wb.emulator, LUIS, companyOf(0).token, wb.sandbox.url, companyOf(0).adminId);
  if (!storeOf(LUIS).saveCompanyToken(BETA_KEY, companyOf(0).token, adminId, beta).ok)
    throw new Error("Luis's token");
}

async function sharedOpenFund(): Promise<number> {
  const alpha = (await wb.stateOf("Alpha")).funds;
  const beta = (await wb.stateOf("Beta")).funds;
  const open = (funds: SandboxFund[], id: number) => funds.some((f) => f.id === id && f.status === 1);
  const id = alpha.map((f) => f.id).find((id) => open(alpha, id) && open(beta, id));
  if (id === undefined) throw new Error("no fund id open in both companies");
  return id;
}

const deposits = async (company: string, id: number, cents: number) =>
  ((await wb.stateOf(company)).funds.find((f) => f.id === id)?.transactions ?? []).filter(
    (t) => t.type === 1 && t.amountCents === cents,
  ).length;

const ok = (outcome: ReturnType<WriteBack["menu"]>) => {
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome;
};

describe("a token that opens another account than its company's mark", () => {
  it("sends nothing and settles nothing in the Outbox; the right token settles and sends, once", async () => {
    wrongTokenForLuis();
    const id = await sharedOpenFund();
    const cents = 521;
    const before = { alpha: await deposits("Alpha", id, cents), beta: await deposits("Beta", id, cents) };
    ok(wb.menu("createOutboxSheet"));
    wb.typeOutbox([{ company: "Beta", operation: "Deposit", targetId: id, amount: "5.21" }]);
    // Ana's deposit to Beta is cut before it applies: Unknown, to be settled by reading Beta's fund.
    await betaFaults([{ endpoint: "depositMoneyToFund", fault: "drop-before-apply", times: 1 }]);
    ok(wb.menu("runOutbox", ["YES", "OK", "OK"]));
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    wb.typeOutbox([{ company: "Beta", operation: "Deposit", targetId: id, amount: "5.22" }], 3);
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);

    // Luis runs with Alpha's token in Beta's slot: nothing read of Alpha's fund settles Ana's
    // row, nothing is sent to either company.
    const preview = String(ok(wb.menu("previewOutbox", ["OK"], { user: LUIS })).result);
    expect(preview).toContain("your token for Beta opens another account than Beta's");
    wb.menu("runOutbox", ["YES", "OK", "OK"], { user: LUIS });
    const [interrupted, pending] = wb.outbox();
    expect(interrupted?.state).toBe("Unknown");
    expect(String(interrupted?.result)).toMatch(
      /^Not checked yet: your token for Beta opens another account than Beta's \(Beta's oldest fund 5001 \(.*\) is not in it as marked\): nothing is sent or checked with it\./,
    );
    expect(pending?.state).toBe("Pending");
    expect(String(pending?.result)).toMatch(
      /^Not sent yet: your token for Beta opens another account than Beta's/,
    );
    expect(await deposits("Alpha", id, cents)).toBe(before.alpha);
    expect(await deposits("Alpha", id, 522)).toBe(0);
    expect(await deposits("Beta", id, cents)).toBe(before.beta);

    // Ana's run, with Beta's own token: the interrupted deposit found not applied is sent again,
    // the new row sent, each once and both to Beta.
    ok(wb.menu("runOutbox", ["YES", "OK", "OK"]));
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done"]);
    expect(await deposits("Beta", id, cents)).toBe(before.beta + 1);
    expect(await deposits("Beta", id, 522)).toBe(1);
    expect(await deposits("Alpha", id, cents)).toBe(before.alpha);
    expect(await deposits("Alpha", id, 522)).toBe(0);
  });

  it("the Fund sidebar sends nothing with it either: the page says why, a deposit from it is refused, no ledger moves", async () => {
    wrongTokenForLuis();
    const id = await sharedOpenFund();
    const before = { alpha: await deposits("Alpha", id, 733), beta: await deposits("Beta", id, 733) };
    const view = wb.emulator.tryRun("getFundSidebarView", [{ fundId: String(id), company: BETA_KEY }], {
      as: "script.run",
      user: LUIS,
    });
    if (!view.ok) throw new Error(view.error);
    expect(String((view.result as { error?: string }).error)).toMatch(
      /your token for Beta opens another account than Beta's/,
    );
    const outcome = wb.emulator.tryRun(
      "depositToFund",
      [
        {
          requestId: "deposit-luis-beta-abcdef",
          fields: { Id: id, DepositAmount: "7.33" },
          company: BETA_KEY,
        },
      ],
      { as: "script.run", user: LUIS },
    );
    if (!outcome.ok) throw new Error(outcome.error);
    expect(outcome.result).toMatchObject({ kind: "refused" });
    expect(await deposits("Alpha", id, 733)).toBe(before.alpha);
    expect(await deposits("Beta", id, 733)).toBe(before.beta);
  });
});
