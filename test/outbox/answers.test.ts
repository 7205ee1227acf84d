/**
 * A write the service answers with HTTP 200 is done only if the answer shows it: a report that
 * comes back not integrated after "mark integrated", another record than the one asked for, a
 * fund whose status, name or flags are not the ones sent, is not reported Done; nor is it
 * Refused on the answer alone. A report mark refused in an answer is read back.
 */
import { describe, expect, it } from "vitest";
import type { WriteRequest } from "../../src/outbox/requests";
import { answerShowsMovement, answerShowsNewFund, type FundState, markFund } from "../../src/outbox/snapshot";
import { sendWrite } from "../../src/outbox/write";
import { fixture, ok, type Reply, scriptedTransport } from "../api/fakes";
import { clientWriteContext } from "./fakes";

/** The report as getExpenseReport answers it: not integrated, no custom status, unless `over` says. */
const reportRead = (over: Record<string, unknown> = {}) =>
  ok({
    ...(fixture("getExpenseReport.json") as object),
    Id: 42,
    CustomStatus: "",
    IntegrationDate: "",
    IntegrationExternalCode: "",
    ...over,
  });
const integratedV1 = { IntegrationDate: "2024-06-01 10:00:00", IntegrationExternalCode: "V-1" };

/**
 * Sends `request` answered by `replies`; a report mark's report is read first (as `reportRead()`),
 * an update's fund too (as getFund.json, under another name).
 */
function sendWith(answer: unknown, request: WriteRequest, replies?: Reply[]) {
  const { transport } = scriptedTransport(
    replies ??
      [
        "reportId" in request
          ? [reportRead()]
          : request.operation === "updateFund"
            ? [ok({ ...(fixture("getFund.json") as object), Id: 300 })]
            : [],
        ok(answer),
      ].flat(),
  );
  const context = clientWriteContext(transport);
  return sendWrite(context, request, "key-1");
}

const report = { Id: 42, Title: "Trip", ReportNumber: "R-42" };

describe("an HTTP 200 whose answer does not show the write", () => {
  it("mark integrated answered with IntegrationStatus 0: unknown, neither done nor refused", () => {
    const end = sendWith(
      { ...report, IntegrationStatus: 0, IntegrationCode: "", IntegrationDate: "" },
      { operation: "markIntegrated", reportId: 42, code: "V-1", date: "2024-06-01 10:00:00" },
    );
    expect(end.status).toBe("unknown");
    expect(end.status !== "done" && end.message).toContain("the answer for record 42 does not show it");
  });

  it("mark not integrated answered with IntegrationStatus 1: unknown", () => {
    const end = sendWith(
      { ...report, IntegrationStatus: 1, IntegrationCode: "V-1", IntegrationDate: "2024-06-01 10:00:00" },
      { operation: "markNotIntegrated", reportId: 42 },
    );
    expect(end.status).toBe("unknown");
  });

  it("another report in the answer: unknown (it may have been applied elsewhere)", () => {
    const end = sendWith(
      {
        ...report,
        Id: 43,
        IntegrationStatus: 1,
        IntegrationCode: "V-1",
        IntegrationDate: "2024-06-01 10:00:00",
      },
      { operation: "markIntegrated", reportId: 42, code: "V-1", date: "2024-06-01 10:00:00" },
    );
    expect(end.status).toBe("unknown");
  });

  it("custom status answered with another status: unknown, not refused on the echo alone", () => {
    const end = sendWith(
      { ...report, CustomStatus: "Observed" },
      { operation: "setCustomStatus", reportId: 42, status: "Paid" },
    );
    expect(end.status).toBe("unknown");
  });

  it("custom status answered trimmed or in the policy's spelling: done", () => {
    for (const [asked, answered] of [
      ["paid", "Paid"],
      [" Paid ", "Paid"],
      ["PAID", " paid"],
    ] as const)
      expect(
        sendWith(
          { ...report, CustomStatus: answered },
          { operation: "setCustomStatus", reportId: 42, status: asked },
        ).status,
        `${asked} answered as ${answered}`,
      ).toBe("done");
  });

  it("answers that show the write are done", () => {
    expect(
      sendWith(
        { ...report, IntegrationStatus: 1, IntegrationCode: "V-1", IntegrationDate: "2024-06-01 10:00:00" },
        { operation: "markIntegrated", reportId: 42, code: "V-1", date: "2024-06-01 10:00:00" },
      ).status,
    ).toBe("done");
    expect(
      sendWith(
        { ...report, CustomStatus: "Paid" },
        { operation: "setCustomStatus", reportId: 42, status: "Paid" },
      ).status,
    ).toBe("done");
  });
});

describe("updateFund is done only when the answer carries what was sent", () => {
  const answer = { ...(fixture("updateFund.json") as object) };
  const update = (over: Partial<Extract<WriteRequest, { operation: "updateFund" }>> = {}): WriteRequest => ({
    operation: "updateFund",
    fundId: 300,
    name: "Fondo renombrado",
    code: "NEW-2",
    flexible: false,
    autoBlock: false,
    ...over,
  });

  it("the same name, code and flags, as text and trimmed: done", () => {
    expect(sendWith(answer, update()).status).toBe("done");
    expect(
      sendWith({ ...answer, Title: " Fondo renombrado " }, update({ name: "Fondo renombrado " })).status,
    ).toBe("done");
  });

  it("another name, code or flag in the answer: unknown", () => {
    for (const over of [{ name: "Caja chica" }, { code: "NEW-3" }, { flexible: true }, { autoBlock: true }])
      expect(sendWith(answer, update(over)).status, JSON.stringify(over)).toBe("unknown");
  });

  it("an answer without the fund's fields: unknown", () => {
    expect(sendWith({ Id: 300 }, update()).status).toBe("unknown");
  });
});

