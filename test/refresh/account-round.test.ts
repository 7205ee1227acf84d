/**
 * The account check's read rides in the first batch of each execution when the reader sends
 * reads of several kinds together, as the API client does (src/refresh/run/account.ts): no round
 * of its own, one place of that batch taken, and its answer checked before anything of the
 * batch is used, so answers of another account still write nothing, in a first execution and in
 * a continued one. A refresh of selected rows carries it the same way.
 */
import { describe, expect, it } from "vitest";
import {
  type RefreshCursor,
  refreshSelection,
  runRefreshSteps,
  type Selection,
  startCursor,
} from "../../src/refresh/engine";
import { OtherAccount } from "../../src/refresh/run/account";
import type { AccountMark } from "../../src/settings/account-mark";
import {
  accountService,
  type FakeService,
  otherMark,
  ownMark,
  refreshSetup,
  smallRefreshOptions,
} from "./fakes";

function setup(mark?: AccountMark, batchSize = 4) {
  // Reports over three one-year pieces, each of two pages.
  const window = { reportWindow: { since: "2022-01-01", until: "2024-06-30" } };
  const account = mark ? { account: { company: "Beta", mark } } : {};
  // The reader sends reads of several kinds together, as the API client does.
  return refreshSetup(accountService(), { ...smallRefreshOptions(), ...window, batchSize }, account, true);
}
const never = () => false;
const writesOf = (sheets: ReturnType<typeof setup>["sheets"]) =>
  Object.fromEntries(Object.entries(sheets).map(([k, s]) => [k, s.writes]));

/** A refresh of `kind` with the account's own mark, paused once `steps` batches were sent. */
function pausedAfter(kind: "all" | "reports", steps: number) {
  const first = setup(ownMark());
  let sent = 0;
  const paused = runRefreshSteps(
    { ...first.deps, onStep: () => sent++ },
    startCursor(kind),
    () => sent >= steps,
  );
  expect(paused.finished).toBe(false);
  return { first, cursor: paused.cursor as RefreshCursor, writes: writesOf(first.sheets) };
}

/** The continuation with another account's token: it throws after one batch, and writes nothing. */
function otherAccountContinues(first: ReturnType<typeof setup>, cursor: RefreshCursor) {
  const writes = writesOf(first.sheets);
  const fingerprints = new Map(first.store.data);
  first.service.batches = [];
  const next = { ...first.deps, account: { company: "Beta", mark: otherMark() } };
  expect(() => runRefreshSteps(next, cursor, never)).toThrow(OtherAccount);
  expect(first.service.batches).toHaveLength(1);
  expect(writesOf(first.sheets)).toEqual(writes);
  expect(first.store.data).toEqual(fingerprints);
  return first.service.batches[0];
}

/** Requests of each batch the service received. */
const sizes = (service: FakeService) => service.batches.map((b) => b.size);

