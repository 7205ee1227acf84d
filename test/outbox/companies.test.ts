/**
 * The Outbox with several companies (pure): each row's Company cell resolved to a key, or
 * refused with its row, cell and value; a write sent through its company's port only, recorded
 * with the key; holds and settlement per (company, fund), so equal ids of two companies never
 * hold or settle each other; the confirmation keyed by company; the preview grouped per company.
 */
import { describe, expect, it } from "vitest";
import { say } from "../../src/i18n/words";
import { type CompanyDirectory, companyOfRow } from "../../src/outbox/companies";
import { type CompanyRefused, companyRefusedText } from "../../src/outbox/companies/words";
import { previewOutbox } from "../../src/outbox/preview";
import { invalidRows, previewText } from "../../src/outbox/preview/words";
import {
  blocks,
  IN_FLIGHT_WINDOW_MS,
  parseRecord,
  recordCompany,
  type WriteRecord,
} from "../../src/outbox/records";
import { readOutboxRow, requestCells } from "../../src/outbox/rows";
import {
  type CompanyPort,
  confirmationKey,
  confirmedAs,
  type RunContext,
  runOutbox,
  type UnusableCompanyPort,
} from "../../src/outbox/run";
import {
  FakeAudit,
  FakeClock,
  FakeLedger,
  FakeSheet,
  formatUtc,
  memoryRecords,
  runContext,
  userRow,
} from "./fakes";

const ALPHA_BETA: CompanyDirectory = {
  entries: [
    { key: "c0", name: "Alpha", formerNames: ["Alfa"] },
    { key: "cbeta0001", name: "Beta", formerNames: [] },
    { key: "cgone0001", name: "Gamma", formerNames: ["Old Gamma"], removed: true },
  ],
};
const row = (company: string, rowNumber = 5) =>
  readOutboxRow(userRow("Deposit", 5001, { amount: "1.00", company }), rowNumber);

describe("companyOfRow", () => {
  it("an empty cell is the only company's (named or not); with several it is refused, naming the row, cell and choices", () => {
    const one = { entries: [{ key: "c0", name: "", formerNames: [] }] };
    expect(companyOfRow(row(""), one)).toEqual({ ok: true, key: "c0", name: "" });
    const named = { entries: [{ key: "c0", name: "Alpha", formerNames: [] }] };
    expect(companyOfRow(row(""), named)).toMatchObject({ ok: true, key: "c0" });
    const refused: CompanyRefused = { reason: "empty", cell: "C5", value: "", names: ["Alpha", "Beta"] };
    expect(companyOfRow(row(""), ALPHA_BETA)).toEqual({ ok: false, refused });
    // Said by the words: the same cell and choices.
    expect(companyRefusedText("en", refused)).toBe(
      "The Company cell C5 is empty and this document has had several companies: an empty cell names none of them. Pick one of Alpha, Beta.",
    );
  });

  it("once the document has had several companies, an empty cell is refused even with one left", () => {
    // The first company removed, Beta left: a row of the one-company days meant the first.
    const betaLeft: CompanyDirectory = {
      several: true,
      entries: [
        { key: "c0", name: "Alpha", formerNames: [], removed: true },
        { key: "cbeta0001", name: "Beta", formerNames: [] },
      ],
    };
    expect(companyOfRow(row(""), betaLeft)).toMatchObject({ ok: false, refused: { reason: "empty" } });
    // Alpha left after Beta's removal: the same.
    const alphaLeft: CompanyDirectory = {
      several: true,
      entries: [
        { key: "c0", name: "Alpha", formerNames: [] },
        { key: "cbeta0001", name: "Beta", formerNames: [], removed: true },
      ],
    };
    expect(companyOfRow(row(""), alphaLeft)).toMatchObject({ ok: false, refused: { reason: "empty" } });
    // A named cell still names its company.
    expect(companyOfRow(row("Beta"), betaLeft)).toMatchObject({ ok: true, key: "cbeta0001" });
  });

  it("a current name (trimmed, any case) is its key; a former name too, with a note", () => {
    expect(companyOfRow(row("  beta "), ALPHA_BETA)).toEqual({ ok: true, key: "cbeta0001", name: "Beta" });
    const former = companyOfRow(row("ALFA"), ALPHA_BETA);
    expect(former).toEqual({
      ok: true,
      key: "c0",
      name: "Alpha",
      note: { key: "outbox.company.former", params: { value: "ALFA", name: "Alpha" } },
    });
    expect(former.ok && former.note && say("es", former.note)).toBe('"ALFA" ahora se llama Alpha.');
  });

  it("a removed company's name, or a name of no company, is refused with the cell's value", () => {
    const removed: CompanyRefused = {
      reason: "removed",
      cell: "C7",
      value: "Old Gamma",
      names: ["Alpha", "Beta"],
    };
    expect(companyOfRow(row("Old Gamma", 7), ALPHA_BETA)).toEqual({ ok: false, refused: removed });
    expect(companyRefusedText("en", removed)).toBe(
      'The Company cell C7 holds "Old Gamma", a company removed from this document: nothing is sent to it.',
    );
    const unknown: CompanyRefused = {
      reason: "unknown",
      cell: "C5",
      value: "Delta",
      names: ["Alpha", "Beta"],
    };
    expect(companyOfRow(row("Delta"), ALPHA_BETA)).toEqual({ ok: false, refused: unknown });
    expect(companyRefusedText("en", unknown)).toBe(
      'The Company cell C5 holds "Delta", which is not a company of this document: pick one of Alpha, Beta.',
    );
    // With one company, a name that is not its own is refused too: never taken for it.
    const one = { entries: [{ key: "c0", name: "", formerNames: [] }] };
    expect(companyOfRow(row("Beta"), one).ok).toBe(false);
  });
});

