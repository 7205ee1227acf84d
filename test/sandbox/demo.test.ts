/** The seeded demo data: deterministic, realistic, consistent in cents, and fast at 50,000 reports. */
import { describe, expect, it } from "vitest";
import { ADMIN_ID, FIRST_PLACE, generateDemoData, MANAGER_ID } from "../../dev/sandbox/demo";
import { Ledger } from "../../dev/sandbox/ledger";
import { listReports } from "../../dev/sandbox/queries";
import { TODAY } from "./sandbox-client";

describe("generateDemoData", () => {
  it("gives the same company for the same seed and a different one for another seed", () => {
    const a = generateDemoData({ seed: 11, funds: 20, reports: 100 }, TODAY);
    const b = generateDemoData({ seed: 11, funds: 20, reports: 100 }, TODAY);
    const c = generateDemoData({ seed: 12, funds: 20, reports: 100 }, TODAY);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it("moves every user id by a place's offset and tags its file links, keeping funds and reports by Id", () => {
    const sizes = { seed: 11, funds: 20, reports: 100 };
    const first = generateDemoData(sizes, TODAY);
    expect(generateDemoData(sizes, TODAY, FIRST_PLACE)).toEqual(first);
    const moved = generateDemoData(sizes, TODAY, { userIdOffset: 1000, fileQuery: "?company=Beta" });
    expect(moved.users.map((u) => u.id)).toEqual(first.users.map((u) => u.id + 1000));
    expect(moved.users.map((u) => u.name)).toEqual(first.users.map((u) => u.name));
    expect(
      moved.funds.map((f) => [f.id, f.assignedTo, f.creatorId, f.depositsCents, f.chargesCents]),
    ).toEqual(
      first.funds.map((f) => [
        f.id,
        f.assignedTo + 1000,
        f.creatorId + 1000,
        f.depositsCents,
        f.chargesCents,
      ]),
    );
    expect(moved.reports.map((r) => [r.id, r.employeeId, r.approverId])).toEqual(
      first.reports.map((r) => [r.id, r.employeeId + 1000, r.approverId + 1000]),
    );
    const files = (data: typeof first) => data.reports.flatMap((r) => r.files.map((f) => f.Url));
    expect(files(moved).length).toBeGreaterThan(0);
    expect(files(moved)).toEqual(files(first).map((url) => `${url}?company=Beta`));
  });

  it("has the sizes asked for, Spanish names, and the well-known admin and manager", () => {
    const data = generateDemoData({ seed: 1, funds: 12, reports: 80 }, TODAY);
    expect(data.funds).toHaveLength(12);
    expect(data.reports).toHaveLength(80);
    expect(data.users.find((u) => u.id === ADMIN_ID)?.roles).toEqual(["fundAdministrator", "manager"]);
    expect(data.users.find((u) => u.id === MANAGER_ID)?.roles).toEqual(["manager"]);
    for (const user of data.users)
      expect(user.name).toMatch(/^\p{Lu}[\p{L}]+ \p{Lu}[\p{L}]+ \p{Lu}[\p{L}]+$/u);
    expect(data.users.some((u) => /[áéíóúñ]/.test(u.name))).toBe(true);
  });

  it("covers every currency, every fund status, open and closed, integrated and not, extra fields and files", () => {
    const data = generateDemoData({ seed: 42, funds: 40, reports: 300 }, TODAY);
    expect(new Set(data.funds.map((f) => f.currency))).toEqual(new Set(["CLP", "USD", "MXN", "PEN"]));
    expect(new Set(data.funds.map((f) => f.status))).toEqual(new Set([1, 2, 3]));
    expect(new Set(data.reports.map((r) => r.status))).toEqual(new Set([0, 1]));
    expect(data.reports.some((r) => r.integrated)).toBe(true);
    expect(data.reports.some((r) => r.status === 1 && !r.integrated)).toBe(true);
    expect(data.reports.some((r) => r.sendDate === "")).toBe(true);
    expect(data.reports.some((r) => r.fundId !== 0)).toBe(true);
    expect(data.reports.some((r) => r.customStatus !== "")).toBe(true);
    expect(data.reports.every((r) => r.extraFields.length > 0)).toBe(true);
    expect(data.reports.some((r) => r.files.length > 0)).toBe(true);
    // Some reports lie beyond one year, so the one-year rule matters for real queries.
    expect(data.reports.some((r) => r.closeDate !== "" && r.closeDate < "2025-06-15")).toBe(true);
    expect(data.funds.every((f) => f.createdAt.slice(0, 10) < TODAY)).toBe(true);
  });

  it("offers, for any seed and size, a report to send that blocks its fund and another to close that deposits back", () => {
    for (const seed of [1, 3, 5, 7, 11, 42, 99]) {
      for (const [funds, reports] of [
        [3, 4],
        [3, 10],
        [5, 20],
        [8, 12],
        [20, 100],
        [40, 300],
      ] as const) {
        const data = generateDemoData({ seed, funds, reports }, TODAY);
        const fund = (id: number) => data.funds.find((f) => f.id === id);
        const toSend = data.reports.filter(
          (r) => r.status === 0 && fund(r.fundId)?.status === 1 && fund(r.fundId)?.autoBlock,
        );
        const toClose = data.reports.filter(
          (r) => r.status === 0 && r.sendDate !== "" && fund(r.fundId)?.autoDeposit,
        );
        const label = `seed ${seed}, ${funds} funds, ${reports} reports`;
        expect(toSend.length, label).toBeGreaterThan(0);
        expect(toClose.length, label).toBeGreaterThan(0);
        expect(new Set([...toSend, ...toClose]).size, label).toBeGreaterThan(1);
        expect(
          data.reports.some((r) => r.status === 1 && r.integrated),
          label,
        ).toBe(true);
        expect(
          data.reports.some((r) => r.status === 1 && !r.integrated),
          label,
        ).toBe(true);
        expect(
          data.reports.some((r) => r.files.length > 0),
          label,
        ).toBe(true);
        // Nothing is dated after the sandbox's clock, which starts at noon of today or earlier.
        for (const r of data.reports) expect(r.integrationDate <= `${TODAY} 00:00:00`, label).toBe(true);
      }
    }
  });

  it("shows every currency in every fund status when the currency has three funds or more", () => {
    for (const seed of [1, 7, 42, 1234]) {
      const data = generateDemoData({ seed, funds: 40, reports: 50 }, TODAY);
      for (const currency of ["CLP", "MXN", "PEN", "USD"]) {
        const own = data.funds.filter((f) => f.currency === currency);
        if (own.length < 3) continue;
        expect(new Set(own.map((f) => f.status)), `${seed} ${currency}`).toEqual(new Set([1, 2, 3]));
      }
    }
    const byDefault = generateDemoData({ seed: 42, funds: 40, reports: 300 }, TODAY);
    expect(new Set(byDefault.funds.map((f) => `${f.currency}${f.status}`)).size).toBe(12);
  });

  it("keeps every fund's totals equal to the sum of its transactions, in whole cents", () => {
    const data = generateDemoData({ seed: 9, funds: 60, reports: 2000 }, TODAY);
    for (const fund of data.funds) {
      const sum = (type: number) =>
        fund.transactions.filter((t) => t.type === type).reduce((s, t) => s + t.amountCents, 0);
      expect(sum(1)).toBe(fund.depositsCents);
      expect(sum(2)).toBe(fund.chargesCents);
      expect(fund.transactions[0]?.type).toBe(1);
      for (const t of fund.transactions) expect(Number.isInteger(t.amountCents)).toBe(true);
      if (!fund.flexible) expect(fund.depositsCents - fund.chargesCents).toBeGreaterThanOrEqual(0);
      if (fund.currency === "CLP")
        expect(fund.transactions.every((t) => t.amountCents % 100 === 0)).toBe(true);
      expect(fund.expirationDate === "").toBe(!fund.expires);
    }
    for (const report of data.reports) {
      expect(report.approvedCents).toBeLessThanOrEqual(report.totalCents);
      if (report.status === 1) expect(report.closeDate >= report.sendDate).toBe(true);
      else expect(report.closeDate).toBe("");
      const fund = data.funds.find((f) => f.id === report.fundId);
      if (fund) expect([fund.currency, fund.assignedTo]).toEqual([report.currency, report.employeeId]);
    }
  });

  it("builds 50,000 reports in well under a few seconds and pages a filtered query without sorting them again", () => {
    const started = performance.now();
    const data = generateDemoData({ seed: 5, funds: 2000, reports: 50_000 }, TODAY);
    // About a second on an idle machine; the bound leaves room for a busy shared one and still
    // catches a pass that walks the reports once per report (tens of seconds).
    expect(performance.now() - started).toBeLessThan(5000);
    const ledger = new Ledger(data, () => new Date(`${TODAY}T12:00:00Z`));
    const query = {
      since: "2025-06-15",
      until: TODAY,
      dateField: "sendDate" as const,
      orderBy: "sendDate" as const,
      order: "DESC" as const,
      resultsPerPage: 100,
      page: 7,
      integrated: false,
    };
    listReports(ledger, query); // builds the index once
    // Then no query sorts the reports again: counted, not timed (a shared machine's timings say
    // little). Only sorts of more than a thousand items count: the index's, not a page's.
    const sort = Array.prototype.sort;
    let bigSorts = 0;
    Array.prototype.sort = function (this: unknown[], compare?: (a: unknown, b: unknown) => number) {
      if (this.length > 1_000) bigSorts += 1;
      return sort.call(this, compare);
    } as typeof sort;
    let page = listReports(ledger, query);
    try {
      for (let i = 1; i <= 10; i++) page = listReports(ledger, { ...query, page: i });
    } finally {
      Array.prototype.sort = sort;
    }
    expect(bigSorts).toBe(0);
    expect(page.total).toBeGreaterThan(10_000);
  });
});

describe("demo data in a time zone behind UTC", () => {
  it("dates nothing after the sandbox's own today when UTC has already moved to the next day", async () => {
    const { startSandbox } = await import("../../dev/sandbox/index");
    // 02:00 UTC on 15 June is 22:00 on 14 June in Santiago (UTC-4).
    const running = await startSandbox({
      now: () => new Date("2026-06-15T02:00:00Z"),
      timeZone: "America/Santiago",
      seed: 42,
      funds: 40,
      reports: 600,
    });
    try {
      const ledger = running.sandbox.service.ledger;
      expect(ledger.today()).toBe("2026-06-14");
      const now = "2026-06-14 22:00:00";
      const days: string[] = [];
      const times: string[] = [];
      for (const fund of ledger.funds.values()) {
        times.push(fund.createdAt);
        days.push(...fund.transactions.map((t) => t.date));
      }
      for (const report of ledger.reports.values()) {
        days.push(report.sendDate, report.closeDate);
        if (report.integrationDate) times.push(report.integrationDate);
      }
      expect(days.filter((d) => d > "2026-06-14")).toEqual([]);
      expect(times.filter((t) => t > now)).toEqual([]);
    } finally {
      await running.close();
    }
  });
});
