/**
 * Which Outbox row owns which of the add-on's records, and what the person confirming is shown:
 * a key copied from the Audit sheet, copies of an Unknown row (whole, or only its visible
 * cells), a row added while the question was open, a Done typed by hand, the visible columns
 * sorted without the hidden ones, and done rows brought back without keys long after. Through
 * the built add-on in the emulation; every case ends with the sandbox's own ledger.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { columnNumber, HIDDEN_COLUMNS, OUTBOX_COLUMNS } from "../../src/outbox/columns";
import type { FormOutcome } from "../../src/outbox/forms";
import { IN_FLIGHT_WINDOW_MS, parseRecord, RECORD_PREFIX } from "../../src/outbox/records";
import { columnLetters } from "../../src/sheets/formulas";
import { confirmations, createOutbox, type SandboxFund, writeBackPerFile } from "./harness";

/** Run Outbox's confirmations: what each showed, and what happens while one is open (then Yes). */
const dialogs = confirmations();
const { asked } = dialogs;
const wb = writeBackPerFile({ waitForAnswer: dialogs.waitForAnswer });
let fund: SandboxFund;
let other: SandboxFund;

beforeEach(async () => {
  await wb.reset();
  const state = await wb.state();
  const open = state.funds.filter((f) => f.status === 1 && f.flexible);
  fund = open[0] as SandboxFund;
  other = open[1] as SandboxFund;
  expect(other).toBeDefined();
  createOutbox(wb);
  dialogs.clear();
});

const run = () => {
  const out = wb.menu("runOutbox", []);
  if (!out.ok) throw new Error(out.error);
};
const preview = () => {
  const out = wb.menu("previewOutbox");
  if (!out.ok) throw new Error(out.error);
  return String(out.result);
};
const pastTheWindow = () => wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);

/** The fund's movements of one type and amount, in the sandbox's ledger. */
async function movements(id: number, type: 1 | 2, amountCents: number): Promise<number> {
  const f = await wb.fund(id);
  return f.transactions.filter((t) => t.type === type && t.amountCents === amountCents).length;
}

const VISIBLE = OUTBOX_COLUMNS.length - HIDDEN_COLUMNS.length;
const lastVisible = columnLetters(VISIBLE);

/** The visible cells (State to Expiration date) of a row, as a copy or a sort takes them. */
function visibleCells(row: number): unknown[] {
  return (wb.sheetValues("Outbox")[row - 1] ?? []).slice(0, VISIBLE).map((v) => (v instanceof Date ? "" : v));
}

function typeVisible(row: number, cells: unknown[]): void {
  wb.emulator.typeCells("Outbox", `A${row}:${lastVisible}${row}`, [cells as never]);
}

/** A whole row, hidden cells (its operation key) included. */
function copyWholeRow(from: number, to: number): void {
  const cells = (wb.sheetValues("Outbox")[from - 1] ?? []).map((v) => (v instanceof Date ? "" : v));
  wb.emulator.typeCells("Outbox", `A${to}:${columnLetters(OUTBOX_COLUMNS.length)}${to}`, [cells as never]);
}

function setKey(row: number, key: string): void {
  wb.emulator.typeCells("Outbox", `${columnLetters(columnNumber("operationKey"))}${row}`, [[key]]);
}

/** The add-on's records, as the document's properties hold them. */
function records() {
  return Object.entries(wb.emulator.properties().document)
    .filter(([key]) => key.startsWith(RECORD_PREFIX))
    .map(([, value]) => parseRecord(value))
    .filter((r) => r !== null);
}

