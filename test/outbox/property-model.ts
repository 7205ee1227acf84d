/**
 * The Outbox's property, as a model both its test files run: whatever the network and the
 * people editing the sheet do between runs (answers lost before or after the service applied a
 * write, requests landing late, executions killed in the middle of a call, amounts changed,
 * States cleared, rows copied whole or only their visible cells, Done typed by hand, an
 * operation key of a form's write put on a row, the visible columns sorted without the hidden
 * ones, Company cells swapped, cleared or typed again, a user's token for one company that opens
 * the other's account), once the Outbox has settled, every fund's movements are exactly the ones
 * Done rows stand for, each once and in the account of the company the write went to, and no
 * row says Done for an amount or a company other than the one that moved without saying so.
 *
 * Two companies, Alpha (the first) and Beta, each its own ledger with funds 1 and 2 (the same
 * ids: another account's fund of the same id is another fund). Each company is marked with its
 * own account; a token that opens another account is refused by the Outbox's port of that
 * company as the add-on's is (src/app/outbox.ts: the marked funds read with the token and
 * checked with `checkAccount`), so nothing is sent or settled with it.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { HIDDEN_COLUMNS, OUTBOX_COLUMNS } from "../../src/outbox/columns";
import type { CompanyDirectory } from "../../src/outbox/companies";
import { IN_FLIGHT_WINDOW_MS, recordCompany, type WriteRecord } from "../../src/outbox/records";
import { readOutboxRow } from "../../src/outbox/rows";
import type { CompanyPort, UnusableCompanyPort } from "../../src/outbox/run";
import { companyKeys } from "../../src/outbox/run/ownership";
import { type AccountMark, checkAccount, type MarkSource, markOf } from "../../src/settings/account-mark";
import {
  FakeAudit,
  FakeClock,
  FakeLedger,
  FakeSheet,
  type Fault,
  haltingRun,
  memoryRecords,
  runContext,
  userRow,
} from "./fakes";

const AMOUNTS = ["1.00", "2.00", "5.00"]; // few amounts: movements of the same amount collide
const FUNDS = [1, 2];
/** The two companies; rows drawn without one (the seeds of the one-company model) are Alpha's. */
const COMPANIES = ["Alpha", "Beta"] as const;
type Company = (typeof COMPANIES)[number];
const KEYS: Record<Company, string> = { Alpha: "c0", Beta: "c1" };
const DIRECTORY: CompanyDirectory = {
  entries: [
    { key: "c0", name: "Alpha", formerNames: [] },
    { key: "c1", name: "Beta", formerNames: [] },
  ],
  several: true,
};
/** What a Company cell is typed as: a name, in another case with spaces, or another name. */
const TYPED = ["Alpha", "Beta", " beta ", "ALPHA"];

export type Edit =
  | { kind: "amount"; row: number; amount: string }
  | { kind: "clearState"; row: number }
  | { kind: "copy"; row: number }
  /** Only the visible cells (State to Expiration date), none of the hidden ones (no key). */
  | { kind: "copyVisible"; row: number }
  /** A new row with State "Done" typed by hand. */
  | { kind: "handDone"; fund: number; amount: string; withdraw: boolean }
  /** A new row carrying the operation key of a form's write (copied from the Audit sheet). */
  | { kind: "formKey"; fund: number; amount: string; withdraw: boolean }
  /** The visible columns sorted (by amount, then fund), the hidden ones left in place. */
  | { kind: "sortVisible" }
  | { kind: "add"; fund: number; amount: string; withdraw: boolean; company?: Company }
  /** Two rows' Company cells swapped. */
  | { kind: "swapCompany"; row: number; other: number }
  | { kind: "clearCompany"; row: number }
  /** A Company cell typed again: the same name, another case, or the other company. */
  | { kind: "retypeCompany"; row: number; typed: string }
  /** This user's token for `company` now opens `opens`'s account (the same: the right token again). */
  | { kind: "token"; company: Company; opens: Company };

