/**
 * Settings' Companies through the BUILT add-on in the Apps Script emulation, two editors of one
 * document: Ana, with her token saved as today, adds a second company (naming the first one in
 * the same form), which labels the rows already in the sheets with the first company's name,
 * her own cells kept; Luis, another editor with no token, renames and re-points companies: Ana's
 * tokens are not used for them (nothing is sent) until she confirms, and a confirmation or a
 * change made on a stale form is refused with a message and the list as it is now.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { CompanyStatus } from "../../src/settings/store";
import type { CompaniesResult, SettingsView } from "../../src/settings/view";
import { writeBackPerFile } from "../writeback/harness";

const LUIS = "luis@example.com";
// Two accounts on the one sandbox URL: Beta is another account, reached by its own token (a
// company saved with the first one's token would open the account already marked for it).
// The sandbox under localhost too: a company re-pointed there is checked against its mark when
// its owner confirms it.
const wb = writeBackPerFile({
  companies: 2,
  otherUsers: [LUIS],
  otherOrigins: [(url) => url.replace("127.0.0.1", "localhost")],
});

beforeEach(async () => {
  await wb.reset();
});

function run<T>(name: string, args: unknown[], user = wb.user): T {
  const out = wb.emulator.tryRun(name, args, { as: "script.run", user });
  if (!out.ok) throw new Error(`${name} as ${user} failed: ${out.error}`);
  return out.result as T;
}

const view = (user = wb.user) => run<SettingsView>("getSettingsView", [], user);

function status(v: SettingsView, name: string): CompanyStatus {
  const found = v.companies?.entries.find((e) => e.name === name);
  if (!found)
    throw new Error(`no company ${name}: ${JSON.stringify(v.companies?.entries.map((e) => e.name))}`);
  return found;
}

/** Another origin of the same sandbox: a re-point that moves a token elsewhere. */
const otherOrigin = () => wb.sandbox.url.replace("127.0.0.1", "localhost");

/** Ana adds Beta (at the sandbox too), naming the first company Alpha; her token for Beta saved. */
function anaAddsBeta(): { beta: string } {
  const before = view();
  expect(before.companies).toMatchObject({ rev: 0, several: false });
  const added = run<CompaniesResult>("saveCompanies", [
    { kind: "add", rev: before.companies?.rev, firstName: "Alpha", name: "Beta", apiUrl: wb.sandbox.url },
  ]);
  expect(added.ok, JSON.stringify(added)).toBe(true);
  const beta = status(added.view, "Beta");
  const betaAccount = wb.sandbox.companies[1];
  if (!betaAccount) throw new Error("the sandbox serves one company");
  const saved = run<CompaniesResult>("saveMyCompanyToken", [
    beta.key,
    betaAccount.token,
    String(betaAccount.adminId),
    { name: beta.name, apiUrl: beta.apiUrl },
  ]);
  expect(saved.ok, JSON.stringify(saved)).toBe(true);
  return { beta: beta.key };
}

function column(values: unknown[][], header: string): unknown[] {
  const at = (values[0] ?? []).indexOf(header);
  expect(at, `column ${header} in ${JSON.stringify(values[0])}`).toBeGreaterThanOrEqual(0);
  return values.slice(1).map((row) => row[at]);
}

describe("adding the second company (§5 migration)", () => {
  it("labels the rows already in the sheets with the first company's name, every user's cell kept on its row", () => {
    expect(wb.menu("refreshFunds")).toMatchObject({ ok: true });
    const before = wb.sheetValues("Funds");
    const width = (before[0] ?? []).length;
    const ids = before.slice(1).map((row) => row[0]);
    expect(ids.length).toBeGreaterThan(2);
    // Ana's own column beside the add-on's: a note per fund row, typed by her.
    const mine = ids.map((id) => [`note for ${id}`]);
    const letter = String.fromCharCode(64 + width + 1);
    wb.emulator.typeCells("Funds", `${letter}2:${letter}${ids.length + 1}`, mine);

    anaAddsBeta();

    const after = wb.sheetValues("Funds");
    expect(after.length).toBe(before.length);
    expect(column(after, "Company")).toEqual(ids.map(() => "Alpha"));
    expect(column(after, "Company key")).toEqual(ids.map(() => "c0"));
    // Column A unchanged; each note still on its fund's row, two columns to the right.
    expect(after.slice(1).map((row) => row[0])).toEqual(ids);
    expect(after.slice(1).map((row) => row[width + 2])).toEqual(mine.map(([n]) => n));
    // Ana's token took the first company's new name along: hers is still used, for both.
    const statuses = view().companies?.entries.map((e) => [e.name, e.status, e.writeStatus]);
    expect(statuses).toEqual([
      ["Alpha", "ready", "ready"],
      ["Beta", "ready", "ready"],
    ]);
    // Luis has saved no token: none is used for him.
    expect(view(LUIS).companies?.entries.map((e) => e.status)).toEqual(["noToken", "noToken"]);
  });
});

