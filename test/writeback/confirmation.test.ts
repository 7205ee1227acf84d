/**
 * Run Outbox asks first, then sends. While the question is open, other editors keep typing:
 * what is sent must be what the person who answered Yes was shown, never a row added or
 * changed meanwhile (their token sends it). Through the built add-on, against the sandbox.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { confirmations, createOutbox, flexibleFund, type SandboxFund, writeBackPerFile } from "./harness";

/** What happens while the confirmation is open (then Yes); every other dialog's text (answered OK). */
const dialogs = confirmations();
const { asked, told } = dialogs;
const wb = writeBackPerFile({ waitForAnswer: dialogs.waitForAnswer });
let fund: SandboxFund;

beforeEach(async () => {
  await wb.reset();
  fund = await flexibleFund(wb);
  createOutbox(wb);
  dialogs.clear();
});

async function deposits(id: number): Promise<number[]> {
  const f = await wb.fund(id);
  return f.transactions.filter((t) => t.type === 1).map((t) => t.amountCents);
}

const runOutbox = () => {
  const out = wb.menu("runOutbox", []);
  if (!out.ok) throw new Error(out.error);
};

/** 101 Outbox rows, each a deposit of 1.00 to the fund. */
const oneHundredAndOne = () =>
  Array.from({ length: 101 }, () => ({ operation: "Deposit", targetId: fund.id, amount: "1.00" }));

describe("rows added or changed while Run Outbox asks for confirmation", () => {
  it("are not sent by that run: they stay Pending for the next preview, and nothing else changes", async () => {
    const before = await deposits(fund.id);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "10.00" }]);
    dialogs.whileAsked = () =>
      wb.typeOutbox([
        { operation: "Deposit", targetId: fund.id, amount: "9999.00" },
        { operation: "Deposit", targetId: fund.id, amount: "500.00" },
      ]);
    runOutbox();
    expect(asked[0]).toContain("10.00");
    expect(asked[0]).not.toContain("9,999.00");
    expect(await deposits(fund.id)).toEqual(before);
    const rows = wb.outbox();
    for (const row of rows.slice(0, 2)) {
      expect(row).toMatchObject({
        state: "Pending",
        result: "Not sent: added or changed after the run was confirmed.",
      });
    }

    // The next run asks about them, and sends them once.
    dialogs.whileAsked = null;
    runOutbox();
    expect(asked[1]).toContain("Deposit of MXN 9,999.00");
    expect(asked[1]).toContain("500.00");
    expect(await deposits(fund.id)).toEqual([...before, 999_900, 50_000]);
    expect(
      wb
        .outbox()
        .slice(0, 2)
        .map((r) => r.state),
    ).toEqual(["Done", "Done"]);
  }, 60_000);

  it("a confirmed row moved by a sort while asked is still sent, once", async () => {
    const before = await deposits(fund.id);
    wb.typeOutbox([
      { operation: "Deposit", targetId: fund.id, amount: "3.00" },
      { operation: "Deposit", targetId: fund.id, amount: "2.00" },
    ]);
    dialogs.whileAsked = () =>
      wb.typeOutbox([
        { operation: "Deposit", targetId: fund.id, amount: "2.00" },
        { operation: "Deposit", targetId: fund.id, amount: "3.00" },
      ]);
    runOutbox();
    expect(await deposits(fund.id)).toEqual([...before, 200, 300]);
    expect(
      wb
        .outbox()
        .slice(0, 2)
        .map((r) => r.state),
    ).toEqual(["Done", "Done"]);
  }, 60_000);
});

describe("the currency the confirmation names", () => {
  it("comes from a Funds sheet cell any editor can type: a fund in another currency sends nothing", async () => {
    const refreshed = wb.menu("refreshFunds", []);
    if (!refreshed.ok) throw new Error(refreshed.error);
    const funds = wb.sheetValues("Funds");
    const header = funds[0] as unknown[];
    const currencyCol = header.indexOf("Currency");
    const rowIndex = funds.findIndex((r) => Number(r[header.indexOf("Id")]) === fund.id);
    expect(funds[rowIndex]?.[currencyCol]).toBe(fund.currency);
    const forged = fund.currency === "CLP" ? "USD" : "CLP";
    wb.emulator.typeCells("Funds", `${String.fromCharCode(65 + currencyCol)}${rowIndex + 1}`, [[forged]]);

    const before = await deposits(fund.id);
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "50000.00" }]);
    runOutbox();
    expect(asked[0]).toContain(`Deposit of ${forged} 50,000 to fund ${fund.id}`);
    expect(await deposits(fund.id)).toEqual(before);
    expect(wb.outbox()[0]).toMatchObject({
      state: "Pending",
      result: `Could not check (fund ${fund.id} is in ${fund.currency}, not ${forged}: refresh the Funds sheet); left for the next run.`,
    });

    // Refreshed, the question names the fund's own currency, and the row is sent.
    if (!wb.menu("refreshFunds", []).ok) throw new Error("refresh");
    runOutbox();
    expect(asked[1]).toContain(`Deposit of ${fund.currency} 50,000.00 to fund ${fund.id}`);
    expect(await deposits(fund.id)).toEqual([...before, 5_000_000]);
    expect(wb.outbox()[0]?.state).toBe("Done");
  }, 60_000);
});

