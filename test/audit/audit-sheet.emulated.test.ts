/**
 * The Audit sheet in the BUILT add-on, run by the emulation against the sandbox, tampered with
 * as an editor would (clearing or deleting rows, typing into cells): every row the add-on
 * appends carries an entry number, the last number given is kept where the sheet cannot reach
 * it, and the next write restores a missing header and reports, once, in a row of its own,
 * which entries are gone and which rows were not written by the add-on.
 */
import { describe, expect, it } from "vitest";
import { AUDIT_TABLE, headersOf } from "../../src/sheets/columns";
import { setUpPerFile, sheetOf } from "../refresh/emulation";

// Every read in a row of its own: many rows to number.
const s = setUpPerFile({ funds: 12, reports: 2 }, { form: { pageSize: "5", auditReads: "every" } });

function refresh(): void {
  expect(s.emulator.tryRun("refreshFunds", [], { as: "menu", user: s.user })).toMatchObject({ ok: true });
}

function audit() {
  const sheet = sheetOf(s.emulator, "Audit");
  if (!sheet) throw new Error("no Audit sheet");
  const column = (name: string) => {
    const at = sheet.header.indexOf(name);
    expect(at, name).toBeGreaterThanOrEqual(0);
    return sheet.values.slice(1).map((r) => r[at]);
  };
  return { sheet, numbers: column("Entry no."), actions: column("Action"), messages: column("Message") };
}

