import { describe, expect, it } from "vitest";
import { ruleMessage } from "../../src/api";
import { type FundFacts, previewOutbox, previewText } from "../../src/outbox/preview";
import { fingerprint, readOutboxRow } from "../../src/outbox/rows";
import { serializeSnapshot } from "../../src/outbox/snapshot";
import { formatUtc, userRow } from "./fakes";

const context = { format: formatUtc, now: new Date(Date.UTC(2026, 1, 2, 9, 0, 0)), adminId: 1 };
const facts: Record<number, FundFacts> = {
  1: { currency: "CLP", balance: 10000, flexible: false, status: 1 },
  2: { currency: "USD", balance: 500, flexible: true, status: 1 },
  3: { currency: "CLP", balance: 0, flexible: false, status: 2 },
};
const lookup = (id: number) => facts[id] ?? null;
const rows = (...values: ReturnType<typeof userRow>[]) => values.map((v, i) => readOutboxRow(v, i + 2));

describe("previewOutbox", () => {
  it("totals per operation and currency in integer cents", () => {
    const preview = previewOutbox(
      rows(
        userRow("Deposit", 1, { amount: 0.1 }),
        userRow("Deposit", 1, { amount: 0.2 }),
        userRow("Deposit", 2, { amount: 3 }),
        userRow("Withdraw", 2, { amount: 1.5 }),
        userRow("Create fund", "", { employeeId: 4, fundName: "Caja", currency: "CLP", amount: 100 }),
        userRow("Mark integrated", 77, { integrationCode: "V1" }),
      ),
      lookup,
      context,
    );
    expect(preview.totals).toEqual([
      { operation: "deposit", currency: "CLP", amount: 30, count: 2 },
      { operation: "deposit", currency: "USD", amount: 300, count: 1 },
      { operation: "withdraw", currency: "USD", amount: 150, count: 1 },
      { operation: "createFund", currency: "CLP", amount: 10000, count: 1 },
      { operation: "markIntegrated", currency: null, amount: 0, count: 1 },
    ]);
    expect(preview.toSend.map((r) => r.rowNumber)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(preview.warnings).toEqual([{ kind: "duplicate", rowNumber: 3, otherRow: 2 }]);
  });

  it("warns of a withdrawal above the balance of a fund that is not flexible, counting earlier rows", () => {
    const preview = previewOutbox(
      rows(
        userRow("Withdraw", 1, { amount: 60 }),
        userRow("Deposit", 1, { amount: 10 }),
        userRow("Withdraw", 1, { amount: 60 }),
        userRow("Withdraw", 2, { amount: 999 }),
      ),
      lookup,
      context,
    );
    expect(preview.warnings.filter((w) => w.kind === "overBalance")).toEqual([
      { kind: "overBalance", rowNumber: 4, fundId: 1, amount: 6000, balance: 5000, currency: "CLP" },
    ]);
  });

  it("warns of closed and unknown funds, and lists invalid rows with their messages", () => {
    const preview = previewOutbox(
      rows(
        userRow("Deposit", 3, { amount: 1 }),
        userRow("Deposit", 99, { amount: 1 }),
        userRow("Deposit", 1, { amount: "1,5" }),
      ),
      lookup,
      context,
    );
    expect(preview.warnings).toEqual([
      { kind: "closedFund", rowNumber: 2, fundId: 3 },
      { kind: "unknownFund", rowNumber: 3, fundId: 99 },
    ]);
    expect(preview.invalid).toEqual([
      {
        rowNumber: 4,
        problems: [
          {
            field: "DepositAmount",
            message: ruleMessage("amountComma", "DepositAmount", { got: "1,5" }),
          },
        ],
      },
    ]);
    const text = previewText("en", preview);
    expect(text).toContain("Row 2: fund 3 is closed.");
    expect(text).toContain("• 4: DepositAmount contains a comma");
  });

  it("skips Done rows and unedited Refused rows; an edited Refused row is pending again", () => {
    const refused = userRow("Deposit", 1, { amount: 5, state: "Refused" });
    const refusedRow = readOutboxRow(refused, 3);
    refused[refused.length - 1] = serializeSnapshot({
      key: "k",
      at: "",
      fingerprint: fingerprint(refusedRow),
    });
    const edited = userRow("Deposit", 1, { amount: 6, state: "Refused" });
    edited[edited.length - 1] = serializeSnapshot({
      key: "k2",
      at: "",
      fingerprint: fingerprint(refusedRow),
    });
    const preview = previewOutbox(
      rows(
        userRow("Deposit", 1, { amount: 5, state: "Done" }),
        refused,
        edited,
        userRow("Deposit", 1, { amount: 5, state: "Unknown" }),
      ),
      lookup,
      context,
    );
    expect(preview.toSend.map((r) => r.rowNumber)).toEqual([4]);
    expect(preview.toSettle).toEqual([5]);
    expect(previewText("es", preview)).toContain("1 fila(s) de una ejecución interrumpida");
  });

  it("lists at most a few warnings and invalid rows by name, and counts the rest", () => {
    const many = Array.from({ length: 20 }, () => userRow("Deposit", 1, { amount: "1,5" }));
    const text = previewText("en", previewOutbox(rows(...many), lookup, context));
    expect(text.split("\n").filter((l) => l.startsWith("• "))).toHaveLength(15);
    expect(text).toContain("…and 5 more.");
  });

  it("says when there is nothing to send", () => {
    expect(previewText("en", previewOutbox([], lookup, context))).toBe("No pending rows in the Outbox.");
  });
});
