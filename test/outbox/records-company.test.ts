/**
 * A record carries the company its request went to (absent: the first, "c0"): an unsettled
 * write holds only its own company's fund, since fund Ids repeat from one company to another.
 */
import { describe, expect, it } from "vitest";
import { blocks, finishedRecord, recordCompany, type WriteRecord } from "../../src/outbox/records";
import type { WriteRequest } from "../../src/outbox/requests";

const deposit = { operation: "deposit", fundId: 5001, amount: 100 } as unknown as WriteRequest;
const unsettled = (company?: string): WriteRecord => ({
  key: `k-${company ?? "none"}`,
  state: "unknown",
  source: "form",
  operation: "deposit",
  request: deposit,
  fundId: 5001,
  sentAt: 1,
  ...(company === undefined ? {} : { company }),
});

describe("records per company", () => {
  it("a record without a company is the first company's", () => {
    expect(recordCompany(unsettled())).toBe("c0");
    expect(recordCompany(unsettled("c1beta0001"))).toBe("c1beta0001");
  });

  it("an unsettled write holds its own company's fund 5001, never another's", () => {
    expect(blocks(unsettled(), deposit)).toBe(true);
    expect(blocks(unsettled(), deposit, "c0")).toBe(true);
    expect(blocks(unsettled(), deposit, "c1beta0001")).toBe(false);
    expect(blocks(unsettled("c1beta0001"), deposit)).toBe(false);
    expect(blocks(unsettled("c1beta0001"), deposit, "c1beta0001")).toBe(true);
  });

  it("a finished record keeps its company", () => {
    expect(finishedRecord(unsettled("c1beta0001"), "done", 5).company).toBe("c1beta0001");
    expect("company" in finishedRecord(unsettled(), "done", 5)).toBe(false);
  });
});
