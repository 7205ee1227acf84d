/**
 * A refresh of several companies, one lane each: their reads go out in the same rounds (one
 * fetchAll per pass), so two companies take no more rounds than the larger alone; each lane
 * writes only its own company's rows; a lane that fails leaves the others and its own rows; a
 * continuation goes on per lane, a re-pointed company's lane starting again.
 */
import { describe, expect, it } from "vitest";
import type { ReadRound } from "../../src/api/client";
import type { Round } from "../../src/api/rounds";
import type { Read, RefreshOptions, RefreshSheets, SheetTarget } from "../../src/refresh/engine";
import { startCursor } from "../../src/refresh/engine";
import {
  type Lane,
  type LanesCursor,
  laneEntry,
  laneSheets,
  laneStore,
  lanesCursor,
  runLanes,
} from "../../src/refresh/lanes";
import { lanesPercent } from "../../src/refresh/paused";
import type { StartedReads } from "../../src/refresh/reader";
import { applyToSheet } from "../../src/sheets/apply";
import type { CellValue } from "../../src/sheets/cells";
import type { SheetCompany } from "../../src/sheets/company";
import { FakeService, makeFund, memorySheets, memoryStore, readerOf } from "./fakes";

const ALPHA: SheetCompany = { key: "c0", name: "Alpha", formerNames: [] };
const BETA: SheetCompany = { key: "c1", name: "Beta", formerNames: [] };

const options: RefreshOptions = {
  pageSize: 100,
  batchSize: 25,
  fundFilters: {},
  reportWindow: { since: "2024-01-01", until: "2024-12-31" },
  reportFilters: {},
  missingRows: "keep",
};

/** Funds 5001… (ids overlap between companies), titled by company. */
const fundsOf = (company: string, count: number, first = 5001) =>
  Array.from({ length: count }, (_, i) => ({ ...makeFund(first + i), title: `${company} ${first + i}` }));

/**
 * The rounds sent: each `send` is one pass of runRounds (one fetchAll), its requests counted by
 * lane. Each lane's reads are answered by its FakeService, or fail as a service down does.
 */
function transport() {
  const passes: Record<string, number>[] = [];
  const send = (rounds: Round[]) => {
    const pass: Record<string, number> = {};
    for (const round of rounds) {
      const lane = (round as Round & { lane: string }).lane;
      pass[lane] = (pass[lane] ?? 0) + round.requests().length;
      round.receive({ responses: [] }, 0);
    }
    passes.push(pass);
  };
  return { passes, send };
}

function laneReader(key: string, service: FakeService, down: { now: boolean }) {
  const base = readerOf(service, true) as ReturnType<typeof readerOf> & {
    batch: (reads: readonly Read[]) => ReturnType<NonNullable<ReturnType<typeof readerOf>["batch"]>>;
  };
  return {
    ...base,
    start(reads: readonly Read[]): StartedReads {
      let done = false;
      const round = {
        lane: key,
        requests: () => reads.map(() => ({ url: `https://${key}.test/v1/read`, method: "get" })),
        receive: () => {
          done = true;
        },
        delay: () => 0,
        done: () => done,
        results: () => [],
      };
      return {
        round: round as unknown as ReadRound,
        results: () =>
          down.now
            ? reads.map(() => ({ failed: new Error(`${key}: the service answered HTTP 503.`) }))
            : base.batch(reads),
      };
    },
  };
}

/**
 * One workbook shared by every lane, its rows keyed by company once it has company columns;
 * rows a refresh covers and no longer finds are removed (the mode that would lose most).
 */
function workbook() {
  const memory = memorySheets();
  const shared: RefreshSheets = {
    apply: (target, update) => {
      const plan = applyToSheet(memory.sheets[target], update, {
        language: "en",
        mode: "remove",
        missingNote: "gone",
      });
      return plan.counts.updated + plan.counts.added;
    },
    isEmpty(target: SheetTarget, companyKey?: string) {
      const sheet = memory.sheets[target];
      const at = (sheet.keys ?? []).indexOf("companyKey");
      if (sheet.values.length <= 1) return true;
      if (companyKey === undefined || at < 0) return false;
      return !sheet.values.slice(1).some((row) => row[at] === companyKey);
    },
    layout: (target) => memory.sheets[target].keys,
  };
  return { ...memory, shared };
}

