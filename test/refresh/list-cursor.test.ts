/**
 * A list cut off by the time limit goes on from the page reached in the next execution: the
 * cursor's parts (ids kept inline or in the cache, the check of the page before), and the
 * engine over fakes: several executions give the sheet one execution gives, and a list that
 * shifted in between, or whose ids the cache lost, starts again from page 1.
 */
import { describe, expect, it } from "vitest";
import {
  type EngineDeps,
  type RefreshCursor,
  type RefreshOptions,
  runRefreshSteps,
  startCursor,
} from "../../src/refresh/engine";
import {
  decodeIds,
  encodeIds,
  forgetSeen,
  idsHash,
  isListCursor,
  type ListStateStore,
  loadSeen,
  saveSeen,
  unshifted,
} from "../../src/refresh/list-cursor";
import { refreshPercent } from "../../src/refresh/paused";
import { SheetWriteStopped } from "../../src/sheets/apply";
import { FakeService, makeFund, makeReport, memorySheets, memoryStore, readerOf } from "./fakes";

function memoryCache(): ListStateStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: (k) => data.get(k) ?? null,
    put: (k, v) => {
      expect(k.length).toBeLessThanOrEqual(250);
      expect(v.length).toBeLessThanOrEqual(100 * 1024);
      data.set(k, v);
    },
    remove: (k) => {
      data.delete(k);
    },
  };
}

describe("the ids merged so far", () => {
  it("round-trip as sorted base-36 deltas; damaged text is refused", () => {
    expect(encodeIds([40, 3, 1000])).toBe("3,11,qo");
    expect(decodeIds("3,11,qo")).toEqual([3, 40, 1000]);
    expect(decodeIds("")).toEqual([]);
    expect(decodeIds("3,,x!")).toBeNull();
  });

  it("ride in the cursor when short, go to the cache in values under 100 KB when long", () => {
    const cache = memoryCache();
    const few = saveSeen(cache, new Set([5, 7, 9]), "reports");
    expect(few.ids).toBe("5,2,2");
    expect(cache.data.size).toBe(0);
    expect([...(loadSeen(cache, few) ?? [])]).toEqual([5, 7, 9]);

    // 50,000 reports with ids a thousand apart: 150 KB of text, in two cache values.
    const many = new Set(Array.from({ length: 50_000 }, (_v, i) => 100_000 + i * 1_000));
    const ref = saveSeen(cache, many, "reports");
    expect(ref.ids).toBeUndefined();
    expect(ref.chunks).toBeGreaterThan(1);
    expect(cache.data.size).toBe(ref.chunks);
    expect(JSON.stringify(ref).length).toBeLessThan(200);
    expect(loadSeen(cache, ref)?.size).toBe(50_000);
    forgetSeen(cache, ref);
    expect(cache.data.size).toBe(0);
  });

  it("are missing when the cache lost a part or holds another set, and then nothing is trusted", () => {
    const cache = memoryCache();
    const many = new Set(Array.from({ length: 30_000 }, (_v, i) => i * 977));
    const ref = saveSeen(cache, many, "reports");
    const [firstKey] = [...cache.data.keys()];
    cache.data.delete(firstKey as string);
    expect(loadSeen(cache, ref)).toBeNull();
    // Another set under the same keys (count or hash differ): not the one saved.
    const other = saveSeen(cache, new Set([...many].slice(1)), "reports");
    expect(loadSeen(cache, { ...other, count: ref.count })).toBeNull();
    expect(loadSeen(cache, { ...other, hash: ref.hash })).toBeNull();
    // No cache at all: only an inline set can be read.
    expect(loadSeen(undefined, ref)).toBeNull();
    expect(saveSeen(undefined, many, "reports").ids).toBeDefined();
  });
});

describe("the list cursor", () => {
  const cursor = {
    piece: 0,
    page: 3,
    pages: 9,
    size: 10,
    check: idsHash([21, 22, 23]),
    seen: { count: 20, hash: 1 },
  };

  it("is checked when read back", () => {
    expect(isListCursor(cursor)).toBe(true);
    expect(isListCursor({ ...cursor, page: 0 })).toBe(false);
    expect(isListCursor({ ...cursor, seen: null })).toBe(false);
    expect(isListCursor({ ...cursor, size: "10" })).toBe(false);
  });

  it("goes on only when the page before it holds the same ids in the same order", () => {
    expect(unshifted(cursor, [21, 22, 23])).toBe(true);
    expect(unshifted(cursor, [20, 21, 22])).toBe(false);
    expect(unshifted(cursor, [22, 21, 23])).toBe(false);
    expect(unshifted(cursor, [])).toBe(false);
  });

  it("tells how far the list is for the progress bar", () => {
    const paused: RefreshCursor = { v: 1, stages: ["reports"], list: cursor };
    expect(refreshPercent("reports", paused)).toBe(22);
  });
});

