/** The tuning settings the sidebar does not show keep their rules in src/settings/, like the others. */
import { describe, expect, it } from "vitest";
import { auditMaxRows, DEFAULT_BATCH_SIZE, fetchBatchSize, SettingsError } from "../../src/settings/tuning";

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
