/**
 * An Outbox you can read: State and Result first, the add-on's record hidden at the right, rows
 * coloured by state and the cells an operation does not use shaded; an Outbox of the old layout
 * moved once, under the document lock, with every row's state, key and record intact; users'
 * conditional formats kept; columns moved any other way still refused.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { sheetsSnapshot } from "../../dev/emulator/snapshots";
import { type Language, translate } from "../../src/i18n";
import { columnNumber, headerKey, OLD_OUTBOX_COLUMNS, type OUTBOX_COLUMNS } from "../../src/outbox/columns";
import { outboxFormatRules } from "../../src/outbox/layout";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { ok, openFundsOf, type SandboxFund, writeBackPerFile } from "./harness";
import { sweepLayoutMove } from "./layout-sweep";

const wb = writeBackPerFile({ reset: true });
let funds: SandboxFund[];

beforeEach(async () => {
  funds = await openFundsOf(wb);
});

const snapshotOf = (name: string) => sheetsSnapshot(wb.emulator).find((s) => s.name === name);
const at = (column: (typeof OUTBOX_COLUMNS)[number]) => columnNumber(column) - 1;
const GREEN = "#d9ead3";
const RED = "#f4cccc";
const AMBER = "#fff2cc";
const SHADE = "#efefef";

describe("a new Outbox", () => {
  it("shows State and Result first, hides the add-on's record, and notes what each operation needs", () => {
    ok(wb.menu("createOutboxSheet"));
    const sheet = snapshotOf("Outbox");
    expect(sheet?.values[0]?.slice(0, 5)).toEqual(["State", "Result", "Company", "Operation", "Target Id"]);
    expect(sheet?.values[0]?.slice(-3)).toEqual(["Time", "Operation key", "Sent (add-on)"]);
    expect(sheet?.hiddenColumns).toEqual([
      columnNumber("time"),
      columnNumber("operationKey"),
      columnNumber("snapshot"),
    ]);
    const note = sheet?.notes[0]?.[at("operation")] ?? "";
    expect(note).toContain("Deposit: Target Id, Amount");
    expect(note).toContain("Status change: Target Id, Fund status");
    // The add-on's cells carry the warning, in two ranges: nothing of the user's columns.
    const warned = (sheet?.protections ?? []).map((p) => p.range);
    expect(warned).toEqual(["A1:B1000", "U1:W1000"]);
  });

  it("colours State and Result by state and shades the cells each row's operation does not use", async () => {
    ok(wb.menu("createOutboxSheet"));
    const [a] = funds as [SandboxFund];
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "1.25" },
      { operation: "Deposit", targetId: 99_999_999, amount: "1.00" },
      { operation: "Set fund status", targetId: a.id, fundStatus: "Open" },
      { operation: "Deposit", targetId: a.id, amount: "2.50" },
    ]);
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Refused", "Done", "Done"]);
    // A state typed by hand in the other language is coloured too.
    wb.emulator.typeCells("Outbox", "A5", [["Desconocido"]]);
    const sheet = snapshotOf("Outbox");
    const colour = (row: number, column: (typeof OUTBOX_COLUMNS)[number]) =>
      sheet?.backgrounds[row - 1]?.[at(column)] ?? "";
    expect([colour(2, "state"), colour(2, "result")]).toEqual([GREEN, GREEN]);
    expect([colour(3, "state"), colour(3, "result")]).toEqual([RED, RED]);
    expect(colour(5, "state")).toBe(AMBER);
    // A deposit uses Target Id and Amount; Currency and Fund status are shaded on its row.
    expect([colour(2, "targetId"), colour(2, "amount")]).toEqual(["", ""]);
    expect([colour(2, "currency"), colour(2, "fundStatus"), colour(2, "fundName")]).toEqual([
      SHADE,
      SHADE,
      SHADE,
    ]);
    // A status change uses Fund status, not Amount.
    expect([colour(4, "fundStatus"), colour(4, "amount")]).toEqual(["", SHADE]);

    // The shading follows the operation when the user changes it (either language).
    wb.emulator.typeCells("Outbox", `${String.fromCharCode(64 + columnNumber("operation"))}4`, [
      ["Crear fondo"],
    ]);
    const after = snapshotOf("Outbox");
    const now = (column: (typeof OUTBOX_COLUMNS)[number]) => after?.backgrounds[3]?.[at(column)] ?? "";
    expect([now("amount"), now("currency"), now("fundName"), now("targetId"), now("fundStatus")]).toEqual([
      "",
      "",
      "",
      SHADE,
      SHADE,
    ]);
  });

  it("a column moved by a user is still refused with the column out of place, and nothing is sent", async () => {
    ok(wb.menu("createOutboxSheet"));
    const [a] = funds as [SandboxFund];
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "3.33" }]);
    const sheet = wb.emulator.spreadsheet.sheetByName("Outbox");
    // Amount dragged to the end of the sheet.
    sheet?.moveColumns(columnNumber("amount"), 1, (sheet?.maxColumns ?? 26) + 1);
    const before = JSON.stringify(wb.sheetValues("Outbox"));
    const column = String.fromCharCode(64 + columnNumber("amount"));
    expect(ok(wb.menu("previewOutbox")).result).toContain(
      `column ${column} should be “Amount”, not “Currency”. Nothing was sent.`,
    );
    // Run asks nothing: it says the same and stops.
    expect(ok(wb.menu("runOutbox", ["OK"])).result).toBeNull();
    expect(wb.emulator.ui.dialogs.at(-1)?.prompt).toContain(`column ${column} should be “Amount”`);
    expect(JSON.stringify(wb.sheetValues("Outbox"))).toBe(before);
    expect(await wb.deposits(a.id, 333)).toBe(0);
  });
});

describe("an Outbox of the new layout whose header an editor retypes as the old one", () => {
  it("is never moved: every row keeps its cells, the header check refuses, nothing is sent again", async () => {
    const [a, b] = funds as [SandboxFund, SandboxFund];
    ok(wb.menu("createOutboxSheet"));
    wb.typeOutbox([
      { operation: "Deposit", targetId: a.id, amount: "5.05" },
      {
        operation: "Deposit",
        targetId: b.id,
        amount: "6.06",
        autoBlock: "Yes",
        expirationDate: "2027-01-31",
      },
    ]);
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "7.07" }], 4);
    // Row 1 typed over with the old layout's header (the user's columns, then the add-on's).
    const old = OLD_OUTBOX_COLUMNS.map((c) => translate("en", headerKey(c)));
    wb.emulator.typeCells("Outbox", "A1:S1", [old.slice(0, 19)]);
    const before = snapshotOf("Outbox")?.values.slice(1);
    const answer = ok(wb.menu("previewOutbox"));
    expect(String(answer.result)).toContain("column A should be “State”");
    ok(wb.menu("runOutbox", ["OK"]));
    expect(snapshotOf("Outbox")?.values.slice(1)).toEqual(before);
    expect(wb.emulator.ui.toasts.map((toast) => toast.message)).not.toContain(
      translate("en", "outbox.migrated"),
    );
    expect(await wb.deposits(a.id, 505)).toBe(1);
    expect(await wb.deposits(b.id, 606)).toBe(1);
    expect(await wb.deposits(a.id, 707)).toBe(0);
  });
});

describe("an Outbox in the new layout the add-on has not dressed (a move cut off after its columns moved)", () => {
  it("is dressed at its next Preview, and an old header typed over it later is refused, not moved", async () => {
    const [a] = funds as [SandboxFund];
    ok(wb.menu("createOutboxSheet"));
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "8.08" }]);
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    const sheet = wb.emulator.spreadsheet.sheetByName("Outbox");
    sheet?.hiddenColumns.clear();
    if (sheet) sheet.conditionalRules = [];
    for (const key of [...wb.emulator.documentPropertiesData.values.keys()])
      if (key.startsWith("outbox.formatRules.")) wb.emulator.documentPropertiesData.values.delete(key);
    ok(wb.menu("previewOutbox"));
    const dressed = snapshotOf("Outbox");
    expect(dressed?.hiddenColumns).toEqual([21, 22, 23]);
    expect(dressed?.conditionalFormats).toHaveLength(outboxFormatRules().length);
    const old = OLD_OUTBOX_COLUMNS.map((c) => translate("en", headerKey(c)));
    wb.emulator.typeCells("Outbox", "A1:S1", [old.slice(0, 19)]);
    const before = snapshotOf("Outbox")?.values.slice(1);
    expect(String(ok(wb.menu("previewOutbox")).result)).toContain("column A should be “State”");
    expect(snapshotOf("Outbox")?.values.slice(1)).toEqual(before);
    expect(await wb.deposits(a.id, 808)).toBe(1);
  });
});

describe("a Done row's visible cells copied to a new row (State and Result first, so they come along)", () => {
  it("is not skipped as done: the preview warns of it and the run marks it Refused, sending nothing", async () => {
    const [a] = funds as [SandboxFund];
    ok(wb.menu("createOutboxSheet"));
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "3.03" }]);
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    // A2:T2 (everything shown; the record is hidden) pasted into row 3, its amount then changed.
    const shown = (wb.sheetValues("Outbox")[1] ?? []).slice(0, 20);
    shown[at("amount")] = "9.09";
    wb.emulator.typeCells("Outbox", "A3:T3", [shown]);
    expect(wb.outbox()[1]?.state).toBe("Done");
    const text = String(ok(wb.menu("previewOutbox")).result);
    expect(text).toContain(`Row 3: ${translate("en", "outbox.warn.doneNoKey")}`);
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Refused"]);
    expect(wb.outbox()[1]?.result).toBe(translate("en", "outbox.msg.doneNoKey"));
    expect(await wb.deposits(a.id, 909)).toBe(0);
    expect(await wb.deposits(a.id, 303)).toBe(1);
  });
});

/**
 * The Outbox as sheets made before this layout hold it: no Company column, State and Result
 * after the user's columns, nothing hidden, one warning over the add-on's five columns, no
 * conditional formats.
 */
