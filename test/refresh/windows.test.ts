import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { oneYearAfter } from "../../src/api/endpoints";
import { addDays, nextDay, splitWindow } from "../../src/refresh/windows";

describe("report window pieces", () => {
  it("keeps a window of a year or less whole", () => {
    expect(splitWindow({ since: "2024-01-01", until: "2025-01-01" })).toEqual([
      { since: "2024-01-01", until: "2025-01-01" },
    ]);
    expect(splitWindow({ since: "2024-03-05", until: "2024-03-05" })).toHaveLength(1);
  });

  it("cuts a longer window into consecutive pieces of at most a year", () => {
    expect(splitWindow({ since: "2022-01-01", until: "2024-06-30" })).toEqual([
      { since: "2022-01-01", until: "2023-01-01" },
      { since: "2023-01-02", until: "2024-01-02" },
      { since: "2024-01-03", until: "2024-06-30" },
    ]);
  });

  it("covers every day exactly once, each piece within the service's one-year rule", () => {
    const day = fc.integer({ min: 0, max: 3000 }).map((n) => addDays("2018-01-01", n));
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 2500 }), (since, length) => {
        const until = addDays(since, length);
        const pieces = splitWindow({ since, until });
        expect(pieces[0]?.since).toBe(since);
        expect(pieces.at(-1)?.until).toBe(until);
        pieces.forEach((p, i) => {
          expect(p.until <= oneYearAfter(p.since)).toBe(true);
          if (i > 0) expect(p.since).toBe(nextDay(pieces[i - 1]?.until as string));
        });
      }),
    );
  });

  it("refuses a window that ends before it starts or is not made of dates", () => {
    expect(() => splitWindow({ since: "2024-02-01", until: "2024-01-01" })).toThrow(
      /Until \(2024-01-01\) must not be before Since/,
    );
    expect(() => splitWindow({ since: "01/02/2024", until: "2024-01-01" })).toThrow(/YYYY-MM-DD/);
  });
});