/** The audit check rows: their messages, in order. */
function checks(): string[] {
  const a = audit();
  return a.actions.flatMap((action, i) => (action === "Audit check" ? [String(a.messages[i])] : []));
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("entry numbers", () => {
  it("every row appended carries the next number; the last one is kept in the add-on's properties only", () => {
    refresh();
    const first = audit().numbers;
    expect(first.length).toBeGreaterThan(2);
    expect(first).toEqual(range(1, first.length));
    refresh();
    const second = audit().numbers;
    expect(second).toEqual(range(1, second.length));
    expect(second.length).toBeGreaterThan(first.length);
    expect(audit().sheet.header).toEqual(headersOf(AUDIT_TABLE, "en"));
    const kept = [...s.emulator.documentPropertiesData.values.entries()].filter(([k]) =>
      k.startsWith("audit.sequence."),
    );
    expect(kept.map(([, v]) => JSON.parse(v).last)).toEqual([second.length]);
    expect(checks()).toEqual([]);
  });

  it("rows deleted from the sheet are reported as the entries missing, once, by the next write", () => {
    refresh();
    refresh();
    const before = audit().numbers.length;
    s.emulator.spreadsheet.sheetByName("Audit")?.deleteRows(3, 2); // entries 2 and 3
    refresh();
    expect(checks()).toEqual([
      "Entries 2 to 3 are not in this sheet: their rows were deleted or their entry numbers changed (or a run was stopped while writing them).",
    ]);
    const numbers = audit().numbers;
    // The report itself is the next entry; the run's own rows follow it.
    expect(numbers.slice(0, before - 2)).toEqual([1, ...range(4, before)]);
    expect(numbers.slice(before - 2)).toEqual(
      range(before + 1, before + 1 + numbers.length - (before - 2) - 1),
    );
    refresh();
    expect(checks()).toHaveLength(1);
  });

  it("rows renumbered by hand to close the gap still show it: the add-on knows its last number", () => {
    refresh();
    const n = audit().numbers.length;
    const sheet = s.emulator.spreadsheet.sheetByName("Audit");
    sheet?.deleteRows(n + 1, 1); // the last entry
    s.emulator.typeCells(
      "Audit",
      `P2:P${n}`,
      range(1, n - 1).map((v) => [v]),
      s.user,
    );
    refresh();
    expect(checks()[0]).toMatch(new RegExp(`^Entry ${n} is not in this sheet`));
  });

  /** A deposit's row of the Audit sheet as someone might type it: its time, Id and Entry no. */
  const typedByHand = (at: string, id: string, entry: number | string) => [
    at,
    "mallory@example.com",
    "menu",
    "Deposit",
    "",
    "Fund 5",
    10,
    "USD",
    "POST",
    "depositMoneyToFund",
    "",
    200,
    "ok",
    "",
    10,
    id,
    entry,
  ];

  it("a row typed by hand is pointed at, with or without a number", () => {
    refresh();
    const n = audit().numbers.length;
    s.emulator.typeCells(
      "Audit",
      `A${n + 2}:Q${n + 3}`,
      [typedByHand("2024-06-30 10:00:00", "5001", ""), typedByHand("2024-06-30 10:01:00", "5002", n + 1)],
      s.user,
    );
    refresh();
    expect(checks()).toEqual([
      `Row ${n + 2} has no entry number: the row was added or edited by hand. ` +
        `Row ${n + 3} carries entry number "${n + 1}", which the add-on did not write there: the row was added, copied, moved or edited by hand.`,
    ]);
  });
});

describe("rotation", () => {
  it("rows moved to the archive keep their numbers and are not reported missing", () => {
    s.settings({ pageSize: "5", auditMaxRows: "10", auditReads: "every" });
    for (let i = 0; i < 6; i++) refresh();
    const archive = sheetOf(s.emulator, "Audit archive");
    const archived = archive?.values.slice(1).map((r) => r[16]) ?? [];
    expect(archived.length).toBeGreaterThan(0);
    const numbers = [...archived, ...audit().numbers];
    expect(numbers).toEqual(range(1, numbers.length));
    expect(checks()).toEqual([]);
  });
});

describe("the header row", () => {
  it("cleared, it is written again by the next write, which says so", () => {
    refresh();
    const width = AUDIT_TABLE.columns.length;
    s.emulator.typeCells("Audit", `A1:${String.fromCharCode(64 + width)}1`, [Array(width).fill("")], s.user);
    refresh();
    expect(audit().sheet.header).toEqual(headersOf(AUDIT_TABLE, "en"));
    expect(checks()).toEqual([
      "The header row of this sheet was missing or changed; the add-on wrote it again.",
    ]);
    expect(audit().numbers).toEqual(range(1, audit().numbers.length));
  });

  it("deleted, it is written again above the first entry, and nothing is reported missing", () => {
    refresh();
    const n = audit().numbers.length;
    s.emulator.spreadsheet.sheetByName("Audit")?.deleteRows(1, 1);
    refresh();
    const after = audit();
    expect(after.sheet.header).toEqual(headersOf(AUDIT_TABLE, "en"));
    expect(after.numbers.slice(0, n)).toEqual(range(1, n));
    expect(checks()).toEqual([
      "The header row of this sheet was missing or changed; the add-on wrote it again.",
    ]);
  });
});

describe("a sheet that is not the audit's", () => {
  it("protected and holding other rows, it is never written into when the settings name it", () => {
    // Another editor names a sheet they may not edit (only its owner may) as the Audit sheet.
    const payroll = s.emulator.spreadsheet.addSheet("Payroll");
    s.emulator.typeCells("Payroll", "A1:B2", [
      ["Employee", "Salary"],
      ["Ana", "1000"],
    ]);
    s.emulator.spreadsheet.protections.push({
      sheet: payroll,
      rect: undefined,
      warningOnly: false,
      description: "Owner only",
      editors: [],
    });
    const before = sheetOf(s.emulator, "Payroll")?.values;
    s.settings({ pageSize: "5", auditReads: "every", sheetAudit: "Payroll" });
    // The refresh fails with the reason (shown in an alert, which the emulation reports unanswered).
    const out = s.emulator.tryRun("refreshFunds", [], { as: "menu", user: s.user });
    expect(out.ok ? "" : out.error).toContain(
      String.raw`The sheet \"Payroll\" is protected and its first row is not the audit's header`,
    );
    expect(sheetOf(s.emulator, "Payroll")?.values).toEqual(before);
  });
});

describe("an audit sheet written before entries were numbered", () => {
  it("keeps its rows, completes its header without a word, and numbers from there on", () => {
    // Without the Company, Target, Amount and Currency columns added since, nor the entry numbers.
    const old = headersOf(AUDIT_TABLE, "es").filter((_, i) => i < 4 || (i > 7 && i < 16));
    expect(old).toHaveLength(12);
    // One of Ana's getFunds of a menu refresh, in that layout.
    const oldRead = (at: string, ms: number) => [
      at,
      "ana@example.com",
      "menu",
      "Actualizar fondos",
      "GET",
      "getFunds",
      "",
      200,
      "ok",
      "",
      ms,
      "",
    ];
    s.emulator.spreadsheet.addSheet("Audit");
    s.emulator.typeCells(
      "Audit",
      "A1:L3",
      [old, oldRead("2024-01-01 09:00:00", 120), oldRead("2024-01-01 09:00:01", 90)],
      s.user,
    );
    refresh();
    const sheet = sheetOf(s.emulator, "Audit");
    expect(sheet?.header).toEqual(headersOf(AUDIT_TABLE, "es"));
    const numbers = sheet?.values.slice(1).map((r) => r[16]) ?? [];
    expect(numbers.slice(0, 2)).toEqual(["", ""]);
    expect(numbers.slice(2)).toEqual(range(1, numbers.length - 2));
    const messages = sheet?.values.slice(1).map((r) => r[13]);
    expect(messages?.[2]).toBe(
      "The 2 rows above were written before the add-on numbered its entries; entries are numbered from here on.",
    );
  });
});