function toOldLayout(name: string, language: Language): void {
  const doc = wb.emulator.spreadsheet;
  const sheet = doc.sheetByName(name);
  if (!sheet) throw new Error(`no sheet ${name}`);
  sheet.deleteColumns(columnNumber("company"), 1);
  for (const key of [...wb.emulator.documentPropertiesData.values.keys()])
    if (key.startsWith("outbox.layout.")) wb.emulator.documentPropertiesData.values.delete(key);
  sheet.moveColumns(columnNumber("state"), 2, columnNumber("time") - 1);
  sheet.hiddenColumns.clear();
  sheet.conditionalRules = [];
  const note = sheet.cell(1, 1);
  if (note) delete note.note;
  for (let i = doc.protections.length - 1; i >= 0; i--)
    if (doc.protections[i]?.sheet === sheet) doc.protections.splice(i, 1);
  doc.protections.push({
    sheet,
    rect: { row: 1, column: 18, numRows: sheet.maxRows, numColumns: 5 },
    warningOnly: true,
    description: translate(language, "outbox.col.state"),
    editors: [],
  });
  for (const key of [...wb.emulator.documentPropertiesData.values.keys()])
    if (key.startsWith("outbox.formatRules.")) wb.emulator.documentPropertiesData.values.delete(key);
}