describe("the confirmation shows every operation that will be sent", () => {
  it("names each status change, update and mark with its fields, and that the runner's token sends them all", async () => {
    const state = await wb.state();
    const report = state.reports[0] as { Id?: number; id?: number };
    const reportId = Number(report.id ?? report.Id);
    wb.typeOutbox([
      { operation: "Deposit", targetId: fund.id, amount: "10.00" },
      { operation: "Set fund status", targetId: fund.id, fundStatus: "Blocked" },
      {
        operation: "Update fund",
        targetId: fund.id,
        fundName: "Viajes 2026",
        fundCode: "V-26",
        autoBlock: "No",
      },
      {
        operation: "Mark integrated",
        targetId: reportId,
        integrationCode: "ERP-7",
        integrationDate: "2026-06-30 10:15:00",
      },
    ]);
    runOutbox();
    const text = asked[0] ?? "";
    expect(text).toContain("Every row is sent with your own access token and account, whoever typed it.");
    expect(text).toContain(`• Row 2: Deposit of ${fund.currency} 10.00 to fund ${fund.id}`);
    expect(text).toContain(`• Row 3: Status change of fund ${fund.id} to Blocked`);
    expect(text).toContain(
      `• Row 4: Update of fund ${fund.id}: Fund name “Viajes 2026”, Fund code “V-26”, Auto-block No`,
    );
    expect(text).toContain(
      `• Row 5: Integration mark of report ${reportId} (ERP-7): Integration date “2026-06-30 10:15:00”`,
    );
    expect((await wb.fund(fund.id)).title).toBe("Viajes 2026");
  });

  it("when the dialog cannot hold them, the first Run lists them all on the Outbox preview sheet and stops; the next Run asks", async () => {
    const before = await deposits(fund.id);
    const rows = Array.from({ length: 120 }, (_, i) => ({
      operation: "Deposit",
      targetId: fund.id,
      amount: `${(i + 1) / 100}`,
    }));
    wb.typeOutbox([...rows, { operation: "Set fund status", targetId: fund.id, fundStatus: "Open" }]);

    // First Run: the list is written, nothing is asked (a modal question cannot be checked
    // against a sheet) and nothing is sent.
    runOutbox();
    expect(asked).toEqual([]);
    const stopped = told.at(-1) ?? "";
    expect(stopped).toContain(
      "121 operations may be sent: too many for this dialog, so each one (row, operation, target, amount and currency, or the status, mark or fields) is listed on the sheet “Outbox preview”",
    );
    expect(stopped).toContain(
      "Nothing was sent. Check the sheet “Outbox preview”, then choose Run Outbox again",
    );
    expect(await deposits(fund.id)).toEqual(before);
    const listed = wb.sheetValues("Outbox preview");
    expect(listed[0]).toEqual(["Row", "Operation", "What may be sent"]);
    expect(listed.length).toBe(122);
    expect(listed[1]).toEqual(["2", "Deposit", `Row 2: Deposit of ${fund.currency} 0.01 to fund ${fund.id}`]);
    expect(listed[120]).toEqual([
      "121",
      "Deposit",
      `Row 121: Deposit of ${fund.currency} 1.20 to fund ${fund.id}`,
    ]);
    expect(listed[121]).toEqual([
      "122",
      "Status change",
      `Row 122: Status change of fund ${fund.id} to Open`,
    ]);
    // The list's mark is the runner's own, for this spreadsheet: never in the document's properties.
    const marks = (values: Map<string, string>) =>
      [...values.keys()].filter((k) => k.startsWith("outbox:previewSheet:"));
    expect(marks(wb.emulator.userPropertiesOf(wb.user).values)).toHaveLength(1);
    expect(marks(wb.emulator.documentPropertiesData.values)).toEqual([]);
    const sheet = wb.emulator.spreadsheet.sheetByName("Outbox preview");
    const protections = wb.emulator.spreadsheet.protections.filter((p) => p.sheet === sheet && !p.rect);
    expect(protections.map((p) => p.warningOnly)).toEqual([true]);

    // Second Run, nothing changed: it asks, without sending the user to a sheet they cannot
    // open while the question is open, and sends what was listed, each once.
    runOutbox();
    expect(asked.length).toBe(1);
    const text = asked[0] ?? "";
    expect(text).toContain("121 operations may be sent: too many for this dialog");
    expect(text).not.toContain("• Row 2:");
    expect(text).not.toContain("Check that sheet");
    expect(text).toContain(
      "These are the operations listed on the sheet “Outbox preview” by your last Run or Preview, unchanged since. Every row is sent with your own access token",
    );
    const sent = (await deposits(fund.id)).slice(before.length);
    expect(sent).toEqual(rows.map((_, i) => i + 1));
  }, 240_000);

  it("the Outbox changed between the two Runs: the second shows the new list and sends nothing; the third asks and sends each deposit once", async () => {
    const before = await deposits(fund.id);
    const rows = oneHundredAndOne();
    wb.typeOutbox(rows);
    runOutbox();
    expect(asked).toEqual([]);
    expect(wb.sheetValues("Outbox preview")[101]?.[2]).toBe(
      `Row 102: Deposit of ${fund.currency} 1.00 to fund ${fund.id}`,
    );

    // Someone changes one amount before the next Run.
    wb.typeOutbox([{ operation: "Deposit", targetId: fund.id, amount: "7000.00" }], 60);
    runOutbox();
    expect(asked).toEqual([]);
    expect(told.at(-1)).toContain("Nothing was sent. Check the sheet “Outbox preview”");
    expect(await deposits(fund.id)).toEqual(before);
    expect(wb.sheetValues("Outbox preview")[59]?.[2]).toBe(
      `Row 60: Deposit of ${fund.currency} 7,000.00 to fund ${fund.id}`,
    );

    // Unchanged since: asked, and the sandbox's ledger holds each deposit once.
    runOutbox();
    expect(asked.length).toBe(1);
    const sent = (await deposits(fund.id)).slice(before.length);
    expect(sent.length).toBe(101);
    expect(sent.filter((cents) => cents === 700_000).length).toBe(1);
    expect(sent.filter((cents) => cents === 100).length).toBe(100);

    // And once more: nothing is pending, nothing is sent again.
    runOutbox();
    expect(asked.length).toBe(1);
    expect((await deposits(fund.id)).length).toBe(before.length + 101);
  }, 240_000);

  it("an edit to the listed sheet between the two Runs: the list is written again and nothing is sent", async () => {
    const before = await deposits(fund.id);
    wb.typeOutbox(oneHundredAndOne());
    runOutbox();
    wb.emulator.typeCells("Outbox preview", "C5", [["Row 5: nothing"]]);
    runOutbox();
    expect(asked).toEqual([]);
    expect(wb.sheetValues("Outbox preview")[4]?.[2]).toBe(
      `Row 5: Deposit of ${fund.currency} 1.00 to fund ${fund.id}`,
    );
    expect(await deposits(fund.id)).toEqual(before);
  }, 240_000);

  it("hidden rows, a filter and formats on an add-on preview sheet someone prepared do not survive", async () => {
    const before = await deposits(fund.id);
    wb.typeOutbox(oneHundredAndOne());
    wb.emulator.spreadsheet.addSheet("Outbox preview");
    wb.emulator.typeCells("Outbox preview", "A1:C1", [["Row", "Operation", "What may be sent"]]);
    const prepared = wb.emulator.spreadsheet.sheetByName("Outbox preview");
    if (!prepared) throw new Error("no sheet");
    for (const row of [3, 40, 90]) prepared.hiddenRows.add(row);
    prepared.filter = { a1: "A1:C200", hiddenRows: [4, 5] };
    prepared.hiddenColumns.add(3);
    runOutbox();
    const sheet = wb.emulator.spreadsheet.sheetByName("Outbox preview");
    expect(sheet).toBeDefined();
    expect(sheet?.sheetId).not.toBe(prepared.sheetId);
    expect([...(sheet?.hiddenRows ?? [])]).toEqual([]);
    expect(sheet?.filter).toBeNull();
    expect([...(sheet?.hiddenColumns ?? [])]).toEqual([]);
    expect(wb.sheetValues("Outbox preview").length).toBe(102);
    expect(asked).toEqual([]);
    expect(await deposits(fund.id)).toEqual(before);
  }, 240_000);

  it("a sheet of that name the add-on did not write is left alone, and nothing is sent", async () => {
    const before = await deposits(fund.id);
    wb.typeOutbox(oneHundredAndOne());
    wb.emulator.spreadsheet.addSheet("Outbox preview");
    wb.emulator.typeCells("Outbox preview", "A1", [["my notes"]]);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const out = wb.menu("runOutbox", []);
      expect(out.ok).toBe(true);
      expect(told.at(-1)).toContain(
        "A sheet named “Outbox preview” that the add-on did not write is in the way",
      );
    }
    expect(asked).toEqual([]);
    expect(wb.sheetValues("Outbox preview")).toEqual([["my notes"]]);
    expect(await deposits(fund.id)).toEqual(before);
  });
  it("an empty sheet of that name (it may hold a chart) is not deleted either", async () => {
    const before = await deposits(fund.id);
    wb.typeOutbox(oneHundredAndOne());
    wb.emulator.spreadsheet.addSheet("Outbox preview");
    const empty = wb.emulator.spreadsheet.sheetByName("Outbox preview");
    runOutbox();
    expect(told.at(-1)).toContain(
      "A sheet named “Outbox preview” that the add-on did not write is in the way",
    );
    expect(wb.emulator.spreadsheet.sheetByName("Outbox preview")?.sheetId).toBe(empty?.sheetId);
    expect(wb.sheetValues("Outbox preview")).toEqual([]);
    expect(asked).toEqual([]);
    expect(await deposits(fund.id)).toEqual(before);
  });
});
