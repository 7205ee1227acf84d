/**
 * The close's reads: the month's window and queries (§4.8: closed, not integrated, by CloseDate;
 * open ones by SendDate), every page of each list read; what needs attention.
 */
import { describe, expect, it } from "vitest";
import { attentionItems } from "../../src/close/attention";
import {
  closedReportsQuery,
  monthWindow,
  openReportsQuery,
  parseMonth,
  readEveryPage,
} from "../../src/close/month";
import { makeFund, makeReport } from "../refresh/fakes";

describe("the month", () => {
  it("runs from its first to its last day", () => {
    expect(monthWindow("2024-02")).toEqual({ since: "2024-02-01", until: "2024-02-29" });
    expect(monthWindow("2026-11")).toEqual({ since: "2026-11-01", until: "2026-11-30" });
    expect(parseMonth("2026-13")).toBeNull();
    expect(parseMonth("2026-1")).toBeNull();
  });

  it("reads closed, not integrated reports by CloseDate, open ones by SendDate", () => {
    expect(closedReportsQuery("2026-11", "CLP")).toMatchObject({
      Since: "2026-11-01",
      Until: "2026-11-30",
      TypeDateFilter: 1,
      Status: 1,
      IntegrationStatus: 0,
      Currency: "CLP",
    });
    expect(closedReportsQuery("2026-11", null)).not.toHaveProperty("Currency");
    expect(openReportsQuery("2026-11", null)).toMatchObject({ TypeDateFilter: 2, Status: 0 });
  });

  it("reads every page of every list, the pages after the first in one batch", () => {
    const batches: Record<string, unknown>[][] = [];
    const lists = readEveryPage(
      (queries) => {
        batches.push([...queries]);
        return queries.map((q) => ({
          items: q.Status === 1 ? [`closed ${q.Page}`] : q.Page === 1 ? [] : ["never"],
          pages: q.Status === 1 ? 3 : 5,
        }));
      },
      [closedReportsQuery("2026-11", null), openReportsQuery("2026-11", null)],
    );
    expect(lists).toEqual([["closed 1", "closed 2", "closed 3"], []]);
    expect(batches.map((b) => b.length)).toEqual([2, 2]);
    expect(batches[0]?.[1]).not.toHaveProperty("IntegrationStatus");
  });
});

describe("what needs attention", () => {
  it("lists open reports, expired funds holding a balance, reports integrated under a code", () => {
    const expired = { ...makeFund(5, [1000]), expirationDate: "2026-11-20" };
    const emptied = { ...makeFund(6, [1000, -1000]), expirationDate: "2026-11-20" };
    const current = { ...makeFund(7, [1000]), expirationDate: "2027-01-01" };
    const integrated = { ...makeReport(9, "2026-11-03"), integrated: true, integrationExternalCode: "X-1" };
    const items = attentionItems(
      "c0",
      {
        open: [{ ...makeReport(8, "2026-11-02"), status: 0 }],
        integrated: [integrated],
        funds: [expired, emptied, current],
      },
      "2026-12-01",
      null,
    );
    expect(items).toEqual([
      { kind: "openReport", company: "c0", id: 8, reportNumber: "000008", employeeName: "Ana" },
      {
        kind: "expiredFund",
        company: "c0",
        id: 5,
        title: "Fund 5",
        expirationDate: "2026-11-20",
        balanceCents: 1000,
        currency: "CLP",
      },
      { kind: "integrated", company: "c0", id: 9, reportNumber: "000009", code: "X-1" },
    ]);
  });
});
