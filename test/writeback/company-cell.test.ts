/**
 * The Company cell is part of an Outbox row's request, against a sandbox of two companies whose
 * fund ids overlap: Ana sends, her co-editor Luis (with his own tokens for both companies)
 * swaps or sorts and runs. A row owns its write only while it names the company the write went
 * to; a Done row whose Company names the other company is flagged as edited, and a row carrying
 * a write's key under the other company's name is "sorted or edited": nothing is sent twice,
 * and neither company gets the other's deposit.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeProperties } from "../../dev/emulator/properties";
import { storeToken } from "../../dev/emulator/settings";
import { columnNumber, USER_COLUMNS } from "../../src/outbox/columns";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { createSettingsStore, type SettingsStore } from "../../src/settings/store";
import { settingsIssueText } from "../../src/settings/words";
import { columnLetters } from "../../src/sheets/formulas";
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

/** Beta added (the first company named Alpha); Ana and Luis each with their tokens for both. */
function twoCompaniesTwoUsers(): void {
  const ana = storeOf(wb.user);
  const added = ana.changeCompanies(
    { kind: "add", rev: ana.companies().rev, name: "Beta", apiUrl: wb.sandbox.url, firstName: "Alpha" },
    { newKey: () => BETA_KEY, now: Date.now() },
  );
  if (!added.ok) throw new Error(added.issues.map((i) => settingsIssueText(i, "en")).join(" "));
  storeToken(wb.emulator, LUIS, companyOf(0).token, wb.sandbox.url, companyOf(0).adminId);
  for (const user of [wb.user, LUIS]) {
    const saved = storeOf(user).saveCompanyToken(BETA_KEY, companyOf(1).token, String(companyOf(1).adminId), {
      name: "Beta",
      apiUrl: wb.sandbox.url,
    });
    if (!saved.ok) throw new Error(saved.issues.map((i) => settingsIssueText(i, "en")).join(" "));
  }
}

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

/** A fund id open in both companies (the same id, two funds). */
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

const asLuis = { user: LUIS };
const pastTheWindow = () => wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);

/** The visible cells of rows 2 and 3 (State to the last user column) traded, as a sort of them does. */
function swapVisibleRows(cells: "company" | "visible"): void {
  const first = cells === "company" ? columnNumber("company") : 1;
  const last = cells === "company" ? first : Math.max(...USER_COLUMNS.map((c) => columnNumber(c)));
  const range = (row: number) => `${columnLetters(first)}${row}:${columnLetters(last)}${row}`;
  const values = wb.sheetValues("Outbox");
  const slice = (row: number) => (values[row - 1] ?? []).slice(first - 1, last);
  const [two, three] = [slice(2), slice(3)];
  wb.emulator.typeCells("Outbox", range(2), [three], LUIS);
  wb.emulator.typeCells("Outbox", range(3), [two], LUIS);
}

describe("the Company cell of an Outbox row is part of its request", () => {
  it("two rows' Company cells swapped: the Done row is flagged as edited, nothing is sent twice, and each company ends with one deposit", async () => {
    twoCompaniesTwoUsers();
    const id = await sharedOpenFund();
    const cents = 511;
    const before = { alpha: await deposits("Alpha", id, cents), beta: await deposits("Beta", id, cents) };
    ok(wb.menu("createOutboxSheet"));
    wb.typeOutbox([
      { company: "Alpha", operation: "Deposit", targetId: id, amount: "5.11" },
      { company: "Beta", operation: "Deposit", targetId: id, amount: "5.11" },
    ]);
    // Beta's call is cut before the service applies it: its row is Unknown.
    await betaFaults([{ endpoint: "depositMoneyToFund", fault: "drop-before-apply", times: 1 }]);
    ok(wb.menu("runOutbox", ["YES", "OK", "OK"]));
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Unknown"]);

    // Luis swaps the two Company cells, then previews and runs once the window has passed.
    swapVisibleRows("company");
    pastTheWindow();
    const preview = String(ok(wb.menu("previewOutbox", ["OK"], asLuis)).result);
    expect(preview).toContain("Row 2 was changed after it was done on ");
    expect(preview).toContain("Company was changed from “Alpha” to “Beta”");
    ok(wb.menu("runOutbox", ["YES", "OK", "OK"], asLuis));
    const [done, interrupted] = wb.outbox();
    expect(done?.state).toBe("Done");
    expect(String(done?.result)).toMatch(
      /^Done for Deposit of (?:[A-Z]{3} )?5\.11 to fund \d+ on .*; Company was changed from “Alpha” to “Beta” afterwards \(the row was edited, or the sheet sorted without its hidden columns\): nothing more was sent/,
    );
    expect(interrupted?.state).toBe("Pending");
    expect(String(interrupted?.result)).toContain("Company was changed from “Beta” to “Alpha”");
    expect(await deposits("Alpha", id, cents)).toBe(before.alpha + 1);
    expect(await deposits("Beta", id, cents)).toBe(before.beta);

    // The cells put back as they were, Beta's deposit is sent to Beta, once; Alpha's stays one.
    swapVisibleRows("company");
    const again = String(ok(wb.menu("previewOutbox", ["OK"], asLuis)).result);
    expect(again).not.toContain("same as row 2");
    ok(wb.menu("runOutbox", ["YES", "OK", "OK"], asLuis));
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done"]);
    expect(await deposits("Alpha", id, cents)).toBe(before.alpha + 1);
    expect(await deposits("Beta", id, cents)).toBe(before.beta + 1);
  });

  it("a sort of the visible columns that moves a Done row's cells onto another company's row: sorted or edited, nothing sent", async () => {
    twoCompaniesTwoUsers();
    const id = await sharedOpenFund();
    const cents = 512;
    const before = { alpha: await deposits("Alpha", id, cents), beta: await deposits("Beta", id, cents) };
    ok(wb.menu("createOutboxSheet"));
    wb.typeOutbox([{ company: "Alpha", operation: "Deposit", targetId: id, amount: "5.12" }]);
    ok(wb.menu("runOutbox", ["YES", "OK", "OK"]));
    expect(wb.outbox()[0]?.state).toBe("Done");
    // Luis adds Beta's deposit below, then sorts the visible columns by Company, Z to A.
    wb.typeOutbox([{ company: "Beta", operation: "Deposit", targetId: id, amount: "5.12" }], 3);
    swapVisibleRows("visible");
    const preview = String(ok(wb.menu("previewOutbox", ["OK"], asLuis)).result);
    expect(preview).toContain("whose cells it does not show (the sheet sorted without its hidden columns");
    expect(preview).not.toContain("same as row");
    wb.menu("runOutbox", ["YES", "OK", "OK"], asLuis);
    const [moved, shows] = wb.outbox();
    expect(moved?.state).toBe("Refused");
    expect(String(moved?.result)).toMatch(
      /^Not sent: its Operation key names Deposit of .* whose cells this row does not show/,
    );
    // The row that shows the done write's cells, Alpha's, is its row: Done, its key back.
    expect(shows?.state).toBe("Done");
    expect(String(shows?.result)).toMatch(/^Done on .*: this row showed Done without its Operation key/);
    expect(await deposits("Alpha", id, cents)).toBe(before.alpha + 1);
    expect(await deposits("Beta", id, cents)).toBe(before.beta);
  });
});