const options: RefreshOptions = {
  pageSize: 10,
  batchSize: 2,
  fundFilters: {},
  // One piece: the window is less than a year.
  reportWindow: { since: "2024-01-01", until: "2024-06-30" },
  reportFilters: {},
  missingRows: "keep",
};

function reportsOf(ids: readonly number[]) {
  return ids.map((id) => makeReport(id, `2024-0${(id % 6) + 1}-10`, id % 3 ? {} : { Project: `P${id}` }));
}

function setup(ids: readonly number[], cache: ListStateStore | undefined = memoryCache()) {
  const service = new FakeService([makeFund(1)], reportsOf(ids));
  const { sheets, port } = memorySheets();
  const deps: EngineDeps = {
    reader: readerOf(service),
    sheets: port,
    fingerprints: memoryStore(),
    ...(cache ? { listState: cache } : {}),
    options,
  };
  return { service, sheets, deps };
}

/** Runs executions of at most `batches` batches each until the refresh finishes. */
function runInExecutions(
  deps: EngineDeps,
  batches: number,
  between: (execution: number) => void = () => {},
): { executions: number; perExecution: number[] } {
  let cursor = startCursor("reports");
  const perExecution: number[] = [];
  for (let execution = 1; ; execution++) {
    let steps = 0;
    const result = runRefreshSteps(
      { ...deps, onStep: () => steps++ },
      JSON.parse(JSON.stringify(cursor)),
      () => steps >= batches,
    );
    perExecution.push(steps);
    if (result.finished) return { executions: execution, perExecution };
    cursor = result.cursor as RefreshCursor;
    // The cursor the document keeps stays small, whatever the list's length.
    expect(JSON.stringify(cursor).length).toBeLessThan(5_000);
    between(execution);
    expect(execution).toBeLessThan(50);
  }
}

const ids145 = Array.from({ length: 145 }, (_v, i) => 1000 + i * 7);