export interface Step {
  faults: Fault[];
  edits: Edit[];
  /** Milliseconds that pass before the run (some within the in-flight window, some after). */
  waitMs: number;
}

export const faultArb: fc.Arbitrary<Fault> = fc.record({
  endpoint: fc.constantFrom<Fault["endpoint"]>("deposit", "withdraw", "*"),
  when: fc.constantFrom<Fault["when"]>("before", "after", "halt-after", "late"),
  // A late request lands before the window ends: the add-on's stated margin.
  delayMs: fc.integer({ min: 1_000, max: IN_FLIGHT_WINDOW_MS - 1_000 }),
});

export const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant("amount" as const), row: fc.nat(12), amount: fc.constantFrom(...AMOUNTS) }),
  fc.record({ kind: fc.constant("clearState" as const), row: fc.nat(12) }),
  fc.record({ kind: fc.constant("copy" as const), row: fc.nat(12) }),
  fc.record({ kind: fc.constant("copyVisible" as const), row: fc.nat(12) }),
  fc.record({
    kind: fc.constantFrom("handDone" as const, "formKey" as const),
    fund: fc.constantFrom(...FUNDS),
    amount: fc.constantFrom(...AMOUNTS),
    withdraw: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("sortVisible" as const) }),
  fc.record({
    kind: fc.constant("add" as const),
    fund: fc.constantFrom(...FUNDS),
    amount: fc.constantFrom(...AMOUNTS),
    withdraw: fc.boolean(),
    company: fc.constantFrom(...COMPANIES),
  }),
  fc.record({ kind: fc.constant("swapCompany" as const), row: fc.nat(12), other: fc.nat(12) }),
  fc.record({ kind: fc.constant("clearCompany" as const), row: fc.nat(12) }),
  fc.record({
    kind: fc.constant("retypeCompany" as const),
    row: fc.nat(12),
    typed: fc.constantFrom(...TYPED),
  }),
  fc.record({
    kind: fc.constant("token" as const),
    company: fc.constantFrom(...COMPANIES),
    opens: fc.constantFrom(...COMPANIES),
  }),
);

export const stepArb: fc.Arbitrary<Step> = fc.record({
  faults: fc.array(faultArb, { maxLength: 3 }),
  edits: fc.array(editArb, { maxLength: 3 }),
  waitMs: fc.constantFrom(0, 30_000, IN_FLIGHT_WINDOW_MS + 1),
});

export const initialRowsArb = fc.array(
  fc.record({
    fund: fc.constantFrom(...FUNDS),
    amount: fc.constantFrom(...AMOUNTS),
    withdraw: fc.boolean(),
    company: fc.constantFrom(...COMPANIES),
  }),
  { minLength: 1, maxLength: 6 },
);

function rowOf(r: { fund: number; amount: string; withdraw: boolean; company?: Company }) {
  return userRow(r.withdraw ? "Withdraw" : "Deposit", r.fund, {
    amount: r.amount,
    company: r.company ?? "Alpha",
  });
}

/** A done deposit from the Fund sidebar: its record has no cells, and its movement is not in the ledger. */
const FORM_KEY = "form-write";
const FORM_RECORD: WriteRecord = {
  key: FORM_KEY,
  state: "done",
  source: "form",
  operation: "deposit",
  request: { operation: "deposit", fundId: 1, amount: 100 },
  fundId: 1,
  sentAt: Date.UTC(2026, 0, 1),
  finishedAt: Date.UTC(2026, 0, 1),
};

/** State, Result and the request cells: columns A:S, what a sort of the visible columns moves. */
const VISIBLE = OUTBOX_COLUMNS.length - HIDDEN_COLUMNS.length;

