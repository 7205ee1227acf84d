/**
 * A Fund sidebar deposit killed at every Apps Script call in turn (the record, the call, the
 * Funds row brought up to date, the audit, the cache of request ids), then retried as the form
 * retries a failed call (same request id); when that says it may still be sending, the fund is
 * opened once nothing more can land, and a new deposit is made only if it says the first was not
 * applied: the deposit lands exactly once.
 * Each kill point starts from the same spreadsheet (made once, then restored) and a fresh ledger.
 */
import { describe, expect, it } from "vitest";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { FUNDS_TABLE, headersOf } from "../../src/sheets/columns";
import { columnLetters } from "../../src/sheets/formulas";
import { type SandboxFund, sweepKills, writeBackPerFile } from "./harness";

const wb = writeBackPerFile();

describe("a Fund sidebar deposit killed at any call, then retried", () => {
  it("moves the money once", async () => {
    await wb.reset();
    const fund = (await wb.state()).funds.find((f) => f.status === 1) as SandboxFund;
    const headers = headersOf(FUNDS_TABLE, "en");
    wb.emulator.spreadsheet.addSheet("Funds");
    wb.emulator.typeCells("Funds", `A1:${columnLetters(headers.length)}2`, [
      headers,
      headers.map((_, i) => (i === 0 ? fund.id : "")),
    ]);
    const start = wb.emulator.saveState();
    // The form keeps its request id until a result is shown: a call that failed is retried with it.
    const formAt = (call: number) => ({
      requestId: `kill-sweep-${call}-a`,
      fields: { Id: fund.id, DepositAmount: "5.05" },
    });
    let call = 0;
    await sweepKills(wb.emulator, {
      restore: () => wb.resetTo(start),
      kill(at) {
        call = at;
        return wb.emulator.tryRun("depositToFund", [formAt(at)], {
          as: "script.run",
          stopAt: { serviceCall: at },
        });
      },
      async check(where, first) {
        const form = formAt(call);
        if (!first.ok) {
          const retried = wb.sidebar("depositToFund", form) as { kind: string };
          if (retried.kind === "unknown") {
            // Past the in-flight window and the cache of request ids: opening the fund says what happened.
            wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 700_000);
            const view = wb.sidebar("getFundSidebarView", { fundId: fund.id }) as { notice: string };
            if (!view.notice.includes("had been applied")) {
              const again = wb.sidebar("depositToFund", { ...form, requestId: `kill-sweep-${call}-b` }) as {
                kind: string;
              };
              expect(again.kind, where).toBe("done");
            }
          } else expect(retried.kind, where).toBe("done");
        }
        expect(await wb.deposits(fund.id, 505), where).toBe(1);
      },
      within: 500,
    });
  }, 600_000);
});
