import { describe, expect, it } from "vitest";
import { ruleMessage } from "../../src/api";
import { previewOutbox } from "../../src/outbox/preview";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { readOutboxRow } from "../../src/outbox/rows";
import { outboxBudgetMs, runOutbox } from "../../src/outbox/run";
import { runWords } from "../../src/outbox/run/words";
import { ExecutionStopped, FakeAudit, FakeClock, FakeLedger, FakeSheet, runContext, userRow } from "./fakes";

function setup(rows: ReturnType<typeof userRow>[]) {
  const ledger = new FakeLedger();
  ledger.addFund({ id: 1, balance: 100_000 });
  ledger.addFund({ id: 2, balance: 5_000, currency: "USD", flexible: true });
  ledger.addReport(31);
  const sheet = new FakeSheet(rows);
  const audit = new FakeAudit();
  const clock = new FakeClock();
  return { ledger, sheet, audit, clock, context: runContext(sheet, ledger, audit, clock) };
}

const balance = (ledger: FakeLedger, id: number) => ledger.funds.get(id)?.balance;

describe("runOutbox: the happy path", () => {
  it("sends every pending row once, in order, writing Sending (flushed) before each call", () => {
    const { ledger, sheet, audit, context } = setup([
      userRow("Deposit", 1, { amount: 250 }),
      userRow("Withdraw", 2, { amount: 10.5 }),
      userRow("Set fund status", 1, { fundStatus: "Blocked" }),
      userRow("Update fund", 2, { fundName: "Viajes", fundCode: "V-1" }),
      userRow("Create fund", "", { employeeId: 9, fundName: "Caja", currency: "MXN", amount: 40 }),
      userRow("Mark integrated", 31, { integrationCode: "V-77" }),
      userRow("Set custom status", 31, { customStatus: "Paid" }),
      userRow("Mark not integrated", 31),
    ]);
    const order: string[] = [];
    sheet.afterWrite = (rowNumber, cells) => order.push(`${rowNumber}:${cells.state}:${sheet.flushes}`);
    const summary = runOutbox(context);

    expect(summary).toMatchObject({ done: 8, refused: 0, unknown: 0, skipped: 0, stoppedForTime: false });
    expect(balance(ledger, 1)).toBe(125_000);
    expect(balance(ledger, 2)).toBe(5_000 - 1_050);
    expect(ledger.funds.get(1)?.status).toBe(3);
    expect(ledger.funds.get(2)?.code).toBe("V-1");
    expect([...ledger.funds.values()].find((f) => f.title === "Caja")?.currency).toBe("MXN");
    expect(ledger.reports.get(31)).toMatchObject({ integrated: false, customStatus: "Paid", code: "V-77" });
    // Sending is written and flushed before each call, Done after it.
    expect(order.slice(0, 4)).toEqual(["2:Sending:0", "2:Done:1", "3:Sending:1", "3:Done:2"]);
    for (let row = 2; row <= 9; row += 1) expect(sheet.cell(row, "state")).toBe("Done");
    expect(sheet.cell(2, "result")).toBe("Done. Fund 1: balance CLP 1,250.");
    expect(String(sheet.cell(6, "result"))).toMatch(/^Done\. Fund \d+ created\.$/);
    // Audit: each write recorded before and after, with the same key as the row.
    expect(audit.entries.slice(0, 2)).toEqual([
      { kind: "before", key: "key-1", operation: "deposit" },
      { kind: "after", key: "key-1", operation: "deposit", outcome: "ok", message: "" },
    ]);
    expect(sheet.cell(2, "operationKey")).toBe("key-1");
  });

  it("never sends a Done row again", () => {
    const { ledger, context } = setup([userRow("Deposit", 1, { amount: 1 })]);
    runOutbox(context);
    const second = runOutbox(context);
    expect(ledger.sentOf("deposit")).toBe(1);
    expect(second.done).toBe(0);
    expect(balance(ledger, 1)).toBe(100_100);
  });

  it("refuses invalid rows without sending and sends them once edited", () => {
    const { ledger, sheet, context } = setup([userRow("Deposit", 1, { amount: "12,50" })]);
    const first = runOutbox(context);
    expect(first.refused).toBe(1);
    expect(sheet.cell(2, "state")).toBe("Refused");
    expect(sheet.cell(2, "result")).toBe(
      `Not sent: ${ruleMessage("amountComma", "Amount", { got: "12,50" })}`,
    );
    expect(ledger.sent).toEqual([]);
    expect(runOutbox(context).refused).toBe(0); // unchanged: left alone
    sheet.setCell(2, "amount", "12.50");
    expect(runOutbox(context).done).toBe(1);
    expect(balance(ledger, 1)).toBe(101_250);
  });

  it("never sends a refused row that shows Done once edited, nor a copy of it: both refused again, the edited one giving up its key", () => {
    // A done row's visible cells sorted onto a refused row (and onto a copy of it): its State
    // says Done and its cells differ from the refused write's. Neither stands for a write.
    const { ledger, sheet, context } = setup([userRow("Deposit", 1, { amount: "12,50" })]);
    expect(runOutbox(context).refused).toBe(1);
    const key = sheet.cell(2, "operationKey");
    sheet.rows.push([...sheet.rows[1]]);
    for (const row of [2, 3]) {
      sheet.setCell(row, "amount", "12.50");
      sheet.setCell(row, "state", "Done");
    }
    const summary = runOutbox(context);
    expect(summary).toMatchObject({ done: 0, refused: 2 });
    expect(ledger.sent).toEqual([]);
    for (const row of [2, 3]) {
      expect(sheet.cell(row, "state")).toBe("Refused");
      expect(sheet.cell(row, "result")).toMatch(/State says Done, but the add-on wrote no Done on this row/);
      expect(sheet.cell(row, "operationKey")).toBe("");
    }
    expect(key).not.toBe("");
    // And the next runs leave them so: nothing is sent for a Done the add-on did not write.
    expect(runOutbox(context)).toMatchObject({ done: 0 });
    expect(ledger.sent).toEqual([]);
  });

  it("a row too long to be recorded is refused naming the cell and the limit, and the run goes on", () => {
    const { ledger, sheet, context } = setup([
      userRow("Deposit", 1, { amount: "12,50" }),
      userRow("Create fund", "", { employeeId: 9, fundName: "x".repeat(10_000), currency: "CLP", amount: 1 }),
      userRow("Deposit", 1, { amount: "7" }),
      userRow("Set custom status", 31, { customStatus: "Paid", customMessage: "ñ".repeat(5_000) }),
      userRow("Deposit", 1, { amount: "3" }),
    ]);
    const summary = runOutbox(context);
    expect(summary).toMatchObject({ done: 2, refused: 3 });
    expect(sheet.cell(3, "state")).toBe("Refused");
    expect(sheet.cell(3, "result")).toBe(
      "Not sent: Fund name holds 10,000 characters, more than the add-on's record of a row can keep (9 KB in all). Shorten it, then clear the row's State to send it.",
    );
    expect(sheet.cell(5, "state")).toBe("Refused");
    expect(String(sheet.cell(5, "result"))).toMatch(/^Not sent: Custom message holds 5,000 characters/);
    expect(sheet.cell(4, "state")).toBe("Done");
    expect(sheet.cell(6, "state")).toBe("Done");
    expect(balance(ledger, 1)).toBe(101_000);
    expect(ledger.sent.map((r) => r.operation)).toEqual(["deposit", "deposit"]);
    // Left alone by the next run, sent once shortened and its State cleared.
    expect(runOutbox(context)).toMatchObject({ done: 0, refused: 0 });
    sheet.setCell(3, "fundName", "Caja");
    sheet.setCell(3, "state", "");
    expect(runOutbox(context).done).toBe(1);
    expect(ledger.sentOf("createFund")).toBe(1);
  });

  it("names the column of a refused row's input in the document's language, never the service's field", () => {
    const { ledger, sheet, context } = setup([
      userRow("Retiro", 1, { amount: "12,50" }),
      userRow("Estado personalizado", 31, { customStatus: "s".repeat(21) }),
    ]);
    runOutbox({ ...context, words: runWords("es") });
    expect(sheet.cell(2, "result")).toBe(
      'No enviado: Monto contiene una coma: escriba los montos con punto decimal y sin separador de miles, p. ej. 1234.50 (se recibió "12,50").',
    );
    expect(sheet.cell(3, "result")).toBe(
      "No enviado: Estado personalizado debe tener como máximo 20 caracteres (tiene 21).",
    );
    expect(ledger.sent).toEqual([]);
  });

  it("a fund the confirmation did not find sends nothing, saying so rather than naming a currency ?", () => {
    const { ledger, sheet, context } = setup([userRow("Deposit", 1, { amount: 5 })]);
    const rows = sheet.readAll().map((values, i) => readOutboxRow(values, i + 2));
    const preview = previewOutbox(rows, () => null, { ...context, now: context.now() });
    const confirmed = { confirmed: preview.confirmed, currencies: preview.currencies };
    runOutbox({ ...context, ...confirmed });
    expect(ledger.sent).toEqual([]);
    expect(sheet.cell(2, "state")).toBe("Pending");
    expect(sheet.cell(2, "result")).toBe(
      "Could not check (fund 1 was not found when the run was confirmed, and it is in CLP: run the Outbox again to confirm it); left for the next run.",
    );
    runOutbox({ ...context, ...confirmed, words: runWords("es") });
    expect(sheet.cell(2, "result")).toContain(
      "el fondo 1 no se encontró cuando se confirmó la ejecución, y es en CLP: ejecute la Bandeja de salida otra vez para confirmarlo",
    );
  });

  it("records a refusal by the service with its message", () => {
    const { ledger, sheet, audit, context } = setup([userRow("Deposit", 1, { amount: 5 })]);
    ledger.adminAllowed = false;
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Refused");
    expect(sheet.cell(2, "result")).toBe("Refused: IdAdmin: not allowed to administer funds");
    expect(audit.entries.at(-1)).toMatchObject({ kind: "after", outcome: "refused" });
    expect(balance(ledger, 1)).toBe(100_000);
  });
});