/** Each company's account as its oldest funds show it: what a mark is taken of and checked against. */
const ACCOUNT_FUNDS: Record<Company, MarkSource[]> = {
  Alpha: [{ id: 1, createdAt: "2020-01-01 10:00:00", idCreator: 1001 }],
  Beta: [{ id: 1, createdAt: "2021-06-01 09:00:00", idCreator: 2001 }],
};

function applyEdit(sheet: FakeSheet, edit: Edit, tokens: Record<Company, Company>): void {
  const count = sheet.rows.length - 1;
  if (edit.kind === "token") {
    tokens[edit.company] = edit.opens;
    return;
  }
  if (edit.kind === "add") {
    sheet.rows.push(FakeSheet.pad(rowOf(edit)));
    return;
  }
  if (edit.kind === "handDone") {
    sheet.rows.push(FakeSheet.pad(userRow(...rowArgs(edit), { amount: edit.amount, state: "Done" })));
    return;
  }
  if (edit.kind === "formKey") {
    sheet.rows.push(
      FakeSheet.pad(userRow(...rowArgs(edit), { amount: edit.amount, operationKey: FORM_KEY })),
    );
    return;
  }
  if (count === 0) return;
  if (edit.kind === "sortVisible") {
    const data = sheet.rows.slice(1);
    const visible = data
      .map((r) => r.slice(0, VISIBLE))
      .sort((a, b) => `${a[4]}|${a[3]}`.localeCompare(`${b[4]}|${b[3]}`));
    for (const [i, r] of data.entries()) r.splice(0, VISIBLE, ...(visible[i] ?? []));
    return;
  }
  const rowNumber = 2 + (edit.row % count);
  const source = sheet.rows[rowNumber - 1] ?? [];
  if (edit.kind === "swapCompany") {
    const other = 2 + (edit.other % count);
    const company = OUTBOX_COLUMNS.indexOf("company");
    const [a, b] = [sheet.rows[rowNumber - 1]?.[company] ?? "", sheet.rows[other - 1]?.[company] ?? ""];
    sheet.setCell(rowNumber, "company", b);
    sheet.setCell(other, "company", a);
  } else if (edit.kind === "clearCompany") sheet.setCell(rowNumber, "company", "");
  else if (edit.kind === "retypeCompany") sheet.setCell(rowNumber, "company", edit.typed);
  else if (edit.kind === "amount") sheet.setCell(rowNumber, "amount", edit.amount);
  else if (edit.kind === "clearState") sheet.setCell(rowNumber, "state", "");
  else if (edit.kind === "copyVisible")
    sheet.rows.push([...source.slice(0, VISIBLE), ...HIDDEN_COLUMNS.map(() => "")]);
  else sheet.rows.push([...source]);
}

function rowArgs(r: { fund: number; withdraw: boolean }): [string, number] {
  return [r.withdraw ? "Withdraw" : "Deposit", r.fund];
}

function cents(text: string): number {
  return Math.round(Number(text) * 100);
}

/** A row of the Outbox's first sheet, as the property draws it (Alpha's when no company is drawn). */
export type InitialRow = { fund: number; amount: string; withdraw: boolean; company?: Company };

/**
 * Runs the Outbox over `initial` rows through `steps` (faults, edits, time), then until it has
 * nothing left to do, and asserts that the ledger equals the Done rows.
 */
