/**
 * Preview writes its warnings onto the rows, in the Result cell ("Preview: …"), in the user's
 * language: the State is never written, a Done row's result never, a note that no longer
 * applies is cleared, a row edited while the preview was computed is left as it is, and a run
 * replaces the note of every row it takes with that row's result. The BUILT add-on in the
 * emulation against the sandbox.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Language } from "../../src/i18n";
import { columnNumber } from "../../src/outbox/columns";
import { FUNDS_TABLE, headersOf } from "../../src/sheets/columns";
import { ok, openFundsOf, type SandboxFund, writeBackPerFile } from "./harness";

const wb = writeBackPerFile();
let openFunds: SandboxFund[];

beforeEach(async () => {
  await wb.reset();
  openFunds = await openFundsOf(wb, 3);
});

/** A Funds sheet saying `a` is open, not flexible, with 20.00 XYZ, and `b` is closed. */
function fundsSheet(language: Language, name: string, a: SandboxFund, b: SandboxFund): void {
  const headers = headersOf(FUNDS_TABLE, language);
  const at = (header: string) => headers.indexOf(header);
  const [id, currency, balance, flexible, status] =
    language === "es"
      ? ["Id", "Moneda", "Saldo", "Flexible", "Estado"]
      : ["Id", "Currency", "Balance", "Flexible", "Status"];
  const row = (f: SandboxFund, state: string) => {
    const cells: unknown[] = headers.map(() => "");
    cells[at(id)] = f.id;
    cells[at(currency)] = "XYZ";
    cells[at(balance)] = 20;
    cells[at(flexible)] = "No";
    cells[at(status)] = state;
    return cells;
  };
  const [open, closed] = language === "es" ? ["Abierto", "Cerrado"] : ["Open", "Closed"];
  wb.emulator.spreadsheet.addSheet(name);
  const last = String.fromCharCode(64 + headers.length);
  wb.emulator.typeCells(name, `A1:${last}3`, [headers, row(a, open), row(b, closed)]);
}

const results = (sheet?: string) => wb.outbox(sheet).map((r) => r.result);
const states = (sheet?: string) => wb.outbox(sheet).map((r) => r.state);

