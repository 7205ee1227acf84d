/**
 * The Outbox of the BUILT add-on in the emulation against the sandbox: preview, run, every
 * operation, refusals by the service, and the faults that make an outcome unknown, each
 * followed by a second run, ending with every fund's balance exactly what the Outbox asked for
 * (checked in the sandbox's ledger) and an audit sheet that tells the story.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { sheetsSnapshot } from "../../dev/emulator/snapshots";
import { formatCents, moneyText } from "../../src/api/money";
import { EXECUTION_LIMIT_KEY } from "../../src/app/entry";
import { columnNumber } from "../../src/outbox/columns";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import type { SettingsView } from "../../src/settings/view";
import { FUNDS_TABLE, headersOf } from "../../src/sheets/columns";
import { OPERATION_LABELS_EN, OPERATION_LABELS_ES } from "../support/operation-labels";
import { auditRows, createOutbox, ok, openFundsOf, type SandboxFund, writeBackPerFile } from "./harness";

const OPERATION = columnNumber("operation");
const wb = writeBackPerFile();
let openFunds: SandboxFund[];

beforeEach(async () => {
  await wb.reset();
  openFunds = await openFundsOf(wb, 3);
  createOutbox(wb);
});

describe("Outbox: preview and run", () => {
  it("previews totals per currency without sending, then runs every row once", async () => {
    const [a, b] = openFunds as [SandboxFund, SandboxFund];
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "150.25" },
      { operation: "Withdraw", targetId: b.id, amount: "1.50" },
      { operation: "Deposit", targetId: a.id, amount: "0.75" },
    ]);
    wb.emulator.resetCounters();
    const preview = ok(wb.menu("previewOutbox"));
    expect(String(preview.result)).toContain(`Deposit ${a.currency}: 151.00 (2 rows)`);
    expect(String(preview.result)).toContain("Row 4: same operation on the same target as row 2.");
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents);

    const run = ok(wb.menu("runOutbox", ["YES"]));
    expect(run.result).toMatchObject({ done: 3, refused: 0, unknown: 0 });
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 15_100);
    expect((await wb.fund(b.id)).balanceCents).toBe(b.balanceCents - 150);
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done", "Done"]);

    // A second run sends nothing: Done rows are never sent again.
    const again = wb.menu("runOutbox", ["OK"]);
    expect(again).toMatchObject({ ok: true, result: null });
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 15_100);
  });
});

describe("Outbox: every operation, and refusals by the service", () => {
  it("creates, updates, blocks, closes funds and marks reports", async () => {
    const state = await wb.state();
    const [a, b] = openFunds as [SandboxFund, SandboxFund];
    const report = state.reports[0] as { Id?: number; id?: number };
    const reportId = Number(report.id ?? report.Id);
    const employee = state.users.find((u) => u.Roles.includes("employee"));
    wb.typeOutbox([
      {
        operation: "Create fund",
        employeeId: employee?.Id,
        fundName: "Caja chica Lima",
        currency: "PEN",
        amount: "300",
        fundCode: "00123",
        flexible: "Yes",
        expirationDate: "2024-12-31",
      },
      {
        operation: "Update fund",
        targetId: a.id,
        fundName: "Viajes 2024",
        fundCode: "V-24",
        autoBlock: "No",
      },
      { operation: "Set fund status", targetId: a.id, fundStatus: "Blocked" },
      { operation: "Set fund status", targetId: b.id, fundStatus: "Closed" },
      {
        operation: "Mark integrated",
        targetId: reportId,
        integrationCode: "ERP-991",
        integrationDate: "2024-06-30 10:15:00",
      },
      {
        operation: "Set custom status",
        targetId: reportId,
        customStatus: "Pagado",
        customMessage: "Pagado el viernes",
      },
      { operation: "Mark not integrated", targetId: reportId },
    ]);
    const run = ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox().map((r) => [r.state, r.result])).toEqual([
      ["Done", expect.stringMatching(/^Done\. Fund \d+ created\.$/)],
      ["Done", expect.stringContaining(`Fund ${a.id}`)],
      ["Done", expect.stringContaining(`Fund ${a.id}`)],
      ["Done", expect.stringContaining(`Fund ${b.id}`)],
      ["Done", `Done. Report ${reportId} updated.`],
      ["Done", `Done. Report ${reportId} updated.`],
      ["Done", `Done. Report ${reportId} updated.`],
    ]);
    expect(run.result).toMatchObject({ done: 7 });
    const after = await wb.state();
    const created = after.funds.find((f) => f.title === "Caja chica Lima");
    expect(created).toMatchObject({ currency: "PEN", assignedTo: employee?.Id, balanceCents: 30_000 });
    expect(after.funds.find((f) => f.id === a.id)).toMatchObject({ title: "Viajes 2024", status: 3 });
    expect(after.funds.find((f) => f.id === b.id)).toMatchObject({ status: 2 });
    const marked = after.reports.find((r) => Number((r as { id?: number }).id) === reportId) as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(marked)).toContain("Pagado");
    // Marked integrated with its voucher, then not integrated again by the last row.
    const audit = auditRows(wb).filter((r) => r.Endpoint === "setExpenseReportIntegration");
    expect(audit.map((r) => [r.Outcome, String(r.Parameters).includes("ERP-991")])).toEqual([
      ["ok", true],
      ["ok", false],
    ]);
    // Date cells are read in the spreadsheet's time zone: what was typed is what was sent.
    expect(String(audit[0]?.Parameters)).toContain('"IntegrationDate":"2024-06-30 10:15:00"');
    expect(created).toMatchObject({ code: "00123" });
    expect(JSON.stringify(created)).toContain("2024-12-31");
  });

  it("a refusal says why; an administrator without the permission and an unknown fund are refused", async () => {
    const [a] = openFunds as [SandboxFund];
    wb.settings({ adminId: String(wb.sandbox.managerId) });
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "10" },
      { operation: "Withdraw", targetId: 999_999, amount: "10" },
    ]);
    ok(wb.menu("runOutbox", ["YES"]));
    const rows = wb.outbox();
    expect(rows.map((r) => r.state)).toEqual(["Refused", "Refused"]);
    expect(String(rows[0]?.result)).toMatch(/^Refused: .*IdAdmin/);
    expect(String(rows[1]?.result)).toMatch(/^Refused: /);
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents);

    // Fixing the settings is not an edit of the row: it stays Refused until the row is edited.
    wb.settings({});
    wb.menu("runOutbox", ["OK"]);
    expect(wb.outbox()[0]?.state).toBe("Refused");
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "12.00" }]);
    ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 1_200);
  });

  it.each([
    [
      "en",
      "Refused: The fund's balance ({balance}) is less than the withdrawal ({amount}). Nothing was changed.",
      "Details",
    ],
    [
      "es",
      "Rechazado: El saldo del fondo ({balance}) es menor que el retiro ({amount}). No se cambió nada.",
      "Detalles",
    ],
  ] as const)(
    "a refused row's Result leads with the reason in plain words (%s), the technical text after it",
    async (language, lead, details) => {
      const fund = openFunds.find((f) => !f.flexible && f.balanceCents > 0);
      if (!fund) throw new Error("no fund that is not flexible");
      if (language === "es") wb.settings({ language: "es" });
      wb.typeOutbox([{ operation: "Withdraw", targetId: fund.id, amount: "99999999.00" }]);
      ok(wb.menu("runOutbox", ["YES"]));
      const result = String(wb.outbox()[0]?.result);
      const money = (cents: number) => formatCents(cents, { locale: language, currency: fund.currency });
      const [first, rest] = result.split("\n\n");
      expect(first).toBe(
        lead.replace("{balance}", money(fund.balanceCents)).replace("{amount}", money(9_999_999_900)),
      );
      expect(rest).toMatch(
        new RegExp(
          `^${details}: withdrawMoneyFromFund: the service answered HTTP 409: WithdrawAmount: 99999999\\.00 is more`,
        ),
      );
      expect((await wb.fund(fund.id)).balanceCents).toBe(fund.balanceCents);
    },
  );

  it("shows each Result whole without a click: a wide Result column whose text wraps, a bold header", () => {
    const sheet = wb.emulator.spreadsheet.sheetByName("Outbox");
    if (!sheet) throw new Error("no Outbox sheet");
    const result = columnNumber("result");
    expect(sheet.columnWidths.get(result)).toBe(420);
    for (const row of [1, 2, 50]) expect(sheet.cell(row, result)?.style?.wrap).toBe("true");
    expect(sheet.cell(1, 1)?.style?.fontWeight).toBe("bold");
  });

  it("writes money one way in every message: the currency's code first, in its decimals", async () => {
    const fund = openFunds.find((f) => f.currency === "CLP") ?? (openFunds[0] as SandboxFund);
    const money = (cents: number) => moneyText(cents, fund.currency, "en");
    expect(money(50_000)).toMatch(/^[A-Z]{3} 500(\.00)?$/);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "500" }]);
    const preview = String(ok(wb.menu("previewOutbox")).result);
    expect(preview).toContain(`Deposit of ${money(50_000)} to fund ${fund.id}`);
    ok(wb.menu("runOutbox", ["YES"]));
    const row = wb.outbox()[0];
    expect(row?.result).toBe(`Done. Fund ${fund.id}: balance ${money(fund.balanceCents + 50_000)}.`);
    // The hidden Sent column too.
    expect(row?.snapshot).toBe(`Deposit of ${money(50_000)} to fund ${fund.id}`);
  });

  it("invalid rows are refused before sending with the contract's rules, naming the Outbox column", async () => {
    const [a] = openFunds as [SandboxFund];
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "10,50" },
      { operation: "Set custom status", targetId: 1, customStatus: "x".repeat(21) },
      { operation: "Update fund", targetId: a.id, fundName: "Caja", flexible: "quizás" },
      { operation: "Mark integrated", targetId: 1, integrationCode: "v".repeat(256) },
    ]);
    wb.emulator.resetCounters();
    ok(wb.menu("runOutbox", ["YES"]));
    const rows = wb.outbox();
    expect(rows[0]?.result).toBe(
      'Not sent: Amount contains a comma: write amounts with a dot as the decimal separator and no thousands separator, e.g. 1234.50 (got "10,50").',
    );
    expect(rows[1]?.result).toBe("Not sent: Custom status must be at most 20 characters long (got 21).");
    expect(rows[2]?.result).toBe('Not sent: Flexible must be true or false (got "quizás").');
    expect(rows[3]?.result).toBe("Not sent: Voucher code must be at most 255 characters long (got 256).");
    expect(wb.emulator.counters.urlFetchTotal).toBe(0);
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents);
  });

  it("in a document in Spanish, Preview and the Result cells name the Spanish columns and a fund not found", async () => {
    const [a] = openFunds as [SandboxFund];
    wb.settings({ language: "es" });
    ok(wb.menu("createOutboxSheet"));
    const sheet = "Bandeja de salida";
    wb.typeOutbox(
      [
        { operation: "Depósito", targetId: a.id, amount: "10,50" },
        { operation: "Retiro", targetId: "", amount: "2" },
        { operation: "Crear fondo", employeeId: "", fundName: "Caja", currency: "PESO", amount: "5" },
        { operation: "Depósito", targetId: 987654, amount: "3" },
      ],
      2,
      sheet,
    );
    const preview = String(ok(wb.menu("previewOutbox")).result);
    expect(preview).toContain("• Fila 2: Monto contiene una coma:");
    expect(preview).toContain("• Fila 3: Id destino es obligatorio.");
    expect(preview).toContain("• Fila 5: Depósito de 3,00 al fondo 987654 (fondo no encontrado)");
    expect(preview).toContain("• Depósito (fondo no encontrado): 3,00 (1 fila)");
    expect(preview).toContain("• Fila 5: no se encontró el fondo 987654.");
    expect(preview).not.toMatch(/\?|Amount|IdEmployee|FundCurrency/);

    ok(wb.menu("runOutbox", ["YES", "OK"]));
    const rows = wb.outbox(sheet);
    expect(rows.map((r) => r.result)).toEqual([
      'No enviado: Monto contiene una coma: escriba los montos con punto decimal y sin separador de miles, p. ej. 1234.50 (se recibió "10,50").',
      "No enviado: Id destino es obligatorio.",
      'No enviado: Id empleado es obligatorio. Moneda debe ser un código de moneda de 3 letras, como CLP o USD (se recibió "PESO").',
      expect.stringMatching(/^Rechazado: /),
    ]);
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents);
  });

  it("the Operation column is a dropdown of the labels; an operation typed in anyway is refused naming the column", async () => {
    const sheet = wb.emulator.spreadsheet.sheetByName("Outbox");
    const labels = OPERATION_LABELS_EN;
    // Every row under the header, down to the last, offers the list (other cells typed in
    // are let through with a warning, so that labels in the other language still work).
    for (const row of [2, 3, 500, sheet?.maxRows ?? 0]) {
      expect(sheet?.cell(row, OPERATION)?.validation, `row ${row}`).toMatchObject({
        kind: "list",
        values: labels,
        showDropdown: true,
        allowInvalid: true,
      });
    }
    expect(sheet?.cell(1, OPERATION)?.validation).toBeUndefined();

    const [a] = openFunds as [SandboxFund];
    wb.typeOutbox([
      { operation: "Transfer", targetId: a.id, amount: "5" },
      { operation: "Deposit", targetId: a.id, amount: "5" },
    ]);
    wb.emulator.resetCounters();
    const preview = String(ok(wb.menu("previewOutbox")).result);
    expect(preview).toContain("1 row with errors will not be sent:");
    expect(preview).toContain('• Row 2: Operation "Transfer" is not in the list.');
    expect(preview).toContain(`Deposit ${a.currency}: 5.00 (1 row)`);
    expect(wb.outbox()[0]?.state).toBe("");

    ok(wb.menu("runOutbox", ["YES"]));
    const rows = wb.outbox();
    expect(rows.map((r) => r.state)).toEqual(["Refused", "Done"]);
    expect(rows[0]?.result).toBe('Not sent: Operation "Transfer" is not in the list.');
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 500);
  });
});

describe("Outbox: no money moves twice", () => {
  it("drop-after-apply on a deposit: Unknown, then the next run confirms it and sends nothing", async () => {
    const [a, b] = openFunds as [SandboxFund, SandboxFund];
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "100" },
      { operation: "Withdraw", targetId: b.id, amount: "2" },
    ]);
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 }]);
    const first = ok(wb.menu("runOutbox", ["YES"]));
    expect(first.result).toMatchObject({ done: 1, unknown: 1 });
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 10_000);

    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS); // the first request can no longer land
    ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect(wb.outbox()[0]?.result).toBe(
      `Done: a matching deposit of ${moneyText(10_000, a.currency, "en")} appeared on fund ${a.id} after this request (confirmed by reading the fund; movements carry no id, so one of the same amount by someone else at the same moment would look the same).`,
    );
    const fund = await wb.fund(a.id);
    expect(fund.balanceCents).toBe(a.balanceCents + 10_000);
    expect(fund.transactions.length).toBe(a.transactions.length + 1);
    expect((await wb.fund(b.id)).balanceCents).toBe(b.balanceCents - 200);

    const deposits = auditRows(wb).filter((r) => r.Endpoint === "depositMoneyToFund");
    expect(deposits.map((r) => [r.Method, r.Outcome])).toEqual([
      ["POST", "unknown"],
      ["-", "ok"],
    ]);
    expect(String(deposits[1]?.Action)).toContain("confirmed by reading the fund");
  });

  it("drop-before-apply on a withdrawal: Unknown, then the next run sees nothing moved and sends it once", async () => {
    const [a] = openFunds as [SandboxFund];
    wb.typeOutbox([{ operation: "Withdraw", targetId: a.id, amount: "3.30" }]);
    await wb.faults([{ endpoint: "withdrawMoneyFromFund", fault: "drop-before-apply", times: 1 }]);
    ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents);
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS); // the first request can no longer land
    ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents - 330);
    const withdrawals = auditRows(wb).filter((r) => r.Endpoint === "withdrawMoneyFromFund");
    expect(withdrawals.map((r) => r.Outcome)).toEqual(["unknown", "ok", "ok"]);
  });

  it("drop-after-apply on a withdrawal and drop-before-apply on a deposit in one batch", async () => {
    const [a, b] = openFunds as [SandboxFund, SandboxFund];
    wb.typeOutbox([
      { operation: "Withdraw", targetId: a.id, amount: "5" },
      { operation: "Deposit", targetId: b.id, amount: "7" },
    ]);
    await wb.faults([
      { endpoint: "withdrawMoneyFromFund", fault: "drop-after-apply", times: 1 },
      { endpoint: "depositMoneyToFund", fault: "drop-before-apply", times: 1 },
    ]);
    ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox().map((r) => r.state)).toEqual(["Unknown", "Unknown"]);
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS); // the first request can no longer land
    ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done"]);
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents - 500);
    expect((await wb.fund(b.id)).balanceCents).toBe(b.balanceCents + 700);
  });

  it("an execution stopped at the time limit between two rows, then in the middle of one", async () => {
    const [a, b, c] = openFunds as [SandboxFund, SandboxFund, SandboxFund];
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "1" },
      { operation: "Deposit", targetId: b.id, amount: "2" },
      { operation: "Withdraw", targetId: c.id, amount: "3" },
    ]);
    // The run's preview reads each fund once; then each row reads its fund and sends.
    wb.emulator.resetCounters();
    ok(wb.menu("previewOutbox"));
    const previewFetches = wb.emulator.counters.urlFetchTotal;
    expect(previewFetches).toBe(3);

    // Stopped just before row 3's snapshot read: rows 2 and 3 are done, row 4 untouched.
    const stopped = wb.menu("runOutbox", ["YES"], { stopAt: { fetch: previewFetches + 5, when: "before" } });
    expect(stopped).toMatchObject({ ok: false, error: "Exceeded maximum execution time" });
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done", ""]);

    // Stopped after the withdrawal reached the service, before the script saw the answer.
    // Now the preview reads only fund c (the other rows are Done): its read, the snapshot
    // read, then the withdrawal itself is the third request.
    const second = wb.menu("runOutbox", ["YES"], { stopAt: { fetch: 3, when: "after" } });
    expect(second).toMatchObject({ ok: false });
    expect(wb.outbox()[2]?.state).toBe("Sending");
    expect((await wb.fund(c.id)).balanceCents).toBe(c.balanceCents - 300);

    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS); // the first request can no longer land
    ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done", "Done"]);
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 100);
    expect((await wb.fund(b.id)).balanceCents).toBe(b.balanceCents + 200);
    expect((await wb.fund(c.id)).balanceCents).toBe(c.balanceCents - 300);
    // The audit shows the withdrawal that never completed, then the verdict.
    const withdrawals = auditRows(wb).filter((r) => r.Endpoint === "withdrawMoneyFromFund");
    expect(withdrawals.map((r) => r.Outcome)).toEqual(["sending", "ok"]);
    expect(String(withdrawals[1]?.Message)).toContain("confirmed by reading the fund");
  });

  it("a run that nears the document's execution limit stops between rows; the next run sends the rest, each once", async () => {
    const [a, b] = openFunds as [SandboxFund, SandboxFund];
    const deposits: [SandboxFund, string, number][] = [
      [a, "10.01", 1001],
      [b, "0.29", 29],
      [a, "1234.57", 123_457],
      [b, "20.02", 2002],
    ];
    wb.typeOutbox(deposits.map(([fund, amount]) => ({ operation: "Deposit", targetId: fund.id, amount })));
    // Every request takes at least LATENCY_MS. The run plans with a limit of LIMIT_MS and stops
    // between rows at two thirds of it, counted from the execution's start: the preview reads
    // the two funds (2 requests), the first row reads its fund and deposits (2 more), so the
    // budget (4 requests' worth) is spent after the first row whatever the machine's speed.
    const LATENCY_MS = 200;
    const LIMIT_MS = 6 * LATENCY_MS;
    // The service's slowness is on the emulator clock: the run sees it, the test does not wait.
    wb.emulator.fetchLatencyMs = LATENCY_MS;
    wb.emulator.documentPropertiesData.values.set(EXECUTION_LIMIT_KEY, String(LIMIT_MS));
    // Apps Script itself would stop the execution well after the limit the add-on plans with.
    const first = ok(wb.menu("runOutbox", ["YES"], { budgetMs: 3 * LIMIT_MS }));
    expect(first.result).toMatchObject({ done: 1, refused: 0, unknown: 0, stoppedForTime: true });
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "", "", ""]);
    expect(
      wb
        .outbox()
        .map((r) => r.result)
        .slice(1),
    ).toEqual(["", "", ""]);
    expect(wb.emulator.ui.toasts.at(-1)?.message).toContain(
      "The run stopped before the time limit; run the Outbox again to continue.",
    );
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 1001);
    expect((await wb.fund(b.id)).balanceCents).toBe(b.balanceCents);

    // The next run, with the whole limit, continues where the first stopped.
    wb.emulator.documentPropertiesData.values.delete(EXECUTION_LIMIT_KEY);
    wb.emulator.fetchLatencyMs = 0;
    const second = ok(wb.menu("runOutbox", ["YES"]));
    expect(second.result).toMatchObject({ done: 3, refused: 0, unknown: 0, stoppedForTime: false });
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done", "Done", "Done"]);

    // Exact balances in the ledger, and each deposit in it exactly once.
    for (const fund of [a, b]) {
      const now = await wb.fund(fund.id);
      const asked = deposits.filter(([f]) => f.id === fund.id).map(([, , cents]) => cents);
      expect(now.balanceCents).toBe(fund.balanceCents + asked.reduce((x, y) => x + y, 0));
      expect(now.transactions.length).toBe(fund.transactions.length + asked.length);
      const added = now.transactions.slice(fund.transactions.length).map((t) => t.amountCents);
      expect([...added].sort((x, y) => x - y)).toEqual([...asked].sort((x, y) => x - y));
    }
    const sent = auditRows(wb).filter((r) => r.Endpoint === "depositMoneyToFund");
    expect(sent.map((r) => r.Outcome)).toEqual(["ok", "ok", "ok", "ok"]);
  });

  it("two runs never overlap: a held document lock means nothing is sent", async () => {
    const [a] = openFunds as [SandboxFund];
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "1" }]);
    const held = wb.emulator.holdLock("document");
    const busy = ok(wb.menu("runOutbox", ["YES", "OK"]));
    held.release();
    expect(busy.result).toBeNull();
    expect(wb.emulator.ui.dialogs.at(-1)?.prompt).toContain("already in progress");
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents);
    expect(wb.outbox()[0]?.state).toBe("");
  });
});

describe("Outbox: preview from the Funds sheet, and fund creation interrupted", () => {
  it("takes currency, balance, flexibility and status from the Funds sheet without a call, and warns", async () => {
    const [a, b] = openFunds as [SandboxFund, SandboxFund];
    const headers = headersOf(FUNDS_TABLE, "en");
    const at = (name: string) => headers.indexOf(name);
    const row = (f: SandboxFund, status: string) => {
      const cells: unknown[] = headers.map(() => "");
      cells[at("Id")] = f.id;
      cells[at("Currency")] = "XYZ";
      cells[at("Balance")] = 20;
      cells[at("Flexible")] = "No";
      cells[at("Status")] = status;
      return cells;
    };
    wb.emulator.spreadsheet.addSheet("Funds");
    const last = String.fromCharCode(64 + headers.length);
    wb.emulator.typeCells("Funds", `A1:${last}3`, [headers, row(a, "Open"), row(b, "Closed")]);
    wb.typeOutbox([
      { operation: "Withdraw", targetId: a.id, amount: "15" },
      { operation: "Withdraw", targetId: a.id, amount: "6" },
      { operation: "Deposit", targetId: b.id, amount: "1" },
    ]);
    wb.emulator.resetCounters();
    const preview = ok(wb.menu("previewOutbox"));
    expect(wb.emulator.counters.urlFetchTotal).toBe(0);
    const text = String(preview.result);
    expect(text).toContain("Withdrawal XYZ: 21.00 (2 rows)");
    expect(text).toContain(
      `Row 3: withdrawing XYZ 6.00 exceeds the balance XYZ 5.00 of fund ${a.id}, which is not flexible.`,
    );
    expect(text).toContain(`Row 4: fund ${b.id} is closed.`);
  });

  it("reads each balance cell into exact cents, with no float arithmetic (0.29, 1234.57, 1.005)", async () => {
    const [a, b, c] = openFunds as [SandboxFund, SandboxFund, SandboxFund];
    const headers = headersOf(FUNDS_TABLE, "en");
    const at = (name: string) => headers.indexOf(name);
    const row = (f: SandboxFund, balance: number) => {
      const cells: unknown[] = headers.map(() => "");
      cells[at("Id")] = f.id;
      cells[at("Currency")] = "XYZ";
      cells[at("Balance")] = balance;
      cells[at("Flexible")] = "No";
      cells[at("Status")] = "Open";
      return cells;
    };
    wb.emulator.spreadsheet.addSheet("Funds");
    const last = String.fromCharCode(64 + headers.length);
    // 0.29 * 100 is 28.999999999999996 and 1234.57 * 100 is 123456.99999999999 in floats; 1.005
    // (shown as 1.01) is 100.49999999999999 cents, which a float multiplication rounds to 100.
    wb.emulator.typeCells("Funds", `A1:${last}4`, [headers, row(a, 1234.57), row(b, 0.29), row(c, 1.005)]);
    wb.typeOutbox([
      { operation: "Withdraw", targetId: a.id, amount: "1234.57" },
      { operation: "Withdraw", targetId: b.id, amount: "0.29" },
      { operation: "Withdraw", targetId: c.id, amount: "1.01" },
      { operation: "Withdraw", targetId: a.id, amount: "0.01" },
    ]);
    wb.emulator.resetCounters();
    const text = String(ok(wb.menu("previewOutbox")).result);
    expect(wb.emulator.counters.urlFetchTotal).toBe(0);
    expect(text).toContain("Withdrawal XYZ: 1,235.88 (4 rows)");
    // Each of the first three withdrawals takes exactly the balance: no warning. The fourth
    // exceeds what the first left: exactly 0.00.
    expect(text).toContain(
      `Row 5: withdrawing XYZ 0.01 exceeds the balance XYZ 0.00 of fund ${a.id}, which is not flexible.`,
    );
    expect(text).not.toMatch(/Row [234]: withdrawing/);
  });

  it("createFund dropped after it was applied is found again on the next run, never created twice", async () => {
    const state = await wb.state();
    const employee = state.users.find((u) => u.Roles.includes("employee"));
    wb.typeOutbox([
      {
        operation: "Crear fondo",
        employeeId: employee?.Id,
        fundName: "Fondo rendir",
        currency: "CLP",
        amount: "50000",
      },
    ]);
    await wb.faults([{ endpoint: "createFund", fault: "drop-after-apply", times: 1 }]);
    ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox()[0]?.state).toBe("Unknown");
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS); // the first request can no longer land
    ok(wb.menu("runOutbox", ["YES"]));
    const after = await wb.state();
    const made = after.funds.filter((f) => f.title === "Fondo rendir");
    expect(made).toHaveLength(1);
    expect(wb.outbox()[0]).toMatchObject({
      state: "Done",
      result: `Done (the interrupted request had created fund ${made[0]?.id}).`,
    });
  });
});

describe("Outbox in Spanish", () => {
  it("creates the sheet with Spanish headers and runs rows labelled in Spanish", async () => {
    const [a] = openFunds as [SandboxFund];
    wb.settings({ language: "es" });
    ok(wb.menu("createOutboxSheet"));
    const header = wb.sheetValues("Bandeja de salida")[0] ?? [];
    expect(header.slice(0, 6)).toEqual([
      "Estado",
      "Resultado",
      "Empresa",
      "Operación",
      "Id destino",
      "Monto",
    ]);
    expect(
      wb.emulator.spreadsheet.sheetByName("Bandeja de salida")?.cell(2, OPERATION)?.validation,
    ).toMatchObject({
      kind: "list",
      values: OPERATION_LABELS_ES,
    });
    wb.typeOutbox([{ operation: "Depósito", targetId: a.id, amount: "4.50" }], 2, "Bandeja de salida");
    ok(wb.menu("runOutbox", ["YES"]));
    const [row] = wb.outbox("Bandeja de salida");
    expect(row?.state).toBe("Hecho");
    expect(String(row?.result)).toMatch(/^Hecho\. Fondo \d+: saldo [A-Z]{3} -?[\d.]+(,\d{2})?\.$/);
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 450);
  });
});

describe("Outbox after choosing Español in Settings", () => {
  it("is renamed, takes Spanish headers and dropdowns, and still runs a row labelled in English", async () => {
    const [a] = openFunds as [SandboxFund];
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "3.00" }]);
    const view = wb.sidebar("getSettingsView") as SettingsView;
    expect((wb.sidebar("saveSettings", { ...view.form, language: "es" }) as { ok: boolean }).ok).toBe(true);
    expect(wb.emulator.spreadsheet.sheetByName("Outbox")).toBeUndefined();
    const header = wb.sheetValues("Bandeja de salida")[0] ?? [];
    expect(header.slice(0, 6)).toEqual([
      "Estado",
      "Resultado",
      "Empresa",
      "Operación",
      "Id destino",
      "Monto",
    ]);
    const list = wb.emulator.spreadsheet.sheetByName("Bandeja de salida")?.cell(2, OPERATION)?.validation;
    expect(list?.values).toContain("Depósito");
    expect(list?.values).not.toContain("Deposit");
    ok(wb.menu("runOutbox", ["YES"]));
    expect(wb.outbox("Bandeja de salida")[0]?.state).toBe("Hecho");
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 300);
  });
});

describe("Outbox made by an earlier version, with verbs as labels", () => {
  it("offers the nouns in its dropdowns at the next Preview and sends rows still labelled with verbs, once", async () => {
    const sheet = wb.emulator.spreadsheet.sheetByName("Outbox");
    if (!sheet) throw new Error("no Outbox sheet");
    // The sheet as earlier versions left it: the verbs in every dropdown, no note of the labels.
    const verbs = ["Create fund", "Update fund", "Deposit", "Withdraw", "Set fund status"];
    for (let row = 2; row <= sheet.maxRows; row += 1) {
      const validation = sheet.cell(row, OPERATION)?.validation;
      if (validation) validation.values = verbs;
    }
    wb.emulator.documentPropertiesData.values.delete("outbox.lists.Outbox");
    const [a, b] = openFunds as [SandboxFund, SandboxFund];
    wb.typeOutbox([
      { operation: "Withdraw", targetId: a.id, amount: "1.25" },
      { operation: "Depositar", targetId: b.id, amount: "2" },
    ]);
    const preview = String(ok(wb.menu("previewOutbox")).result);
    expect(preview).toContain(`Withdrawal ${a.currency}: 1.25 (1 row)`);
    expect(preview).toContain(`Deposit ${b.currency}: 2.00 (1 row)`);
    for (const row of [2, 500, sheet.maxRows]) {
      expect(sheet.cell(row, OPERATION)?.validation?.values, `row ${row}`).toEqual(OPERATION_LABELS_EN);
    }
    // The cells keep what was typed; the run reads the verbs as the same operations.
    expect(wb.outbox().map((r) => r.operation)).toEqual(["Withdraw", "Depositar"]);
    expect(ok(wb.menu("runOutbox", ["YES"])).result).toMatchObject({ done: 2, refused: 0, unknown: 0 });
    expect(ok(wb.menu("runOutbox", ["OK"])).result).toBeNull();
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents - 125);
    expect((await wb.fund(b.id)).balanceCents).toBe(b.balanceCents + 200);
  });
});

describe("Outbox: a sheet grown past its first 1,000 rows", () => {
  it("gets the dropdowns, formats and protection on its new rows at the next Preview", async () => {
    const sheet = wb.emulator.spreadsheet.sheetByName("Outbox");
    if (!sheet) throw new Error("no Outbox sheet");
    expect(sheet.cell(1500, OPERATION)?.validation).toBeUndefined();
    sheet.maxRows = 1600; // rows added at the bottom, as "Add 600 more rows" does
    const [a] = openFunds as [SandboxFund];
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "2.50" }], 1500);
    const preview = String(ok(wb.menu("previewOutbox")).result);
    expect(preview).toContain(`• Row 1500: Deposit of ${a.currency} 2.50 to fund ${a.id}`);
    expect(sheet.cell(1500, OPERATION)?.validation).toMatchObject({ kind: "list" });
    expect(sheet.cell(1600, OPERATION)?.validation).toMatchObject({ kind: "list" });
    expect(sheet.cell(1600, columnNumber("amount"))?.numberFormat).toBe("@");
    // Both of the add-on's ranges (State and Result; its record) are protected on the new rows.
    const added = wb.emulator.spreadsheet.protections.filter(
      (p) => p.warningOnly && p.rect?.row === 1001 && p.rect.numRows === 600,
    );
    expect(added.map((p) => p.rect?.column)).toEqual([columnNumber("state"), columnNumber("time")]);
    // The conditional formats reach them too.
    const rules = sheetsSnapshot(wb.emulator).find((s) => s.name === "Outbox")?.conditionalFormats ?? [];
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) for (const range of rule.ranges) expect(range).toMatch(/1600$/);
  });
});
