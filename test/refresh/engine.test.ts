import { describe, expect, it } from "vitest";
import type { Fund } from "../../src/api/types";
import type { ListPage } from "../../src/refresh/engine";
import {
  type EngineDeps,
  isRefreshCursor,
  refreshSelection,
  runRefreshSteps,
  startCursor,
} from "../../src/refresh/engine";
import { PAGE_SIZE_KEY } from "../../src/refresh/page-size";
import { engineOptions, FakeService, makeFund, makeReport, readerOf, refreshSetup } from "./fakes";

const options = engineOptions();

function setup(funds = 35, reports = 45) {
  const service = new FakeService(
    Array.from({ length: funds }, (_v, i) => makeFund(i + 1, [1000, -200 * (i % 3)])),
    Array.from({ length: reports }, (_v, i) =>
      makeReport(
        1000 + i,
        `202${2 + (i % 3)}-0${(i % 6) + 1}-15`,
        i % 2 ? { "Centro de costo": `00${i}` } : {},
      ),
    ),
  );
  return refreshSetup(service, options);
}

const never = () => false;

describe("refresh steps", () => {
  it("fetches the first page, then the remaining pages in bounded batches, and writes each sheet once", () => {
    const { service, sheets, deps } = setup();
    const result = runRefreshSteps(deps, startCursor("all"), never);
    expect(result.finished).toBe(true);
    expect(result.refreshed).toEqual(["funds", "transactions", "reports"]);
    // 35 funds at 10 per page: page 1 alone, then pages 2–4 in one batch.
    expect(service.batches.filter((b) => b.endpoint === "getFunds")).toEqual([
      { endpoint: "getFunds", size: 1 },
      { endpoint: "getFunds", size: 3 },
    ]);
    expect(service.batches.every((b) => b.size <= options.batchSize)).toBe(true);
    expect(sheets.funds.ids()).toHaveLength(35);
    expect(sheets.funds.writes).toBe(1);
    expect(sheets.transactions.writes).toBe(1);
    expect(sheets.reports.writes).toBe(1);
    // Every fund's movements, once each.
    expect(service.calls("getFund")).toBe(35);
    expect(sheets.transactions.ids()).toHaveLength(35 * 2);
    expect(result.requests).toBe(result.minimumRequests);
  });

  it("splits a window longer than a year into pieces and keeps each report once", () => {
    const { service, sheets, deps } = setup(1, 45);
    service.reports.push({ ...makeReport(1000, "2023-01-01") }); // the same id again, in another piece
    runRefreshSteps(deps, startCursor("reports"), never);
    const firstPages = service.batches.find((b) => b.endpoint === "getExpenseReports");
    expect(firstPages?.size).toBe(3); // 2022-01-01..2023-01-01, ..2024-01-02, ..2024-06-30
    const ids = sheets.reports.ids();
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(45);
    // Extra fields became a column of their own.
    expect(sheets.reports.values[0]).toContain("Centro de costo");
  });

  it("fetches movements only of funds that are new or whose totals changed", () => {
    const { service, sheets, deps } = setup();
    runRefreshSteps(deps, startCursor("transactions"), never);
    expect(service.calls("getFund")).toBe(35);
    service.batches = [];
    runRefreshSteps(deps, startCursor("transactions"), never);
    expect(service.calls("getFund")).toBe(0);
    expect(service.batches.map((b) => b.endpoint)).toEqual(["getFunds", "getFunds"]);
    expect(sheets.transactions.writes).toBe(1);

    service.funds[4] = makeFund(5, [1000, -200, 300]);
    service.funds.push(makeFund(99, [5000]));
    service.funds.splice(0, 1); // fund 1 is gone
    service.batches = [];
    runRefreshSteps(deps, startCursor("transactions"), never);
    expect(service.calls("getFund")).toBe(2);
    const rows = sheets.transactions.values.slice(1);
    expect(rows.filter((r) => r[1] === 5)).toHaveLength(3);
    expect(rows.filter((r) => r[1] === 99)).toHaveLength(1);
    // Fund 1's movements are kept and marked (mode "keep").
    expect(rows.filter((r) => r[1] === 1).every((r) => r.includes("gone"))).toBe(true);
  });

  it("fetches every fund's movements again when the transactions sheet was emptied", () => {
    const { service, sheets, deps } = setup(5, 0);
    runRefreshSteps(deps, startCursor("transactions"), never);
    sheets.transactions.values = [];
    service.batches = [];
    runRefreshSteps(deps, startCursor("transactions"), never);
    expect(service.calls("getFund")).toBe(5);
  });

  it("stops between steps and continues from its cursor without duplicates or gaps", () => {
    const straight = setup();
    runRefreshSteps(straight.deps, startCursor("all"), never);

    const { sheets, deps } = setup();
    let cursor = startCursor("all");
    let executions = 0;
    for (;;) {
      executions++;
      let steps = 0;
      // Each execution may take three steps before its time is up.
      const result = runRefreshSteps(
        { ...deps, onStep: () => steps++ },
        JSON.parse(JSON.stringify(cursor)),
        () => steps >= 3,
      );
      if (result.finished) break;
      expect(isRefreshCursor(result.cursor)).toBe(true);
      cursor = result.cursor as typeof cursor;
      expect(executions).toBeLessThan(30);
    }
    expect(executions).toBeGreaterThan(2);
    for (const target of ["funds", "transactions", "reports"] as const) {
      const got = sheets[target].ids().map(String).sort();
      expect(got).toEqual(straight.sheets[target].ids().map(String).sort());
      expect(new Set(got).size).toBe(got.length);
    }
  });

  it("leaves a sheet as it was when its fetch fails, and says why", () => {
    const { service, sheets, deps } = setup();
    runRefreshSteps(deps, startCursor("reports"), never);
    const before = JSON.stringify(sheets.reports.values);
    service.reports.push(makeReport(5000, "2024-01-10"));
    service.failReportsAt = 2;
    expect(() => runRefreshSteps(deps, startCursor("reports"), never)).toThrow(/503/);
    expect(JSON.stringify(sheets.reports.values)).toBe(before);
  });

  it("refreshes only the selected funds' rows and their movements", () => {
    const { service, sheets, deps } = setup(6, 0);
    runRefreshSteps(deps, startCursor("transactions"), never);
    service.funds[1] = { ...makeFund(2, [1000, 700]), title: "Changed 2" };
    service.funds[2] = { ...makeFund(3, [1000]), title: "Changed 3 (not selected)" };
    service.batches = [];
    refreshSelection(deps, { target: "funds", ids: [2] });
    expect(service.batches).toEqual([{ endpoint: "getFund", size: 1 }]);
    const titles = sheets.funds.values.slice(1).map((r) => r[1]);
    expect(titles).toContain("Changed 2");
    expect(titles).toContain("Fund 3");
    expect(sheets.transactions.values.slice(1).filter((r) => r[1] === 2)).toHaveLength(2);
  });
});