describe("a report mark refused in an answer, read back", () => {
  const integrate: WriteRequest = {
    operation: "markIntegrated",
    reportId: 42,
    code: "V-1",
    date: "2024-06-01 10:00:00",
  };
  const conflict = ok({ message: "Conflict" }, 409);

  it("the report shows the mark since: unknown, not refused", () => {
    const end = sendWith(null, integrate, [reportRead(), conflict, reportRead(integratedV1)]);
    expect(end.status).toBe("unknown");
    expect(end.status !== "done" && end.message).toContain("shows it was");
  });

  it("a custom status read back in another case: unknown, not refused", () => {
    const end = sendWith(null, { operation: "setCustomStatus", reportId: 42, status: "Pagado" }, [
      reportRead(),
      conflict,
      reportRead({ CustomStatus: "PAGADO" }),
    ]);
    expect(end.status).toBe("unknown");
  });

  it("the read back fails: unknown, never refused", () => {
    const failures = Array.from({ length: 8 }, () => ({ transportError: "Timeout" }));
    expect(sendWith(null, integrate, [reportRead(), conflict, ...failures]).status).toBe("unknown");
  });

  it("the report does not show it: refused", () => {
    expect(sendWith(null, integrate, [reportRead(), conflict, reportRead()]).status).toBe("refused");
  });

  it("the report had the mark before it was sent: the refusal stands", () => {
    expect(sendWith(null, integrate, [reportRead(integratedV1), conflict]).status).toBe("refused");
  });
});

describe("a money answer shows exactly the movement sent, or it is not believed", () => {
  const before: FundState = {
    id: 5,
    title: "Caja",
    code: "C-1",
    currency: "CLP",
    employeeId: 7,
    status: 1,
    flexible: false,
    deposits: 10_000,
    charges: 0,
    balance: 10_000,
    createdAt: "2026-01-01 00:00:00",
    transactions: [{ type: 1, amount: 10_000, date: "" }],
  };
  const deposit: WriteRequest = { operation: "deposit", fundId: 5, amount: 1_234 };
  const mark = markFund(before, deposit);
  const answered = (over: Partial<FundState> = {}): FundState => ({
    ...before,
    deposits: 11_234,
    balance: 11_234,
    transactions: [...before.transactions, { type: 1, amount: 1_234, date: "" }],
    ...over,
  });

  it("one more movement of that type and amount, and the total grown by it", () => {
    expect(answerShowsMovement(mark, answered(), deposit)).toBe(true);
    // Without the Transactions member, the totals alone decide.
    expect(
      answerShowsMovement(mark, answered({ transactions: [], withoutTransactions: true }), deposit),
    ).toBe(true);
  });

  it("another amount, no movement, two movements, another fund or totals that did not grow by it: not believed", () => {
    const wrong = [
      answered({ transactions: [...before.transactions, { type: 1, amount: 1_334, date: "" }] }),
      answered({ transactions: [...before.transactions, { type: 2, amount: 1_234, date: "" }] }),
      answered({ transactions: before.transactions }),
      answered({ transactions: [] }), // the member there, empty (null in the answer)
      answered({ transactions: [...answered().transactions, { type: 1, amount: 1_234, date: "" }] }),
      answered({ id: 6 }),
      answered({ deposits: 11_334 }),
      answered({ deposits: 10_000, transactions: [], withoutTransactions: true }),
    ];
    for (const answer of wrong) expect(answerShowsMovement(mark, answer, deposit)).toBe(false);
    const withdraw: WriteRequest = { operation: "withdraw", fundId: 5, amount: 1_234 };
    expect(answerShowsMovement(markFund(before, withdraw), answered(), withdraw)).toBe(false);
  });

  it("a creation's answer is the new fund of the employee, name, code, currency and amount sent", () => {
    const create = {
      operation: "createFund",
      employeeId: 7,
      name: "Caja Arica",
      code: "A-1",
      currency: "CLP",
      amount: 500_000,
    } as Extract<WriteRequest, { operation: "createFund" }>;
    const newMark = { newestCreatedAt: "2026-01-01 00:00:00", newestIds: [5] };
    const created: FundState = {
      ...before,
      id: 9,
      title: "Caja Arica",
      code: "A-1",
      deposits: 500_000,
      balance: 500_000,
      createdAt: "2026-01-02 10:00:00",
    };
    expect(answerShowsNewFund(newMark, created, create)).toBe(true);
    for (const over of [
      { id: 5 },
      { createdAt: "2025-12-31 00:00:00" },
      { employeeId: 8 },
      { title: "Caja Arica 2" },
      { code: "" },
      { currency: "USD" },
      { deposits: 500_100, balance: 500_100 },
    ] as Partial<FundState>[])
      expect(answerShowsNewFund(newMark, { ...created, ...over }, create)).toBe(false);
  });
});