describe("a co-editor's rename and re-point", () => {
  it("a rename by Luis leaves Ana's token unused until she confirms; the rows show the new name", () => {
    expect(wb.menu("refreshFunds")).toMatchObject({ ok: true });
    anaAddsBeta();
    const rev = view(LUIS).companies?.rev;
    const renamed = run<CompaniesResult>(
      "saveCompanies",
      [{ kind: "rename", rev, key: "c0", name: "Alpha SA" }],
      LUIS,
    );
    expect(renamed.ok, JSON.stringify(renamed)).toBe(true);
    const funds = wb.sheetValues("Funds");
    expect(new Set(column(funds, "Company"))).toEqual(new Set(["Alpha SA"]));
    expect(new Set(column(funds, "Company key"))).toEqual(new Set(["c0"]));

    const alpha = status(view(), "Alpha SA");
    expect(alpha).toMatchObject({ status: "renamed", confirm: { name: "Alpha SA" } });
    expect(alpha.message).toContain("Alpha was renamed Alpha SA by another editor");
    // Nothing is sent with her token meanwhile: the connection test stops before any request.
    const calls = wb.emulator.urlFetchToday(wb.user);
    const test = run<{ ok: boolean; message: string }>("testSettingsConnection", [{ key: "c0" }]);
    expect(test.ok).toBe(false);
    expect(test.message).toContain("renamed");
    expect(wb.emulator.urlFetchToday(wb.user)).toBe(calls);

    // A confirmation of the company as it was shown before the rename is refused.
    const stale = run<CompaniesResult>("confirmMyCompanyToken", [
      "c0",
      { name: "Alpha", apiUrl: alpha.apiUrl },
    ]);
    expect(stale.ok).toBe(false);
    expect(JSON.stringify(stale)).toContain("changed since it was shown");
    expect(status(stale.view, "Alpha SA").status).toBe("renamed");
    // Her confirmation of the company as listed now binds it again.
    const confirmed = run<CompaniesResult>("confirmMyCompanyToken", ["c0", alpha.confirm]);
    expect(confirmed.ok, JSON.stringify(confirmed)).toBe(true);
    expect(status(confirmed.view, "Alpha SA")).toMatchObject({ status: "ready", writeStatus: "ready" });
    const tested = run<{ ok: boolean }>("testSettingsConnection", [{ key: "c0" }]);
    expect(tested.ok, JSON.stringify(tested)).toBe(true);
    expect(wb.emulator.urlFetchToday(wb.user)).toBe(calls + 1);
  });

  it("a re-point by Luis to another origin leaves Ana's token for that company unused until she confirms", () => {
    const { beta } = anaAddsBeta();
    const rev = view(LUIS).companies?.rev;
    const moved = run<CompaniesResult>(
      "saveCompanies",
      [{ kind: "repoint", rev, key: beta, apiUrl: otherOrigin() }],
      LUIS,
    );
    expect(moved.ok, JSON.stringify(moved)).toBe(true);
    const shown = status(view(), "Beta");
    expect(shown).toMatchObject({ status: "repointed", confirm: { name: "Beta", apiUrl: otherOrigin() } });
    // Alpha, not changed, stays usable.
    expect(status(view(), "Alpha").status).toBe("ready");
    const calls = wb.emulator.urlFetchToday(wb.user);
    const test = run<{ ok: boolean; message: string }>("testSettingsConnection", [{ key: beta }]);
    expect(test.ok).toBe(false);
    expect(wb.emulator.urlFetchToday(wb.user)).toBe(calls);
    // A token saved on the form shown before the re-point is refused too.
    const staleSave = run<CompaniesResult>("saveMyCompanyToken", [
      beta,
      wb.sandbox.token,
      "1",
      { name: "Beta", apiUrl: wb.sandbox.url },
    ]);
    expect(staleSave.ok).toBe(false);
    expect(status(staleSave.view, "Beta").status).toBe("repointed");
    const confirmed = run<CompaniesResult>("confirmMyCompanyToken", [beta, shown.confirm]);
    expect(confirmed.ok, JSON.stringify(confirmed)).toBe(true);
    expect(status(confirmed.view, "Beta")).toMatchObject({ status: "ready", boundHost: shown.host });
  });

  it("a change made on a stale list is refused whole, with the list as it is now", () => {
    anaAddsBeta();
    const seen = view(LUIS).companies?.rev as number;
    expect(
      run<CompaniesResult>("saveCompanies", [{ kind: "rename", rev: seen, key: "c0", name: "Alpha 2" }]).ok,
    ).toBe(true);
    const stale = run<CompaniesResult>(
      "saveCompanies",
      [{ kind: "rename", rev: seen, key: "c0", name: "Alpha 3" }],
      LUIS,
    );
    expect(stale.ok).toBe(false);
    if (stale.ok) return;
    expect(stale.problems.map((p) => p.message).join(" ")).toContain("The list of companies changed");
    expect(stale.view.companies?.rev).toBe(seen + 1);
    expect(stale.view.companies?.entries.map((e) => e.name)).toEqual(["Alpha 2", "Beta"]);
  });
});

