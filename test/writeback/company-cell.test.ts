/**
 * The Company cell is part of an Outbox row's request, against a sandbox of two companies whose
 * fund ids overlap: Ana sends, her co-editor Luis (with his own tokens for both companies)
 * swaps or sorts and runs. A row owns its write only while it names the company the write went
 * to; a Done row whose Company names the other company is flagged as edited, and a row carrying
 * a write's key under the other company's name is "sorted or edited": nothing is sent twice,
 * and neither company gets the other's deposit.
 */
import { describe, expect, it } from "vitest";
import { storeToken } from "../../dev/emulator/settings";
import { columnNumber, USER_COLUMNS } from "../../src/outbox/columns";
import { IN_FLIGHT_WINDOW_MS } from "../../src/outbox/records";
import { columnLetters } from "../../src/sheets/formulas";
import { addBeta, BETA_KEY, companyOf, saveTokenOf, twoCompanyWriteBack } from "../support/two-companies";
import { ok } from "./harness";

const LUIS = "luis@example.com";
const { wb, betaFaults, deposits, sharedFundDeposits } = twoCompanyWriteBack([LUIS]);

/** Beta added (the first company named Alpha); Ana and Luis each with their tokens for both. */
function twoCompaniesTwoUsers(): void {
  addBeta(wb);
  storeToken(wb.emulator, LUIS, companyOf(wb, 0).token, wb.sandbox.url, companyOf(wb, 0).adminId);
  for (const user of [wb.user, LUIS]) saveTokenOf(wb, user, BETA_KEY, "Beta", 1);
}

const asLuis = { user: LUIS };
const pastTheWindow = () => wb.emulator.advanceTime(IN_FLIGHT_WINDOW_MS + 1_000);

/** The visible cells of rows 2 and 3 (State to the last user column) traded, as a sort of them does. */
function swapVisibleRows(cells: "company" | "visible"): void {
  const first = cells === "company" ? columnNumber("company") : 1;
  const last = cells === "company" ? first : Math.max(...USER_COLUMNS.map((c) => columnNumber(c)));
  const range = (row: number) => `${columnLetters(first)}${row}:${columnLetters(last)}${row}`;
  const values = wb.sheetValues("Outbox");
  const slice = (row: number) => (values[row - 1] ?? []).slice(first - 1, last);
  const [two, three] = [slice(2), slice(3)];
  wb.emulator.typeCells("Outbox", range(2), [three], LUIS);
  wb.emulator.typeCells("Outbox", range(3), [two], LUIS);
}

describe("the Company cell of an Outbox row is part of its request", () => {
  it("two rows' Company cells swapped: the Done row is flagged as edited, nothing is sent twice, and each company ends with one deposit", async () => {
    twoCompaniesTwoUsers();
    const cents = 511;
    const { id, before } = await sharedFundDeposits(cents);
    ok(wb.menu("createOutboxSheet"));
    wb.typeOutbox([
      { company: "Alpha", operation: "Deposit", targetId: id, amount: "5.11" },
      { company: "Beta", operation: "Deposit", targetId: id, amount: "5.11" },
    ]);
    // Beta's call is cut before the service applies it: its row is Unknown.
    await betaFaults([{ endpoint: "depositMoneyToFund", fault: "drop-before-apply", times: 1 }]);
    ok(wb.menu("runOutbox", ["YES", "OK", "OK"]));
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Unknown"]);

    // Luis swaps the two Company cells, then previews and runs once the window has passed.
    swapVisibleRows("company");
    pastTheWindow();
    const preview = String(ok(wb.menu("previewOutbox", ["OK"], asLuis)).result);
    expect(preview).toContain("Row 2 was changed after it was done on ");
    expect(preview).toContain("Company was changed from “Alpha” to “Beta”");
    ok(wb.menu("runOutbox", ["YES", "OK", "OK"], asLuis));
    const [done, interrupted] = wb.outbox();
    expect(done?.state).toBe("Done");
    expect(String(done?.result)).toMatch(
      /^Done for Deposit of (?:[A-Z]{3} )?5\.11 to fund \d+ on .*; Company was changed from “Alpha” to “Beta” afterwards \(the row was edited, or the sheet sorted without its hidden columns\): nothing more was sent/,
    );
    expect(interrupted?.state).toBe("Pending");
    expect(String(interrupted?.result)).toContain("Company was changed from “Beta” to “Alpha”");
    expect(await deposits("Alpha", id, cents)).toBe(before.alpha + 1);
    expect(await deposits("Beta", id, cents)).toBe(before.beta);

    // The cells put back as they were, Beta's deposit is sent to Beta, once; Alpha's stays one.
    swapVisibleRows("company");
    const again = String(ok(wb.menu("previewOutbox", ["OK"], asLuis)).result);
    expect(again).not.toContain("same as row 2");
    ok(wb.menu("runOutbox", ["YES", "OK", "OK"], asLuis));
    expect(wb.outbox().map((r) => r.state)).toEqual(["Done", "Done"]);
    expect(await deposits("Alpha", id, cents)).toBe(before.alpha + 1);
    expect(await deposits("Beta", id, cents)).toBe(before.beta + 1);
  });

  it("a sort of the visible columns that moves a Done row's cells onto another company's row: sorted or edited, nothing sent", async () => {
    twoCompaniesTwoUsers();
    const cents = 512;
    const { id, before } = await sharedFundDeposits(cents);
    ok(wb.menu("createOutboxSheet"));
    wb.typeOutbox([{ company: "Alpha", operation: "Deposit", targetId: id, amount: "5.12" }]);
    ok(wb.menu("runOutbox", ["YES", "OK", "OK"]));
    expect(wb.outbox()[0]?.state).toBe("Done");
    // Luis adds Beta's deposit below, then sorts the visible columns by Company, Z to A.
    wb.typeOutbox([{ company: "Beta", operation: "Deposit", targetId: id, amount: "5.12" }], 3);
    swapVisibleRows("visible");
    const preview = String(ok(wb.menu("previewOutbox", ["OK"], asLuis)).result);
    expect(preview).toContain("whose cells it does not show (the sheet sorted without its hidden columns");
    expect(preview).not.toContain("same as row");
    wb.menu("runOutbox", ["YES", "OK", "OK"], asLuis);
    const [moved, shows] = wb.outbox();
    expect(moved?.state).toBe("Refused");
    expect(String(moved?.result)).toMatch(
      /^Not sent: its Operation key names Deposit of .* whose cells this row does not show/,
    );
    // The row that shows the done write's cells, Alpha's, is its row: Done, its key back.
    expect(shows?.state).toBe("Done");
    expect(String(shows?.result)).toMatch(/^Done on .*: this row showed Done without its Operation key/);
    expect(await deposits("Alpha", id, cents)).toBe(before.alpha + 1);
    expect(await deposits("Beta", id, cents)).toBe(before.beta);
  });
});
