/**
 * A big sheet written in chunks of 5,000 rows stops between chunks when the execution's time
 * runs out, and the continuation writes the rest: in the emulation, where every cell written
 * costs emulated time, so the time limit bites on sheet work as it does on Google.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { privateBuild, type Setup, setUp, sheetOf } from "./emulation";

const REPORTS = 6_000;
let s: Setup;

beforeAll(async () => {
  // 200 µs per cell written: a chunk of 5,000 rows of the reports sheet costs about 30 s.
  s = await setUp({
    distDir: privateBuild(),
    funds: 2,
    reports: REPORTS,
    cellCostMicros: { read: 2, write: 200 },
  });
  s.settings({
    pageSize: "1000",
    windowMode: "range",
    windowFrom: "2019-07-01",
    windowTo: "2024-06-30",
    reportTypeDateFilter: "2",
  });
  // A one-minute execution: after one chunk, the next one no longer fits.
  s.emulator.documentPropertiesData.values.set("longrun.executionLimitMs", "60000");
}, 120_000);

afterAll(async () => {
  await s?.close();
});

function refreshReports(): { ok: boolean; finished: boolean; message: string } {
  const out = s.emulator.tryRun("refreshFromSidebar", ["reports"]);
  if (!out.ok) throw new Error(out.error);
  return out.result as { ok: boolean; finished: boolean; message: string };
}

function reportIds(): string[] {
  const sheet = sheetOf(s.emulator, "Expense reports");
  return (sheet?.values ?? []).slice(1).map((r) => String(r[0]));
}

describe("writing a big sheet in chunks", () => {
  it("stops after a chunk when the time runs out, rows whole; the continuation writes only the rest", () => {
    s.emulator.resetCounters();
    const first = refreshReports();
    expect(first.ok).toBe(true);
    expect(first.finished).toBe(false);
    // Header and 4,999 reports: exactly the first chunk, every row whole, none twice.
    const partial = reportIds();
    expect(partial).toHaveLength(4_999);
    expect(new Set(partial).size).toBe(partial.length);
    expect(partial.every((id) => /^\d+$/.test(id))).toBe(true);
    const firstWritten = s.emulator.counters.sheets["Expense reports"]?.cellsWritten ?? 0;

    s.emulator.resetCounters();
    const second = refreshReports();
    expect(second).toMatchObject({ ok: true, finished: true });
    const all = reportIds();
    expect(all.length).toBeGreaterThan(5_000);
    expect(new Set(all).size).toBe(all.length);
    expect(all.slice(0, partial.length)).toEqual(partial);
    // The continuation wrote the 1,001 rows left (formats and values), not the sheet again.
    const width = sheetOf(s.emulator, "Expense reports")?.header.length ?? 0;
    const secondWritten = s.emulator.counters.sheets["Expense reports"]?.cellsWritten ?? 0;
    // (and the note on the header's first cell saying when the sheet was refreshed)
    expect(secondWritten).toBe(2 * (all.length + 1 - 5_000) * width + 1);
    // The first chunk, and the new sheet's header made bold on its band (two cells each).
    expect(firstWritten).toBe(2 * 5_000 * width + 2 * width);

    // Nothing is left to write: the sheet holds every report of the window, once.
    s.emulator.resetCounters();
    expect(refreshReports()).toMatchObject({ ok: true, finished: true });
    expect(s.emulator.counters.sheets["Expense reports"]?.cellsWritten).toBe(1);
  }, 120_000);
});