describe("the account check in the first batch", () => {
  it("rides with the first reads: as many batches as without a mark, one request more", () => {
    // Five requests a batch: the first (the funds' first page and three report pieces') has room.
    const plain = setup(undefined, 5);
    const unmarked = runRefreshSteps(plain.deps, startCursor("all"), never);
    const marked = setup(ownMark(), 5);
    const result = runRefreshSteps(marked.deps, startCursor("all"), never);
    expect(result.finished).toBe(true);
    expect(result.records).toBe(unmarked.records);
    expect(result.requests).toBe(unmarked.requests + 1);
    expect(result.minimumRequests).toBe(unmarked.minimumRequests + 1);
    expect(marked.service.batches).toHaveLength(plain.service.batches.length);
    // The first batch: the check (the oldest funds), then the funds' first page, then reports.
    expect(marked.service.batches[0]?.kinds).toEqual([
      "getFunds",
      "getFunds",
      "getExpenseReports",
      "getExpenseReports",
      "getExpenseReports",
    ]);
    expect(Math.max(...sizes(marked.service))).toBeLessThanOrEqual(5);
    expect(marked.sheets.funds.values).toEqual(plain.sheets.funds.values);
    expect(marked.sheets.transactions.values).toEqual(plain.sheets.transactions.values);
    expect(marked.sheets.reports.values).toEqual(plain.sheets.reports.values);
  });

  it("takes a place of a full first batch, never a batch of its own", () => {
    const plain = setup();
    runRefreshSteps(plain.deps, startCursor("all"), never);
    const marked = setup(ownMark());
    expect(runRefreshSteps(marked.deps, startCursor("all"), never).finished).toBe(true);
    expect(marked.service.batches[0]?.kinds?.slice(0, 2)).toEqual(["getFunds", "getFunds"]);
    expect(Math.max(...sizes(marked.service))).toBeLessThanOrEqual(4);
    // Every batch full before: the request more makes at most one batch more, at the end.
    expect(marked.service.batches.length).toBeLessThanOrEqual(plain.service.batches.length + 1);
  });

  it("writes nothing when the answers are another account's: one batch sent, nothing kept", () => {
    const { service, sheets, store, deps } = setup(otherMark());
    expect(() => runRefreshSteps(deps, startCursor("all"), never)).toThrow(OtherAccount);
    expect(service.batches).toHaveLength(1);
    expect(service.batches[0]?.kinds).toContain("getFunds");
    expect(Object.values(sheets).every((s) => s.writes === 0)).toBe(true);
    expect(store.data.size).toBe(0);
  });

  it("rides in a continued execution's first batch, and another account's answers write nothing", () => {
    // Paused in the movements (the funds written, some funds' movements still to fetch).
    const { first, cursor } = pausedAfter("all", 3);
    expect(cursor.stages[0]).toBe("transactions");
    expect(cursor.pendingFundIds?.length).toBeGreaterThan(4);
    // The token now opens another account: the continuation's first batch, check included.
    expect(otherAccountContinues(first, cursor)?.kinds).toEqual([
      "getFunds",
      "getFund",
      "getFund",
      "getFund",
    ]);

    // With the account's own mark: the check in the same first batch, three funds after it, to the end.
    first.service.batches = [];
    const done = runRefreshSteps(first.deps, cursor, never);
    expect(done.finished).toBe(true);
    expect(first.service.batches[0]?.kinds).toEqual(["getFunds", "getFund", "getFund", "getFund"]);
    expect(first.service.batches.filter((b) => b.kinds?.includes("getFunds"))).toHaveLength(1);
    expect(Math.max(...sizes(first.service))).toBeLessThanOrEqual(4);
  });

  it("in a continued list, rides with the pages read again and writes nothing for another account", () => {
    // Paused within the reports' pages, after their first pages (each piece has two).
    const { first, cursor } = pausedAfter("reports", 1);
    expect(cursor.list).toBeDefined();
    expect(otherAccountContinues(first, cursor)?.kinds).toContain("getFunds");
  });
});

describe("the account check of a refresh of selected rows", () => {
  const funds: Selection = { target: "funds", ids: [1, 2, 3, 4, 5] };
  /** What each batch the service received asked for. */
  const rounds = (service: FakeService) => service.batches.map((b) => b.kinds ?? `${b.endpoint}×${b.size}`);

  it("rides first in the first batch: as many rounds as without a mark", () => {
    const plain = setup();
    refreshSelection(plain.deps, funds);
    expect(rounds(plain.service)).toEqual(["getFund×4", "getFund×1"]);
    const marked = setup(ownMark());
    const result = refreshSelection(marked.deps, funds);
    // The check, then three funds; the two others in the next round (not a round of its own).
    expect(rounds(marked.service)).toEqual([["getFunds", "getFund", "getFund", "getFund"], "getFund×2"]);
    expect(result.records).toBe(refreshSelection(plain.deps, funds).records);
    expect(marked.sheets.funds.values).toEqual(plain.sheets.funds.values);
    expect(marked.sheets.transactions.values).toEqual(plain.sheets.transactions.values);
  });

  it("rides with selected reports too: one round for three reports", () => {
    const marked = setup(ownMark());
    refreshSelection(marked.deps, { target: "reports", ids: [1000, 1001, 1002] });
    expect(rounds(marked.service)).toEqual([
      ["getFunds", "getExpenseReport", "getExpenseReport", "getExpenseReport"],
    ]);
    expect(marked.sheets.reports.values.slice(1)).toHaveLength(3);
  });

  it("writes nothing when the answers are another account's: one round sent, nothing kept", () => {
    const { service, sheets, store, deps } = setup(otherMark());
    expect(() => refreshSelection(deps, funds)).toThrow(OtherAccount);
    expect(service.batches).toHaveLength(1);
    expect(Object.values(sheets).every((s) => s.writes === 0)).toBe(true);
    expect(store.data.size).toBe(0);
  });

  it("is a round of its own, first, where the reader sends one kind a batch", () => {
    const mark = { account: { company: "Beta", mark: ownMark() } };
    const alone = refreshSetup(accountService(), { ...smallRefreshOptions(), batchSize: 4 }, mark);
    refreshSelection(alone.deps, funds);
    expect(rounds(alone.service)).toEqual(["getFunds×1", "getFund×4", "getFund×1"]);
    const other = refreshSetup(accountService(), smallRefreshOptions(), {
      account: { company: "Beta", mark: otherMark() },
    });
    expect(() => refreshSelection(other.deps, funds)).toThrow(OtherAccount);
    expect(rounds(other.service)).toEqual(["getFunds×1"]);
  });
});
