/**
 * What needs attention before closing a month, as data: reports of the month still open, funds
 * past their ExpirationDate that still hold a balance, reports of the month already integrated
 * under a code of their own. Each names its record, so the sidebar can link its row.
 */
import type { ExpenseReport, Fund } from "../api/types";
import type { CompanyKey } from "../company/model";

export type AttentionItem =
  | { kind: "openReport"; company: CompanyKey; id: number; reportNumber: string; employeeName: string }
  | {
      kind: "expiredFund";
      company: CompanyKey;
      id: number;
      title: string;
      expirationDate: string;
      balanceCents: number;
      currency: string;
    }
  | { kind: "integrated"; company: CompanyKey; id: number; reportNumber: string; code: string };

/** The code a listed report was integrated with. */
export function integrationCodeOf(report: ExpenseReport): string {
  return report.integrationExternalCode || report.integrationInternalCode;
}

/** The items of one company, in the order the sidebar shows them. */
export function attentionItems(
  company: CompanyKey,
  read: { open: readonly ExpenseReport[]; integrated: readonly ExpenseReport[]; funds: readonly Fund[] },
  today: string,
  currency: string | null,
): AttentionItem[] {
  const items: AttentionItem[] = [];
  for (const r of read.open) {
    if (r.status === 1) continue;
    items.push({
      kind: "openReport",
      company,
      id: r.id,
      reportNumber: r.reportNumber,
      employeeName: r.employeeName,
    });
  }
  for (const f of read.funds) {
    if (currency !== null && f.currency !== currency) continue;
    if (f.expirationDate === null || f.expirationDate >= today || f.balanceCents === 0) continue;
    if (f.status === 2) continue;
    items.push({
      kind: "expiredFund",
      company,
      id: f.id,
      title: f.title,
      expirationDate: f.expirationDate,
      balanceCents: f.balanceCents,
      currency: f.currency,
    });
  }
  for (const r of read.integrated) {
    items.push({
      kind: "integrated",
      company,
      id: r.id,
      reportNumber: r.reportNumber,
      code: integrationCodeOf(r),
    });
  }
  return items;
}
