/** Properties of the ledger and of paging, over random sequences (fast-check). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ADMIN_ID, generateDemoData } from "../../dev/sandbox/demo";
import { SandboxError } from "../../dev/sandbox/errors";
import { Ledger } from "../../dev/sandbox/ledger";
import { listFunds, listReports } from "../../dev/sandbox/queries";
import { fixedClock, fundInput, TODAY } from "./sandbox-client";

const movement = fc.record({
  kind: fc.constantFrom("deposit", "withdraw", "status"),
  cents: fc.integer({ min: 1, max: 5_000_000 }),
  status: fc.constantFrom(1, 2, 3) as fc.Arbitrary<1 | 2 | 3>,
});

describe("ledger", () => {
  it("keeps Deposits, Charges and Balance equal to the sums of the transactions after any sequence of moves", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(movement, { maxLength: 40 }),
        (initial, moves) => {
          const ledger = new Ledger(generateDemoData({ seed: 1, funds: 0, reports: 0 }, TODAY), fixedClock);
          const fund = ledger.createFund(fundInput("USD", initial));
          let expectedBalance = initial;
          for (const move of moves) {
            const statusBefore = fund.status;
            const countBefore = fund.transactions.length;
            try {
              if (move.kind === "status") ledger.setFundStatus(fund.id, ADMIN_ID, move.status);
              else if (move.kind === "deposit")
                ledger.depositToFund({ id: fund.id, idAdmin: ADMIN_ID, amountCents: move.cents });
              else ledger.withdrawFromFund({ id: fund.id, idAdmin: ADMIN_ID, amountCents: move.cents });
              if (move.kind === "deposit") expectedBalance += move.cents;
              if (move.kind === "withdraw") expectedBalance -= move.cents;
              if (move.kind !== "status") expect(fund.status).toBe(statusBefore);
            } catch (err) {
              // A refused move is a 409 and changes nothing.
              expect(err).toBeInstanceOf(SandboxError);
              expect((err as SandboxError).status).toBe(409);
              expect(fund.transactions.length).toBe(countBefore);
            }
          }
          const sum = (type: 1 | 2) =>
            fund.transactions.filter((t) => t.type === type).reduce((s, t) => s + t.amountCents, 0);
          expect(sum(1)).toBe(fund.depositsCents);
          expect(sum(2)).toBe(fund.chargesCents);
          expect(fund.depositsCents - fund.chargesCents).toBe(expectedBalance);
          expect(expectedBalance).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("paging", () => {
  const ledger = new Ledger(generateDemoData({ seed: 3, funds: 57, reports: 700 }, TODAY), fixedClock);

  it("walks every match once, in order, for any page size and either direction", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 80 }),
        fc.constantFrom("ASC", "DESC") as fc.Arbitrary<"ASC" | "DESC">,
        (size, order) => {
          const base = { orderBy: "title" as const, order, resultsPerPage: 1000, page: 1 };
          const whole = listFunds(ledger, base).items.map((f) => f.id);
          const first = listFunds(ledger, { ...base, resultsPerPage: size });
          const walked: number[] = [];
          for (let page = 1; page <= first.pages; page++) {
            walked.push(...listFunds(ledger, { ...base, resultsPerPage: size, page }).items.map((f) => f.id));
          }
          expect(walked).toEqual(whole);
          expect(first.pages).toBe(Math.ceil(57 / size));

          const reportBase = {
            since: "2025-06-15",
            until: TODAY,
            dateField: "sendDate" as const,
            orderBy: "sendDate" as const,
            order,
            page: 1,
          };
          const all = listReports(ledger, { ...reportBase, resultsPerPage: 1000 }).items.map((r) => r.id);
          const total = listReports(ledger, { ...reportBase, resultsPerPage: size });
          const pages: number[] = [];
          for (let page = 1; page <= total.pages; page++) {
            pages.push(
              ...listReports(ledger, { ...reportBase, resultsPerPage: size, page }).items.map((r) => r.id),
            );
          }
          expect(pages).toEqual(all);
          expect(total.total).toBe(all.length);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("the service's clock", () => {
  const newFund = fundInput("CLP", 100);
  // 02:30 UTC on 5 January is still the 4th in Santiago (UTC-3 in summer).
  const at = () => new Date("2026-01-05T02:30:15Z");

  it("writes CreatedAt and a movement's day on UTC's wall clock by default", () => {
    const ledger = new Ledger(generateDemoData({ seed: 1, funds: 0, reports: 0 }, "2026-01-05"), at);
    const fund = ledger.createFund(newFund);
    expect(fund.createdAt).toBe("2026-01-05 02:30:15");
    expect(ledger.today()).toBe("2026-01-05");
  });

  it("writes them on the wall clock of the zone it was started with, without an offset", () => {
    const ledger = new Ledger(
      generateDemoData({ seed: 1, funds: 0, reports: 0 }, "2026-01-05"),
      at,
      "America/Santiago",
    );
    const fund = ledger.createFund(newFund);
    expect(fund.createdAt).toBe("2026-01-04 23:30:15");
    expect(ledger.today()).toBe("2026-01-04");
  });
});