describe("runOutbox: no money moves twice", () => {
  it("drop-after-apply: Unknown, then the next run confirms it from the fund and sends nothing", () => {
    const { ledger, sheet, audit, clock, context } = setup([
      userRow("Deposit", 1, { amount: 100 }),
      userRow("Withdraw", 1, { amount: 30 }),
      userRow("Withdraw", 2, { amount: 20 }),
    ]);
    ledger.faults.push({ endpoint: "deposit", when: "after" });
    const first = runOutbox(context);
    expect(first).toMatchObject({ done: 1, unknown: 1, skipped: 1 });
    expect(sheet.cell(2, "state")).toBe("Unknown");
    // The withdrawal on the same fund waits for the deposit to be settled.
    expect(sheet.cell(3, "state")).toBe("Pending");
    expect(sheet.cell(3, "result")).toBe("Waiting: row 2 on the same fund must be settled first.");

    clock.advance(IN_FLIGHT_WINDOW_MS);
    const second = runOutbox(context);
    expect(second).toMatchObject({ done: 2, unknown: 0 });
    expect(ledger.sentOf("deposit")).toBe(1);
    expect(balance(ledger, 1)).toBe(100_000 + 10_000 - 3_000);
    expect(balance(ledger, 2)).toBe(3_000);
    const confirmed =
      "Done: a matching deposit of CLP 100 appeared on fund 1 after this request (confirmed by reading the fund; movements carry no id, so one of the same amount by someone else at the same moment would look the same).";
    expect(sheet.cell(2, "result")).toBe(confirmed);
    expect(audit.entries.filter((e) => e.kind === "note").map((e) => e.message)).toEqual([confirmed]);
  });

  it("drop-before-apply: Unknown, then the next run sees nothing moved and sends it once", () => {
    const { ledger, sheet, audit, clock, context } = setup([userRow("Withdraw", 1, { amount: 30 })]);
    ledger.faults.push({ endpoint: "withdraw", when: "before" });
    expect(runOutbox(context).unknown).toBe(1);
    expect(balance(ledger, 1)).toBe(100_000);
    clock.advance(IN_FLIGHT_WINDOW_MS);
    expect(runOutbox(context).done).toBe(1);
    expect(balance(ledger, 1)).toBe(97_000);
    expect(ledger.sentOf("withdraw")).toBe(2);
    expect(sheet.cell(2, "state")).toBe("Done");
    expect(audit.entries.map((e) => `${e.kind}:${e.outcome ?? e.message ?? ""}`)).toEqual([
      "before:",
      "after:unknown",
      "note:interrupted write was not applied (checked by reading the service): sending it now",
      "before:",
      "after:ok",
    ]);
  });

  it("an execution stopped in the middle of a row leaves it Sending; the next run settles it", () => {
    const { ledger, sheet, clock, context } = setup([
      userRow("Deposit", 1, { amount: 100 }),
      userRow("Deposit", 1, { amount: 100 }),
      userRow("Deposit", 2, { amount: 1 }),
    ]);
    // The first deposit is applied, then the execution ends before the response is read.
    ledger.faults.push({ endpoint: "deposit", when: "halt-after" });
    ledger.onHalt = () => {
      sheet.halted = true;
    };
    expect(() => runOutbox(context)).toThrow(ExecutionStopped);
    expect(sheet.cell(2, "state")).toBe("Sending");
    expect(balance(ledger, 1)).toBe(110_000);

    sheet.halted = false;
    clock.advance(IN_FLIGHT_WINDOW_MS);
    const second = runOutbox(context);
    expect(second.done).toBe(3);
    expect(ledger.sentOf("deposit")).toBe(3);
    expect(balance(ledger, 1)).toBe(120_000);
    expect(balance(ledger, 2)).toBe(5_100);
  });

  it("createFund interrupted after apply is found again, not created twice", () => {
    const { ledger, sheet, clock, context } = setup([
      userRow("Create fund", "", { employeeId: 9, fundName: "Caja", currency: "MXN", amount: 40 }),
    ]);
    ledger.faults.push({ endpoint: "createFund", when: "after" });
    ledger.addFund({ id: 50, balance: 1, employeeId: 9, title: "Caja" }); // an older namesake
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Unknown");
    // More funds created afterwards by others push the new one to a later page.
    ledger.addFund({ id: 60, balance: 1 });
    ledger.addFund({ id: 61, balance: 1 });
    clock.advance(IN_FLIGHT_WINDOW_MS);
    runOutbox(context);
    expect(ledger.sentOf("createFund")).toBe(1);
    expect([...ledger.funds.values()].filter((f) => f.title === "Caja" && f.employeeId === 9)).toHaveLength(
      2,
    );
    expect(sheet.cell(2, "state")).toBe("Done");
    expect(sheet.cell(2, "result")).toBe("Done (the interrupted request had created fund 101).");
  });

  it("createFund interrupted before apply is sent on the next run", () => {
    const { ledger, sheet, clock, context } = setup([
      userRow("Create fund", "", { employeeId: 9, fundName: "Caja", currency: "MXN", amount: 40 }),
    ]);
    ledger.faults.push({ endpoint: "createFund", when: "before" });
    runOutbox(context);
    clock.advance(IN_FLIGHT_WINDOW_MS);
    runOutbox(context);
    expect(ledger.sentOf("createFund")).toBe(2);
    expect([...ledger.funds.values()].filter((f) => f.title === "Caja")).toHaveLength(1);
    expect(sheet.cell(2, "state")).toBe("Done");
  });

  it("idempotent writes left Unknown are simply sent again", () => {
    const { ledger, sheet, clock, context } = setup([
      userRow("Set fund status", 1, { fundStatus: "Closed" }),
    ]);
    ledger.faults.push({ endpoint: "setFundStatus", when: "after" });
    runOutbox(context);
    clock.advance(IN_FLIGHT_WINDOW_MS);
    runOutbox(context);
    expect(ledger.sentOf("setFundStatus")).toBe(2);
    expect(sheet.cell(2, "state")).toBe("Done");
  });

  it("a row in Sending or Unknown that the add-on has no record of is never sent: Refused, with why", () => {
    const { ledger, sheet, context } = setup([
      userRow("Deposit", 1, { amount: 5, state: "Sending" }),
      userRow("Deposit", 1, { amount: 6, state: "Unknown", operationKey: "typed-by-hand" }),
    ]);
    runOutbox(context);
    expect(ledger.sent).toEqual([]);
    for (const row of [2, 3]) {
      expect(sheet.cell(row, "state")).toBe("Refused");
      expect(sheet.cell(row, "result")).toMatch(
        /^Not sent: this document keeps no record of this row's request/,
      );
    }
    // Nothing more happens to them at the next run; clearing State makes the row a new one.
    runOutbox(context);
    expect(ledger.sent).toEqual([]);
    sheet.setCell(2, "state", "");
    runOutbox(context);
    expect(ledger.sent).toEqual([{ operation: "deposit", fundId: 1, amount: 500 }]);
  });
});

