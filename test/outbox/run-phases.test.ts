/**
 * The phases of an Outbox run (src/outbox/run/) and of its preview (src/outbox/preview/), each
 * alone over a state made by hand: what one phase does is seen without running the others.
 */
import { describe, expect, it } from "vitest";
import { ONE_COMPANY } from "../../src/outbox/companies";
import { startPreview } from "../../src/outbox/preview/state";
import { previewUnsettled } from "../../src/outbox/preview/unsettled";
import { MAX_FINISHED_RECORDS, type WriteRecord } from "../../src/outbox/records";
import type { WriteRequest } from "../../src/outbox/requests";
import { readOutboxRow, requestCells } from "../../src/outbox/rows";
import { closeRun } from "../../src/outbox/run/close";
import { confirmedAs, countConfirmations, takeConfirmed } from "../../src/outbox/run/confirmations";
import { heldFor, holdIn } from "../../src/outbox/run/holds";
import { rowInOrder } from "../../src/outbox/run/in-order";
import { markMismatchedRows } from "../../src/outbox/run/mismatched";
import { startRun } from "../../src/outbox/run/state";
import { settleUnsettled } from "../../src/outbox/run/unsettled";
import { FakeSheet, formatUtc, outboxCore, userRow } from "./fakes";

const DEPOSIT: WriteRequest = { operation: "deposit", fundId: 1, amount: 500 };

function setup(rows: ReturnType<typeof userRow>[], records: WriteRecord[] = []) {
  const core = outboxCore(rows, [{ id: 1, balance: 1_000_000, flexible: true }], { records });
  return { ...core, store: core.records };
}

/** The request cells of a row as the sheet would show it. */
function cellsOf(row: ReturnType<typeof userRow>): Record<string, string> {
  return requestCells(readOutboxRow(FakeSheet.pad(row), 2));
}

describe("holds", () => {
  it("are per company and fund, the first message stays, and a fund creation holds nothing", () => {
    const state = { held: new Map<string, string>() };
    holdIn(state, DEPOSIT, "c0", "first");
    holdIn(state, DEPOSIT, "c0", "second");
    expect(heldFor(state, { operation: "withdraw", fundId: 1, amount: 1 }, "c0")).toBe("first");
    expect(heldFor(state, DEPOSIT, "cbeta")).toBeUndefined();
    holdIn(
      state,
      { operation: "createFund", employeeId: 1, name: "A", currency: "CLP", amount: 1 },
      "c0",
      "x",
    );
    expect(state.held.size).toBe(1);
  });
});

describe("confirmations", () => {
  it("are each used once; without a confirmation every row may go", () => {
    const row = readOutboxRow(FakeSheet.pad(userRow("Deposit", 1, { amount: "5.00" })), 2);
    const counts = countConfirmations([confirmedAs(row, "new")]);
    expect(takeConfirmed(counts, row, { sameAs: "k" })).toBe(false);
    expect(takeConfirmed(counts, row, "new")).toBe(true);
    expect(takeConfirmed(counts, row, "new")).toBe(false);
    const none = countConfirmations(undefined);
    expect(takeConfirmed(none, row, "new")).toBe(true);
    expect(takeConfirmed(none, row, "new")).toBe(true);
  });
});

describe("phase 0: rows that name another row's write", () => {
  it("refuses a row carrying a done write's key without its cells, and leaves the write's row alone", () => {
    const owner = userRow("Deposit", 1, { amount: "5.00", state: "Done", operationKey: "k1" });
    const done: WriteRecord = {
      key: "k1",
      state: "done",
      source: "outbox",
      operation: "deposit",
      request: DEPOSIT,
      fundId: 1,
      cells: cellsOf(owner),
      row: 2,
      sentAt: 0,
      finishedAt: 1,
    };
    const { ledger, sheet, context } = setup(
      [owner, userRow("Deposit", 1, { amount: "9.00", state: "Done", operationKey: "k1" })],
      [done],
    );
    const state = startRun(context);
    markMismatchedRows(context, state);
    expect(state.summary.rows.map((r) => [r.rowNumber, r.state])).toEqual([[3, "Refused"]]);
    expect(state.summary.refused).toBe(1);
    expect(state.items.map((i) => i.handled)).toEqual([false, true]);
    expect(sheet.writes.map((w) => w.rowNumber)).toEqual([3]);
    expect(ledger.sent).toEqual([]);
  });
});