describe("a key copied from the Audit sheet onto another row (issue 24, point 1)", () => {
  it("does not make the row's request the colleague's interrupted form write: shown and sent as new", async () => {
    // Treasurer A's withdrawal from the Fund sidebar gets no answer: its record stays unsettled.
    await wb.faults([{ endpoint: "withdrawMoneyFromFund", fault: "drop-before-apply", times: 1 }]);
    const outcome = wb.sidebar("withdrawFromFund", {
      requestId: "forged-key-withdrawal-01",
      fields: { Id: fund.id, WithdrawAmount: "1000.00" },
    }) as FormOutcome;
    expect(outcome).toMatchObject({ kind: "unknown" });
    const formRecord = records().find((r) => r.source === "form");
    expect(formRecord?.state).toMatch(/sending|unknown/);
    const formKey = String(formRecord?.key);

    // Editor B types a deposit on another fund and puts A's key in the hidden Operation key cell.
    wb.typeOutbox([{ operation: "Deposit", targetId: other.id, amount: "432.10" }]);
    setKey(2, formKey);
    const before = await movements(other.id, 1, 43_210);
    pastTheWindow();
    const shown = preview();
    expect(shown).not.toMatch(/Row 2, interrupted/);
    expect(shown).toContain(`• Row 2: Deposit of ${other.currency} 432.10 to fund ${other.id}`);
    run();
    expect(asked[0]).not.toMatch(/Row 2, interrupted/);
    expect(asked[0]).toContain(`• Row 2: Deposit of ${other.currency} 432.10 to fund ${other.id}`);
    // The deposit went as the new operation the confirmation showed, under a key of its own; the
    // form's withdrawal was settled as not applied and never sent again.
    expect(wb.outbox()[0]).toMatchObject({ state: "Done" });
    expect(wb.outbox()[0]?.operationKey).not.toBe(formKey);
    expect(records().find((r) => r.key === formKey)).toBeUndefined();
    expect(await movements(other.id, 1, 43_210)).toBe(before + 1);
    expect(await movements(fund.id, 2, 100_000)).toBe(0);
  }, 60_000);
});

describe("copies of an Unknown row (issue 24, point 2)", () => {
  it("whole or only the visible cells: they wait for the original, then are sent only when confirmed as the same", async () => {
    const before = await movements(fund.id, 1, 1_357);
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 }]);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "13.57" }]);
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Unknown" });
    expect(await movements(fund.id, 1, 1_357)).toBe(before + 1);

    // "Retry": the whole row copied to row 3, only its visible cells to row 4.
    copyWholeRow(2, 3);
    typeVisible(4, visibleCells(2));
    pastTheWindow();
    const waiting = preview();
    for (const row of [3, 4])
      expect(waiting).toContain(`Row ${row}: same request as row 2, not settled yet: nothing is sent`);
    expect(waiting).not.toMatch(/• Row [34]: Deposit/);
    run();
    // The original is settled as applied; the copies were not confirmed as the same: nothing sent.
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Pending", "Pending"]);
    for (const row of wb.outbox().slice(1))
      expect(String(row.result)).toBe(
        "Same as row 2, which was settled: it is sent if you confirm it in the next run.",
      );
    expect(await movements(fund.id, 1, 1_357)).toBe(before + 1);

    // Shown as the same as the done row, each is sent once the person confirms it as such.
    const same = preview();
    for (const row of [3, 4])
      expect(same).toContain(
        `• Row ${row}: Deposit of ${fund.currency} 13.57 to fund ${fund.id}: same as row 2, done on `,
      );
    run();
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done", "Done"]);
    expect(await movements(fund.id, 1, 1_357)).toBe(before + 3);
  }, 60_000);
});

describe("a confirmation is used at most once (issue 24, point 4)", () => {
  it("an interrupted row found applied uses up its confirmation: an identical row added while asked is not sent", async () => {
    const before = await movements(fund.id, 1, 2_468);
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 }]);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "24.68" }]);
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Unknown" });
    pastTheWindow();
    dialogs.whileAsked = () =>
      wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "24.68" }], 3);
    run();
    expect(asked[1]).toContain("Row 2, interrupted");
    expect(asked[1]).not.toContain("Row 3");
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Pending"]);
    expect(await movements(fund.id, 1, 2_468)).toBe(before + 1);
  }, 60_000);
});