describe("runOutbox: an interrupted deposit found not applied", () => {
  it("is not sent again to a fund blocked after the confirmation showed it open", () => {
    const { ledger, sheet, clock, context } = setup([userRow("Deposit", 1, { amount: 100 })]);
    ledger.faults.push({ endpoint: "deposit", when: "before" });
    runOutbox(context);
    expect(sheet.cell(2, "state")).toBe("Unknown");
    clock.advance(IN_FLIGHT_WINDOW_MS);
    const rows = sheet.readAll().map((values, i) => readOutboxRow(values, i + 2));
    const preview = previewOutbox(
      rows,
      (id) => {
        const fund = ledger.funds.get(id);
        return fund
          ? { currency: fund.currency, balance: fund.balance, flexible: false, status: fund.status }
          : null;
      },
      { ...context, now: context.now() },
      context.records.all(),
    );
    // Blocked in the service while the question was open.
    (ledger.funds.get(1) as { status: number }).status = 3;
    runOutbox({
      ...context,
      confirmed: preview.confirmed,
      currencies: preview.currencies,
      statuses: preview.statuses,
    });
    expect(ledger.sentOf("deposit")).toBe(1);
    expect(balance(ledger, 1)).toBe(100_000);
    expect(sheet.cell(2, "state")).toBe("Pending");
    expect(String(sheet.cell(2, "result"))).toContain("the status of fund 1 is Blocked now");
  });
});

