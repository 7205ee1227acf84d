/**
 * The refresh's phases each on their own (src/refresh/run/): a state made by `startRefresh`,
 * one phase driven over it by `driveSteps` with a fake service, and what it did to the state
 * and the sheets.
 */
import { describe, expect, it } from "vitest";
import { driveSteps, type Read } from "../../src/refresh/engine";
import { fundsStage } from "../../src/refresh/run/funds";
import { transactionsStage } from "../../src/refresh/run/movements";
import { spareReportPages } from "../../src/refresh/run/send";
import { runStage, stageDone } from "../../src/refresh/run/stages";
import { pageKey, pageQuery, startRefresh } from "../../src/refresh/run/state";
import { engineOptions, FakeService, makeFund, makeReport, refreshSetup } from "./fakes";

const options = engineOptions();

function setup(mixed = false) {
  const service = new FakeService(
    Array.from({ length: 25 }, (_v, i) => makeFund(i + 1, [1000, -100 * i])),
    Array.from({ length: 30 }, (_v, i) => makeReport(1000 + i, `202${2 + (i % 3)}-0${(i % 6) + 1}-15`)),
  );
  const { sheets, store, deps } = refreshSetup(service, options, {}, mixed);
  const read = (reads: readonly Read[]) => {
    const reader = deps.reader;
    if (reader.batch) return reader.batch(reads);
    const first = reads[0];
    if (first?.kind === "fund") return reader.funds(reads.map((r) => (r as { id: number }).id));
    return reader.fundPages(reads.map((r) => (r as { query: Record<string, unknown> }).query));
  };
  return { service, sheets, store, deps, read };
}

describe("the refresh's phases alone", () => {
  it("the funds stage writes every fund and hands the whole list on to the movements", () => {
    const { sheets, deps, read } = setup();
    const run = startRefresh(deps, { v: 1, stages: ["funds"] }, () => false);
    driveSteps(fundsStage(run), read);
    expect(sheets.funds.ids()).toHaveLength(25);
    expect(run.fundList?.map((f) => f.id)).toEqual(Array.from({ length: 25 }, (_v, i) => i + 1));
    expect(run.records).toBe(25);
    expect(run.requests).toBe(3);
  });

  it("the movements stage fetches the funds the cursor names, writes their movements and keeps their fingerprints", () => {
    const { service, sheets, store, deps, read } = setup();
    const run = startRefresh(
      deps,
      { v: 1, stages: ["transactions"], pendingFundIds: [3, 7, 9] },
      () => false,
    );
    run.fundList = service.funds;
    driveSteps(transactionsStage(run), read);
    expect(service.batches).toEqual([{ endpoint: "getFund", size: 3 }]);
    expect(new Set(sheets.transactions.ids().map((k) => String(k).split("-")[0]))).toEqual(
      new Set(["3", "7", "9"]),
    );
    expect(run.cursor.pendingFundIds).toEqual([]);
    expect(store.data.size).toBeGreaterThan(0);
  });

  it("a stage stopped by the time limit leaves the cursor where the next execution goes on", () => {
    const { deps, read } = setup();
    let asked = 0;
    // Time is up once the first page is read: the funds stage stops after merging it.
    const run = startRefresh(deps, { v: 1, stages: ["funds", "transactions"] }, () => ++asked > 0);
    expect(driveSteps(runStage(run, "funds"), read)).toBe(false);
    expect(run.cursor.list).toMatchObject({ piece: 0, page: 2, pages: 3 });
    expect(run.cursor.at).toEqual({ endpoint: "getFunds", piece: 0, page: 2 });
    expect(run.refreshed).toEqual([]);
    // Done, a stage moves the cursor on and forgets where its list was.
    stageDone(run, "funds");
    expect(run.cursor).toEqual({ v: 1, stages: ["transactions"] });
    expect(run.refreshed).toEqual(["funds"]);
  });

  it("the batches name the report pages still needed, first pages first, then the pages they announced", () => {
    const { deps } = setup(true);
    const run = startRefresh(deps, { v: 1, stages: ["funds", "reports"] }, () => false);
    const pieces = run.reportQueries.length;
    expect(pieces).toBe(3);
    expect(spareReportPages(run, 10)).toEqual(run.reportQueries.map((q) => pageQuery(run, q, 1)));
    expect(spareReportPages(run, 2)).toHaveLength(2);
    // A first page known to announce two pages: its second is asked for next.
    const first = run.reportQueries[0] as Record<string, unknown>;
    run.ahead.set(pageKey(pageQuery(run, first, 1)), { items: [makeReport(1, "2022-01-15")], pages: 2 });
    expect(spareReportPages(run, 10)[0]).toEqual(pageQuery(run, first, 2));
    // None while the reports are the stage under way: they are read in their turn.
    run.cursor.stages.shift();
    expect(spareReportPages(run, 10)).toEqual([]);
  });
});
