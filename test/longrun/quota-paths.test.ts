/**
 * Every path that calls the service counts its calls in the user's UrlFetch ledger (the one the
 * quota check reads), and a refresh started by hand checks the quota the way the scheduled run
 * does: refused, with a plain message, when it could not finish within what is left today.
 */
import { describe, expect, it } from "vitest";
import { ACCOUNT_KIND_KEY, LEDGER_KEY } from "../../src/app/quota";
import { writeBackPerFile } from "../writeback/harness";

const wb = writeBackPerFile();

function ledger(): { day: string; calls: number } | null {
  const text = wb.emulator.userPropertiesOf(wb.user).values.get(LEDGER_KEY);
  return text ? (JSON.parse(text) as { day: string; calls: number }) : null;
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
    user.set(LEDGER_KEY, JSON.stringify({ day: today?.day, calls: 19_995 }));
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
      /^Not started: this refresh needs about \d+ calls and only 5 of today's 20000 UrlFetch calls are left\./,
    );
    // From the sidebar too, with the same words.
    const summary = wb.sidebar("refreshFromSidebar", "reports") as { ok: boolean; message: string };
    expect(summary).toMatchObject({ ok: false, message: answers.at(-1) });
    expect(fetchedToday()).toBe(before);
    user.delete(LEDGER_KEY);
  });
});