describe("runOutbox: a sheet that cannot be updated after a Done", () => {
  it("does not stop the run: every row is Done or settled once, and the summary says the sheets were not updated", () => {
    const { ledger, sheet, clock, context } = setup([
      userRow("Deposit", 1, { amount: 100 }),
      userRow("Deposit", 2, { amount: 5 }),
      userRow("Withdraw", 2, { amount: 1 }),
    ]);
    // A co-editor protected the Funds sheet: every update of it throws.
    const protectedSheet = {
      ...context,
      applyResult: () => {
        throw new Error("You are trying to edit a protected cell or object.");
      },
    };
    ledger.faults.push({ endpoint: "deposit", when: "after" });
    const first = runOutbox(protectedSheet);
    expect(first).toMatchObject({ done: 2, unknown: 1, sheetsNotUpdated: 2 });
    expect([2, 3, 4].map((r) => sheet.cell(r, "state"))).toEqual(["Unknown", "Done", "Done"]);
    // The interrupted deposit is found applied: Done, nothing sent again, the run not stopped.
    clock.advance(IN_FLIGHT_WINDOW_MS);
    const second = runOutbox(protectedSheet);
    expect(second).toMatchObject({ done: 1, sheetsNotUpdated: 1 });
    expect(sheet.cell(2, "state")).toBe("Done");
    expect(ledger.sentOf("deposit")).toBe(2);
    expect(balance(ledger, 1)).toBe(110_000);
    expect(balance(ledger, 2)).toBe(5_400);
  });
});

