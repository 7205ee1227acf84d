import { describe, expect, it } from "vitest";
import {
  addCalls,
  callsToday,
  checkQuota,
  dailyQuota,
  detectAccountKind,
  estimateRefreshCalls,
  parseLedger,
  quotaDay,
} from "../../src/longrun/quota";

describe("UrlFetch quota", () => {
  it("detects the account kind from the email, unknown when empty", () => {
    expect(detectAccountKind("ana@gmail.com")).toBe("consumer");
    expect(detectAccountKind("ana@empresa.cl")).toBe("workspace");
    expect(detectAccountKind("")).toBeNull();
    expect(dailyQuota("auto", null)).toBe(20_000);
    expect(dailyQuota("auto", "workspace")).toBe(100_000);
    expect(dailyQuota("consumer", "workspace")).toBe(20_000);
  });

  it("counts calls per day and starts over the next day", () => {
    let ledger = addCalls(null, "2026-01-10", 120);
    ledger = addCalls(ledger, "2026-01-10", 30);
    expect(callsToday(ledger, "2026-01-10")).toBe(150);
    expect(callsToday(ledger, "2026-01-11")).toBe(0);
    expect(addCalls(ledger, "2026-01-11", 5)).toEqual({ day: "2026-01-11", calls: 5 });
    expect(parseLedger(JSON.stringify(ledger))).toEqual(ledger);
    expect(parseLedger("nope")).toBeNull();
    expect(() => addCalls(ledger, "2026-01-10", -1)).toThrow("calls: must be a whole number ≥ 0");
  });

  it("counts days in Pacific time, as Google's quotas", () => {
    // 07:59 UTC is still the day before in Los Angeles (UTC-8 in winter, UTC-7 in summer).
    expect(quotaDay(Date.UTC(2026, 0, 11, 7, 59))).toBe("2026-01-10");
    expect(quotaDay(Date.UTC(2026, 0, 11, 8, 0))).toBe("2026-01-11");
    expect(quotaDay(Date.UTC(2026, 6, 11, 6, 59), -420)).toBe("2026-07-10");
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