function setup(sizes: Record<string, number>) {
  const book = workbook();
  const companies = [ALPHA, BETA];
  const services: Record<string, FakeService> = {};
  const down: Record<string, { now: boolean }> = {};
  const stores: Record<string, ReturnType<typeof memoryStore>> = {};
  const document = memoryStore();
  const lanes: Lane[] = companies
    .filter((c) => sizes[c.key] !== undefined)
    .map((company) => {
      const service = new FakeService(fundsOf(company.name, sizes[company.key] as number), []);
      services[company.key] = service;
      down[company.key] = { now: false };
      stores[company.key] = document;
      return {
        key: company.key,
        name: company.name,
        entry: laneEntry(company.key, `https://${company.key}.test/v1`),
        deps: {
          reader: laneReader(company.key, service, down[company.key] as { now: boolean }),
          sheets: laneSheets(book.shared, company, true, companies),
          fingerprints: laneStore(document, company.key),
          options,
        },
      };
    });
  return { book, services, down, lanes, document };
}

const fundRows = (book: ReturnType<typeof workbook>) => {
  const sheet = book.sheets.funds;
  const keys = sheet.keys ?? [];
  const col = (key: string) => keys.indexOf(key);
  return sheet.values
    .slice(1)
    .map((r) => [r[0], r[col("company")], r[col("companyKey")], r[col("title")]] as CellValue[]);
};

describe("runLanes", () => {
  it("moves the lanes in lockstep: every pass carries both companies' reads, no more passes than the larger alone", () => {
    const alone = setup({ c1: 60 });
    const soloSend = transport();
    runLanes(alone.lanes, lanesCursor(null, "transactions", alone.lanes), () => false, soloSend.send);

    const both = setup({ c0: 3, c1: 60 });
    const { passes, send } = transport();
    const result = runLanes(both.lanes, lanesCursor(null, "transactions", both.lanes), () => false, send);
    expect(result.finished).toBe(true);
    expect(result.lanes.map((l) => l.error)).toEqual([undefined, undefined]);
    expect(passes.length).toBe(soloSend.passes.length);
    expect(passes.length).toBeLessThanOrEqual(Math.max(soloSend.passes.length, 3));
    // Both lanes' first reads in the first pass; the batch size is per lane (25 each).
    expect(passes[0]).toEqual({ c0: 1, c1: 1 });
    expect(passes[1]).toEqual({ c0: 3, c1: 25 });
    expect(Math.max(...passes.map((p) => p.c1 ?? 0))).toBeLessThanOrEqual(25);
    // Each service was asked only for its own company's reads.
    expect(both.services.c0?.calls("getFund") ?? 0).toBe(0); // batches of the mixed reader
    expect(both.services.c0?.batches.every((b) => b.size <= 25)).toBe(true);
  });

  it("writes two rows for the same fund id of two companies, each with its own company's data", () => {
    const { book, lanes } = setup({ c0: 2, c1: 1 });
    runLanes(lanes, lanesCursor(null, "transactions", lanes), () => false, transport().send);
    expect(fundRows(book)).toEqual([
      [5001, "Alpha", "c0", "Alpha 5001"],
      [5002, "Alpha", "c0", "Alpha 5002"],
      [5001, "Beta", "c1", "Beta 5001"],
    ]);
    // Movements too, keyed by (company, movement): both companies' 5001-1.
    const tx = book.sheets.transactions;
    const keyAt = (tx.keys ?? []).indexOf("companyKey");
    expect(tx.values.slice(1).map((r) => `${r[keyAt]}|${r[0]}`)).toEqual([
      "c0|5001-1",
      "c0|5002-1",
      "c1|5001-1",
    ]);
  });

  it("a lane that fails ends alone: its rows stay as they were, the others refresh", () => {
    const { book, lanes, services, down, document } = setup({ c0: 2, c1: 2 });
    runLanes(lanes, lanesCursor(null, "all", lanes), () => false, transport().send);
    const betaBefore = fundRows(book).filter((r) => r[2] === "c1");
    const betaPrints = document.data.get("refresh.fundFingerprints.c1");
    // Both change; Beta is down.
    for (const service of Object.values(services))
      service.funds = service.funds.map((f) => ({ ...f, title: `${f.title} (new)` }));
    (down.c1 as { now: boolean }).now = true;
    const result = runLanes(lanes, lanesCursor(null, "all", lanes), () => false, transport().send);
    expect(result.finished).toBe(true);
    expect(result.lanes[0]?.error).toBeUndefined();
    expect(String(result.lanes[1]?.error)).toContain("c1: the service answered HTTP 503");
    expect(fundRows(book).filter((r) => r[2] === "c1")).toEqual(betaBefore);
    expect(fundRows(book).filter((r) => r[2] === "c0")).toEqual([
      [5001, "Alpha", "c0", "Alpha 5001 (new)"],
      [5002, "Alpha", "c0", "Alpha 5002 (new)"],
    ]);
    expect(document.data.get("refresh.fundFingerprints.c1")).toBe(betaPrints);
    expect(result.records).toBeGreaterThan(0);
  });

  it("keeps each lane's fingerprints apart, the first company's under today's name", () => {
    const { lanes, document } = setup({ c0: 1, c1: 2 });
    runLanes(lanes, lanesCursor(null, "transactions", lanes), () => false, transport().send);
    expect(document.data.has("refresh.fundFingerprints")).toBe(true);
    expect(document.data.has("refresh.fundFingerprints.c1")).toBe(true);
    expect(document.data.has("refresh.fundFingerprints.0")).toBe(true);
    expect(document.data.has("refresh.fundFingerprints.c1.0")).toBe(true);
    expect([...document.data.keys()].some((k) => k.startsWith("refresh.fundFingerprints.c0"))).toBe(false);
  });

  it("pauses per lane and continues: a lane done is not run again", () => {
    const { lanes, book } = setup({ c0: 1, c1: 60 });
    let passes = 0;
    const { send, passes: sent } = transport();
    const first = runLanes(
      lanes,
      lanesCursor(null, "transactions", lanes),
      () => passes >= 2,
      (rounds) => {
        passes++;
        send(rounds);
      },
    );
    expect(first.finished).toBe(false);
    const cursor = JSON.parse(JSON.stringify(first.cursor)) as LanesCursor;
    expect(cursor.v).toBe(2);
    expect(cursor.lanes.c0?.stages).toEqual([]);
    expect(cursor.lanes.c1?.stages).toEqual(["transactions"]);
    expect(lanesPercent(cursor)).toBeGreaterThan(50);
    expect(lanesPercent(cursor)).toBeLessThan(100);
    sent.length = 0;
    const next = runLanes(lanes, lanesCursor(cursor, "transactions", lanes), () => false, send);
    expect(next.finished).toBe(true);
    expect(sent.every((p) => p.c0 === undefined)).toBe(true);
    expect(book.sheets.transactions.values.length - 1).toBe(61);
  });
});

