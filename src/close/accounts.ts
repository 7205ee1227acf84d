/**
 * The Accounts mapping a controller fills once per company: expense policy → expense account,
 * fund → fund account, a report without a fund → the employee payable account, and optionally
 * a report's extra field (by its Code) whose value is the cost centre. A report whose account
 * cannot be found is blocked with the reason, never booked to a default.
 */
import type { ExpenseReport } from "../api/types";
import type { CompanyKey } from "../company/model";

/** What a row of the Accounts sheet maps. */
export type AccountKind = "policy" | "fund" | "employee" | "costCentre";
export const ACCOUNT_KINDS: readonly AccountKind[] = ["policy", "fund", "employee", "costCentre"];

/** One row of the Accounts sheet, its company resolved. */
export interface AccountRow {
  company: CompanyKey;
  kind: AccountKind;
  /** The policy's or fund's Id, the extra field's Code; "" for the employee payable account. */
  key: string;
  /** The account (for costCentre: unused, the field's value is the cost centre). */
  account: string;
  /** The sheet's row, for messages. */
  row: number;
}

/** Why a report cannot be booked, as data (words at the edge). */
export type BlockReason =
  | { code: "noPolicyAccount"; policyId: number; policyName: string }
  | { code: "noFundAccount"; fundId: number; fundName: string }
  | { code: "noEmployeeAccount"; employeeIdentification: string }
  | { code: "noCostCentre"; fieldCode: string }
  | { code: "twoAccounts"; kind: AccountKind; key: string; rows: number[] }
  | { code: "nothingApproved"; cents: number }
  | { code: "noCurrency" };

/** Where a report's lines go. */
export interface ReportAccounts {
  debit: string;
  credit: string;
  /** "fund": credited to its fund's account; "employee": to the employee payable account. */
  creditTo: "fund" | "employee";
  costCentre: string;
}

export type AccountLookup = { ok: true; accounts: ReportAccounts } | { ok: false; reason: BlockReason };

/** A company's mapping, looked up by kind and key. */
export interface AccountsMap {
  lookup(report: ExpenseReport): AccountLookup;
  /**
   * Every account `report` needs that the mapping has no row with an account for: its policy's,
   * and its fund's or the employee payable (none for a report never booked: nothing approved, no
   * currency); so that one build lists them all, not one a build.
   */
  lacking(report: ExpenseReport): BlockReason[];
}

/** The mapping of `company` from the sheet's rows (other companies' rows ignored). */
export function accountsOf(rows: readonly AccountRow[], company: CompanyKey): AccountsMap {
  const byKey = new Map<string, AccountRow[]>();
  for (const row of rows) {
    if (row.company !== company) continue;
    // One employee payable account a company: whatever its Id cell holds.
    const id = `${row.kind}|${row.kind === "employee" ? "" : row.key.trim()}`;
    byKey.set(id, [...(byKey.get(id) ?? []), row]);
  }
  /** The one account of kind and key; rows that agree count once, rows that differ block. */
  const find = (kind: AccountKind, key: string): { account: string } | BlockReason | null => {
    const found = (byKey.get(`${kind}|${key}`) ?? []).filter(
      (r) => r.account.trim() !== "" || kind === "costCentre",
    );
    if (found.length === 0) return null;
    const accounts = new Set(found.map((r) => r.account.trim()));
    if (accounts.size > 1) return { code: "twoAccounts", kind, key, rows: found.map((r) => r.row) };
    return { account: [...accounts][0] as string };
  };
  const costCentreRows = [...byKey.values()].flat().filter((r) => r.kind === "costCentre");
  const noPolicy = (report: ExpenseReport): BlockReason => ({
    code: "noPolicyAccount",
    policyId: report.policyId,
    policyName: report.policyName,
  });
  const noCredit = (report: ExpenseReport): BlockReason =>
    report.fundId > 0
      ? { code: "noFundAccount", fundId: report.fundId, fundName: report.fundName }
      : { code: "noEmployeeAccount", employeeIdentification: report.employeeIdentification };
  return {
    lacking(report) {
      // A report that is never booked (nothing approved, no currency) needs no account.
      if (report.reportTotalApprovedCents <= 0 || !/^[A-Z]{3}$/.test(report.currency)) return [];
      const credit = report.fundId > 0 ? find("fund", String(report.fundId)) : find("employee", "");
      return [
        ...(find("policy", String(report.policyId)) === null ? [noPolicy(report)] : []),
        ...(credit === null ? [noCredit(report)] : []),
      ];
    },
    lookup(report) {
      if (report.reportTotalApprovedCents <= 0) {
        return { ok: false, reason: { code: "nothingApproved", cents: report.reportTotalApprovedCents } };
      }
      if (!/^[A-Z]{3}$/.test(report.currency)) return { ok: false, reason: { code: "noCurrency" } };
      const debit = find("policy", String(report.policyId));
      if (debit === null) return { ok: false, reason: noPolicy(report) };
      if ("code" in debit) return { ok: false, reason: debit };
      const creditTo = report.fundId > 0 ? "fund" : "employee";
      const credit = creditTo === "fund" ? find("fund", String(report.fundId)) : find("employee", "");
      if (credit === null) return { ok: false, reason: noCredit(report) };
      if ("code" in credit) return { ok: false, reason: credit };
      let costCentre = "";
      if (costCentreRows.length > 0) {
        const codes = new Set(costCentreRows.map((r) => r.key.trim()));
        if (codes.size > 1) {
          const reason: BlockReason = {
            code: "twoAccounts",
            kind: "costCentre",
            key: [...codes].join(", "),
            rows: costCentreRows.map((r) => r.row),
          };
          return { ok: false, reason };
        }
        const fieldCode = [...codes][0] as string;
        const field = report.extraFields.find((f) => f.code === fieldCode);
        if (!field || field.value.trim() === "")
          return { ok: false, reason: { code: "noCostCentre", fieldCode } };
        costCentre = field.value.trim();
      }
      return { ok: true, accounts: { debit: debit.account, credit: credit.account, creditTo, costCentre } };
    },
  };
}