describe("runOutbox: time limit and edits during a run", () => {
  it("stops between rows near the time budget and the next run continues", () => {
    const { ledger, sheet, clock, context } = setup([
      userRow("Deposit", 1, { amount: 1 }),
      userRow("Deposit", 1, { amount: 2 }),
      userRow("Deposit", 1, { amount: 3 }),
    ]);
    sheet.afterWrite = (_row, cells) => {
      if (cells.state === "Done") clock.advance(40_000);
    };
    const first = runOutbox(context);
    expect(first).toMatchObject({ done: 2, stoppedForTime: true });
    expect(sheet.cell(4, "state")).toBe("");
    const second = runOutbox({ ...context, now: clock.now });
    expect(second.done).toBe(1);
    expect(balance(ledger, 1)).toBe(100_600);
  });

  it("plans with two thirds of the execution limit: 4 of Google's 6 minutes, less when the limit is lower", () => {
    expect(outboxBudgetMs(6 * 60 * 1000)).toBe(4 * 60 * 1000);
    expect(outboxBudgetMs(900)).toBe(600);
    expect(outboxBudgetMs(1000)).toBe(666);
  });

  it("counts the budget from the execution's start when given (the preview's reads use it too)", () => {
    const { ledger, sheet, clock, context } = setup([
      userRow("Deposit", 1, { amount: 1 }),
      userRow("Deposit", 1, { amount: 2 }),
    ]);
    // The preview and the question took 50 of the 60 seconds; one row takes 20.
    const startedAt = clock.now().getTime() - 50_000;
    sheet.afterWrite = (_row, cells) => {
      if (cells.state === "Done") clock.advance(20_000);
    };
    const first = runOutbox({ ...context, startedAt });
    expect(first).toMatchObject({ done: 1, stoppedForTime: true });
    expect(sheet.cell(3, "state")).toBe("");
    expect(ledger.sent).toHaveLength(1);
    const second = runOutbox({ ...context, startedAt: clock.now().getTime() });
    expect(second).toMatchObject({ done: 1, stoppedForTime: false });
    expect(balance(ledger, 1)).toBe(100_300);
  });

  it("keeps edits made to a row while it is being sent, and follows a row that moved", () => {
    const { ledger, sheet, context } = setup([
      userRow("Deposit", 1, { amount: 1 }),
      userRow("Deposit", 2, { amount: 2 }),
    ]);
    sheet.afterWrite = (rowNumber, cells) => {
      if (rowNumber === 2 && cells.state === "Sending") {
        sheet.setCell(2, "fundComment", "typed during the run");
        sheet.insertRowBefore(2, ["", "", "", "", "", "", "", "", "", "", "", "", "note typed above"]);
      }
    };
    runOutbox(context);
    expect(sheet.cell(3, "state")).toBe("Done");
    expect(sheet.cell(3, "fundComment")).toBe("typed during the run");
    expect(sheet.cell(2, "state")).toBe("");
    expect(sheet.cell(4, "state")).toBe("Done");
    expect(ledger.sent).toHaveLength(2);
  });
});
