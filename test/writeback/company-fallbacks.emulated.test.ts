/**
 * No row is taken for the first company's by default once a spreadsheet has had several
 * companies: the BUILT add-on against a sandbox serving Alpha and Beta on one URL (both
 * companies' funds start at 5001), two editors, Ana and Luis, each with their tokens for both.
 * A Funds sheet whose Company key header was renamed is refused by the Fund sidebar (naming the
 * sheet and the column) and by the Outbox's update of the sheet, nothing read or written for
 * the wrong company; a row whose Company and Company key disagree is refused naming the row; a
 * pending Outbox row with an empty Company cell is not sent to the company left once the first
 * one is removed.
 */

import { beforeEach, describe, expect, it } from "vitest";
import { storeOf } from "../../dev/emulator/settings";
import type { FundSidebarView } from "../../src/app/fund-sidebar";
import type { FormOutcome } from "../../src/outbox/forms";
import { settingsIssueText } from "../../src/settings/words";
import { addBeta, BETA_KEY, depositsOf, ledgersOf, saveTokenOf } from "../support/two-companies";
import { writeBackPerFile } from "./harness";

const ANA = "ana@example.com";
const LUIS = "luis@example.com";
const wb = writeBackPerFile({ companies: 2, otherUsers: [LUIS] });
let requests = 0;

/** Beta added (the first company named Alpha) by Ana; Ana and Luis save their tokens for both. */
function twoCompanies(): void {
  addBeta(wb, ANA);
  for (const user of [ANA, LUIS]) {
    saveTokenOf(wb, user, "c0", "Alpha", 0);
    saveTokenOf(wb, user, BETA_KEY, "Beta", 1);
  }
}

/** The first company removed from the document by Ana, its rows kept. */
function removeAlpha(): void {
  const ana = storeOf(wb.emulator, ANA);
  const removed = ana.changeCompanies(
    { kind: "remove", rev: ana.companies().rev, key: "c0", rows: "keep" },
    { newKey: () => "cnever001", now: Date.now() },
  );
  if (!removed.ok) throw new Error(removed.issues.map((i) => settingsIssueText(i, "en")).join(" "));
}

const ledgers = () => ledgersOf(wb);
const deposits = (company: string, id: number, cents: number) => depositsOf(wb, company, id, cents);

function ok<T>(name: string, user: string, answers?: string[]): T {
  const out = wb.menu(name, answers, { user });
  if (!out.ok) throw new Error(`${name}: ${out.error}`);
  return out.result as T;
}

function sidebar<T>(name: string, user: string, ...args: unknown[]): T {
  const out = wb.emulator.tryRun(name, args, { as: "script.run", user });
  if (!out.ok) throw new Error(`${name}: ${out.error}`);
  return out.result as T;
}

/** The Funds sheet as a refresh of both companies wrote it, and the row of `key`'s fund `id`. */
function fundsRow(key: string, id: number): { row: number; header: unknown[]; values: unknown[][] } {
  const values = wb.sheetValues("Funds");
  const header = values[0] ?? [];
  const keyAt = header.indexOf("Company key");
  const at = values.findIndex((r, i) => i > 0 && r[0] === id && r[keyAt] === key);
  if (at < 1) throw new Error(`no row of ${key}'s fund ${id}`);
  return { row: at + 1, header, values };
}

const column = (header: unknown[], name: string) => {
  const at = header.indexOf(name);
  if (at < 0) throw new Error(`no ${name} column`);
  return String.fromCharCode(65 + at);
};

const toasts = () => wb.emulator.ui.toasts.map((t) => JSON.stringify(t)).join("\n");

beforeEach(async () => {
  await wb.reset();
  twoCompanies();
  ok("refreshFunds", ANA);
});