describe("Done typed by hand (issue 24, point 5)", () => {
  it("a done row cleared and typed again with Done is taken back with a note; a Done matching nothing is marked, never sent", async () => {
    const before = await movements(fund.id, 1, 3_579);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "35.79" }]);
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Done" });
    // The row is cleared (every cell); the same operation is typed on row 3 with Done by hand,
    // and another one no one ever sent on row 4.
    wb.emulator.typeCells("Outbox", `A2:${columnLetters(OUTBOX_COLUMNS.length)}2`, [
      OUTBOX_COLUMNS.map(() => "") as never,
    ]);
    wb.typeOutbox(
      [
        { state: "Done", operation: "Deposit", targetId: fund.id, amount: "35.79" },
        { state: "Done", operation: "Deposit", targetId: fund.id, amount: "97.53" },
      ],
      3,
    );
    wb.emulator.typeCells("Outbox", "A3:A4", [["Done"], ["Done"]]);
    const shown = preview();
    expect(shown).toMatch(
      /Row 3: shows Done without its Operation key; its cells are those of an operation done on .*, so it is taken as that one/,
    );
    expect(shown).toContain("Row 4: State says Done, but the add-on wrote no Done on this row");
    run();
    const [, taken, typed] = wb.outbox();
    expect(taken).toMatchObject({ state: "Done" });
    expect(String(taken?.result)).toMatch(/this row showed Done without its Operation key/);
    expect(typed).toMatchObject({ state: "Refused" });
    expect(String(typed?.result)).toMatch(/^Not sent, and not taken as done: State says Done/);
    expect(await movements(fund.id, 1, 3_579)).toBe(before + 1);
    expect(await movements(fund.id, 1, 9_753)).toBe(0);
  }, 60_000);
});

describe("the visible columns sorted without the hidden ones (issue 24, point 6)", () => {
  it("says the sheet was sorted, sends nothing for the moved rows, and never advises re-sending", async () => {
    const before = await movements(fund.id, 1, 1_111);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "11.11" }]);
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Done" });
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "22.22" }], 3);
    // Sort A:S (descending by amount): the visible cells of rows 2 and 3 swap, the keys stay.
    const [done, pending] = [visibleCells(2), visibleCells(3)];
    typeVisible(2, pending);
    typeVisible(3, done);
    const shown = preview();
    expect(shown).toMatch(
      /Row 2: its Operation key names Deposit of 11\.11 to fund \d+, whose cells it does not show/,
    );
    expect(shown).not.toContain(`• Row 2: Deposit of 22.22`);
    run();
    const [first, second] = wb.outbox();
    expect(first).toMatchObject({ state: "Refused", amount: "22.22" });
    expect(String(first?.result)).toContain("the sheet was sorted without its hidden columns");
    expect(second).toMatchObject({ state: "Done", amount: "11.11" });
    for (const row of wb.outbox())
      expect(String(row.result)).not.toMatch(/clear its State and Operation key/);
    expect(await movements(fund.id, 1, 1_111)).toBe(before + 1);
    expect(await movements(fund.id, 1, 2_222)).toBe(0);
    // A second run changes nothing and sends nothing.
    run();
    expect(await movements(fund.id, 1, 1_111)).toBe(before + 1);
    expect(await movements(fund.id, 1, 2_222)).toBe(0);
  }, 60_000);
});

describe("done rows brought back as Pending without keys (issue 24, point 7)", () => {
  it("however old the record, the row is shown as the same as the done one and sent only when confirmed so", async () => {
    const before = await movements(fund.id, 1, 4_321);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "43.21" }]);
    run();
    expect(wb.outbox()[0]).toMatchObject({ state: "Done" });
    // Eight days later, a restored version brings the row back as it was before the run.
    wb.emulator.advanceTime(8 * 24 * 60 * 60 * 1000);
    wb.emulator.typeCells("Outbox", "A2:B2", [["", ""]]);
    setKey(2, "");
    const shown = preview();
    expect(shown).toMatch(
      new RegExp(
        `• Row 2: Deposit of ${fund.currency} 43\\.21 to fund ${fund.id}: same as an operation done on .*; it is sent again only because you confirm it as the same\\.`,
      ),
    );
    // Confirmed as a new operation only (a row added while asked): the restored row is not sent.
    dialogs.whileAsked = () =>
      wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "43.21" }], 3);
    run();
    expect(await movements(fund.id, 1, 4_321)).toBe(before + 2);
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Pending"]);
  }, 60_000);
});
