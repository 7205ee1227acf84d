/**
 * Undoing a voucher, four eyes as the document's setting, and the marking's reasons in the
 * user's language, walked by the BUILT add-on in the emulation against the sandbox through the
 * server functions the sidebar calls.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sheetOf } from "../refresh/emulation";
import { type CloseEmulation, startClose } from "../support/close-emulation";

const ANA = "ana@example.com";
const BEN = "ben@example.com";
let c: CloseEmulation;

beforeAll(async () => {
  c = await startClose([ANA, BEN]);
}, 120_000);
afterAll(async () => {
  await c?.close();
});
beforeEach(async () => {
  await c.fresh();
});

interface Found {
  ok: boolean;
  message: string;
  reports: string[];
  totals: string[];
  count: number;
  ids: number[];
}
type Done = { ok: boolean; message: string; more: boolean };

const markRecords = () =>
  [...c.em.documentPropertiesData.values.keys()].filter((k) => k.startsWith("close.mark."));

/** The State cell of each Journal line of `code`. */
function states(code: string): string[] {
  const j = c.journalSheet();
  return j.rows.filter((r) => String(r[j.h("Voucher")]) === code).map((r) => String(r[j.h("State")]));
}

describe("undoing a voucher from the server functions", () => {
  it("finds a marked voucher's reports, refuses a list that changed, undoes the confirmed one; the other voucher untouched, the Journal says so; marked again after a new approval", async () => {
    const { vouchers } = await c.journal();
    expect(vouchers.size).toBeGreaterThan(1);
    const [[code, ids], [other, otherIds]] = [...vouchers] as [[string, number[]], [string, number[]]];
    c.run("closeApproveJournal");
    expect(c.run<Done>("closeMarkVouchers").ok).toBe(true);
    expect(states(code).every((s) => s.startsWith("Marked "))).toBe(true);

    // Find: the voucher's reports listed with their totals; nothing sent.
    const calls = async () => (await c.reports()).reduce((n, r) => n + (r.integrationCalls ?? 0), 0);
    const marked = await calls();
    const found = c.run<Found>("closeFindVoucher", [{ company: "c0", code }]);
    expect(found).toMatchObject({ ok: true, count: ids.length });
    expect([...found.ids].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(found.reports).toHaveLength(ids.length);
    expect(found.totals.join(" ")).toMatch(new RegExp(`: ${ids.length} reports?, `));
    expect(found.message).toContain(`Voucher ${code}`);
    expect(await calls()).toBe(marked);

    // The list confirmed lacks one report the service now lists: refused, naming it; nothing sent.
    const short = found.ids.slice(1);
    const refused = c.run<Done>("closeUndoVoucher", [{ company: "c0", code, ids: short }]);
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/changed since you confirmed them \(now also .+\): nothing was undone/);
    expect(await calls()).toBe(marked);

    // The list confirmed: each report set not integrated once.
    const undone = c.run<Done>("closeUndoVoucher", [{ company: "c0", code, ids: found.ids }]);
    expect(undone).toMatchObject({ ok: true, more: false });
    expect(undone.message.split("\n")[0]).toBe(
      `${ids.length} of ${ids.length} ${ids.length === 1 ? "report" : "reports"} set not integrated.`,
    );
    const after = new Map((await c.reports()).map((r) => [r.id, r]));
    for (const id of ids) expect(after.get(id)).toMatchObject({ integrated: false, integrationCalls: 2 });
    for (const id of otherIds)
      expect(after.get(id)).toMatchObject({
        integrated: true,
        integrationExternalCode: other,
        integrationCalls: 1,
      });
    expect(
      states(code).every((s) => /^Undone \d{4}-\d\d-\d\d \d\d:\d\d:\d\d by ana@example\.com$/.test(s)),
    ).toBe(true);
    expect(states(other).every((s) => s.startsWith("Marked "))).toBe(true);
    expect(markRecords()).toEqual([]);
    const used = JSON.parse(c.em.documentPropertiesData.values.get("close.usedCodes") ?? "{}");
    expect(used.c0).toContain(other);
    expect(used.c0).not.toContain(code);
    // Every call in the Audit sheet: the undo's writes too.
    const audit = (sheetOf(c.em, "Audit")?.values ?? []).map((r) => r.join(" "));
    expect(audit.filter((r) => r.includes("setExpenseReportIntegration"))).toHaveLength(
      [...vouchers.values()].flat().length + ids.length,
    );

    // Undone again: nothing is found, nothing sent.
    expect(c.run<Found>("closeFindVoucher", [{ company: "c0", code }])).toMatchObject({
      ok: false,
      count: 0,
    });
    expect(c.run<Done>("closeUndoVoucher", [{ company: "c0", code, ids: found.ids }]).ok).toBe(false);
    expect((await c.reports()).filter((r) => ids.includes(r.id)).map((r) => r.integrationCalls)).toEqual(
      ids.map(() => 2),
    );

    // The approval covered the voucher: void. Approved again, the voucher is marked again, once.
    expect(c.run<{ ok: boolean; message: string }>("closeCheckMarking").message).toBe(
      "The journal is not approved.",
    );
    c.run("closeApproveJournal");
    expect(c.run<Done>("closeMarkVouchers").ok).toBe(true);
    const again = new Map((await c.reports()).map((r) => [r.id, r]));
    for (const id of ids)
      expect(again.get(id)).toMatchObject({
        integrated: true,
        integrationExternalCode: code,
        integrationCalls: 3,
      });
    for (const id of otherIds) expect(again.get(id)?.integrationCalls).toBe(1);
    expect(states(code).every((s) => s.startsWith("Marked "))).toBe(true);
    expect(markRecords()).toEqual([]);
  }, 240_000);
});

