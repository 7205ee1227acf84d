/**
 * `npm run bench` reports the Summary sheet's cost beside the refresh it follows, and the
 * Summary stays a small part of it.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { summaryLine } from "../../dev/bench/summary";
import { tsxArgs } from "../support/tsx";

const root = resolve(import.meta.dirname, "../..");

describe("the Summary in npm run bench", () => {
  it("says how long the Summary took, against the refresh, or that it was not updated", () => {
    expect(summaryLine(250, 10_000)).toBe(
      "Summary sheet (read back, computed, written with its charts): 250 ms of the refresh's 10.0 s on the script's clock (2.5%).",
    );
    expect(summaryLine(null, 10_000)).toBe("Summary: not updated (FAILED).");
  });

  it("prints the Summary's share of the first refresh and of a refresh with no change", () => {
    const out = spawnSync(
      process.execPath,
      tsxArgs("dev/bench/refresh.ts", ["--sizes", "small", "--latency", "0", "--sequential-up-to", "0"]),
      { cwd: root, encoding: "utf8", timeout: 240_000, env: { ...process.env, NO_COLOR: "1" } },
    );
    expect(out.status, out.stderr).toBe(0);
    const shares = [
      ...out.stdout.matchAll(/Summary sheet .*?: ([\d,]+) ms of the refresh's ([\d.]+) s .*?\(([\d.]+)%\)/g),
    ];
    expect(shares).toHaveLength(2);
    for (const [, ms, , share] of shares) {
      expect(Number(ms?.replace(/,/g, ""))).toBeGreaterThan(0);
      // Without any network latency, the share is at its largest; still a small part.
      expect(Number(share)).toBeLessThan(25);
    }
  }, 300_000);
});
