import { describe, expect, it } from "vitest";
import { instantInZone, offsetMinutes, partsInZone } from "../../dev/emulator/time-zone";

/** The wall clock of `zone` at `ms` straight from Intl, as the cached lookup must give it. */
function intlWall(ms: number, zone: string): number[] {
  const f = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(ms))) p[part.type] = Number(part.value);
  return [p.year, p.month, p.day, (p.hour ?? 0) % 24, p.minute, p.second] as number[];
}

describe("time zone lookups (cached per 15-minute slice)", () => {
  it("give Intl's wall clock every 7 minutes across both of Santiago's 2024 changes and a half-hour zone", () => {
    const cases: [string, number][] = [
      ["America/Santiago", Date.UTC(2024, 3, 6, 20)], // clocks back on 2024-04-07 00:00 local
      ["America/Santiago", Date.UTC(2024, 8, 7, 20)], // clocks forward on 2024-09-08 00:00 local
      ["Australia/Lord_Howe", Date.UTC(2024, 3, 6, 10)], // a half-hour change
      ["Asia/Kolkata", Date.UTC(2024, 0, 1)],
    ];
    for (const [zone, from] of cases) {
      for (let ms = from; ms < from + 12 * 3_600_000; ms += 7 * 60_000 + 13_000) {
        const p = partsInZone(ms, zone);
        expect([p.year, p.month, p.day, p.hour, p.minute, p.second], `${zone} ${ms}`).toEqual(
          intlWall(ms, zone),
        );
      }
    }
  });

  it("turn wall clocks back into instants across a change", () => {
    expect(offsetMinutes(Date.UTC(2024, 0, 15), "America/Santiago")).toBe(-180);
    expect(offsetMinutes(Date.UTC(2024, 6, 15), "America/Santiago")).toBe(-240);
    expect(instantInZone("America/Santiago", 2024, 9, 8, 1, 30)).toBe(Date.UTC(2024, 8, 8, 4, 30));
    expect(instantInZone("America/Santiago", 2024, 4, 6, 12)).toBe(Date.UTC(2024, 3, 6, 15));
    // Midnight of 2023-09-03 does not exist in Santiago (00:00 became 01:00): it is 01:00, that
    // day, as a JavaScript Date gives it, never 23:00 of the day before.
    const skipped = instantInZone("America/Santiago", 2023, 9, 3);
    expect(skipped).toBe(Date.UTC(2023, 8, 3, 4));
    expect(partsInZone(skipped, "America/Santiago")).toMatchObject({ day: 3, hour: 1 });
  });
});