describe("Preview notes on the rows", () => {
  it("writes each row's warnings into its Result in English, leaving State and the modal as they were", async () => {
    ok(wb.menu("createOutboxSheet"));
    const [a, b, c] = openFunds as [SandboxFund, SandboxFund, SandboxFund];
    fundsSheet("en", "Funds", a, b);
    wb.typeOutbox([
      { operation: "Withdrawal", targetId: a.id, amount: "15" },
      { operation: "Withdrawal", targetId: a.id, amount: "6" },
      { operation: "Deposit", targetId: b.id, amount: "1" },
      { operation: "Deposit", targetId: c.id, amount: "10,50" },
      { operation: "Deposit", targetId: c.id, amount: "2" },
    ]);
    const text = String(ok(wb.menu("previewOutbox")).result);
    // The modal says what it said before.
    expect(text).toContain(
      `Row 3: withdrawing XYZ 6.00 exceeds the balance XYZ 5.00 of fund ${a.id}, which is not flexible.`,
    );
    expect(text).toContain(`Row 4: fund ${b.id} is closed.`);
    expect(text).toContain("• Row 5: Amount contains a comma");
    expect(results()).toEqual([
      "",
      `Preview: same operation on the same target as row 2. Withdrawing XYZ 6.00 exceeds the balance XYZ 5.00 of fund ${a.id}, which is not flexible.`,
      `Preview: fund ${b.id} is closed.`,
      expect.stringMatching(/^Preview: will not be sent: Amount contains a comma/),
      "",
    ]);
    expect(states()).toEqual(["", "", "", "", ""]);
    // Nothing was sent; only the Result cells changed.
    expect(wb.outbox()[1]).toMatchObject({ operation: "Withdrawal", amount: "6", operationKey: "" });
    expect((await wb.fund(c.id)).balanceCents).toBe(c.balanceCents);
  });

  it("writes them in Spanish for a document in Spanish", () => {
    wb.settings({ language: "es" });
    ok(wb.menu("createOutboxSheet"));
    const [a, b] = openFunds as [SandboxFund, SandboxFund];
    fundsSheet("es", "Fondos", a, b);
    const sheet = "Bandeja de salida";
    wb.typeOutbox(
      [
        { operation: "Retiro", targetId: a.id, amount: "25" },
        { operation: "Depósito", targetId: b.id, amount: "1" },
        { operation: "Depósito", targetId: a.id, amount: "-5" },
      ],
      2,
      sheet,
    );
    const text = String(ok(wb.menu("previewOutbox")).result);
    expect(text).toContain(`Fila 3: el fondo ${b.id} está cerrado.`);
    expect(results(sheet)).toEqual([
      `Vista previa: retirar XYZ 25,00 supera el saldo XYZ 20,00 del fondo ${a.id}, que no es flexible.`,
      `Vista previa: el fondo ${b.id} está cerrado.`,
      'Vista previa: no se enviará: Monto debe ser mayor que cero (se recibió "-5").',
    ]);
    expect(text).toContain('• Fila 4: Monto debe ser mayor que cero (se recibió "-5").');
    expect(states(sheet)).toEqual(["", "", ""]);
  });

  it("never writes over a Done row's result, clears notes that no longer apply and replaces changed ones", async () => {
    ok(wb.menu("createOutboxSheet"));
    const [a, b] = openFunds as [SandboxFund, SandboxFund];
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "3" }]);
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    const [done] = wb.outbox();
    expect(done?.state).toBe("Done");

    // Row 2 is done and now edited; row 3 copies it; rows 4 and 5 are not valid.
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "4" },
      { operation: "Deposit", targetId: a.id, amount: "3" },
      { operation: "Deposit", targetId: b.id, amount: "0" },
      { operation: "Transfer", targetId: b.id, amount: "1" },
    ]);
    const text = String(ok(wb.menu("previewOutbox")).result);
    expect(text).toContain("Row 2 was changed after it was done");
    let rows = wb.outbox();
    expect(rows[0]).toMatchObject({ state: "Done", result: done?.result });
    expect(rows[1]?.result).toMatch(
      /^Preview: same as row 2, done on .*; it is sent again only because you confirm it as the same\.$/,
    );
    expect(rows[2]?.result).toMatch(/^Preview: will not be sent: Amount must be greater than zero/);
    expect(rows[3]?.result).toBe('Preview: will not be sent: Operation "Transfer" is not in the list.');

    // Row 4 fixed, row 5 now a duplicate of it, row 3 emptied: each note follows.
    wb.typeOutbox(
      [
        { operation: "", targetId: "", amount: "" },
        { operation: "Deposit", targetId: b.id, amount: "1" },
        { operation: "Deposit", targetId: b.id, amount: "2" },
      ],
      3,
    );
    ok(wb.menu("previewOutbox"));
    rows = wb.outbox();
    expect(rows.map((r) => r.result)).toEqual([
      done?.result,
      "",
      "",
      "Preview: same operation on the same target as row 4.",
    ]);
    expect(rows.map((r) => r.state)).toEqual(["Done", "", "", ""]);
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 300);
  });

  it("a run replaces the notes of the rows it takes with their results", async () => {
    ok(wb.menu("createOutboxSheet"));
    const [a] = openFunds as [SandboxFund];
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "1" },
      { operation: "Deposit", targetId: a.id, amount: "2" },
      { operation: "Deposit", targetId: a.id, amount: "abc" },
    ]);
    ok(wb.menu("previewOutbox"));
    expect(results()).toEqual([
      "",
      "Preview: same operation on the same target as row 2.",
      expect.stringMatching(/^Preview: will not be sent: /),
    ]);
    const run = ok(wb.menu("runOutbox", ["YES", "OK"]));
    expect(run.result).toMatchObject({ done: 2, refused: 1 });
    const rows = wb.outbox();
    expect(rows.map((r) => r.state)).toEqual(["Done", "Done", "Refused"]);
    expect(rows[1]?.result).toMatch(/^Done\. Fund /);
    expect(rows[2]?.result).toMatch(/^Not sent: /);
    expect(rows.some((r) => String(r.result).startsWith("Preview"))).toBe(false);
    expect((await wb.fund(a.id)).balanceCents).toBe(a.balanceCents + 300);
  });

  it("leaves a row edited while the preview was computed as it is", async () => {
    ok(wb.menu("createOutboxSheet"));
    const [a] = openFunds as [SandboxFund];
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "0" },
      { operation: "Deposit", targetId: a.id, amount: "-1" },
      { operation: "Deposit", targetId: a.id, amount: "1" },
    ]);
    // The fund's read (no Funds sheet) is held at the sandbox: the row is edited meanwhile, then
    // the read goes on. (Waiting on the sandbox, not on real time: a loaded machine may take
    // long to start the run.)
    await wb.faults([{ endpoint: "getFund", fault: "hold", times: 1 }]);
    wb.emulator.answers.push("OK" as never);
    const preview = wb.emulator.startRun("previewOutbox", [], { as: "menu", user: wb.user });
    await wb.heldCall("getFund", 90_000);
    wb.emulator.typeCells("Outbox", `${String.fromCharCode(64 + columnNumber("amount"))}3`, [["5"]]);
    expect(await wb.releaseHeld("getFund")).toBe(1);
    ok(await preview);
    expect(results()).toEqual([
      expect.stringMatching(/^Preview: will not be sent: Amount must be greater than zero/),
      "",
      "",
    ]);
    expect(wb.outbox()[1]?.amount).toBe("5");
  }, 120_000);
});