describe("removing a company", () => {
  it("asks what to do with its rows: kept greyed with a note", () => {
    expect(wb.menu("refreshFunds")).toMatchObject({ ok: true });
    anaAddsBeta();
    const rev = view().companies?.rev;
    const removed = run<CompaniesResult>("saveCompanies", [{ kind: "remove", rev, key: "c0", rows: "keep" }]);
    expect(removed.ok, JSON.stringify(removed)).toBe(true);
    const funds = wb.sheetValues("Funds");
    const notes = column(funds, "Refresh note");
    expect(notes.every((n) => String(n).startsWith("Company Alpha was removed on"))).toBe(true);
    expect(removed.view.companies?.entries.find((e) => e.key === "c0")).toMatchObject({ removed: true });
  });

  it("or removed from the sheets", () => {
    expect(wb.menu("refreshFunds")).toMatchObject({ ok: true });
    anaAddsBeta();
    const rev = view().companies?.rev;
    const removed = run<CompaniesResult>("saveCompanies", [
      { kind: "remove", rev, key: "c0", rows: "remove" },
    ]);
    expect(removed.ok, JSON.stringify(removed)).toBe(true);
    expect(wb.sheetValues("Funds").length).toBe(1);
  });
});

describe("names that look alike are one name", () => {
  /** A change by `user` on the list as they see it now. */
  const change = (user: string, body: Record<string, unknown>) =>
    run<CompaniesResult>("saveCompanies", [{ ...body, rev: view(user).companies?.rev }], user);
  const messages = (r: CompaniesResult) => (r.ok ? [] : r.problems.map((p) => p.message));

  it("Greek, Cyrillic, invisible and fullwidth look-alikes of Alpha are refused; a direction control too", () => {
    anaAddsBeta();
    for (const name of ["\u0391lpha", "Al\u200bpha", "\uff21\uff4c\uff50\uff48\uff41", "\u0410LPHA"]) {
      const added = change(LUIS, { kind: "add", name, apiUrl: wb.sandbox.url });
      expect(messages(added)).toEqual([
        `Company name: "${name}" is already the name of another company (Alpha).`,
      ]);
    }
    const rtl = change(LUIS, { kind: "add", name: "Gam\u202ema", apiUrl: wb.sandbox.url });
    expect(messages(rtl)).toEqual([
      "Company name must not hold direction controls (characters that show the letters of a name in another order than they are typed).",
    ]);
    expect(view().companies?.entries.map((e) => e.name)).toEqual(["Alpha", "Beta"]);
  });

  it("after six renames of Alpha by Luis, Ana cannot rename Beta Alpha; Alpha itself can take it back", () => {
    anaAddsBeta();
    for (let i = 1; i <= 6; i++)
      expect(change(LUIS, { kind: "rename", key: "c0", name: `Alpha ${i}` }).ok).toBe(true);
    const beta = status(view(), "Beta").key;
    const taken = change(wb.user, { kind: "rename", key: beta, name: "Alpha" });
    expect(messages(taken)).toEqual([
      'Company name: "Alpha" looks like a name another company had (Alpha 6); a name is never given to another company.',
    ]);
    expect(change(LUIS, { kind: "rename", key: "c0", name: "Alpha" }).ok).toBe(true);
  });
});
