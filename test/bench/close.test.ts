/** `npm run bench -- --close` at a small size: its table, and each report marked exactly once. */
import { describe, expect, it } from "vitest";
import { benchClose } from "../../dev/bench/close";

describe("the close's benchmark", () => {
  it("marks the month's reports in three fetchAll rounds per batch, then finds them done with no write", async () => {
    const lines = await benchClose({ latencyMs: 0, batch: 25, reports: 60 });
    const row = (name: string) =>
      (lines.find((l) => l.startsWith(`| ${name} |`)) ?? "")
        .split("|")
        .slice(2, 6)
        .map((c) => Number(c.trim().replace(/,/g, "")));
    // done, calls, writes, rounds
    expect(row("marking")).toEqual([60, 180, 60, 9]);
    expect(row("again (all done)")).toEqual([60, 60, 0, 3]);
    expect(lines.join("\n")).toContain("Each report marked exactly once (the sandbox's count): OK");
  }, 120_000);
});