describe("a Funds sheet whose Company key header was renamed", () => {
  const refusal = (row: number) =>
    `Row ${row}: the Funds sheet has no "Company key" column (its header renamed or deleted), and this spreadsheet has had several companies, so its rows cannot be told apart by company; nothing is done with it. Put the "Company key" header back as a refresh wrote it.`;

  it("the Fund sidebar refuses it, naming the sheet and the column, instead of opening Beta's 5001 as Alpha's; a deposit from it is refused", async () => {
    const { row, header } = fundsRow(BETA_KEY, 5001);
    wb.emulator.typeCells("Funds", `${column(header, "Company key")}1`, [["Key"]]);
    const before = await ledgers();
    for (const user of [LUIS, ANA]) {
      wb.emulator.resetCounters();
      wb.emulator.select("Funds", `A${row}`);
      const view = sidebar<FundSidebarView>("getFundSidebarView", user);
      expect(view.error).toBe(refusal(row));
      expect(view.company).toBeNull();
      expect(view.fund).toBeNull();
      expect(view.employees).toEqual([]);
      expect(wb.emulator.counters.urlFetchTotal).toBe(0);
      // A deposit from that page, whichever company it names, is sent to neither.
      for (const company of ["c0", BETA_KEY, undefined]) {
        const outcome = sidebar<FormOutcome>("depositToFund", user, {
          requestId: `deposit-${++requests}-abcdef`,
          fields: { Id: 5001, DepositAmount: "7.00" },
          ...(company === undefined ? {} : { company }),
        });
        expect(outcome).toMatchObject({ kind: "refused" });
      }
    }
    expect(await ledgers()).toEqual(before);
  });

  it("an Outbox deposit is sent to its company, and the sheet, which cannot tell its row, is not written: the run says why", async () => {
    const { header } = fundsRow(BETA_KEY, 5001);
    wb.emulator.typeCells("Funds", `${column(header, "Company key")}1`, [["Key"]]);
    const funds = JSON.stringify(wb.sheetValues("Funds"));
    ok("createOutboxSheet", ANA);
    wb.typeOutbox([{ company: "Alpha", operation: "Deposit", targetId: 5001, amount: "3.21" }]);
    ok("runOutbox", LUIS, ["YES", "OK"]);
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect(await deposits("Alpha", 5001, 321)).toBe(1);
    expect(await deposits("Beta", 5001, 321)).toBe(0);
    // Neither 5001 row took Alpha's new balance: the first of them may be Beta's.
    expect(JSON.stringify(wb.sheetValues("Funds"))).toBe(funds);
    // The row named is the first of Id 5001, the one an update by Id alone would have written.
    const first = wb.sheetValues("Funds").findIndex((r, i) => i > 0 && r[0] === 5001) + 1;
    expect(toasts()).toContain(`Row ${first}: the Funds sheet has no \\"Company key\\" column`);
  });
});

describe("a row whose Company and Company key disagree", () => {
  /** The Company cells of Alpha's and Beta's fund 5001 swapped, as a sort of the visible columns does. */
  function swapCompanyCells(): { alphaRow: number; betaRow: number; name: string } {
    const alpha = fundsRow("c0", 5001);
    const beta = fundsRow(BETA_KEY, 5001);
    const name = column(alpha.header, "Company");
    wb.emulator.typeCells("Funds", `${name}${alpha.row}`, [["Beta"]]);
    wb.emulator.typeCells("Funds", `${name}${beta.row}`, [["Alpha"]]);
    return { alphaRow: alpha.row, betaRow: beta.row, name };
  }

  it("the Fund sidebar refuses it, naming the row, for each editor; nothing is read", () => {
    const { betaRow } = swapCompanyCells();
    for (const user of [ANA, LUIS]) {
      wb.emulator.resetCounters();
      wb.emulator.select("Funds", `A${betaRow}`);
      const view = sidebar<FundSidebarView>("getFundSidebarView", user);
      expect(view.error).toBe(
        `Row ${betaRow}: the Company "Alpha" does not match its Company key "${BETA_KEY}", which is the company "Beta"; nothing is done with it. Put the two cells back as a refresh wrote them.`,
      );
      expect(view.fund).toBeNull();
      expect(wb.emulator.counters.urlFetchTotal).toBe(0);
    }
  });

  it("the Outbox's update of the Funds sheet refuses it, naming the row; the deposit stands in Beta's ledger only", async () => {
    const { betaRow } = swapCompanyCells();
    const funds = JSON.stringify(wb.sheetValues("Funds"));
    const alphaBefore = (await ledgers()).alpha;
    ok("createOutboxSheet", ANA);
    wb.typeOutbox([{ company: "Beta", operation: "Deposit", targetId: 5001, amount: "4.56" }]);
    ok("runOutbox", LUIS, ["YES", "OK"]);
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect(await deposits("Beta", 5001, 456)).toBe(1);
    expect((await ledgers()).alpha).toBe(alphaBefore);
    // The row holding Beta's key but showing "Alpha" is not given Beta's balance.
    expect(JSON.stringify(wb.sheetValues("Funds"))).toBe(funds);
    expect(toasts()).toContain(`Row ${betaRow}: the Company \\"Alpha\\" does not match its Company key`);
  });
});

