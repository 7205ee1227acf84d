/**
 * An interrupted fund creation is settled by reading the funds, newest first, down to the mark
 * taken before sending. A service that counts Pages by a floor division (150 funds at 100 a page
 * said as 1) must not end that search before the last page: the fund created there would be
 * taken as not created, and sent again with its amount.
 */
import { describe, expect, it } from "vitest";
import type { WriteRequest } from "../../src/outbox/requests";
import { settleInterruptedWrite } from "../../src/outbox/write";
import { ok, scriptedTransport } from "../api/fakes";
import { clientWriteContext } from "./fakes";

const fund = (id: number, title = `Fondo ${id}`) => ({
  Id: id,
  Title: title,
  Code: "",
  Currency: "CLP",
  IdAssignTo: 5001,
  IdCreator: 9001,
  Deposits: 0,
  Withdrawals: 0,
  Balance: 0,
  Status: 1,
  CreatedAt: `2024-06-01 10:${String(Math.floor(id / 60)).padStart(2, "0")}:${String(id % 60).padStart(2, "0")}`,
  ExpirationDate: "",
  FlexibleFund: false,
  ManualDeposit: false,
  AutomaticBlock: false,
});

describe("an interrupted creation under a floor-division page count", () => {
  it("reads the last page the count leaves out, and finds the fund there: applied, not sent again", () => {
    // 150 funds, newest first; the first of them is the one the interrupted request created.
    const all = Array.from({ length: 150 }, (_, i) => fund(150 - i, i === 149 ? "Caja nueva" : undefined));
    const page = (n: number) =>
      ok({
        Records: { TotalRecords: 150, Funds: n === 1 ? 100 : 50, Page: n, Pages: 1 },
        Funds: all.slice((n - 1) * 100, n * 100),
      });
    const { transport, sent } = scriptedTransport([page(1), page(2)]);
    const context = clientWriteContext(transport);
    const request: WriteRequest = {
      operation: "createFund",
      employeeId: 5001,
      name: "Caja nueva",
      currency: "CLP",
      amount: 50_000,
    };
    const verdict = settleInterruptedWrite(context, {
      key: "key-1",
      at: "2024-06-01T09:00:00Z",
      request,
      newFund: { newestCreatedAt: "", newestIds: [] },
    });
    expect(verdict).toMatchObject({ verdict: "applied", createdFundId: 1 });
    expect(sent).toHaveLength(2);
  });
});
