/**
 * The Settings form's token field saves the first company's token as its card does, so it is
 * checked against the account mark the same way: in a one-company document whose account Ana's
 * Test connection marked, Luis pasting another account's token into Settings → Connection and
 * pressing Save is refused, naming the token field, and nothing is saved for him. His token of
 * the marked account is saved.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../dev/emulator/index";
import { storeConnection } from "../../dev/emulator/settings";
import type { RunningSandbox } from "../../dev/sandbox/index";
import { TOKEN_KEY } from "../../src/app/refresh";
import { ACCOUNT_MARKS_KEY, accountMarksFrom } from "../../src/settings/account-mark";
import type { SaveSettingsResult, SettingsView } from "../../src/settings/view";
import { closeAll } from "../support/emulation";
import { startTwoCompanies } from "../support/two-companies";

const ANA = "ana@example.com";
const LUIS = "luis@example.com";
let sandbox: RunningSandbox;
let em: Emulator;

beforeAll(async () => {
  ({ sandbox, em } = await startTwoCompanies([ANA, LUIS], { seed: 11, funds: 6, reports: 4 }));
}, 240_000);

afterAll(() => closeAll(em, sandbox));

function run<T>(user: string, name: string, ...args: unknown[]): T {
  const out = em.tryRun(name, args, { as: "script.run", user });
  if (!out.ok) throw new Error(`${name} as ${user} failed: ${out.error}`);
  return out.result as T;
}

describe("the Settings form's token, checked against the account mark", () => {
  it("another account's token pasted by Luis is refused, nothing saved; the marked account's is saved", () => {
    const [alpha, beta] = [sandbox.companies[0], sandbox.companies[1]];
    if (!alpha || !beta) throw new Error("the sandbox serves two accounts");
    storeConnection(em, { apiUrl: sandbox.url, token: alpha.token, adminId: alpha.adminId }, ANA);
    expect(run<{ ok: boolean }>(ANA, "testSettingsConnection", {}).ok).toBe(true);
    const marks = accountMarksFrom(em.documentPropertiesData.values.get(ACCOUNT_MARKS_KEY) ?? null);
    expect(Object.keys(marks)).toEqual(["c0"]);

    const view = run<SettingsView>(LUIS, "getSettingsView");
    const refused = run<SaveSettingsResult>(LUIS, "saveSettings", view.form, beta.token);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.problems).toEqual([
      { field: "token", message: expect.stringContaining("opens another account") },
    ]);
    expect(em.userPropertiesOf(LUIS).values.get(TOKEN_KEY)).toBeUndefined();

    const saved = run<SaveSettingsResult>(LUIS, "saveSettings", view.form, alpha.token);
    expect(saved.ok, JSON.stringify(saved)).toBe(true);
    expect(em.userPropertiesOf(LUIS).values.get(TOKEN_KEY)).toBe(alpha.token);
  });
});