describe("the first company removed", () => {
  it("a pending Outbox row of the one-company days, its Company cell empty, is refused naming its cell, not sent to Beta", async () => {
    ok("createOutboxSheet", ANA);
    wb.typeOutbox([{ operation: "Deposit", targetId: 5001, amount: "6.54" }]);
    removeAlpha();
    const before = await ledgers();
    // Each editor's run: Luis's on row 2, then Ana's on a row 3 of the same kind.
    for (const [user, row] of [
      [LUIS, 2],
      [ANA, 3],
    ] as const) {
      if (row === 3) wb.typeOutbox([{ operation: "Deposit", targetId: 5001, amount: "6.55" }], 3);
      ok("runOutbox", user, ["YES", "OK"]);
      const outcome = wb.outbox()[row - 2];
      expect(outcome?.state).toBe("Refused");
      expect(String(outcome?.result)).toContain(
        `The Company cell C${row} is empty and this document has had several companies: an empty cell names none of them. Pick one of Beta.`,
      );
    }
    expect(await ledgers()).toEqual(before);
  });
});

describe("the Fund sidebar with the first company removed", () => {
  it("sends a deposit only to the company it showed and names, never to the one left by default", async () => {
    removeAlpha();
    const { row } = fundsRow(BETA_KEY, 5001);
    const before = await ledgers();
    wb.emulator.select("Funds", `A${row}`);
    const view = sidebar<FundSidebarView>("getFundSidebarView", LUIS);
    expect(view.error).toBe("");
    expect(view.company).toEqual({ key: BETA_KEY, name: "Beta" });
    // A submission that names no company (a page of the one-company days) goes nowhere.
    const unnamed = sidebar<FormOutcome>("depositToFund", LUIS, {
      requestId: `deposit-${++requests}-abcdef`,
      fields: { Id: 5001, DepositAmount: "2.22" },
    });
    expect(unnamed).toMatchObject({ kind: "refused", message: /^Fund 5001: pick its company \(Beta\)/ });
    expect(await ledgers()).toEqual(before);
    // Ana never opened it: her submission naming Beta is refused too.
    const unseen = sidebar<FormOutcome>("depositToFund", ANA, {
      requestId: `deposit-${++requests}-abcdef`,
      fields: { Id: 5001, DepositAmount: "2.23" },
      company: BETA_KEY,
    });
    expect(unseen).toMatchObject({ kind: "refused" });
    const named = sidebar<FormOutcome>("depositToFund", LUIS, {
      requestId: `deposit-${++requests}-abcdef`,
      fields: { Id: 5001, DepositAmount: "2.24" },
      company: BETA_KEY,
    });
    expect(named).toMatchObject({ kind: "done" });
    expect(await deposits("Beta", 5001, 224)).toBe(1);
    expect((await ledgers()).alpha).toBe(before.alpha);
  });
});