describe("confirmation keys", () => {
  it("the first company's are as they always were; another company's differ", () => {
    const r = row("Beta");
    expect(confirmationKey(r)).toBe(JSON.stringify(requestCells(r)));
    expect(confirmedAs(r, "new")).toBe(JSON.stringify(["new", requestCells(r)]));
    expect(confirmationKey(r, "cbeta0001")).not.toBe(confirmationKey(r));
    expect(confirmedAs(r, "new", "cbeta0001")).not.toBe(confirmedAs(r, "new"));
  });
});

describe("records per company", () => {
  const unsettled = (company?: string): WriteRecord => ({
    key: "k",
    state: "unknown",
    source: "outbox",
    operation: "deposit",
    request: { operation: "deposit", fundId: 5001, amount: 100, adminId: 1 } as never,
    fundId: 5001,
    ...(company ? { company } : {}),
  });
  const deposit = { operation: "deposit", fundId: 5001, amount: 200 } as never;

  it("an old record without company is the first company's; a hold is per (company, fund)", () => {
    expect(recordCompany(unsettled())).toBe("c0");
    expect(blocks(unsettled(), deposit)).toBe(true);
    expect(blocks(unsettled(), deposit, "cbeta0001")).toBe(false);
    expect(blocks(unsettled("cbeta0001"), deposit)).toBe(false);
    expect(blocks(unsettled("cbeta0001"), deposit, "cbeta0001")).toBe(true);
  });

  it("a damaged company names no company (its write waits), never the first", () => {
    const text = JSON.stringify({ ...unsettled(), company: 7 });
    expect(parseRecord(text)?.company).toBe("?");
    expect(recordCompany(parseRecord(text) as WriteRecord)).toBe("?");
  });
});