describe("phase 1: unsettled writes first", () => {
  const sending = (sentAt: number): WriteRecord => ({
    key: "k1",
    state: "sending",
    source: "outbox",
    operation: "deposit",
    request: DEPOSIT,
    fundId: 1,
    cells: cellsOf(userRow("Deposit", 1, { amount: "5.00" })),
    row: 2,
    sentAt,
  });

  it("a write that may still land: its row waits, its fund is held, nothing is read or sent", () => {
    const row = userRow("Deposit", 1, { amount: "5.00", state: "Sending", operationKey: "k1" });
    const { ledger, clock, context } = setup([row], []);
    context.records.put(sending(clock.ms));
    const state = startRun(context);
    expect(settleUnsettled(context, state)).toBe(true);
    expect(state.summary.rows).toMatchObject([{ rowNumber: 2, state: "Unknown" }]);
    expect(state.summary.rows[0]?.message).toMatch(/until/);
    expect([...state.held.keys()]).toEqual(["c0|fund:1"]);
    expect(state.items[0]?.handled).toBe(true);
    expect(ledger.sent).toEqual([]);
    expect(ledger.reads).toBe(0);
  });

  it("stops before settling when the run's time is up", () => {
    const { clock, context } = setup([userRow("Deposit", 1, { amount: "5.00", operationKey: "k1" })]);
    context.records.put(sending(clock.ms));
    context.budgetMs = 0;
    const state = startRun(context);
    expect(settleUnsettled(context, state)).toBe(false);
    expect(state.summary.stoppedForTime).toBe(true);
    expect(state.summary.rows).toEqual([]);
  });
});

describe("phase 2: the rows in order", () => {
  it("a pending row on a held fund stays Pending with the hold's message, nothing sent", () => {
    const { ledger, sheet, context } = setup([userRow("Deposit", 1, { amount: "5.00" })]);
    const state = startRun(context);
    state.held.set("c0|fund:1", "Waiting: row 7 first.");
    rowInOrder(context, state, state.items[0] as (typeof state.items)[number]);
    expect(state.summary.rows).toEqual([
      { rowNumber: 2, state: "Pending", message: "Waiting: row 7 first." },
    ]);
    expect(state.summary.skipped).toBe(1);
    expect(ledger.sent).toEqual([]);
    expect(sheet.rows[1]?.[0]).toBe("Pending");
  });

  it("a row the confirmation showed is sent; the same row again is not, its confirmation used up", () => {
    const typed = userRow("Deposit", 1, { amount: "5.00" });
    const { ledger, context } = setup([typed, typed]);
    context.confirmed = [confirmedAs(readOutboxRow(FakeSheet.pad(typed), 2), "new")];
    const state = startRun(context);
    for (const item of state.items) rowInOrder(context, state, item);
    expect(ledger.sent).toEqual([DEPOSIT]);
    expect(state.summary.rows.map((r) => [r.rowNumber, r.state])).toEqual([
      [2, "Done"],
      [3, "Pending"],
    ]);
    expect(state.summary.rows[1]?.message).toMatch(/confirm/i);
  });
});

describe("closing the run", () => {
  it("drops the finished records beyond the newest kept", () => {
    const records: WriteRecord[] = Array.from({ length: MAX_FINISHED_RECORDS + 5 }, (_, i) => ({
      key: `k${i}`,
      state: "done",
      source: "outbox",
      operation: "deposit",
      request: DEPOSIT,
      fundId: 1,
      sentAt: i,
      finishedAt: i,
    }));
    const { store, context } = setup([], records);
    const state = startRun(context);
    const summary = closeRun(context, state);
    expect(summary).toBe(state.summary);
    expect(store.all()).toHaveLength(MAX_FINISHED_RECORDS);
    expect(state.records.size).toBe(MAX_FINISHED_RECORDS);
    expect(state.records.has("k0")).toBe(false);
  });
});

describe("the preview's first phase: unsettled writes", () => {
  it("lists an interrupted write to settle, confirms its resend and counts its money", () => {
    const shown = userRow("Deposit", 1, { amount: "5.00", state: "Unknown", operationKey: "k1" });
    const row = readOutboxRow(FakeSheet.pad(shown), 2);
    const record: WriteRecord = {
      key: "k1",
      state: "unknown",
      source: "outbox",
      operation: "deposit",
      request: DEPOSIT,
      fundId: 1,
      cells: requestCells(row),
      row: 2,
      sentAt: 0,
    };
    const state = startPreview({
      rows: [row],
      fundFacts: () => ({ currency: "CLP", balance: 0, flexible: true, status: 3 }),
      context: { format: formatUtc, now: new Date(Date.UTC(2026, 0, 1)), adminId: 1 },
      recordList: [record],
      directory: ONE_COMPANY,
    });
    previewUnsettled(state);
    expect(state.preview.toSettle).toMatchObject([{ rowNumber: 2, request: DEPOSIT, changes: null }]);
    expect(state.preview.confirmed).toEqual([confirmedAs(row, { interrupted: "k1" })]);
    expect([...state.totals.values()]).toMatchObject([
      { operation: "deposit", currency: "CLP", amount: 500 },
    ]);
    expect(state.preview.warnings).toMatchObject([{ kind: "blockedFund", rowNumber: 2, fundId: 1 }]);
    expect(state.preview.toSend).toEqual([]);
  });
});