describe("the largest page the service accepts", () => {
  const probing = (deps: EngineDeps): EngineDeps => ({
    ...deps,
    options: { ...deps.options, pageSizeProbe: { ask: 1000, serviceUrl: "https://api.example/v1" } },
  });
  const sizesAsked = (service: FakeService) => service.batches.map((b) => `${b.endpoint}×${b.size}`);

  it("asks for 1,000 and keeps it per service URL once a full page shows the service takes it", () => {
    const { service, sheets, store, deps } = setup(1_200, 10);
    const result = runRefreshSteps(probing(deps), startCursor("funds"), never);
    expect(result.finished).toBe(true);
    // Page 1 at 1,000, then page 2: 2 calls instead of 120 at 10 per page.
    expect(sizesAsked(service)).toEqual(["getFunds×1", "getFunds×1"]);
    expect(sheets.funds.ids()).toHaveLength(1_200);
    expect(JSON.parse(store.data.get(PAGE_SIZE_KEY) ?? "{}")).toEqual({ "https://api.example/v1": 1000 });
  });

  it("keeps the size of a page the service cut short, and asks the first pages again at that size", () => {
    const { service, sheets, store, deps } = setup(130, 10);
    service.largestPage = 50;
    const result = runRefreshSteps(probing(deps), startCursor("funds"), never);
    expect(result.finished).toBe(true);
    expect(sheets.funds.ids()).toHaveLength(130);
    expect(new Set(sheets.funds.ids()).size).toBe(130);
    // Page 1 at 1,000 came back with 50 of 130: page 1 again at 50, then pages 2–3 together.
    expect(sizesAsked(service)).toEqual(["getFunds×1", "getFunds×1", "getFunds×2"]);
    expect(JSON.parse(store.data.get(PAGE_SIZE_KEY) ?? "{}")).toEqual({ "https://api.example/v1": 50 });
    // The next refresh asks for 50 from the start: page 1, then pages 2–3.
    service.batches = [];
    runRefreshSteps(probing(deps), startCursor("funds"), never);
    expect(sizesAsked(service)).toEqual(["getFunds×1", "getFunds×2"]);
  });

  it("falls back to the setting's page size when the service refuses 1,000, and remembers that", () => {
    const { service, sheets, store, deps } = setup(35, 10);
    service.refusePagesAbove = 100;
    const result = runRefreshSteps(probing(deps), startCursor("funds"), never);
    expect(result.finished).toBe(true);
    expect(sheets.funds.ids()).toHaveLength(35);
    // Refused at 1,000; then 10 per page (options.pageSize): page 1, then pages 2–4.
    expect(sizesAsked(service)).toEqual(["getFunds×1", "getFunds×1", "getFunds×3"]);
    expect(JSON.parse(store.data.get(PAGE_SIZE_KEY) ?? "{}")).toEqual({ "https://api.example/v1": 10 });
  });

  it("learns nothing while every list fits in one page, and a failure other than a refusal fails the refresh", () => {
    const { service, store, deps } = setup(35, 10);
    runRefreshSteps(probing(deps), startCursor("funds"), never);
    expect(sizesAsked(service)).toEqual(["getFunds×1"]);
    expect(store.data.has(PAGE_SIZE_KEY)).toBe(false);
    service.failReportsAt = 1;
    expect(() => runRefreshSteps(probing(deps), startCursor("reports"), never)).toThrow(/503/);
    expect(store.data.has(PAGE_SIZE_KEY)).toBe(false);
  });
});

