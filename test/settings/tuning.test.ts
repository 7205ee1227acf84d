/** The tuning settings the sidebar does not show keep their rules in src/settings/, like the others. */
import { describe, expect, it } from "vitest";
import { IN_FLIGHT_WINDOW_MS, inFlightUntil, MIN_IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import {
  auditMaxRows,
  DEFAULT_BATCH_SIZE,
  fetchBatchSize,
  inFlightWindowMs,
  MIN_IN_FLIGHT_WINDOW_SECONDS,
  SettingsError,
} from "../../src/settings/tuning";

describe("fetchBatchSize", () => {
  it("is 25 when empty, and any whole number from 1 to 100 when set", () => {
    expect(fetchBatchSize({})).toBe(DEFAULT_BATCH_SIZE);
    expect(fetchBatchSize({ fetchBatchSize: " " })).toBe(25);
    expect(fetchBatchSize({ fetchBatchSize: "1" })).toBe(1);
    expect(fetchBatchSize({ fetchBatchSize: "100" })).toBe(100);
  });
  it("refuses anything else, naming the field and the rule", () => {
    for (const bad of ["0", "101", "2.5", "-3", "ten"]) {
      expect(() => fetchBatchSize({ fetchBatchSize: bad })).toThrow(SettingsError);
      expect(() => fetchBatchSize({ fetchBatchSize: bad })).toThrow(
        `fetchBatchSize must be a whole number from 1 to 100 (got "${bad}").`,
      );
    }
  });
});

describe("auditMaxRows", () => {
  it("is the audit's own bound (null) when empty or outside 10 to 50,000, so auditing never stops", () => {
    expect(auditMaxRows({})).toBeNull();
    expect(auditMaxRows({ auditMaxRows: "9" })).toBeNull();
    expect(auditMaxRows({ auditMaxRows: "50001" })).toBeNull();
    expect(auditMaxRows({ auditMaxRows: "many" })).toBeNull();
    expect(auditMaxRows({ auditMaxRows: "10" })).toBe(10);
    expect(auditMaxRows({ auditMaxRows: " 2000 " })).toBe(2000);
  });
});

describe("inFlightWindowSeconds (script property tuning.inFlightWindowSeconds)", () => {
  it("is the Outbox's 3 minutes when unset, and any whole number of seconds from 120 to 3600", () => {
    expect(inFlightWindowMs(null)).toBe(IN_FLIGHT_WINDOW_MS);
    expect(inFlightWindowMs(" ")).toBe(180_000);
    expect(inFlightWindowMs("120")).toBe(120_000);
    expect(inFlightWindowMs("600")).toBe(600_000);
    expect(inFlightWindowMs("3600")).toBe(3_600_000);
    // The floor is the one a stored record is held to as well.
    expect(MIN_IN_FLIGHT_WINDOW_SECONDS * 1000).toBe(MIN_IN_FLIGHT_WINDOW_MS);
  });
  it("refuses a window below the floor, naming the setting and the rule", () => {
    for (const bad of ["119", "60", "0", "3601", "2.5", "-200", "3 min"]) {
      expect(() => inFlightWindowMs(bad)).toThrow(SettingsError);
      expect(() => inFlightWindowMs(bad)).toThrow(
        `inFlightWindowSeconds must be a whole number of seconds from 120 to 3600 (got "${bad}")`,
      );
    }
  });
  it("holds a record to the floor even when its stored window is below it", () => {
    const record = {
      key: "k",
      state: "sending" as const,
      source: "outbox" as const,
      operation: "deposit" as const,
      sentAt: 1_000,
    };
    expect(inFlightUntil(record)).toBe(1_000 + IN_FLIGHT_WINDOW_MS);
    expect(inFlightUntil({ ...record, windowMs: 600_000 })).toBe(601_000);
    expect(inFlightUntil({ ...record, windowMs: 5_000 })).toBe(1_000 + MIN_IN_FLIGHT_WINDOW_MS);
  });
});