describe.each([
  ["en", "Outbox"],
  ["es", "Bandeja de salida"],
] as const)("an Outbox of the old layout (%s)", (language, name) => {
  it("is moved once under the lock: Done stays Done, Unknown is settled, Pending is sent, each once", async () => {
    if (language === "es") wb.settings({ language: "es" });
    const t = (key: Parameters<typeof translate>[1]) => translate(language, key);
    const [a, b] = funds as [SandboxFund, SandboxFund];
    ok(wb.menu("createOutboxSheet"));
    const deposit = t("outbox.op.deposit");
    await wb.faults([{ endpoint: "depositMoneyToFund", fault: "drop-after-apply", times: 1 }]);
    wb.typeOutbox(
      [
        { operation: deposit, targetId: b.id, amount: "6.06" },
        { operation: deposit, targetId: a.id, amount: "10.10" },
      ],
      2,
      name,
    );
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    await wb.clearFaults();
    wb.typeOutbox([{ operation: deposit, targetId: a.id, amount: "7.07" }], 4, name);
    const rows = wb.outbox(name);
    expect(rows.map((r) => r.state)).toEqual([t("outbox.state.Unknown"), t("outbox.state.Done"), ""]);

    toOldLayout(name, language);
    const old = snapshotOf(name);
    expect(old?.values[0]?.[0]).toBe(t("outbox.col.operation"));
    expect(old?.values[0]?.[17]).toBe(t("outbox.col.state"));
    // A user's own rule on the old sheet.
    const sheet = wb.emulator.spreadsheet.sheetByName(name);
    sheet?.conditionalRules.push({
      ranges: [{ row: 2, column: 1, numRows: 10, numColumns: 1 }],
      criteria: "CELL_NOT_EMPTY",
      values: [],
      background: "#abcdef",
    });

    // While another execution holds the document lock, nothing moves and nothing is sent.
    const held = wb.emulator.holdLock("document");
    wb.menu("previewOutbox");
    held.release();
    expect(snapshotOf(name)?.values).toEqual(old?.values);

    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    ok(wb.menu("previewOutbox"));
    expect(wb.emulator.ui.toasts.map((toast) => toast.message)).toContain(t("outbox.migrated"));
    const moved = snapshotOf(name);
    expect(moved?.values[0]?.slice(0, 4)).toEqual([
      t("outbox.col.state"),
      t("outbox.col.result"),
      t("outbox.col.company"),
      t("outbox.col.operation"),
    ]);
    // Every row kept its cells, state, key and record, only in their new places.
    expect(wb.outbox(name)).toEqual(rows);
    expect(moved?.hiddenColumns).toEqual([21, 22, 23]);
    expect(moved?.protections.map((p) => p.range)).toEqual(["A1:B1000", "U1:W1000"]);
    // The user's rule stays, first; the add-on's follow, once.
    expect(moved?.conditionalFormats[0]).toMatchObject({ criteria: "CELL_NOT_EMPTY", background: "#abcdef" });
    expect(moved?.conditionalFormats).toHaveLength(1 + outboxFormatRules().length);
    ok(wb.menu("previewOutbox"));
    expect(snapshotOf(name)?.conditionalFormats).toEqual(moved?.conditionalFormats);
    // Rows added at the bottom: the add-on's rules are written again over them, the user's kept.
    const grown = wb.emulator.spreadsheet.sheetByName(name);
    if (grown) grown.maxRows = 1100;
    ok(wb.menu("previewOutbox"));
    const again = snapshotOf(name)?.conditionalFormats ?? [];
    expect(again).toHaveLength(1 + outboxFormatRules().length);
    expect(again[0]).toMatchObject({ criteria: "CELL_NOT_EMPTY", background: "#abcdef" });
    for (const rule of again.slice(1))
      expect(rule.ranges.every((range) => range.endsWith("1100"))).toBe(true);

    ok(wb.menu("runOutbox", ["YES", "OK"]));
    expect(wb.outbox(name).map((r) => r.state)).toEqual([
      t("outbox.state.Done"),
      t("outbox.state.Done"),
      t("outbox.state.Done"),
    ]);
    expect(await wb.deposits(b.id, 606)).toBe(1);
    expect(await wb.deposits(a.id, 1_010)).toBe(1);
    expect(await wb.deposits(a.id, 707)).toBe(1);
  });

  it("one whose columns a user also moved is not moved, and is refused by the header check", async () => {
    if (language === "es") wb.settings({ language: "es" });
    ok(wb.menu("createOutboxSheet"));
    toOldLayout(name, language);
    // Target Id and Amount swapped by hand.
    wb.emulator.spreadsheet.sheetByName(name)?.moveColumns(3, 1, 2);
    const before = snapshotOf(name)?.values;
    const answer = wb.menu("previewOutbox");
    expect(answer).toMatchObject({ ok: true });
    expect(String(answer.ok && answer.result)).toContain(
      translate(language, "outbox.columnsMoved", {
        column: "A",
        expected: translate(language, "outbox.col.state"),
        found: translate(language, "outbox.col.operation"),
      }),
    );
    expect(snapshotOf(name)?.values).toEqual(before);
  });
});