describe("lanesCursor", () => {
  const lanes = [
    { key: "c0", entry: laneEntry("c0", "https://alpha.test/v1") },
    { key: "c1", entry: laneEntry("c1", "https://beta.test/v1") },
  ];
  const paused = { v: 1 as const, stages: ["transactions" as const], pendingFundIds: [7, 8] };

  it("reads a cursor of the previous version as the first company's lane, the others fresh", () => {
    const cursor = lanesCursor(paused, "transactions", lanes);
    expect(cursor.lanes.c0).toEqual({ ...paused, entry: "c0@https://alpha.test" });
    expect(cursor.lanes.c1).toEqual({ ...startCursor("transactions"), entry: "c1@https://beta.test" });
  });

  it("restarts the lane of a re-pointed company, keeps the others, drops removed ones", () => {
    const stored: LanesCursor = {
      v: 2,
      kind: "transactions",
      lanes: {
        c0: { ...paused, entry: "c0@https://alpha.test" },
        c1: { ...paused, entry: "c1@https://old-beta.test" },
        c2: { ...paused, entry: "c2@https://gamma.test" },
      },
    };
    const cursor = lanesCursor(JSON.parse(JSON.stringify(stored)), "transactions", lanes);
    expect(cursor.lanes.c0?.pendingFundIds).toEqual([7, 8]);
    expect(cursor.lanes.c1).toEqual({ ...startCursor("transactions"), entry: "c1@https://beta.test" });
    expect(Object.keys(cursor.lanes)).toEqual(["c0", "c1"]);
    // Another kind of refresh starts every lane afresh; so does anything unreadable.
    expect(lanesCursor(stored, "all", lanes).lanes.c0?.stages).toEqual(startCursor("all").stages);
    expect(lanesCursor({ v: 3 }, "funds", lanes).lanes.c0?.stages).toEqual(["funds"]);
  });
});

describe("laneSheets", () => {
  it("leaves a one-company sheet exactly as it was: no company columns, today's keys", () => {
    const book = workbook();
    const service = new FakeService(fundsOf("Alpha", 2), []);
    const lane: Lane = {
      key: "c0",
      entry: laneEntry("c0", "https://alpha.test/v1"),
      deps: {
        reader: laneReader("c0", service, { now: false }),
        sheets: laneSheets(book.shared, ALPHA, false, [ALPHA]),
        fingerprints: memoryStore(),
        options,
      },
    };
    runLanes([lane], lanesCursor(null, "funds", [lane]), () => false, transport().send);
    expect(book.sheets.funds.keys).not.toContain("companyKey");
    expect(book.sheets.funds.ids()).toEqual([5001, 5002]);
    expect(() => laneSheets(book.shared, BETA, false, [ALPHA, BETA]).apply("funds", {} as never)).toThrow(
      /no company columns/,
    );
  });
});