/** Two companies with overlapping fund ids, each a ledger and audit of its own. */
function twoCompanies(rows: ReturnType<typeof userRow>[], options: { betaUsable?: boolean } = {}) {
  const alpha = new FakeLedger();
  const beta = new FakeLedger();
  const clock = new FakeClock();
  for (const ledger of [alpha, beta]) {
    ledger.addFund({ id: 5001, balance: 100_000, flexible: true });
    ledger.clock = clock;
  }
  const audits = { c0: new FakeAudit(), cbeta0001: new FakeAudit() };
  const sheet = new FakeSheet(rows);
  const records = memoryRecords();
  const base = runContext(sheet, alpha, audits.c0, clock, records);
  const asked: string[] = [];
  const ports = (key: string): CompanyPort | UnusableCompanyPort => {
    asked.push(key);
    if (key === "c0") return { service: alpha, audit: audits.c0, adminId: 1 };
    if (key === "cbeta0001" && options.betaUsable !== false)
      return { service: beta, audit: audits.cbeta0001, adminId: 1001 };
    return { unusable: `No access token is saved for you for ${key}.` };
  };
  const context: RunContext = { ...base, directory: ALPHA_BETA, companies: ports };
  return { alpha, beta, clock, audits, sheet, records, context, asked };
}

describe("a run with two companies", () => {
  it("sends each row through its company's port only, and records the company", () => {
    const t = twoCompanies([
      userRow("Deposit", 5001, { amount: "2.00", company: "Beta" }),
      userRow("Deposit", 5001, { amount: "3.00", company: "Alpha" }),
    ]);
    const summary = runOutbox(t.context);
    expect(summary.done).toBe(2);
    expect(t.beta.applied).toEqual([
      expect.objectContaining({ operation: "deposit", fundId: 5001, amount: 200 }),
    ]);
    expect(t.alpha.applied).toEqual([
      expect.objectContaining({ operation: "deposit", fundId: 5001, amount: 300 }),
    ]);
    const stored = t.records.all();
    expect(stored.find((r) => r.row === 2)?.company).toBe("cbeta0001");
    // The first company's records stay as they were: no company written.
    expect(stored.find((r) => r.row === 3)).not.toHaveProperty("company");
    expect(t.audits.cbeta0001.entries.map((e) => e.kind)).toEqual(["before", "after"]);
    expect(t.audits.c0.entries.map((e) => e.kind)).toEqual(["before", "after"]);
  });

  it("an empty Company cell with two companies is refused, and nothing is asked of any port", () => {
    const t = twoCompanies([userRow("Deposit", 5001, { amount: "2.00" })]);
    const summary = runOutbox(t.context);
    expect(summary.refused).toBe(1);
    expect(t.sheet.cell(2, "state")).toBe("Refused");
    expect(String(t.sheet.cell(2, "result"))).toContain("The Company cell C2 is empty");
    expect(t.alpha.sent).toEqual([]);
    expect(t.beta.sent).toEqual([]);
    expect(t.asked).toEqual([]);
  });

  it("a pending row of the one-company days, its Company cell empty, is not sent to Beta once the first company is removed", () => {
    const t = twoCompanies([userRow("Deposit", 5001, { amount: "2.00" })]);
    t.context.directory = {
      several: true,
      entries: ALPHA_BETA.entries.map((e) => (e.key === "c0" ? { ...e, removed: true } : e)),
    };
    const summary = runOutbox(t.context);
    expect(summary.refused).toBe(1);
    expect(String(t.sheet.cell(2, "result"))).toContain("The Company cell C2 is empty");
    expect(t.beta.sent).toEqual([]);
    expect(t.alpha.sent).toEqual([]);
  });

  it("a company this user has no token for leaves its row Pending with why, sending nothing anywhere", () => {
    const t = twoCompanies([userRow("Deposit", 5001, { amount: "2.00", company: "Beta" })], {
      betaUsable: false,
    });
    const summary = runOutbox(t.context);
    expect(summary.skipped).toBe(1);
    expect(t.sheet.cell(2, "state")).toBe("Pending");
    expect(t.sheet.cell(2, "result")).toBe("Not sent yet: No access token is saved for you for cbeta0001.");
    expect(t.alpha.sent).toEqual([]);
    expect(t.beta.sent).toEqual([]);
    expect(t.records.all()).toEqual([]);
  });

  it("an unknown write on Beta's 5001 holds Beta's 5001 only, and is settled through Beta alone", () => {
    const t = twoCompanies([userRow("Deposit", 5001, { amount: "2.00", company: "Beta" })]);
    t.beta.faults.push({ endpoint: "deposit", when: "after" });
    runOutbox(t.context);
    expect(t.sheet.cell(2, "state")).toBe("Unknown");
    expect(t.records.all()[0]?.company).toBe("cbeta0001");
    // Equal ids in the other company are another fund: Alpha's 5001 is not held.
    t.sheet.rows.push(FakeSheet.pad(userRow("Deposit", 5001, { amount: "4.00", company: "Alpha" })));
    t.sheet.rows.push(FakeSheet.pad(userRow("Deposit", 5001, { amount: "5.00", company: "Beta" })));
    runOutbox(t.context);
    expect(t.alpha.applied.map((r) => (r as { amount: number }).amount)).toEqual([400]);
    expect(t.sheet.cell(3, "state")).toBe("Done");
    expect(t.sheet.cell(4, "state")).toBe("Pending");
    // Past the window, the unknown write is settled by reading Beta's ledger (it was applied there).
    t.clock.advance(IN_FLIGHT_WINDOW_MS + 1);
    const alphaReads = t.alpha.reads;
    runOutbox(t.context);
    expect(t.sheet.cell(2, "state")).toBe("Done");
    expect(t.alpha.reads).toBe(alphaReads);
    expect(t.beta.applied.map((r) => (r as { amount: number }).amount)).toEqual([200, 500]);
  });

  it("an unknown write of a company this user can no longer reach waits; no other port settles it", () => {
    const t = twoCompanies([userRow("Deposit", 5001, { amount: "2.00", company: "Beta" })]);
    t.beta.faults.push({ endpoint: "deposit", when: "after" });
    runOutbox(t.context);
    t.clock.advance(IN_FLIGHT_WINDOW_MS + 1);
    const alphaReads = t.alpha.reads;
    runOutbox({
      ...t.context,
      companies: (key) =>
        key === "c0" ? { service: t.alpha, audit: t.audits.c0, adminId: 1 } : { unusable: "Beta: no token." },
    });
    expect(t.sheet.cell(2, "state")).toBe("Unknown");
    expect(t.sheet.cell(2, "result")).toBe("Not checked yet: Beta: no token.");
    expect(t.alpha.reads).toBe(alphaReads);
    expect(t.alpha.sent).toEqual([]);
  });

  it("a confirmation is for the company the row named then: renamed or swapped since, nothing is sent", () => {
    const t = twoCompanies([userRow("Deposit", 5001, { amount: "2.00", company: "Beta" })]);
    const rows = t.sheet.readAll().map((values, i) => readOutboxRow(values, i + 2));
    const preview = previewOutbox(
      rows,
      () => ({ currency: "CLP", balance: 0, flexible: true, status: 1 }),
      { format: formatUtc, now: t.clock.now(), adminId: 1 },
      [],
      ALPHA_BETA,
    );
    // The names swapped between the question and the run (as if written straight into the list).
    const swapped: CompanyDirectory = {
      entries: [
        { key: "c0", name: "Beta", formerNames: [] },
        { key: "cbeta0001", name: "Alpha", formerNames: [] },
      ],
    };
    const confirmed = {
      confirmed: preview.confirmed,
      currencies: preview.currencies,
      statuses: preview.statuses,
    };
    runOutbox({ ...t.context, directory: swapped, ...confirmed });
    expect(t.sheet.cell(2, "state")).toBe("Pending");
    expect(t.alpha.sent).toEqual([]);
    expect(t.beta.sent).toEqual([]);
    // As confirmed, it goes to Beta.
    runOutbox({ ...t.context, ...confirmed });
    expect(t.beta.applied).toHaveLength(1);
    expect(t.alpha.sent).toEqual([]);
  });
});

