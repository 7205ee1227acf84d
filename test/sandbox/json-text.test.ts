/**
 * The sandbox's JSON text: amounts with two decimals wherever an amount member holds a number,
 * and nothing else touched (a member's name or an amount inside text stays as it is).
 */
import { describe, expect, it } from "vitest";
import { jsonText } from "../../dev/sandbox/json-text";

describe("jsonText", () => {
  it("writes every amount member's number with two decimals, at any depth", () => {
    const body = {
      Deposits: 1234.5,
      Withdrawals: 0,
      Balance: -12,
      Transactions: [{ TransactionAmount: 0.1, Other: 0.5 }],
      Records: { ReportTotal: 7, ReportTotalApproved: 1e-7, Charges: 99.99 },
    };
    expect(jsonText(body)).toBe(
      '{"Deposits":1234.50,"Withdrawals":0.00,"Balance":-12.00,"Transactions":[{"TransactionAmount":0.10,"Other":0.5}],' +
        '"Records":{"ReportTotal":7.00,"ReportTotalApproved":0.00,"Charges":99.99}}',
    );
  });

  it("leaves text, other members and amounts that are not numbers as JSON.stringify writes them", () => {
    const body = {
      Note: 'a,"Balance":1 and {"Deposits":2',
      'x","Balance': 3,
      Balance: "12.5",
      Deposits: null,
      Charges: Number.NaN,
      List: [1.5, "Balance", { Id: 1 }],
    };
    expect(jsonText(body)).toBe(JSON.stringify(body));
  });
});