describe("a list that needs several executions", () => {
  it("goes on from the page reached: each page asked once (and the one before, to check), the sheet as one execution writes it", () => {
    const straight = setup(ids145);
    runRefreshSteps(straight.deps, startCursor("reports"), () => false);

    const { service, sheets, deps } = setup(ids145);
    // Fifteen pages; three batches an execution: the first page, then two batches of two.
    const { executions, perExecution } = runInExecutions(deps, 3);
    expect(executions).toBe(3);
    expect(perExecution.every((n) => n <= 3)).toBe(true);
    // 15 pages, plus one page read again at each of the two continuations.
    expect(service.calls("getExpenseReports")).toBe(15 + 2);
    // The same rows in the same order, the same columns (the extra fields' union).
    expect(sheets.reports.values[0]).toEqual(straight.sheets.reports.values[0]);
    expect(sheets.reports.ids()).toEqual(straight.sheets.reports.ids());
  });

  it("marks rows the list no longer returns only once the whole list was read", () => {
    const { service, sheets, deps } = setup(ids145);
    runRefreshSteps(deps, startCursor("reports"), () => false);
    // Two reports gone from the service, at the front and at the end.
    service.reports = service.reports.filter((r) => r.id !== 1000 && r.id !== 1000 + 144 * 7);
    const note = () => sheets.reports.values.filter((r) => r.includes("gone")).length;
    const seenMidway: number[] = [];
    runInExecutions(deps, 2, () => seenMidway.push(note()));
    expect(seenMidway.length).toBeGreaterThan(1);
    expect(seenMidway.every((n) => n === 0)).toBe(true);
    expect(sheets.reports.ids()).toHaveLength(145);
    expect(note()).toBe(2);
  });

  it("starts again from page 1 when a report was added at the front in between, and ends without duplicates or gaps", () => {
    const { service, sheets, deps } = setup(ids145);
    let added = false;
    runInExecutions(deps, 3, (execution) => {
      if (execution !== 1) return;
      service.reports.unshift(...reportsOf([999]));
      added = true;
    });
    expect(added).toBe(true);
    const ids = sheets.reports.ids().map(Number);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort((a, b) => a - b)).toEqual([999, ...ids145]);
    // The first two pages read twice (once before the shift, once after), the check page too.
    expect(service.calls("getExpenseReports")).toBeGreaterThan(16 + 2);
  });

  it("goes on when reports were only added after the pages merged", () => {
    const { service, deps } = setup(ids145);
    runInExecutions(deps, 3, () => {
      service.reports.push(...reportsOf([service.reports.length + 5000]));
    });
    // Nothing read twice but the check pages: 15 pages, and the one the additions made.
    expect(service.calls("getExpenseReports")).toBeLessThanOrEqual(16 + 3);
  });

  it("starts again from page 1 when the cache lost the ids merged so far", () => {
    // Ids far apart, so that the set goes to the cache: 1,600 reports, 160 pages.
    const many = Array.from({ length: 1_600 }, (_v, i) => 10_000 + i * 50_000_000);
    const cache = memoryCache();
    const { service, sheets, deps } = setup(many, cache);
    let evicted = false;
    runInExecutions({ ...deps, options: { ...options, batchSize: 25 } }, 4, (execution) => {
      if (execution === 1) {
        expect(cache.data.size).toBeGreaterThan(0);
        cache.data.clear();
        evicted = true;
      }
    });
    expect(evicted).toBe(true);
    expect(service.calls("getExpenseReports")).toBeGreaterThan(160 + 60);
    const ids = sheets.reports.ids().map(Number);
    expect(new Set(ids).size).toBe(1_600);
    // Nothing left behind in the cache once the list is complete.
    expect(cache.data.size).toBe(0);
  });

  it("a part whose sheet write was stopped is read again from where its execution started", () => {
    const straight = setup(ids145);
    runRefreshSteps(straight.deps, startCursor("reports"), () => false);
    const { service, sheets, deps } = setup(ids145);
    let stopped = false;
    const port = deps.sheets;
    const stopping: EngineDeps = {
      ...deps,
      sheets: {
        ...port,
        apply(target, update) {
          const rows = port.apply(target, update);
          // The second part's write is cut off after its rows were written.
          if (target === "reports" && update.partial && sheets.reports.ids().length > 50 && !stopped) {
            stopped = true;
            throw new SheetWriteStopped("stopped");
          }
          return rows;
        },
      },
    };
    const { executions } = runInExecutions(stopping, 3);
    expect(stopped).toBe(true);
    expect(executions).toBe(4);
    // The pages of the cut-off execution read twice (four) and its check page, nothing more.
    expect(service.calls("getExpenseReports")).toBe(15 + 3 + 5);
    expect(sheets.reports.ids()).toEqual(straight.sheets.reports.ids());
  });

  it("the funds list over several executions, then every fund's movements", () => {
    const fundsOf = (n: number) =>
      Array.from({ length: n }, (_v, i) => makeFund(i + 1, [1000, -100 * (i % 4)]));
    const run = (stop: (steps: number) => boolean) => {
      const service = new FakeService(fundsOf(95), []);
      const { sheets, port } = memorySheets();
      const deps: EngineDeps = {
        reader: readerOf(service),
        sheets: port,
        fingerprints: memoryStore(),
        listState: memoryCache(),
        options,
      };
      let cursor = startCursor("transactions");
      let executions = 0;
      for (;;) {
        executions++;
        let steps = 0;
        const result = runRefreshSteps({ ...deps, onStep: () => steps++ }, cursor, () => stop(steps));
        if (result.finished) break;
        cursor = result.cursor as RefreshCursor;
        expect(executions).toBeLessThan(40);
      }
      return { sheets, executions, service };
    };
    const straight = run(() => false);
    const { sheets, executions, service } = run((steps) => steps >= 3);
    expect(executions).toBeGreaterThan(3);
    expect(sheets.funds.ids()).toEqual(straight.sheets.funds.ids());
    expect(sheets.transactions.ids()).toEqual(straight.sheets.transactions.ids());
    // Ten pages over two executions (one check), then the list again for the movements.
    expect(service.calls("getFunds")).toBe(10 + 1 + 10);
  });

  it("a failure after a part was merged leaves that part, marks nothing, and the refresh goes on from it", () => {
    const { service, sheets, deps } = setup(ids145);
    runRefreshSteps(deps, startCursor("reports"), () => false);
    service.reports = service.reports.filter((r) => r.id !== 1000 + 144 * 7);
    let steps = 0;
    const first = runRefreshSteps(
      { ...deps, onStep: () => steps++ },
      startCursor("reports"),
      () => steps >= 3,
    );
    expect(first.finished).toBe(false);
    const before = JSON.stringify(sheets.reports.values);
    service.failReportsAt = service.batches.filter((b) => b.endpoint === "getExpenseReports").length + 2;
    expect(() => runRefreshSteps(deps, first.cursor as RefreshCursor, () => false)).toThrow(/503/);
    expect(JSON.stringify(sheets.reports.values)).toBe(before);
    expect(sheets.reports.values.some((r) => r.includes("gone"))).toBe(false);
    service.failReportsAt = null;
    expect(runRefreshSteps(deps, first.cursor as RefreshCursor, () => false).finished).toBe(true);
    expect(sheets.reports.values.filter((r) => r.includes("gone"))).toHaveLength(1);
  });
});

