/**
 * The marking's and the undo's batch records (`close.mark.…`) of the same voucher and report
 * are kept apart: a voucher marked, undone and marked again never overwrites a record still
 * held, so a report whose mark may still land is not sent again. Over a client that keeps its
 * reports in memory; each report integrated once per mark. And the reasons' words.
 */
import { describe, expect, it } from "vitest";
import { TransportError } from "../../src/api/errors";
import { type MarkClient, type MarkDeps, markVouchers } from "../../src/close/mark";
import type { CloseMark, MarkReason } from "../../src/close/types";
import { undoVoucher } from "../../src/close/undo";
import { markReasonText } from "../../src/close/words";
import { memoryRecords } from "../support/memory-records";

const CODE = "202605001";

interface Held {
  id: number;
  code: string | null;
  marks: number;
}

/** A client over `reports`: the writes of Ids in `lose` are applied or not (`applied`) and their answer lost. */
function memoryClient(reports: Map<number, Held>, lose: { ids: Set<number>; applied: boolean }) {
  const view = (r: Held) => ({
    id: r.id,
    reportNumber: `N${r.id}`,
    currency: "CLP",
    reportTotalApprovedCents: 100,
    integrationDate: r.code === null ? null : "2026-06-01 09:00:00",
    integrationExternalCode: r.code ?? "",
  });
  const client = {
    readMany: (endpoint: string, queries: Record<string, unknown>[]) => {
      if (endpoint === "getExpenseReports") {
        const code = queries[0]?.IntegrationCode;
        const found = [...reports.values()].filter((r) => r.code === code).map(view);
        return queries.map(() => ({ ok: true, value: { expenseReports: found, records: { pages: 1 } } }));
      }
      return queries.map((q) => ({ ok: true, value: view(reports.get(q.Id as number) as Held) }));
    },
    writeMany: (_endpoint: string, requests: Record<string, unknown>[]) =>
      requests.map((q) => {
        const r = reports.get(q.Id as number) as Held;
        const lost = lose.ids.has(r.id);
        if (!lost || lose.applied) {
          r.code = q.IntegrationStatus === 1 ? (q.IntegrationCode as string) : null;
          if (q.IntegrationStatus === 1) r.marks++;
        }
        return lost ? { ok: false, error: new TransportError("no answer") } : { ok: true, value: {} };
      }),
  };
  return client as unknown as MarkClient;
}

const mark = (id: number): CloseMark => ({
  company: "c0",
  reportId: id,
  reportNumber: `N${id}`,
  voucher: CODE,
  cents: 100,
  currency: "CLP",
  integrationDate: "2026-06-01 09:00:00",
});

describe("the records of a mark and of an undo of the same voucher", () => {
  it("are kept apart: mark (one answer lost), undo, mark again; the lost mark is held, never sent twice, then settled", () => {
    const reports = new Map([1, 2].map((id) => [id, { id, code: null, marks: 0 } as Held]));
    const lose = { ids: new Set([2]), applied: false };
    const records = memoryRecords();
    let now = Date.parse("2026-06-15T12:00:00Z");
    const deps = (): MarkDeps => ({
      clientOf: () => memoryClient(reports, lose),
      records,
      clock: { now: () => now },
      windowMs: 180_000,
    });

    // Report 2's mark got no answer (and did not land): its record is kept, under report 1's batch.
    const first = markVouchers([mark(1), mark(2)], deps());
    expect(first.outcomes.map((o) => o.kind)).toEqual(["done", "unknown"]);
    expect([...records.map.keys()]).toEqual([expect.stringMatching(/^close\.mark\.c0\.mark\.1\./)]);
    lose.ids.clear();

    // The voucher undone in the same second: its record has a key of its own.
    now += 1;
    const undone = undoVoucher("c0", CODE, {
      ...deps(),
      window: { since: "2025-06-16", until: "2026-06-15" },
      confirm: () => true,
    });
    expect(undone.outcomes.map((o) => [o.reportId, o.kind])).toEqual([[1, "done"]]);
    // The mark record of report 2 is still there: the undo's own was dropped once settled.
    expect([...records.map.values()].map((r) => [r.mode ?? "mark", r.marks.map((m) => m.reportId)])).toEqual([
      ["mark", [2]],
    ]);

    // Marked again while report 2's first mark may still land: 1 is marked, 2 is held, not sent.
    now += 1;
    const again = markVouchers([mark(1), mark(2)], deps());
    expect(again.outcomes.map((o) => [o.reportId, o.kind])).toEqual([
      [1, "done"],
      [2, "unknown"],
    ]);
    expect(again.outcomes[1]).toMatchObject({ reason: { code: "mayStillLand" } });
    expect(reports.get(2)?.marks).toBe(0);

    // Past the window: report 2 is sent once, and every record is settled.
    now += 180_000;
    const last = markVouchers([mark(1), mark(2)], deps());
    expect(last.outcomes.map((o) => o.kind)).toEqual(["done", "done"]);
    expect([reports.get(1)?.marks, reports.get(2)?.marks]).toEqual([2, 1]);
    expect(records.map.size).toBe(0);
  });
});

describe("the marking's reasons in words", () => {
  const reasons: MarkReason[] = [
    { code: "fourEyes", who: "ana@example.com" },
    { code: "twoVouchers", report: "N1", vouchers: ["A", "B"] },
    { code: "mayStillLand", sentAt: "2026-06-15T12:00:00.000Z", until: "2026-06-15T12:03:00.000Z" },
    { code: "sentNotRead", message: "" },
    { code: "notRead", message: "HTTP 503" },
    {
      code: "otherReport",
      reportId: 7,
      number: "N8",
      currency: "USD",
      expectedNumber: "N7",
      expectedCurrency: "CLP",
    },
    { code: "notShownYet" },
    { code: "notReadBack", first: { code: "notShownYet" }, message: "HTTP 503" },
  ];

  it("says each reason in English and in Spanish, with its values", () => {
    const en = reasons.map((r) => markReasonText(r, "en"));
    const es = reasons.map((r) => markReasonText(r, "es"));
    expect(en[0]).toBe("four eyes: ana@example.com approved the journal, so another person marks it");
    expect(es[0]).toBe("cuatro ojos: ana@example.com aprobó el asiento, así que otra persona lo marca");
    expect(es[3]).toBe("se envió una llamada y la rendición no se pudo leer: sin respuesta");
    expect(es[5]).toBe("la rendición 7 se lee como el número N8 en USD, no el N7 en CLP del asiento");
    expect(es[7]).toBe(
      "el servicio respondió, pero una lectura aún no lo muestra; no se pudo volver a leer: HTTP 503",
    );
    for (const [i, text] of es.entries()) {
      expect(text).not.toBe(en[i]);
      expect(text).not.toMatch(/\{\w+\}/);
    }
  });
});
