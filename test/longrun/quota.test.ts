import { describe, expect, it } from "vitest";
import {
  accountKind,
  addCalls,
  callsInWindow,
  checkQuota,
  dailyQuota,
  deploymentAccountKind,
  estimateRefreshCalls,
  parseLedger,
  QUOTA_WINDOW_MS,
  quotaResetsAt,
} from "../../src/longrun/quota";

const HOUR = 3_600_000;
const t0 = Date.UTC(2026, 0, 11, 7, 50); // 23:50 in Los Angeles, ten minutes before midnight

describe("UrlFetch quota", () => {
  it("plans with the consumer quota unless the user set the account kind", () => {
    expect(accountKind("auto")).toEqual({ kind: "consumer", source: "assumed" });
    expect(accountKind("workspace")).toEqual({ kind: "workspace", source: "setting" });
    expect(dailyQuota("auto")).toBe(20_000);
    expect(dailyQuota("workspace")).toBe(100_000);
    expect(dailyQuota("consumer")).toBe(20_000);
  });

  it("takes the deployment's default account kind for a user who has not said theirs, never over their word", () => {
    expect(deploymentAccountKind("workspace")).toBe("workspace");
    expect(deploymentAccountKind(" Workspace ")).toBe("workspace");
    for (const raw of [null, undefined, "", "consumer", "gmail", "1"])
      expect(deploymentAccountKind(raw)).toBe("consumer");
    expect(accountKind("auto", "workspace")).toEqual({ kind: "workspace", source: "deployment" });
    expect(accountKind("auto", "consumer")).toEqual({ kind: "consumer", source: "assumed" });
    expect(accountKind("consumer", "workspace")).toEqual({ kind: "consumer", source: "setting" });
    expect(dailyQuota("auto", "workspace")).toBe(100_000);
    expect(dailyQuota("consumer", "workspace")).toBe(20_000);
  });

  it("counts calls in a window of 24 hours from the first call, not by calendar day", () => {
    let ledger = addCalls(null, t0, 120);
    ledger = addCalls(ledger, t0 + 20 * 60_000, 30); // after Pacific midnight: the same window
    expect(ledger).toEqual({ since: t0, calls: 150 });
    expect(callsInWindow(ledger, t0 + 23 * HOUR)).toBe(150);
    expect(quotaResetsAt(ledger, t0 + HOUR)).toBe(t0 + QUOTA_WINDOW_MS);
    expect(callsInWindow(ledger, t0 + QUOTA_WINDOW_MS)).toBe(0);
    expect(quotaResetsAt(ledger, t0 + QUOTA_WINDOW_MS)).toBeNull();
    expect(addCalls(ledger, t0 + QUOTA_WINDOW_MS + 5, 5)).toEqual({
      since: t0 + QUOTA_WINDOW_MS + 5,
      calls: 5,
    });
    expect(parseLedger(JSON.stringify(ledger))).toEqual(ledger);
    expect(parseLedger("nope")).toBeNull();
    expect(parseLedger('{"since":1,"calls":-3}')).toBeNull();
    expect(() => addCalls(ledger, t0, -1)).toThrow("calls: must be a whole number ≥ 0");
  });

  it("reads a ledger of a Pacific calendar day as opened at that day's last moment", () => {
    const old = parseLedger(JSON.stringify({ day: "2026-01-10", calls: 19_000 }));
    expect(old?.calls).toBe(19_000);
    // Still counted the next afternoon, until 24 hours after the day's end at the latest.
    expect(callsInWindow(old, Date.UTC(2026, 0, 11, 22, 0))).toBe(19_000);
    expect(callsInWindow(old, Date.UTC(2026, 0, 12, 8, 0))).toBe(0);
  });

  it("refuses a refresh that would go past the quota and warns above 80%", () => {
    expect(checkQuota(19_000, 20_000, 1_001).verdict).toBe("refuse");
    expect(checkQuota(19_000, 20_000, 1_000).verdict).toBe("warn");
    expect(checkQuota(15_000, 20_000, 1_000).verdict).toBe("ok");
    expect(checkQuota(19_000, 20_000, 5).remaining).toBe(1_000);
  });

  it("estimates from the last complete refresh with a margin", () => {
    expect(estimateRefreshCalls(100)).toBe(110);
    expect(estimateRefreshCalls(null)).toBe(10);
  });
});
