/**
 * The Outbox against a sandbox of two companies whose fund ids overlap (both start at 5001): a
 * row goes to the company its Company cell names, with that company's token alone. A deposit on
 * Beta's fund moves money in Beta's ledger only; a co-editor's rename, or a swap of the names
 * written straight into the list, sends nothing with the wrong token; a company the user has no
 * token for leaves its rows Pending; an empty Company cell with two companies is refused. The
 * companies are set up through the settings store (as Settings will), not its sidebar.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { storeOf as storeOfIn } from "../../dev/emulator/settings";
import { translate } from "../../src/i18n";
import { columnNumber } from "../../src/outbox/columns";
import { COMPANIES_KEY } from "../../src/settings/companies";
import type { SettingsStore } from "../../src/settings/store";
import {
  addBeta,
  BETA_KEY,
  depositsOf,
  ledgersOf,
  saveTokenOf,
  sharedOpenFund as sharedOpenFundOf,
} from "../support/two-companies";
import { ok, writeBackPerFile } from "./harness";

const LUIS = "luis@example.com";
const wb = writeBackPerFile({ companies: 2, otherUsers: [LUIS] });

const storeOf = (user: string): SettingsStore => storeOfIn(wb.emulator, user);

/** Beta added (the first company named Alpha), as Ana; with her token for Beta unless told. */
function twoCompanies(options: { betaToken?: boolean } = {}): void {
  addBeta(wb);
  if (options.betaToken === false) return;
  saveTokenOf(wb, wb.user, BETA_KEY, "Beta", 1);
}

const sharedOpenFund = () => sharedOpenFundOf(wb);
const ledgers = () => ledgersOf(wb);
const deposits = (company: string, id: number, cents: number) => depositsOf(wb, company, id, cents);

beforeEach(async () => {
  await wb.reset();
});

describe("an Outbox of two companies", () => {
  it("offers the companies in its Company dropdown, and a deposit on Beta's fund moves money in Beta's ledger only", async () => {
    twoCompanies();
    const id = await sharedOpenFund();
    ok(wb.menu("createOutboxSheet"));
    const validation = wb.emulator.spreadsheet
      .sheetByName("Outbox")
      ?.cell(2, columnNumber("company"))?.validation;
    expect(validation).toMatchObject({ kind: "list", values: ["Alpha", "Beta"] });
    const before = await ledgers();
    wb.typeOutbox([{ company: "Beta", operation: "Deposit", targetId: id, amount: "5.01" }]);
    const preview = String(ok(wb.menu("previewOutbox")).result);
    expect(preview).toContain("\nBeta:");
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect(await deposits("Beta", id, 501)).toBe(1);
    // Alpha's ledger, with a fund of the same id, is exactly as it was.
    expect((await ledgers()).alpha).toBe(before.alpha);
    // The audit names the company of the call.
    const audit = wb.sheetValues("Audit");
    const header = audit[0] ?? [];
    const company = header.indexOf(translate("en", "col.company" as never));
    expect(company).toBeGreaterThan(0);
    const named = audit.slice(1).map((row) => row[company]);
    expect(named).toContain(`Beta (${BETA_KEY})`);
    expect(named.every((cell) => cell === `Beta (${BETA_KEY})`)).toBe(true);
  });

  it("an empty Company cell is refused with its row and cell, and nothing is sent to either company", async () => {
    twoCompanies();
    const id = await sharedOpenFund();
    ok(wb.menu("createOutboxSheet"));
    const before = await ledgers();
    wb.typeOutbox([{ operation: "Deposit", targetId: id, amount: "5.02" }]);
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    const [row] = wb.outbox();
    expect(row?.state).toBe("Refused");
    expect(String(row?.result)).toContain(
      "The Company cell C2 is empty and this document has had several companies: an empty cell names none of them. Pick one of Alpha, Beta.",
    );
    expect(await ledgers()).toEqual(before);
  });

  it("a company the user has no token for stays Pending with why; the other company's row is sent", async () => {
    twoCompanies({ betaToken: false });
    const id = await sharedOpenFund();
    ok(wb.menu("createOutboxSheet"));
    const before = await ledgers();
    wb.typeOutbox([
      { company: "Beta", operation: "Deposit", targetId: id, amount: "5.03" },
      { company: "Alpha", operation: "Deposit", targetId: id, amount: "5.04" },
    ]);
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    const [first, second] = wb.outbox();
    expect(first?.state).toBe("Pending");
    expect(String(first?.result)).toMatch(/^Not sent yet: No access token is saved for you for Beta/);
    expect(second?.state).toBe("Done");
    expect((await ledgers()).beta).toBe(before.beta);
    expect(await deposits("Alpha", id, 504)).toBe(1);
  });

  it("a co-editor's rename of Beta sends nothing with any token until Ana confirms it", async () => {
    twoCompanies();
    const id = await sharedOpenFund();
    ok(wb.menu("createOutboxSheet"));
    wb.typeOutbox([{ company: "Beta", operation: "Deposit", targetId: id, amount: "5.05" }]);
    const luis = storeOf(LUIS);
    const renamed = luis.changeCompanies(
      { kind: "rename", rev: luis.companies().rev, key: BETA_KEY, name: "Beta SA" },
      { newKey: () => "cnever001", now: Date.now() },
    );
    expect(renamed.ok).toBe(true);
    const before = await ledgers();
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    const [row] = wb.outbox();
    expect(row?.state).toBe("Pending");
    expect(String(row?.result)).toContain("renamed Beta SA by another editor");
    expect(await ledgers()).toEqual(before);
    // Confirmed by its owner, the row (naming the former name) goes to Beta.
    const ana = storeOf(wb.user);
    expect(ana.confirmCompany(BETA_KEY, { name: "Beta SA", apiUrl: wb.sandbox.url }).ok).toBe(true);
    ok(wb.menu("runOutbox", ["YES", "OK"]));
    expect(wb.outbox()[0]?.state).toBe("Done");
    expect(await deposits("Beta", id, 505)).toBe(1);
    expect((await ledgers()).alpha).toBe(before.alpha);
  });

  it("the two names swapped straight in the document's list send nothing with the wrong token", async () => {
    twoCompanies();
    const id = await sharedOpenFund();
    ok(wb.menu("createOutboxSheet"));
    wb.typeOutbox([
      { company: "Beta", operation: "Deposit", targetId: id, amount: "5.06" },
      { company: "Alpha", operation: "Deposit", targetId: id, amount: "5.07" },
    ]);
    // Written by no rule of the add-on (the list refuses a swap): the names trade keys.
    const props = wb.emulator.documentPropertiesData.values;
    const list = JSON.parse(props.get(COMPANIES_KEY) ?? "{}") as { entries: { name: string }[] };
    const [a, b] = list.entries as [{ name: string }, { name: string }];
    [a.name, b.name] = [b.name, a.name];
    props.set(COMPANIES_KEY, JSON.stringify(list));
    const before = await ledgers();
    wb.menu("runOutbox", ["YES", "OK", "OK"]);
    expect(await ledgers()).toEqual(before);
    expect(wb.outbox().map((r) => r.state)).not.toContain("Done");
  });
});
