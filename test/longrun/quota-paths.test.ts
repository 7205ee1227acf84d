/**
 * Every path that calls the service counts its calls in the user's UrlFetch ledger (the one the
 * quota check reads), and a refresh started by hand checks the quota the way the scheduled run
 * does: refused, with a plain message, when it could not finish within what is left today.
 */
import { describe, expect, it } from "vitest";
import { ACCOUNT_KIND_KEY, LEDGER_KEY } from "../../src/app/quota";
import { minutesToPacificMidnight } from "../emulator/helpers";
import { writeBackPerFile } from "../writeback/harness";

const wb = writeBackPerFile();

function ledger(): { since: number; calls: number } | null {
  const text = wb.emulator.userPropertiesOf(wb.user).values.get(LEDGER_KEY);
  return text ? (JSON.parse(text) as { since: number; calls: number }) : null;
}

/** What the emulated UrlFetchApp saw today for this user: the truth the ledger must match. */
const fetchedToday = () => wb.emulator.urlFetchToday(wb.user);

describe("UrlFetch calls counted on every path", () => {
  it("menu and sidebar refreshes, the connection test, the fund sidebar and the Outbox", async () => {
    const steps: [string, () => unknown][] = [
      ["menu refresh", () => expect(wb.menu("refreshAll").ok).toBe(true)],
      ["sidebar refresh", () => wb.sidebar("refreshFromSidebar", "funds")],
      ["settings sidebar test", () => wb.sidebar("testSettingsConnection", {})],
    ];
    let before = fetchedToday();
    for (const [name, step] of steps) {
      step();
      expect(fetchedToday(), `${name} made calls`).toBeGreaterThan(before);
      expect(ledger()?.calls, name).toBe(fetchedToday());
      before = fetchedToday();
    }
    const fund = (await wb.state()).funds.find((f) => f.status === 1);
    expect(fund).toBeDefined();
    wb.sidebar("getFundSidebarView", { fundId: String(fund?.id) });
    expect(fetchedToday()).toBeGreaterThan(before);
    expect(ledger()?.calls, "fund sidebar").toBe(fetchedToday());
    before = fetchedToday();

    expect(wb.menu("createOutboxSheet").ok).toBe(true);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund?.id, amount: "1.00" }]);
    expect(wb.menu("runOutbox", ["YES"]).ok).toBe(true);
    expect(fetchedToday()).toBeGreaterThan(before);
    expect(ledger()?.calls, "outbox").toBe(fetchedToday());
  });

  it("a refresh from the menu that would go past today's quota is refused before any call", () => {
    const user = wb.emulator.userPropertiesOf(wb.user).values;
    const today = ledger();
    expect(today).not.toBeNull();
    user.set(ACCOUNT_KIND_KEY, "consumer");
    user.set(LEDGER_KEY, JSON.stringify({ since: today?.since, calls: 19_995 }));
    const before = fetchedToday();
    const answers: string[] = [];
    const toasts = wb.emulator.ui.toasts.length;
    const out = wb.menu("refreshAll");
    expect(out.ok).toBe(true);
    // From the menu, said once, in an alert.
    answers.push(...wb.emulator.ui.dialogs.map((d) => d.prompt));
    expect(wb.emulator.ui.toasts.slice(toasts).map((t) => t.message)).not.toContain(answers.at(-1));
    expect(fetchedToday()).toBe(before);
    expect(answers.at(-1)).toMatch(
      /^Not started: this refresh needs about \d+ calls and only 5 of the 20000 UrlFetch calls allowed in 24 hours are left\./,
    );
    // From the sidebar too, with the same words.
    const summary = wb.sidebar("refreshFromSidebar", "reports") as { ok: boolean; message: string };
    expect(summary).toMatchObject({ ok: false, message: answers.at(-1) });
    expect(fetchedToday()).toBe(before);
    user.delete(LEDGER_KEY);
  });

  it("counts a window of 24 hours from the first call: right after Pacific midnight a nearly spent quota is still spent", () => {
    const user = wb.emulator.userPropertiesOf(wb.user).values;
    user.set(ACCOUNT_KIND_KEY, "consumer");
    // The emulator's own 24-hour window, opened by the earlier tests' calls, is over first: else,
    // run at the wrong hour of the day, it would close in the middle of the last refresh below.
    wb.emulator.advanceTime(24 * 3_600_000 + 60_000);
    // Five minutes past the next midnight in Los Angeles.
    wb.emulator.advanceTime((minutesToPacificMidnight(wb.emulator.now().getTime()) + 5) * 60_000);
    // The window's first call was 20 minutes ago, the day before in Los Angeles.
    const since = wb.emulator.now().getTime() - 20 * 60_000;
    user.set(LEDGER_KEY, JSON.stringify({ since, calls: 19_995 }));
    const before = fetchedToday();
    const view = wb.sidebar("getScheduleView") as { quota: { used: number; remaining: number } };
    expect(view.quota).toMatchObject({ used: 19_995, remaining: 5 });
    expect(wb.menu("refreshAll").ok).toBe(true);
    expect(fetchedToday()).toBe(before);
    expect(wb.emulator.ui.dialogs.at(-1)?.prompt).toMatch(
      /^Not started: .* only 5 of the 20000 UrlFetch calls allowed in 24 hours/,
    );
    // 24 hours after that first call the quota frees; the next call opens a new window.
    wb.emulator.advanceTime(since + 24 * 3_600_000 - wb.emulator.now().getTime() + 1_000);
    const freed = wb.sidebar("getScheduleView") as { quota: { used: number } };
    expect(freed.quota.used).toBe(0);
    expect(wb.menu("refreshAll").ok).toBe(true);
    // Google's window (the emulator's) and the ledger's both opened with this refresh's first call.
    expect(fetchedToday()).toBeGreaterThan(0);
    expect(ledger()?.calls).toBe(fetchedToday());
    expect(ledger()?.since).toBeGreaterThanOrEqual(since + 24 * 3_600_000);
    expect(ledger()?.calls).toBeGreaterThan(0);
    user.delete(LEDGER_KEY);
  });

  it("plans with a consumer account's quota until the user says otherwise, whatever the e-mail's domain", () => {
    const user = wb.emulator.userPropertiesOf(wb.user).values;
    user.delete(ACCOUNT_KIND_KEY);
    // The user's address is on a company domain: not a sign of a Workspace account.
    expect(wb.user).not.toMatch(/@gmail\.com$/);
    const view = wb.sidebar("getScheduleView") as {
      quota: { limit: number };
      accountKind: string;
      accountKindSource: string;
    };
    expect(view).toMatchObject({
      accountKind: "auto",
      accountKindSource: "assumed",
      quota: { limit: 20_000 },
    });
    const chosen = wb.sidebar("saveSchedulePreferences", { accountKind: "workspace" }) as typeof view;
    expect(chosen).toMatchObject({
      accountKind: "workspace",
      accountKindSource: "setting",
      quota: { limit: 100_000 },
    });
    user.delete(ACCOUNT_KIND_KEY);
  });
});