describe("batches filled with the pages known to be needed", () => {
  it("sends the report pieces' first pages with the funds' first page, and report pages in the room left by fund batches", () => {
    const { service, sheets, deps } = setup(35, 45);
    const mixedDeps: EngineDeps = { ...deps, reader: readerOf(service, true) };
    const straight = setup(35, 45);
    runRefreshSteps(straight.deps, startCursor("all"), never);

    const result = runRefreshSteps(mixedDeps, startCursor("all"), never);
    expect(result.finished).toBe(true);
    const batches = service.batches;
    // The window 2022-01-01..2024-06-30 is 3 pieces: their first pages ride with getFunds page 1.
    expect(batches[0]).toEqual({
      endpoint: "batch",
      size: 4,
      kinds: ["getFunds", "getExpenseReports", "getExpenseReports", "getExpenseReports"],
    });
    // Every batch but the last is full, and no batch is only report pages while funds are fetched.
    const sizes = batches.map((b) => b.size);
    expect(sizes.slice(0, -1).every((n) => n === options.batchSize)).toBe(true);
    // Same calls as one list after another, in fewer batches, and the same sheets.
    expect(result.requests).toBe(result.minimumRequests);
    expect(batches.length).toBeLessThan(straight.service.batches.length);
    expect(sheets.funds.values).toEqual(straight.sheets.funds.values);
    expect(sheets.transactions.values).toEqual(straight.sheets.transactions.values);
    expect(sheets.reports.values).toEqual(straight.sheets.reports.values);
  });

  it("finds the page size with report pages riding in the first batch, and every list comes out whole", () => {
    // 3 funds fit in any page: only the report pages riding with them can show the cut.
    const { service, sheets, store, deps } = setup(3, 45);
    service.largestPage = 4;
    const probing: EngineDeps = {
      ...deps,
      reader: readerOf(service, true),
      options: { ...deps.options, pageSizeProbe: { ask: 1000, serviceUrl: "https://api.example/v1" } },
    };
    const result = runRefreshSteps(probing, startCursor("all"), never);
    expect(result.finished).toBe(true);
    // The first batch asked 1,000 of everything and the report pages came back cut to 4: kept,
    // and every list read again at 4 per page, none twice, none missing.
    expect(service.batches[0]?.size).toBe(4);
    expect(JSON.parse(store.data.get(PAGE_SIZE_KEY) ?? "{}")).toEqual({ "https://api.example/v1": 4 });
    expect(sheets.funds.ids()).toHaveLength(3);
    expect(sheets.reports.ids()).toHaveLength(45);
    expect(new Set(sheets.reports.ids()).size).toBe(45);
  });

  it("stopped during the movements, drops the report pages fetched ahead and fetches them again in their turn", () => {
    const { service, sheets, deps } = setup(35, 45);
    const mixedDeps: EngineDeps = { ...deps, reader: readerOf(service, true) };
    let checks = 0;
    const first = runRefreshSteps(mixedDeps, startCursor("all"), () => ++checks > 3);
    expect(first.finished).toBe(false);
    expect(first.cursor?.stages[0]).toBe("transactions");
    const second = runRefreshSteps(mixedDeps, first.cursor as NonNullable<typeof first.cursor>, never);
    expect(second.finished).toBe(true);
    expect(new Set(sheets.reports.ids()).size).toBe(45);
    expect(sheets.reports.ids()).toHaveLength(45);
    expect(new Set(sheets.transactions.ids()).size).toBe(70);
  });
});

