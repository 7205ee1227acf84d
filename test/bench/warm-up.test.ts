/**
 * The bench's warm-up of the stand-ins (dev/bench/warm-up.ts): it reads what a refresh reads and
 * writes a sheet as a refresh does, with a script of its own (no add-on: its folder holds only
 * the manifest), and leaves the service as it found it.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { warmUpStandIns } from "../../dev/bench/warm-up";
import { startSandboxThread } from "../../dev/sandbox/index";

const root = resolve(import.meta.dirname, "../..");
const onlyManifest = mkdtempSync(join(tmpdir(), "warm-up-test-"));
copyFileSync(join(root, "appsscript.json"), join(onlyManifest, "appsscript.json"));
afterAll(() => rmSync(onlyManifest, { recursive: true, force: true }));

describe("the stand-ins' warm-up", () => {
  it("reads the lists and up to 200 funds one by one, writes the reports' cells, and changes nothing in the service", async () => {
    const sandbox = await startSandboxThread({ seed: 7, today: "2026-06-15", funds: 230, reports: 120 });
    try {
      const everything = async () => {
        const get = (path: string) =>
          fetch(`${sandbox.url}/${path}`, { headers: { Authorization: `Bearer ${sandbox.token}` } }).then(
            (r) => r.text(),
          );
        return [
          await get("getFunds?ResultsPerPage=1000&Page=1"),
          await get(
            "getExpenseReports?ResultsPerPage=1000&Page=1&TypeDateFilter=2&Since=2025-06-16&Until=2026-06-15",
          ),
        ];
      };
      const before = await everything();
      const reportCount = (JSON.parse(before[1] as string) as { ExpenseReports: object[] }).ExpenseReports
        .length;
      expect(reportCount).toBeGreaterThan(0);

      const warmed = await warmUpStandIns({
        dist: onlyManifest,
        baseUrl: sandbox.url,
        token: sandbox.token,
        listPaths: [
          "getFunds?ResultsPerPage=1000&Page=1",
          "getExpenseReports?ResultsPerPage=1000&Page=1&TypeDateFilter=2&Since=2025-06-16&Until=2026-06-15",
        ],
      });
      // 230 funds listed, 200 read one by one; every report's members as cells, a link each.
      expect(warmed.funds).toBe(200);
      expect(warmed.reports).toBe(reportCount);
      const members = Object.keys(
        (JSON.parse(before[1] as string) as { ExpenseReports: object[] }).ExpenseReports[0] as object,
      ).length;
      expect(warmed.cells).toBe((reportCount + 1) * (members + 1));
      expect(warmed.ms).toBeGreaterThan(0);
      // Reads only: the funds and reports are as they were.
      expect(await everything()).toEqual(before);
    } finally {
      await sandbox.close();
    }
  }, 60_000);

  it("says what failed when the service refuses a read, in an HTTP 401 or inside an HTTP 200", async () => {
    const sandbox = await startSandboxThread({ seed: 7, today: "2026-06-15", funds: 3, reports: 3 });
    try {
      await expect(
        warmUpStandIns({
          dist: onlyManifest,
          baseUrl: sandbox.url,
          token: "not-the-token",
          listPaths: ["getFunds?ResultsPerPage=1000&Page=1"],
        }),
      ).rejects.toThrow(/the stand-ins. warm-up failed: .*getFunds answered HTTP 401/);
      // A refusal inside an HTTP 200 (the sandbox's error-in-200 fault on getFund).
      const faults = await fetch(`${sandbox.origin}/_sandbox/faults`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ rules: [{ endpoint: "getFund", fault: "error-in-200", times: 1 }] }),
      });
      expect(faults.status).toBe(200);
      await expect(
        warmUpStandIns({
          dist: onlyManifest,
          baseUrl: sandbox.url,
          token: sandbox.token,
          listPaths: ["getFunds?ResultsPerPage=1000&Page=1"],
        }),
      ).rejects.toThrow(/the stand-ins. warm-up failed: .*getFund refused: /);
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});