describe("the preview with two companies", () => {
  it("groups the writes and totals per company and currency, with a total per currency, and refuses an empty Company", () => {
    const rows = [
      userRow("Deposit", 5001, { amount: "2.00", company: "Beta" }),
      userRow("Deposit", 5001, { amount: "3.00", company: "Alpha" }),
      userRow("Deposit", 5001, { amount: "4.00", company: "Beta" }),
      userRow("Deposit", 5001, { amount: "5.00" }),
    ].map((values, i) => readOutboxRow(FakeSheet.pad(values), i + 2));
    const facts = (id: number, company: string) =>
      id === 5001
        ? { currency: company === "c0" ? "CLP" : "USD", balance: 0, flexible: true, status: 1 }
        : null;
    const preview = previewOutbox(
      rows,
      facts,
      { format: formatUtc, now: new Date(0), adminId: 1 },
      [],
      ALPHA_BETA,
    );
    expect(preview.totals).toEqual([
      { company: "Beta", operation: "deposit", currency: "USD", amount: 600, count: 2 },
      { company: "Alpha", operation: "deposit", currency: "CLP", amount: 300, count: 1 },
    ]);
    // Equal fund ids in two companies are no duplicate of each other; in one company they are.
    expect(preview.warnings).toEqual([{ kind: "duplicate", rowNumber: 4, otherRow: 2 }]);
    expect(invalidRows("en", preview)).toEqual([
      {
        rowNumber: 5,
        problems: [
          {
            field: "Company",
            message:
              "The Company cell C5 is empty and this document has had several companies: an empty cell names none of them. Pick one of Alpha, Beta.",
          },
        ],
      },
    ]);
    const text = previewText("en", preview);
    expect(preview.confirmed).toHaveLength(3);
    const beta = text.indexOf("\nBeta:");
    const alpha = text.indexOf("\nAlpha:");
    expect(beta).toBeGreaterThan(0);
    expect(alpha).toBeGreaterThan(beta);
    expect(text).toContain("All companies, per currency:");
    // A refused row is named once: "Row 5: The Company cell C5…", never "Row 5: Row 5: …".
    expect(text).toContain("Row 5: The Company cell C5 is empty");
    expect(text).not.toMatch(/Row \d+: Row \d+:/);
    expect(previewText("es", preview)).not.toMatch(/Fila \d+: Fila \d+:/);
  });

  it("a row of a company this user cannot write to is a warning, not a write to confirm; each company's IdAdmin checks its rows", () => {
    const rows = [
      userRow("Deposit", 5001, { amount: "2.00", company: "Beta" }),
      userRow("Deposit", 5001, { amount: "3.00", company: "Alpha" }),
    ].map((values, i) => readOutboxRow(FakeSheet.pad(values), i + 2));
    const preview = previewOutbox(
      rows,
      () => ({ currency: "CLP", balance: 0, flexible: true, status: 1 }),
      { format: formatUtc, now: new Date(0), adminId: 1 },
      [],
      ALPHA_BETA,
      (company) =>
        company === "c0" ? { adminId: null, adminIssue: null } : { unusable: "No token for Beta." },
    );
    expect(preview.warnings).toEqual([
      { kind: "companyUnusable", rowNumber: 2, message: "No token for Beta." },
    ]);
    expect(previewText("en", preview)).toContain("Row 2: Not sent yet: No token for Beta.");
    // Alpha's rows are checked with Alpha's IdAdmin (none here), not another company's.
    expect(preview.invalid.map((i) => i.rowNumber)).toEqual([3]);
    expect(preview.toSend).toEqual([]);
    expect(preview.confirmed).toEqual([]);
  });
});