describe("a list whose pages do not add up to the total it announced", () => {
  /** `service`'s reader, whose fund pages after the first are read with fund `id` deleted meanwhile. */
  function deletedAfterPageOne(service: FakeService, id: number): EngineDeps["reader"] {
    const reader = readerOf(service);
    return {
      ...reader,
      fundPages: (queries) =>
        queries.map((q) => {
          if (Number(q.Page) === 1) return reader.fundPages([q])[0] as ListPage<Fund>;
          const all = service.funds;
          service.funds = all.filter((f) => f.id !== id);
          try {
            return reader.fundPages([q])[0] as ListPage<Fund>;
          } finally {
            service.funds = all;
          }
        }),
    };
  }

  const marked = (sheet: { values: unknown[][] }) =>
    sheet.values.filter((row) => row.includes("gone")).map((row) => row[0]);

  it("marks no row as not returned when the records read fall short of the total (one slipped between pages)", () => {
    const { service, sheets, deps } = setup(35, 0);
    runRefreshSteps(deps, startCursor("transactions"), never);
    // Fund 1 is deleted once page 1 was read: fund 11 moves onto page 1, and no page returns it.
    const result = runRefreshSteps(
      { ...deps, reader: deletedAfterPageOne(service, 1) },
      startCursor("transactions"),
      never,
    );
    expect(result.finished).toBe(true);
    expect(marked(sheets.funds)).toEqual([]);
    expect(marked(sheets.transactions)).toEqual([]);
    expect(sheets.funds.ids()).toHaveLength(35);
  });

  it("still marks the rows of records that left the list when the pages add up", () => {
    const { service, sheets, deps } = setup(35, 0);
    runRefreshSteps(deps, startCursor("transactions"), never);
    service.funds = service.funds.filter((f) => f.id !== 11);
    runRefreshSteps(deps, startCursor("transactions"), never);
    expect(marked(sheets.funds)).toEqual([11]);
    expect(marked(sheets.transactions).length).toBeGreaterThan(0);
  });
});

describe("a page count the pages do not bear out", () => {
  it("stops at the first empty page, not at the thousand pages the first one announced", () => {
    const { service, sheets, deps } = setup(35, 0);
    const reader = readerOf(service);
    const inflated: EngineDeps["reader"] = {
      ...reader,
      fundPages: (queries) => reader.fundPages(queries).map((p) => ({ ...p, pages: 1000 })),
    };
    const result = runRefreshSteps({ ...deps, reader: inflated }, startCursor("funds"), never);
    expect(result.finished).toBe(true);
    expect(sheets.funds.ids()).toHaveLength(35);
    // 35 funds at 10 per page: pages 1–4 hold them, page 5 is the empty one; batches of 4.
    expect(service.calls("getFunds")).toBeLessThanOrEqual(1 + 2 * options.batchSize);
    expect(result.requests).toBe(service.calls("getFunds"));
  });
});