describe("four eyes, a setting of the document", () => {
  it("refuses the approver the marking whatever a build sends; turning it off voids the approval and is audited", async () => {
    await c.journal();
    const set = c.run<{ fourEyes: boolean; message: string }>("closeSetFourEyes", [{ on: true }], ANA);
    expect(set.fourEyes).toBe(true);
    expect(set.message).toMatch(
      /^Four eyes is on for this spreadsheet\. Last changed by ana@example\.com at /,
    );

    // A crafted build says four eyes is off: the setting stays, the approver may not mark.
    const month = JSON.parse(c.em.documentPropertiesData.values.get("close.journal") ?? "{}").month;
    c.run("closeBuildJournal", [
      { company: "c0", month, currency: null, pattern: "{yyyy}{mm}{nnn}", fourEyes: false },
    ]);
    expect(c.run<{ fourEyes: boolean }>("getCloseView").fourEyes).toBe(true);
    c.run("closeApproveJournal", [], ANA);
    const before = JSON.stringify(await c.reports());
    const marking = c.run<Done>("closeMarkVouchers", [], ANA);
    expect(marking).toMatchObject({
      ok: false,
      message: "Four eyes: ana@example.com approved this journal, so someone else marks its reports.",
    });
    expect(JSON.stringify(await c.reports())).toBe(before);

    // Turned off by another: the approval is void, so nobody marks until it is approved again.
    const off = c.run<{ fourEyes: boolean; approval: string }>("closeSetFourEyes", [{ on: false }], BEN);
    expect(off).toMatchObject({
      fourEyes: false,
      approval: expect.stringMatching(/voided the journal's approval/),
    });
    expect(c.run<Done>("closeMarkVouchers", [], ANA)).toMatchObject({
      ok: false,
      message: "The journal is not approved.",
    });
    expect(c.run<{ fourEyesNote: string }>("getCloseView").fourEyesNote).toMatch(
      /off .* Last changed by ben@example\.com/,
    );
    const audit = (sheetOf(c.em, "Audit")?.values ?? []).map((r) => r.join(" "));
    expect(
      audit.filter((r) => r.includes("Four eyes turned on (month-end close)") && r.includes(ANA)),
    ).toHaveLength(1);
    expect(
      audit.filter(
        (r) =>
          r.includes("Four eyes turned off (month-end close)") && r.includes(BEN) && r.includes("voided"),
      ),
    ).toHaveLength(1);
    expect(JSON.stringify(await c.reports())).toBe(before);
  }, 240_000);
});

describe("the marking's reasons in the document's language", () => {
  it("names a report whose read is not the journal's in Spanish", async () => {
    await c.journal();
    const j = c.journalSheet();
    const col = String.fromCharCode(65 + j.h("Report number"));
    const id = Number(j.rows[0]?.[j.h("Report Id")]);
    // Both lines of the report (debit and credit) carry the number typed over.
    const rows = j.rows.flatMap((r, i) => (Number(r[j.h("Report Id")]) === id ? [i + 2] : []));
    for (const row of rows) c.em.typeCells("Journal", `${col}${row}`, [["X-1"]]);
    c.em.documentPropertiesData.values.set(
      "settings.form",
      JSON.stringify({ baseUrl: c.sandbox.url, language: "es" }),
    );
    c.run("closeApproveJournal");
    const marking = c.run<Done>("closeMarkVouchers");
    expect(marking.ok).toBe(false);
    expect(marking.message).toMatch(
      new RegExp(
        `La rendición X-1 \\(comprobante \\d+\\) no se marcó: la rendición ${id} se lee como el número \\S+ en [A-Z]{3}, no el X-1 en [A-Z]{3} del asiento`,
      ),
    );
  }, 240_000);
});
