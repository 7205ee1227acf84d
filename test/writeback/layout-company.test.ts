/**
 * An Outbox of the layout before the Company column (State and Result first, laid out and
 * dressed): the column is inserted at the next Preview with every row, user cell and pending
 * operation kept, also when that insertion is killed at any call. Apart from layout.test.ts so
 * that its kill sweep runs beside the old layout's.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sheetsSnapshot } from "../../dev/emulator/snapshots";
import { translate } from "../../src/i18n";
import { columnNumber } from "../../src/outbox/columns";
import { outboxFormatRules } from "../../src/outbox/layout";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { columnLetters } from "../../src/sheets/formulas";
import { buildWriteBack, type SandboxFund, startWriteBack, type WriteBack } from "./harness";
import { sweepLayoutMove } from "./layout-sweep";

let wb: WriteBack;
let funds: SandboxFund[];

beforeAll(async () => {
  wb = await startWriteBack(buildWriteBack());
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

beforeEach(async () => {
  await wb.reset();
  funds = (await wb.state()).funds.filter((f) => f.status === 1);
});

const ok = (outcome: ReturnType<WriteBack["menu"]>) => {
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome;
};
const snapshotOf = (name: string) => sheetsSnapshot(wb.emulator).find((s) => s.name === name);

/**
 * The Outbox as the version before the Company column left it: State and Result first, laid
 * out and dressed, no Company column (its warning, hidden columns and formats shifted with it).
 */
function toPreviousLayout(name: string): void {
  const sheet = wb.emulator.spreadsheet.sheetByName(name);
  if (!sheet) throw new Error(`no sheet ${name}`);
  sheet.deleteColumns(columnNumber("company"), 1);
  for (const p of wb.emulator.spreadsheet.protections)
    if (p.sheet === sheet && p.rect && p.rect.column > columnNumber("company")) p.rect.column -= 1;
  for (const key of [...wb.emulator.documentPropertiesData.values.keys()])
    if (key.startsWith("outbox.layout.")) wb.emulator.documentPropertiesData.values.delete(key);
}

describe("an Outbox of the layout before the Company column", () => {
  it("gets the Company column after Result: every row, user column and record kept, each write sent once", async () => {
    const [a, b] = funds as [SandboxFund, SandboxFund];
    ok(wb.menu("createOutboxSheet"));
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 }]);
    wb.typeOutbox([
      { operation: "Deposit", targetId: b.id, amount: "6.16" },
      { operation: "Deposit", targetId: a.id, amount: "10.11" },
    ]);
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    await wb.clearFaults();
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "7.17" }], 4);
    const rows = wb.outbox();
    expect(rows.map((r) => r.state)).toEqual(["Unknown", "Done", ""]);
    toPreviousLayout("Outbox");
    // A user's column at the right of the add-on's.
    const width = columnNumber("snapshot") - 1;
    const mine = columnLetters(width + 1);
    wb.emulator.typeCells("Outbox", `${mine}1:${mine}2`, [["Mine"], ["my note"]]);
    const previous = snapshotOf("Outbox");
    expect(previous?.values[0]?.slice(0, 3)).toEqual(["State", "Result", "Operation"]);
    expect(previous?.hiddenColumns).toEqual([20, 21, 22]);

    // While another execution holds the document lock, nothing moves and nothing is sent.
    const held = wb.emulator.holdLock("document");
    wb.menu("previewOutbox");
    held.release();
    expect(snapshotOf("Outbox")?.values).toEqual(previous?.values);

    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    ok(wb.menu("previewOutbox"));
    expect(wb.emulator.ui.toasts.map((toast) => toast.message)).toContain(translate("en", "outbox.migrated"));
    const moved = snapshotOf("Outbox");
    expect(moved?.values[0]?.slice(0, 4)).toEqual(["State", "Result", "Company", "Operation"]);
    expect(wb.outbox()).toEqual(rows);
    expect(moved?.hiddenColumns).toEqual([21, 22, 23]);
    expect(moved?.protections.map((p) => p.range)).toEqual(["A1:B1000", "U1:W1000"]);
    expect(moved?.conditionalFormats).toHaveLength(outboxFormatRules().length);
    // The user's column moved right with its cells.
    const sheet = wb.emulator.spreadsheet.sheetByName("Outbox");
    expect(sheet?.cell(1, width + 2)?.value).toBe("Mine");
    expect(sheet?.cell(2, width + 2)?.value).toBe("my note");
    // Another Preview changes nothing more.
    ok(wb.menu("previewOutbox"));
    expect(snapshotOf("Outbox")?.values).toEqual(moved?.values);
    expect(snapshotOf("Outbox")?.conditionalFormats).toEqual(moved?.conditionalFormats);

    ok(wb.menu("runOutbox", ["YES", "OK"]));
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done", "Done"]);
    expect(await wb.deposits(b.id, 616)).toBe(1);
    expect(await wb.deposits(a.id, 1_011)).toBe(1);
    expect(await wb.deposits(a.id, 717)).toBe(1);
  });

  it("killed at any call of the insertion, is finished by the next Preview, each deposit sent once", async () => {
    await sweepLayoutMove(wb, funds as [SandboxFund, SandboxFund], [121, 232], () =>
      toPreviousLayout("Outbox"),
    );
  }, 300_000);
});