describe("an execution killed at any call while it goes on with a list", () => {
  class Killed extends Error {}

  /** `target` whose method calls count in `counter`, the `killAt`-th one throwing instead. */
  function killable<T extends object>(target: T, counter: { calls: number; killAt: number }): T {
    return new Proxy(target, {
      get(obj, name, receiver) {
        const value = Reflect.get(obj, name, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          counter.calls++;
          if (counter.calls === counter.killAt) throw new Killed(`killed at call ${counter.killAt}`);
          return value.apply(obj, args);
        };
      },
    });
  }

  it("leaves a continuation that ends as one execution writes it: nothing duplicated, lost or marked early", () => {
    // Ids far apart, so that the ids merged so far go to the cache.
    const many = Array.from({ length: 1_000 }, (_v, i) => 10_000 + i * 50_000_000);
    const gone = many[7] as number;
    const straight = setup(many);
    runRefreshSteps(straight.deps, startCursor("reports"), () => false);
    let completed = false;
    let killAt = 0;
    while (!completed) {
      killAt++;
      const cache = memoryCache();
      const { service, sheets, deps } = setup(many, cache);
      const tuned = { ...deps, options: { ...options, batchSize: 4 } };
      runRefreshSteps(tuned, startCursor("reports"), () => false);
      service.reports = service.reports.filter((r) => r.id !== gone);
      // Execution 1 reads about 700 reports; its cursor is what the document keeps.
      let steps = 0;
      const first = runRefreshSteps(
        { ...tuned, onStep: () => steps++ },
        startCursor("reports"),
        () => steps >= 18,
      );
      expect(first.finished).toBe(false);
      let kept = first.cursor as RefreshCursor;
      // Execution 2 is killed at its killAt-th call: its cursor is never kept.
      const counter = { calls: 0, killAt };
      steps = 0;
      try {
        const second = runRefreshSteps(
          {
            ...tuned,
            reader: killable(tuned.reader, counter),
            sheets: killable(tuned.sheets, counter),
            listState: killable(cache, counter),
            onStep: () => steps++,
          },
          JSON.parse(JSON.stringify(kept)),
          () => steps >= 2,
        );
        completed = true;
        if (!second.finished) kept = second.cursor as RefreshCursor;
      } catch (err) {
        if (!(err instanceof Killed)) throw err;
        expect(first.cursor?.list?.seen.key, "the ids are in the cache").toBeDefined();
      }
      const where = `killed at call ${killAt}`;
      expect(
        sheets.reports.values.some((r) => r.includes("gone")),
        where,
      ).toBe(false);
      for (let execution = 0; ; execution++) {
        steps = 0;
        const next = runRefreshSteps(
          { ...tuned, onStep: () => steps++ },
          JSON.parse(JSON.stringify(kept)),
          () => steps >= 2,
        );
        if (next.finished) break;
        expect(
          sheets.reports.values.some((r) => r.includes("gone")),
          where,
        ).toBe(false);
        kept = next.cursor as RefreshCursor;
        expect(execution, where).toBeLessThan(100);
      }
      expect(sheets.reports.ids(), where).toEqual(straight.sheets.reports.ids());
      expect(
        sheets.reports.values.filter((r) => r.includes("gone")).map((r) => Number(r[0])),
        where,
      ).toEqual([gone]);
      // (What a killed execution put in the cache stays there until it expires: never read.)
      expect(killAt, where).toBeLessThan(2_000);
    }
    // Execution 2 made calls to kill: reads, the cache, the sheet.
    expect(killAt).toBeGreaterThan(5);
  });
});