export function checkLedgerEqualsDoneRows(initial: InitialRow[], steps: Step[]): void {
  const ledgers: Record<Company, FakeLedger> = { Alpha: new FakeLedger(), Beta: new FakeLedger() };
  const clock = new FakeClock();
  for (const ledger of Object.values(ledgers)) {
    for (const id of FUNDS) ledger.addFund({ id, balance: 1_000_000, flexible: true });
    ledger.clock = clock;
  }
  const sheet = new FakeSheet(initial.map(rowOf));
  const records = memoryRecords();
  records.put(FORM_RECORD);
  const audit = new FakeAudit();
  const context = runContext(sheet, ledgers.Alpha, audit, clock, records);
  // This user's token for each company: which account it opens.
  const tokens: Record<Company, Company> = { Alpha: "Alpha", Beta: "Beta" };
  const marks: Record<Company, AccountMark | null> = {
    Alpha: markOf(ACCOUNT_FUNDS.Alpha, 0),
    Beta: markOf(ACCOUNT_FUNDS.Beta, 0),
  };
  context.directory = DIRECTORY;
  context.companies = (key: string): CompanyPort | UnusableCompanyPort => {
    const company = COMPANIES.find((c) => KEYS[c] === key);
    if (!company) return { unusable: `no company ${key}` };
    const opens = tokens[company];
    if (checkAccount(marks[company], ACCOUNT_FUNDS[opens]).kind === "other")
      return { unusable: `the token for ${company} opens another account` };
    return { service: ledgers[opens], audit, adminId: 1, adminIssue: null };
  };
  const run = haltingRun(context, sheet, ledgers.Alpha);
  ledgers.Beta.onHalt = ledgers.Alpha.onHalt;

  const landAll = () => {
    for (const ledger of Object.values(ledgers)) ledger.land();
  };
  for (const step of steps) {
    for (const ledger of Object.values(ledgers)) ledger.faults.push(...step.faults);
    for (const edit of step.edits) applyEdit(sheet, edit, tokens);
    clock.advance(step.waitMs);
    landAll();
    run();
  }
  // Then the network heals, every token is the right one again, and the Outbox is run until it
  // has nothing left to do.
  for (const ledger of Object.values(ledgers)) ledger.faults = [];
  tokens.Alpha = "Alpha";
  tokens.Beta = "Beta";
  for (let i = 0; i < 4; i += 1) {
    clock.advance(IN_FLIGHT_WINDOW_MS + 1);
    landAll();
    run();
  }
  landAll();

  const doneRows = sheet
    .readAll()
    .map((values, i) => readOutboxRow(values, i + 2))
    .filter((row) => row.state === "Done");
  const keys = doneRows.map((row) => row.operationKey);
  // Each Done row stands for its own write, once.
  expect(new Set(keys).size).toBe(keys.length);
  const companyOf = companyKeys(DIRECTORY);
  const moved: string[] = [];
  for (const row of doneRows) {
    const record = records.get(row.operationKey);
    expect(record?.state).toBe("done");
    // Only the Outbox's own writes stand behind a Done row: never a form's, by a forged key.
    expect(record?.source).toBe("outbox");
    const request = record?.request;
    if (!record || !request || !("amount" in request) || !("fundId" in request))
      throw new Error("no request");
    moved.push(`${recordCompany(record)}:${request.operation}:${request.fundId}:${request.amount}`);
    // A Done row shows the amount that moved, or says plainly that it was changed afterwards.
    if (cents(String(row.cells.amount)) !== request.amount) {
      expect(row.result).toMatch(/as first sent|afterwards \(.*\): nothing more was sent/);
    }
    // So does its Company cell: the company the write went to, or it says it was changed.
    if (companyOf(row) !== recordCompany(record)) {
      expect(row.result).toMatch(/Company was changed from .*(as first sent|afterwards)/);
    }
  }
  // Every movement is in the account of the company its write went to, never in the other's.
  const applied = COMPANIES.flatMap((company) =>
    ledgers[company].applied.map((r) =>
      "amount" in r && "fundId" in r
        ? `${KEYS[company]}:${r.operation}:${r.fundId}:${r.amount}`
        : `${KEYS[company]}:${r.operation}`,
    ),
  );
  expect(applied.sort()).toEqual(moved.sort());
  // Nothing is left unsettled, and no late request is still to land.
  expect(records.all().filter((r) => r.state === "sending" || r.state === "unknown")).toEqual([]);
  for (const ledger of Object.values(ledgers)) expect(ledger.inFlight).toEqual([]);
}
