/**
 * A record carries the company its request went to (absent: the first, "c0"): an unsettled
 * write holds only its own company's fund, since fund Ids repeat from one company to another.
 */
import { describe, expect, it } from "vitest";
import {
  blocks,
  finishedRecord,
  IN_FLIGHT_WINDOW_MS,
  recordCompany,
  type WriteRecord,
} from "../../src/outbox/records";
import type { WriteRequest } from "../../src/outbox/requests";
import { runOutbox } from "../../src/outbox/run";
import { FakeAudit, FakeClock, FakeLedger, FakeSheet, memoryRecords, runContext, userRow } from "./fakes";

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

describe("the Outbox run (the first company's client) and another company's record", () => {
  function setup(company?: string) {
    const ledger = new FakeLedger();
    ledger.addFund({ id: 1, balance: 100_000 });
    const sheet = new FakeSheet([userRow("Deposit", 1, { amount: 250 })]);
    const clock = new FakeClock();
    const records = memoryRecords();
    // A form's deposit on fund 1 whose answer never came, long past its in-flight window.
    records.put({
      key: "form-1",
      state: "unknown",
      source: "form",
      operation: "deposit",
      request: { operation: "deposit", fundId: 1, amount: 100 },
      fundId: 1,
      sentAt: clock.ms - 2 * IN_FLIGHT_WINDOW_MS,
      ...(company === undefined ? {} : { company }),
    });
    const context = runContext(sheet, ledger, new FakeAudit(), clock, records);
    return { ledger, sheet, records, context };
  }

  it("another company's unsettled record is neither read with this client nor holds its fund 1", () => {
    const { ledger, sheet, records, context } = setup("c1beta0001");
    runOutbox(context);
    expect(records.get("form-1")?.state).toBe("unknown");
    expect(sheet.cell(2, "state")).toBe("Done");
    expect(ledger.funds.get(1)?.balance).toBe(125_000);
  });

  it("the first company's (no company named) holds its fund 1 as before companies: the row waits", () => {
    const { ledger, records, context, sheet } = setup();
    runOutbox(context);
    expect(records.get("form-1")?.state).toBe("unknown");
    expect(sheet.cell(2, "state")).toBe("Pending");
    expect(String(sheet.cell(2, "result"))).toMatch(
      /^Waiting: an earlier request on fund 1 from the Fund sidebar/,
    );
    expect(ledger.funds.get(1)?.balance).toBe(100_000);
  });
});