describe("an Outbox of the old layout whose move is killed at any call", () => {
  it("is finished by the next Preview: laid out and dressed, every row in place, each deposit sent once", async () => {
    await sweepLayoutMove(wb, funds as [SandboxFund, SandboxFund], [111, 222], () =>
      toOldLayout("Outbox", "en"),
    );
  }, 300_000);
});

describe("an Outbox of the old layout when the language changes first", () => {
  it("is relabelled in place, moved at the next Preview, and its Done row is never sent again", async () => {
    const [a] = funds as [SandboxFund];
    ok(wb.menu("createOutboxSheet"));
    wb.typeOutbox([{ operation: "Deposit", targetId: a.id, amount: "4.04" }]);
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    toOldLayout("Outbox", "en");
    const view = wb.sidebar("getSettingsView") as { form: Record<string, string> };
    expect((wb.sidebar("saveSettings", { ...view.form, language: "es" }) as { ok: boolean }).ok).toBe(true);
    const relabelled = snapshotOf("Bandeja de salida");
    // Still the old layout, in Spanish: nothing was put where the new layout would have it.
    expect(relabelled?.values[0]?.[0]).toBe(translate("es", "outbox.col.operation"));
    expect(relabelled?.values[0]?.[17]).toBe(translate("es", "outbox.col.state"));
    expect(relabelled?.hiddenColumns).toEqual([]);

    ok(wb.menu("previewOutbox"));
    expect(snapshotOf("Bandeja de salida")?.values[0]?.[0]).toBe(translate("es", "outbox.col.state"));
    const sheet = wb.emulator.spreadsheet.sheetByName("Bandeja de salida");
    expect(sheet?.cell(1, columnNumber("operation"))?.note).toContain(translate("es", "outbox.op.deposit"));
    expect(wb.outbox("Bandeja de salida")[0]?.state).toBe("Done");
    wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);
    wb.menu("runOutbox", ["OK", "YES", "OK"]);
    expect(wb.outbox("Bandeja de salida")[0]?.state).toBe("Done");
    expect(await wb.deposits(a.id, 404)).toBe(1);
  });
});
